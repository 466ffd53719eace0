package rag

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/ranklab/ranklab/compare"
	"github.com/ranklab/ranklab/eval"
)

// The small collection of these tests: d1 has two overlapping chunks, d2 two, d3 one.
var testMap = ChunkMap{
	"d1#0": {"d1", 0, 10}, "d1#1": {"d1", 8, 18},
	"d2#0": {"d2", 0, 10}, "d2#1": {"d2", 8, 15},
	"d3#0": {"d3", 0, 5},
}

// testRun ranks, for q1: d1#1 (5), d2#0 (4), d1#0 (3), d2#1 (2); for q2 only d1#1, whose
// document's first chunk d1#0 is missing.
var testRun = eval.Run{Tag: "chunks", Queries: map[string][]eval.ScoredDoc{
	"q1": {{Doc: "d2#1", Score: 2}, {Doc: "d1#0", Score: 3}, {Doc: "d1#1", Score: 5}, {Doc: "d2#0", Score: 4}}, // file order is not rank order
	"q2": {{Doc: "d1#1", Score: 1}},
}}

func docs(r eval.Run, q string) []eval.ScoredDoc { return r.Queries[q] }

func TestAggregationScore(t *testing.T) {
	tests := []struct {
		agg    Aggregation
		scores []float64
		first  bool
		want   float64
		ok     bool
	}{
		{MaxP, []float64{3, 5}, true, 5, true},
		{MaxP, []float64{3, 5}, false, 5, true},
		{FirstP, []float64{3, 5}, true, 3, true},
		{FirstP, []float64{5}, false, 5, false},
		{SumP, []float64{3, 5, 0.5}, false, 3 + 5 + 0.5, true},
		{SumP, nil, true, 0, false},
	}
	for _, tc := range tests {
		got, ok := tc.agg.Score(tc.scores, tc.first)
		if got != tc.want || ok != tc.ok {
			t.Errorf("%v.Score(%v, %v) = %v, %v; want %v, %v", tc.agg, tc.scores, tc.first, got, ok, tc.want, tc.ok)
		}
	}
}

func TestDocRun(t *testing.T) {
	tests := []struct {
		agg    Aggregation
		q1, q2 []eval.ScoredDoc
	}{
		{MaxP, []eval.ScoredDoc{{Doc: "d1", Score: 5}, {Doc: "d2", Score: 4}}, []eval.ScoredDoc{{Doc: "d1", Score: 1}}},
		// d1's first chunk d1#0 scored 3, d2's first chunk d2#0 scored 4; q2 lacks d1#0.
		{FirstP, []eval.ScoredDoc{{Doc: "d2", Score: 4}, {Doc: "d1", Score: 3}}, []eval.ScoredDoc{}},
		// added in chunk order: d1 = 3 + 5 (d1#0, d1#1), d2 = 4 + 2.
		{SumP, []eval.ScoredDoc{{Doc: "d1", Score: 3 + 5}, {Doc: "d2", Score: 4 + 2}}, []eval.ScoredDoc{{Doc: "d1", Score: 1}}},
	}
	for _, tc := range tests {
		t.Run(tc.agg.String(), func(t *testing.T) {
			r, err := DocRun(testRun, testMap, tc.agg)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(docs(r, "q1"), tc.q1) || !slices.Equal(docs(r, "q2"), tc.q2) || r.Tag != "chunks" {
				t.Errorf("DocRun = %v, want q1 %v, q2 %v", r, tc.q1, tc.q2)
			}
			if _, ok := r.Queries["q2"]; !ok {
				t.Error("q2 lost its place in the run")
			}
		})
	}
}

func TestDedup(t *testing.T) {
	tests := []struct {
		k    int
		want []eval.ScoredDoc
	}{
		{1, []eval.ScoredDoc{{Doc: "d1", Score: 1}}},
		{2, []eval.ScoredDoc{{Doc: "d1", Score: 2}, {Doc: "d2", Score: 1}}},
		{3, []eval.ScoredDoc{{Doc: "d1", Score: 2}, {Doc: "d2", Score: 1}}}, // d1#0 adds nothing: d1 counts once
		{0, []eval.ScoredDoc{{Doc: "d1", Score: 2}, {Doc: "d2", Score: 1}}},
	}
	for _, tc := range tests {
		r, err := Dedup(testRun, testMap, tc.k)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(docs(r, "q1"), tc.want) {
			t.Errorf("Dedup(k=%d) q1 = %v, want %v", tc.k, docs(r, "q1"), tc.want)
		}
	}
	// Positional scores keep the chunk order even where doc IDs would break a tie otherwise:
	// chunks tied at score 1 rank z#0 before a#0 (chunk ID descending), so z comes first.
	m := ChunkMap{"z#0": {"a", 0, 1}, "a#0": {"z", 0, 1}}
	r, _ := Dedup(eval.Run{Queries: map[string][]eval.ScoredDoc{"q": {{Doc: "a#0", Score: 1}, {Doc: "z#0", Score: 1}}}}, m, 0)
	if got := eval.Rank(r.Queries["q"]); got[0].Doc != "a" {
		t.Errorf("Dedup order = %v, want document a (chunk z#0) first", got)
	}
}

func TestDocRunErrors(t *testing.T) {
	bad := eval.Run{Queries: map[string][]eval.ScoredDoc{"q9": {{Doc: "nope", Score: 1}}}}
	for name, fn := range map[string]func() error{
		"DocRun":     func() error { _, err := DocRun(bad, testMap, MaxP); return err },
		"Dedup":      func() error { _, err := Dedup(bad, testMap, 5); return err },
		"ContextRun": func() error { _, err := contextRun(bad, testMap, 5); return err },
	} {
		if err := fn(); err == nil || !strings.Contains(err.Error(), `query "q9": chunk "nope" is not in the chunk map`) {
			t.Errorf("%s: err = %v", name, err)
		}
	}
	twice := eval.Run{Queries: map[string][]eval.ScoredDoc{"q": {{Doc: "d1#0", Score: 1}, {Doc: "d1#0", Score: 2}}}}
	if _, err := DocRun(twice, testMap, MaxP); err == nil || !strings.Contains(err.Error(), "listed twice") {
		t.Errorf("chunk twice: err = %v", err)
	}
	if _, err := DocRun(testRun, testMap, Aggregation(7)); err == nil {
		t.Error("invalid aggregation: want an error")
	}
}

// TestVariantsSideBySide evaluates the four views on document qrels where only d2 is relevant.
func TestVariantsSideBySide(t *testing.T) {
	qrels := eval.Qrels{"q1": {"d2": 1}, "q2": {"d1": 1}}
	vs, err := Variants(testRun, testMap, 1)
	if err != nil {
		t.Fatal(err)
	}
	names := []string{"top-1 chunks, dedup", "MaxP", "FirstP", "SumP"}
	for i, v := range vs {
		if v.Tag != names[i] {
			t.Errorf("variant %d is %q, want %q", i, v.Tag, names[i])
		}
	}
	r, err := compare.Options{Permutations: 100, Resamples: 100, Eval: eval.Options{AllQueries: true}}.Runs(qrels, []eval.Measure{eval.NDCG(10)}, vs...)
	if err != nil {
		t.Fatal(err)
	}
	// q1: top-1 chunk d1#1 holds d1 only: 0. MaxP d2 at rank 2: 1/log2(3). FirstP d2 at rank 1: 1.
	// SumP d2 (6) below d1 (8): 1/log2(3). q2 (d1 relevant): 1 for all but FirstP (empty): 0.
	want := []float64{(0 + 1) / 2.0, (1/math.Log2(3) + 1) / 2, (1 + 0) / 2.0, (1/math.Log2(3) + 1) / 2}
	for i, s := range r.Runs {
		if e, err := r.Mean(s.Name, eval.NDCG(10)); err != nil || math.Abs(e.Mean-want[i]) > 1e-15 {
			t.Errorf("%s nDCG@10 = %v, want %v (%v)", s.Name, e.Mean, want[i], err)
		}
	}
	if _, err := Variants(testRun, testMap, 0); err == nil {
		t.Error("k = 0: want an error")
	}
}
