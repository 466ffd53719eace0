package lab

import (
	"math/rand/v2"
	"testing"
)

// Every sweep point is the outcome of the state with that k (or rerank depth).
func TestSweepsMatchOutcomes(t *testing.T) {
	for _, s := range cappedStates(rand.New(rand.NewPCG(7, 8)), 30, 40) {
		whole, err := s.Outcome()
		if err != nil {
			t.Fatal(err)
		}
		byK, byDepth := whole.SweepK, whole.SweepRerank
		if len(byK) != s.Size || len(byDepth) != s.Size+1 {
			t.Fatalf("%s: %d k points, %d depth points", s.Link(), len(byK), len(byDepth))
		}
		for i, m := range byK {
			sk := s
			sk.K = i + 1
			o, err := sk.Outcome()
			if err != nil {
				t.Fatal(err)
			}
			if m != o.Metrics {
				t.Fatalf("%s: SweepK[%d] = %+v, outcome at k=%d %+v", s.Link(), i, m, i+1, o.Metrics)
			}
		}
		for d, m := range byDepth {
			sd := s
			sd.Rerank = d
			o, err := sd.Outcome()
			if err != nil {
				t.Fatal(err)
			}
			if m != o.Metrics {
				t.Fatalf("%s: SweepRerank[%d] = %+v, outcome at depth %d %+v", s.Link(), d, m, d, o.Metrics)
			}
		}
	}
}

func TestSweepsHandBuilt(t *testing.T) {
	// first stage a b c d (grades 0 1 0 3); the reranker prefers d, then b.
	syn := Synthetic{Candidates: cands([]int{0, 1, 0, 3}, []float64{0.1, 0.5, 0.2, 0.9})}
	s := handState(1, 4, 1, 0)
	o, err := s.OutcomeFor(syn)
	if err != nil {
		t.Fatal(err)
	}
	byK, byDepth := o.SweepK, o.SweepRerank
	// order d b c a: P@k = 1/1, 2/2, 2/3, 2/4
	for i, want := range []float64{1.0 / 1, 2.0 / 2, 2.0 / 3, 2.0 / 4} {
		if byK[i].Precision != want || byK[i].K != i+1 {
			t.Errorf("k=%d: %+v, want precision %v", i+1, byK[i], want)
		}
	}
	// P@1 for depth 0..4: a, then b (depth 2), b, d (depth 4 lifts d)
	for d, want := range []float64{0, 0, 1, 1, 1} {
		if byDepth[d].Precision != want || byDepth[d].Rerank != d {
			t.Errorf("depth %d: %+v, want precision %v", d, byDepth[d], want)
		}
	}
	if byDepth[3].NDCG >= byDepth[4].NDCG {
		t.Errorf("lifting the grade-3 d to rank 1 did not raise nDCG@1: %v -> %v", byDepth[3].NDCG, byDepth[4].NDCG)
	}
	if _, err := handState(1, 5, 1, 0).OutcomeFor(syn); err == nil {
		t.Error("rerank depth beyond the list accepted")
	}
}

func BenchmarkOutcomeDefault(b *testing.B) {
	s := DefaultState()
	for b.Loop() {
		if _, err := s.Outcome(); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkOutcome1000(b *testing.B) {
	s := DefaultState()
	s.Size, s.K, s.Rerank = maxSize, 10, 100
	for b.Loop() {
		if _, err := s.Outcome(); err != nil {
			b.Fatal(err)
		}
	}
}
