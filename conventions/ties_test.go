package conventions

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/ranklab/ranklab/eval"
)

// permutations calls f with every permutation of xs (Heap's algorithm); xs is restored.
func permutations(xs []int, f func([]int)) {
	var gen func(k int)
	gen = func(k int) {
		if k <= 1 {
			f(xs)
			return
		}
		for i := 0; i < k; i++ {
			gen(k - 1)
			if k%2 == 0 {
				xs[i], xs[k-1] = xs[k-1], xs[i]
			} else {
				xs[0], xs[k-1] = xs[k-1], xs[0]
			}
		}
	}
	gen(len(xs))
}

// bruteBand enumerates every order within every tie group and evaluates each whole ranking
// with eval's own Compute: the minimum, the maximum and the plain mean over the orders.
func bruteBand(docs []eval.ScoredDoc, judged map[string]int, m eval.Measure, depth int) (lo, hi, mean float64) {
	ranked := eval.Rank(docs)
	var groups [][]int
	for i := 0; i < len(ranked); {
		j := i
		var g []int
		for j < len(ranked) && ranked[j].Score == ranked[i].Score {
			grade, ok := judged[ranked[j].Doc]
			if !ok {
				grade = eval.Unjudged
			}
			g = append(g, grade)
			j++
		}
		groups = append(groups, g)
		i = j
	}
	all := []int{}
	for _, g := range judged {
		all = append(all, g)
	}
	lo, hi = math.Inf(1), math.Inf(-1)
	sum, n := 0.0, 0
	var rec func(i int, prefix []int)
	rec = func(i int, prefix []int) {
		if i == len(groups) {
			gs := prefix
			if depth > 0 && len(gs) > depth {
				gs = gs[:depth]
			}
			v := m.Compute(gs, all)
			lo, hi, sum, n = math.Min(lo, v), math.Max(hi, v), sum+v, n+1
			return
		}
		permutations(slices.Clone(groups[i]), func(p []int) { rec(i+1, append(slices.Clone(prefix), p...)) })
	}
	rec(0, nil)
	return lo, hi, sum / float64(n)
}

// TestBandAgainstEnumeration checks best, worst and the exact expectation against every order
// of the tied docs, evaluated one by one, on random rankings with many ties.
func TestBandAgainstEnumeration(t *testing.T) {
	measures := []eval.Measure{eval.P(3), eval.P(3).WithRel(2), eval.Recall(3), eval.RR(), eval.RRAt(2), eval.AP(), eval.APAt(3),
		eval.NDCG(3), eval.NDCG(0), eval.NDCGExp(3), eval.Rprec(), eval.Bpref(), eval.Bpref().WithRel(2), eval.Success(2),
		eval.Judged(3), eval.Measure{Name: "NumRelRet"}, eval.Measure{Name: "NumRet"}, eval.Measure{Name: "NumRel"}}
	r := rand.New(rand.NewPCG(3, 4))
	for trial := 0; trial < 400; trial++ {
		n := 1 + r.IntN(8)
		var docs []eval.ScoredDoc
		judged := map[string]int{}
		for i := 0; i < n; i++ {
			d := fmt.Sprintf("d%d", i)
			docs = append(docs, eval.ScoredDoc{Doc: d, Score: float64(r.IntN(3))})
			if g := r.IntN(6) - 1; g < 4 { // -1..3 judged, 4 unjudged
				judged[d] = g
			}
		}
		for i := 0; i < r.IntN(3); i++ {
			judged[fmt.Sprintf("u%d", i)] = 1 + r.IntN(2) // relevant, never retrieved
		}
		depth := 0
		if r.IntN(3) == 0 {
			depth = 1 + r.IntN(n)
		}
		for _, m := range measures {
			lo, hi, mean := bruteBand(docs, judged, m, depth)
			b := queryBand(docs, judged, m, depth)
			if math.Abs(b.Worst-lo) > 1e-12 || math.Abs(b.Best-hi) > 1e-12 || math.Abs(b.Expected-mean) > 1e-9 {
				t.Fatalf("%s, depth %d, docs %v, judged %v: band %+v, enumeration worst %v best %v mean %v", m, depth, docs, judged, b, lo, hi, mean)
			}
			trecGrades := eval.Qrels{"q": judged}.Grades("q", eval.Rank(docs))
			if depth > 0 && len(trecGrades) > depth {
				trecGrades = trecGrades[:depth]
			}
			if want := m.Compute(trecGrades, eval.Qrels{"q": judged}.Judged("q")); b.Trec != want {
				t.Fatalf("%s: trec %v, want %v", m, b.Trec, want)
			}
		}
	}
}

// TestBandArithmetic: four docs tie at the top and one of them is relevant; each rank is as
// likely for it: E[RR] = (1 + 1/2 + 1/3 + 1/4)/4, E[P@2] = 2·(1/4)/2, E[nDCG@2] =
// (1/4)(1 + 1/log2 3) / 1.
func TestBandArithmetic(t *testing.T) {
	docs := []eval.ScoredDoc{{Doc: "a", Score: 1}, {Doc: "b", Score: 1}, {Doc: "c", Score: 1}, {Doc: "d", Score: 1}, {Doc: "e", Score: 0.5}}
	judged := map[string]int{"c": 1, "e": 0}
	for _, tc := range []struct {
		m                       eval.Measure
		trec, best, worst, want float64
	}{
		{eval.RR(), 1.0 / 2, 1, 1.0 / 4, (1 + 1.0/2 + 1.0/3 + 1.0/4) / 4}, // trec: d, c, b, a
		{eval.P(2), 1.0 / 2, 1.0 / 2, 0, 2 * (1.0 / 4) / 2},
		{eval.NDCG(2), 1 / math.Log2(3), 1, 0, (1 + 1/math.Log2(3)) / 4},
		{eval.Success(1), 0, 1, 0, 1.0 / 4},
	} {
		b := RankingBand(docs, judged, tc.m)
		if !close(b.Trec, tc.trec) || !close(b.Best, tc.best) || !close(b.Worst, tc.worst) || math.Abs(b.Expected-tc.want) > 1e-12 {
			t.Errorf("%s: %+v, want trec %v best %v worst %v expected %v", tc.m, b, tc.trec, tc.best, tc.worst, tc.want)
		}
	}
}

func TestTiesReport(t *testing.T) {
	qrels := mustQrels(t, "q1 0 a 1\nq2 0 x 1\nq3 0 z 1\n")
	run := mustRun(t, "q1 Q0 a 1 1 t\nq1 Q0 b 2 1 t\nq2 Q0 x 1 2 t\nq2 Q0 y 2 1 t\n")
	r, err := Ties(qrels, run, eval.Options{AllQueries: true}, eval.RR())
	if err != nil {
		t.Fatal(err)
	}
	// q1: b (tie, doc ID descending) before a: trec 1/2, best 1, worst 1/2, expected 3/4;
	// q2 has no tie: 1; q3 has no ranking: 0.
	want := Band{(0.5 + 1 + 0) / 3, (1.0 + 1 + 0) / 3, (0.5 + 1 + 0) / 3, (0.75 + 1 + 0) / 3}
	if got, _ := r.Mean(eval.RR()); !close(got.Trec, want.Trec) || !close(got.Best, want.Best) || !close(got.Worst, want.Worst) || !close(got.Expected, want.Expected) {
		t.Errorf("mean band %+v, want %+v", got, want)
	}
	if s := r.TieSensitive(); !slices.Equal(s, []string{"q1"}) {
		t.Errorf("tie-sensitive %v, want [q1]", s)
	}
}
