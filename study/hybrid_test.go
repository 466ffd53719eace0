package study

import (
	"math"
	"slices"
	"testing"

	"github.com/ranklab/ranklab/eval"
	"github.com/ranklab/ranklab/fusion"
)

func TestRunHybrid(t *testing.T) {
	// Every query has a relevant document r and a non-relevant n. The lexical run ranks n first
	// (scores 2, 1), the dense run r first (0.9, 0.1). After min-max normalisation CombSUM gives
	// r the score w and n 1 − w: r is first from w = 0.5 on (at 0.5 the tie goes to the larger
	// ID, "r"), so the tuning half picks w = 0.5 and nDCG@10 is 1 there, against 1/log2(3) for
	// the lexical run (r second).
	qrels := eval.Qrels{}
	lexical := eval.Run{Queries: map[string][]eval.ScoredDoc{}}
	dense := eval.Run{Queries: map[string][]eval.ScoredDoc{}}
	for _, q := range []string{"q1", "q2", "q3", "q4"} {
		qrels[q] = map[string]int{"r": 1, "n": 0}
		lexical.Queries[q] = []eval.ScoredDoc{{Doc: "n", Score: 2}, {Doc: "r", Score: 1}}
		dense.Queries[q] = []eval.ScoredDoc{{Doc: "r", Score: 0.9}, {Doc: "n", Score: 0.1}}
	}
	st, err := RunHybrid(qrels, lexical, dense, eval.NDCG(10), 0)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(st.TuneQueries, []string{"q1", "q3"}) || !slices.Equal(st.TestQueries, []string{"q2", "q4"}) {
		t.Errorf("halves %v / %v, want q1 q3 / q2 q4", st.TuneQueries, st.TestQueries)
	}
	second := 1 / math.Log2(3)
	if math.Abs(st.LexicalTest-second) > 1e-12 || st.DenseTest != 1 {
		t.Errorf("inputs on the test half: lexical %v (want 1/log2(3)), dense %v (want 1)", st.LexicalTest, st.DenseTest)
	}
	if len(st.Rows) != len(hybridMethods) {
		t.Fatalf("%d rows, want %d", len(st.Rows), len(hybridMethods))
	}
	for _, r := range st.Rows {
		if r.Method == fusion.CombSUM && r.Norm == fusion.MinMax {
			if r.Weight != 0.5 || r.Test != 1 || math.Abs(r.VsLexical.Diff-(1-second)) > 1e-12 || r.VsDense.Diff != 0 {
				t.Errorf("combsum-minmax: %+v; want w 0.5, test 1, Δ lexical 1 − 1/log2(3), Δ dense 0", r)
			}
		}
		if r.VsLexical.PTHolm < r.VsLexical.PT || r.VsDense.PPermHolm < r.VsDense.PPerm {
			t.Errorf("%v: a Holm-adjusted p below the raw one: %+v", r.Hybrid, r)
		}
	}
}
