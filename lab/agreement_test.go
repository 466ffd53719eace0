package lab

import (
	"fmt"
	"github.com/ranklab/ranklab/eval"
	"math/rand/v2"
	"testing"
)

// asRun writes the outcome's ranking as a TREC run (scores assigned in rank order, written in
// reversed file order) and its judgments as qrels, plus extra judged placeholders of grade
// MinGrade (for a raised recall denominator).
func asRun(o Outcome, placeholders int) (eval.Qrels, eval.Run) {
	judged := map[string]int{}
	for _, it := range o.Items {
		judged[it.Doc] = it.Grade
	}
	for _, c := range o.Missed {
		judged[c.Doc] = c.Grade
	}
	for i := range placeholders {
		judged[fmt.Sprintf("placeholder-%d", i)] = o.State.MinGrade
	}
	n := len(o.Items)
	docs := make([]eval.ScoredDoc, n)
	for i, it := range o.Items {
		docs[n-1-i] = eval.ScoredDoc{Doc: it.Doc, Score: float64(n - i)}
	}
	return eval.Qrels{"q1": judged}, eval.Run{Tag: "lab", Queries: map[string][]eval.ScoredDoc{"q1": docs}}
}

// The lab's metrics are the evaluator's: the same ranking evaluated by Evaluate as a run gives
// the same P@k, R@k, RR@k (at the grade threshold) and nDCG@k with exponential gain.
func TestLabAgreesWithEvaluate(t *testing.T) {
	states := cappedStates(rand.New(rand.NewPCG(5, 6)), 300, 80)
	for i := range states {
		states[i].Total = 0 // recall over the qrels' count, as Evaluate computes it
	}
	raised := DefaultState()
	raised.MinGrade, raised.Total = 2, 8 // 3 items with grade >= 2 are judged; 5 placeholders of grade 2
	states = append(states, raised)
	for _, s := range states {
		o, err := s.Outcome()
		if err != nil {
			t.Fatalf("%+v: %v", s, err)
		}
		_, known := relevantCounts(Synthetic{Candidates: candidatesOf(o.Items), Missed: o.Missed}, s.MinGrade)
		extra := max(0, s.Total-known)
		k, g := s.K, s.MinGrade
		ms := []eval.Measure{eval.P(k).WithRel(g), eval.Recall(k).WithRel(g), eval.RRAt(k).WithRel(g), eval.NDCGExp(k)}

		// Placeholders raise recall's denominator; nDCG is compared on the real judgments only.
		qrels, run := asRun(o, extra)
		res, err := eval.Evaluate(qrels, run, ms...)
		if err != nil {
			t.Fatal(err)
		}
		qrels0, run0 := asRun(o, 0)
		res0, err := eval.Evaluate(qrels0, run0, ms...)
		if err != nil {
			t.Fatal(err)
		}
		got := []float64{o.Metrics.Precision, o.Metrics.Recall, o.Metrics.MRR, o.Metrics.NDCG}
		want := []float64{res.Values[0][0], res.Values[0][1], res.Values[0][2], res0.Values[0][3]}
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("%s: lab %s = %v, Evaluate %v", s.Link(), ms[i], got[i], want[i])
			}
		}
		if s == raised && res.Values[0][3] == res0.Values[0][3] {
			t.Fatalf("%s: placeholders did not change nDCG's ideal; the test would not tell a raised denominator adding grades", s.Link())
		}
	}
}

// candidatesOf recovers the first-stage list from the items.
func candidatesOf(items []Item) []Candidate {
	out := make([]Candidate, len(items))
	for _, it := range items {
		out[it.FirstRank-1] = Candidate{Doc: it.Doc, Label: it.Label, Grade: it.Grade, FirstScore: it.FirstScore, RerankScore: it.RerankScore}
	}
	return out
}
