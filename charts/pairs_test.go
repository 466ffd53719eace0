package charts

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/ranklab/ranklab/compare"
	"github.com/ranklab/ranklab/eval"
)

// A run name with markup must come out escaped in both tables.
func TestPairsTablesEscapes(t *testing.T) {
	r, err := compare.AllPairsScores(eval.NDCG(10), []string{"<b>bm25</b>", "dense & co", "x"}, []string{"q1", "q2", "q3", "q4"},
		[][]float64{{0.1, 0.4, 0.5, 0.9}, {0.3, 0.5, 0.6, 1.0}, {0.2, 0.2, 0.7, 0.8}}, compare.AllPairsOptions{Permutations: 100})
	if err != nil {
		t.Fatal(err)
	}
	html := PairsTables(r)
	if strings.Contains(html, "<b>bm25") || !strings.Contains(html, "&lt;b&gt;bm25&lt;/b&gt;") || !strings.Contains(html, "dense &amp; co") {
		t.Errorf("names not escaped:\n%s", html)
	}
	if strings.Count(html, "<table") != 2 || strings.Contains(html, "<script") {
		t.Errorf("want two plain tables:\n%s", html)
	}
}

// PairsIntervals: each run's bar is its mean ± q_crit·√(MSE/n)/2, written into the chart's data.
func TestPairsIntervals(t *testing.T) {
	r, err := compare.AllPairsScores(eval.NDCG(10), []string{"a", "b", "c"}, []string{"q1", "q2", "q3", "q4"},
		[][]float64{{0.1, 0.4, 0.5, 0.9}, {0.3, 0.5, 0.6, 1.0}, {0.2, 0.2, 0.7, 0.8}}, compare.AllPairsOptions{Permutations: 100})
	if err != nil {
		t.Fatal(err)
	}
	half := r.HSD.Critical * math.Sqrt(r.HSD.MSE/4) / 2
	html := PairsIntervals(r)
	// run b's mean is (0.3 + 0.5 + 0.6 + 1.0)/4 = 0.6
	for _, want := range []string{fmt.Sprint(0.6 - half), fmt.Sprint(0.6 + half), "Tukey's comparison intervals"} {
		if !strings.Contains(html, want) {
			t.Errorf("chart lacks %s:\n%.600s", want, html)
		}
	}
}
