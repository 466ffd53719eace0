package compare

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/ranklab/ranklab/eval"
	"github.com/ranklab/ranklab/internal/sharedtest"
	"github.com/ranklab/ranklab/stats"
)

// Three runs on three queries, each judging one document relevant, on RR: the per-query values
// are read off the rankings (1, 1/2, 1/3), so the scores the tests receive are arithmetic.
func TestAllPairsByHand(t *testing.T) {
	qrels := eval.Qrels{"q1": {"d1": 1}, "q2": {"d2": 1}, "q3": {"d3": 1}}
	run := func(tag string, order map[string][]string) eval.Run {
		r := eval.Run{Tag: tag, Queries: map[string][]eval.ScoredDoc{}}
		for q, docs := range order {
			for i, d := range docs {
				r.Queries[q] = append(r.Queries[q], eval.ScoredDoc{Doc: d, Score: float64(10 - i)})
			}
		}
		return r
	}
	a := run("a", map[string][]string{"q1": {"d1", "x"}, "q2": {"d2", "x"}, "q3": {"d3", "x"}})      // 1, 1, 1
	b := run("b", map[string][]string{"q1": {"x", "d1"}, "q2": {"d2", "x"}, "q3": {"x", "y", "d3"}}) // 1/2, 1, 1/3
	c := run("c", map[string][]string{"q1": {"x", "d1"}, "q2": {"x", "d2"}})                         // 1/2, 1/2, 0 (q3 missing)
	r, err := AllPairs(qrels, eval.RR(), AllPairsOptions{Permutations: 2000}, named("A", a), named("B", b), c)
	if err != nil {
		t.Fatal(err)
	}
	want := [][]float64{{1, 1, 1}, {0.5, 1, 1.0 / 3}, {0.5, 0.5, 0}}
	for j := range want {
		for i := range want[j] {
			if math.Abs(r.Scores[j][i]-want[j][i]) > 1e-12 {
				t.Errorf("run %d query %d: %v, want %v", j, i, r.Scores[j][i], want[j][i])
			}
		}
	}
	if strings.Join(r.Names, ",") != "A,B,c" || strings.Join(r.Queries, ",") != "q1,q2,q3" {
		t.Errorf("names %v queries %v", r.Names, r.Queries)
	}
	if len(r.Notes) != 1 || !strings.Contains(r.Notes[0], `"c" has no ranking for 1 of the 3`) {
		t.Errorf("notes %q, want one naming run c's missing query", r.Notes)
	}
	hsd, _ := r.Pair("A", "c")
	if math.Abs(hsd.Diff-(1-1.0/3)) > 1e-12 {
		t.Errorf("A − c = %v, want 1 − 1/3", hsd.Diff)
	}
	direct, _ := stats.TukeyHSD(want, 0.95)
	if hsd.P != direct.Pair(0, 2).P {
		t.Errorf("A vs c: p %v, stats.TukeyHSD on the hand values %v", hsd.P, direct.Pair(0, 2).P)
	}
	back, _ := r.Pair("c", "A")
	if back.Diff != -hsd.Diff {
		t.Errorf("Pair(c, A) is not the mirror of Pair(A, c)")
	}
	// Pairs: the three pairs named, each with both tests of that pair; Column: a run's scores.
	var names []string
	for _, p := range r.Pairs() {
		names = append(names, p.A+"−"+p.B)
		h, rnd := r.Pair(p.A, p.B)
		if fmt.Sprint(p.HSD, p.Randomized) != fmt.Sprint(h, rnd) { // NaN bounds of the randomised test
			t.Errorf("Pairs: %s − %s holds %+v %+v, Pair gives %+v %+v", p.A, p.B, p.HSD, p.Randomized, h, rnd)
		}
	}
	if strings.Join(names, " ") != "A−B A−c B−c" {
		t.Errorf("Pairs: %v, want A−B A−c B−c", names)
	}
	if p := r.Pairs()[2]; math.Abs(p.HSD.Diff-((1+0.5+1.0/3)/3-(0.5+0.5+0)/3)) > 1e-12 {
		t.Errorf("B − c = %v, want (1/2 + 1 + 1/3)/3 − (1/2 + 1/2 + 0)/3", p.HSD.Diff)
	}
	col, err := r.Column("c")
	if err != nil || len(col) != 3 || col[0] != 0.5 || col[1] != 0.5 || col[2] != 0 {
		t.Errorf("Column(c) = %v, %v, want [0.5 0.5 0]", col, err)
	}
	col[0] = -1
	if r.Scores[2][0] == -1 {
		t.Error("Column returned the report's own slice")
	}
	if _, err := r.Column("C"); err == nil || !strings.Contains(err.Error(), `no run "C" in the report (runs: "A", "B", "c")`) {
		t.Errorf("Column(C): %v", err)
	}
	text := r.Text()
	for _, s := range []string{"RR over 3 queries, 3 runs, 3 pairs", "A − c", "note: run \"c\""} {
		if !strings.Contains(text, s) {
			t.Errorf("Text() lacks %q:\n%s", s, text)
		}
	}
	h, rows := r.Matrix()
	if len(h) != 4 || len(rows) != 3 || rows[0][1] != "·" {
		t.Errorf("Matrix: %v %v", h, rows)
	}
}

func TestAllPairsErrors(t *testing.T) {
	q := eval.Qrels{"q1": {"d1": 1}}
	r := eval.Run{Tag: "r", Queries: map[string][]eval.ScoredDoc{"q1": {{Doc: "d1", Score: 1}}}}
	for _, c := range []struct {
		name string
		err  func() error
		want string
	}{
		{"one run", func() error { _, err := AllPairs(q, eval.RR(), AllPairsOptions{}, named("a", r)); return err }, "at least 2 runs"},
		{"same name", func() error {
			_, err := AllPairsScores(eval.RR(), []string{"a", "a"}, []string{"q1", "q2"}, [][]float64{{1, 0}, {0, 1}}, AllPairsOptions{})
			return err
		}, "two runs are named"},
		{"short", func() error {
			_, err := AllPairsScores(eval.RR(), []string{"a", "b"}, []string{"q1", "q2"}, [][]float64{{1, 0}, {0}}, AllPairsOptions{})
			return err
		}, "1 scores for 2 queries"},
	} {
		if err := c.err(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error saying %q", c.name, err, c.want)
		}
	}
}

// tukeyRuns are m runs over n queries with distinct scores (no ties, so every tool ranks them
// alike): 20 candidates a query, graded 0–2, run j's score mixing the grade with noise so that
// later runs are better.
func tukeyRuns(m, n int, seed uint64) (eval.Qrels, []eval.Run) {
	rng := rand.New(rand.NewPCG(seed, 1))
	qrels := eval.Qrels{}
	runs := make([]eval.Run, m)
	for j := range runs {
		runs[j] = eval.Run{Tag: fmt.Sprintf("sys%d", j), Queries: map[string][]eval.ScoredDoc{}}
	}
	for i := range n {
		q := fmt.Sprintf("q%02d", i)
		qrels[q] = map[string]int{}
		for d := range 20 {
			doc := fmt.Sprintf("d%02d", d)
			g := 0
			if u := rng.Float64(); u < 0.15 {
				g = 2
			} else if u < 0.35 {
				g = 1
			}
			qrels[q][doc] = g
			for j := range runs {
				w := 0.1 + 0.15*float64(j)
				s := w*float64(g) + rng.Float64() + float64(d)*1e-9
				runs[j].Queries[q] = append(runs[j].Queries[q], eval.ScoredDoc{Doc: doc, Score: s})
			}
		}
	}
	return qrels, runs
}

// TestAllPairsRanx compares the one-way HSD (OneWay) with ranx 0.3.21's compare(...,
// stat_test="tukey") on the same qrels and runs: ranx evaluates nDCG@10 itself and calls SciPy's
// tukey_hsd, so the means and every pair's p-value must agree. It skips without the peers'
// environment and fails instead with RANKLAB_PEERS=1.
func TestAllPairsRanx(t *testing.T) {
	py := sharedtest.PeersPython(t, "the Tukey comparison with ranx")
	qrels, runs := tukeyRuns(4, 40, 9)
	r, err := AllPairs(qrels, eval.NDCG(10), AllPairsOptions{OneWay: true, Permutations: 200}, runs...)
	if err != nil {
		t.Fatal(err)
	}
	in := map[string]any{"qrels": qrels, "metric": "ndcg@10"}
	jr := map[string]map[string]map[string]float64{}
	for _, nr := range runs {
		jr[nr.Tag] = map[string]map[string]float64{}
		for q, docs := range nr.Queries {
			jr[nr.Tag][q] = map[string]float64{}
			for _, d := range docs {
				jr[nr.Tag][q][d.Doc] = d.Score
			}
		}
	}
	in["runs"] = jr
	var out struct {
		Means map[string]float64 `json:"means"`
		P     map[string]float64 `json:"p"`
	}
	sharedtest.RunPython(t, py, "testdata/ranx_tukey.py", in, &out)
	for j, n := range r.Names {
		if math.Abs(r.Means[j]-out.Means[n]) > 1e-9 {
			t.Errorf("%s: mean nDCG@10 %.12f, ranx %.12f", n, r.Means[j], out.Means[n])
		}
	}
	significant := 0
	for _, a := range r.Names {
		for _, b := range r.Names {
			if a == b {
				continue
			}
			h, _ := r.Pair(a, b)
			want := out.P[a+"|"+b]
			if math.Abs(h.P-want) > 1e-6*math.Max(want, 1e-7) {
				t.Errorf("%s vs %s: p %.12g, ranx %.12g", a, b, h.P, want)
			}
			if h.P <= 0.05 {
				significant++
			}
		}
	}
	t.Logf("%d of %d ordered pairs significant at 0.05", significant, len(r.Names)*(len(r.Names)-1))
}

// named returns r with its tag set to name.
func named(name string, r eval.Run) eval.Run {
	r.Tag = name
	return r
}

// A name that is not a run of the report panics with a message naming it and the runs.
func TestPairUnknownRun(t *testing.T) {
	r := PairsReport{Names: []string{"bm25", "qld"}}
	defer func() {
		msg := fmt.Sprint(recover())
		if !strings.Contains(msg, `"bm52"`) || !strings.Contains(msg, "bm25") || !strings.Contains(msg, "qld") {
			t.Errorf("Pair(bm52, qld) panicked with %q, want the unknown name and the runs", msg)
		}
	}()
	r.Pair("bm52", "qld")
	t.Error("Pair with an unknown run returned")
}
