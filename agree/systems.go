package agree

import (
	"fmt"
	"math"
	"slices"

	"github.com/ranklab/ranklab/eval"
	"github.com/ranklab/ranklab/stats"
)

// kendallTauB returns Kendall's τ-b between x and y (paired by index), SciPy's kendalltau
// default: with P concordant pairs, Q discordant, T_x pairs tied in x only, T_y in y only,
//
//	τ_b = (P − Q) / √((P + Q + T_x) · (P + Q + T_y))
//
// NaN when the denominator is 0 (all of x or all of y tied, or fewer than 2 values). It panics
// when the lengths differ.
func kendallTauB(x, y []float64) float64 {
	if len(x) != len(y) {
		panic(fmt.Sprintf("agree: %d values against %d", len(x), len(y)))
	}
	var p, q, tx, ty float64
	for i := range x {
		for j := i + 1; j < len(x); j++ {
			dx, dy := x[i]-x[j], y[i]-y[j]
			switch {
			case dx == 0 && dy == 0:
			case dx == 0:
				tx++
			case dy == 0:
				ty++
			case (dx > 0) == (dy > 0):
				p++
			default:
				q++
			}
		}
	}
	den := math.Sqrt((p + q + tx) * (p + q + ty))
	if den == 0 {
		return math.NaN()
	}
	return (p - q) / den
}

// tauAP returns τ_AP (Yilmaz, Aslam & Robertson 2008) of the ordering by est (descending)
// against the reference truth. With p(i) the number of items est puts strictly above item i and
// C(i) the number of those that truth puts strictly above i,
//
//	τ_AP = 2/|S| · Σ_{i∈S} C(i)/p(i) − 1,  S = {i : p(i) > 0}
//
// Without ties this is Yilmaz's τ_AP (the item at position k has p = k − 1, and |S| = N − 1).
// Ties follow Urbano & Marrero (2017, "The Treatment of Ties in AP Correlation"), τ_AP,b's term
// with truth as the reference (ircor's tauAP_b.ties): the items est ties form a group, compared
// only with the groups above it and never within it, and the top group is not scored; a pair
// truth ties but est orders is not concordant. So two identical inputs give 1, ties included.
// NaN when no item has another above it (fewer than 2 items, or est ties them all). It panics
// when the lengths differ.
func tauAP(truth, est []float64) float64 {
	if len(truth) != len(est) {
		panic(fmt.Sprintf("agree: %d values against %d", len(truth), len(est)))
	}
	sum, scored := 0.0, 0
	for i := range est {
		above, concordant := 0, 0
		for j := range est {
			if est[j] > est[i] {
				above++
				if truth[j] > truth[i] {
					concordant++
				}
			}
		}
		if above > 0 {
			scored++
			sum += float64(concordant) / float64(above)
		}
	}
	if scored == 0 {
		return math.NaN()
	}
	return 2/float64(scored)*sum - 1
}

// Swap is a pair of runs and how each judge orders them (see the package doc).
type Swap struct {
	RunX, RunY     string
	DiffA, DiffB   float64 // mean(X) − mean(Y) under A, under B
	PA, PB         float64 // Holm-adjusted paired t-test p-values under A, under B
	SigA, SigB     bool    // adjusted p < Alpha
	Swapped        bool    // DiffA and DiffB have opposite signs
	SignificantAny bool    // Swapped and (SigA or SigB)
}

// SystemRanking is what Systems finds.
type SystemRanking struct {
	Measure      eval.Measure
	Runs         []string
	MeanA, MeanB []float64 // each run's mean under A, under B (order of Runs)
	Queries      []string  // the queries both judged, byte order
	Tau          float64   // Kendall's τ-b of MeanA and MeanB
	TauAP        float64   // τ_AP of the order by MeanB against MeanA
	Pairs        []Swap    // every pair of runs (i < j in the order given)
	Alpha        float64
}

// Swaps returns the pairs of runs that swap.
func (s SystemRanking) Swaps() []Swap {
	var out []Swap
	for _, p := range s.Pairs {
		if p.Swapped {
			out = append(out, p)
		}
	}
	return out
}

// judgedQueries returns the queries of q with at least one grade >= 0.
func judgedQueries(q eval.Qrels) map[string]bool {
	out := map[string]bool{}
	for qid, docs := range q {
		for _, g := range docs {
			if g >= 0 {
				out[qid] = true
				break
			}
		}
	}
	return out
}

// Systems evaluates runs under a and under b (see the package doc) and compares the two
// rankings of the runs. It needs at least 2 runs and a query both judged.
func Systems(a, b eval.Qrels, runs []eval.Run, opt Options) (SystemRanking, error) {
	opt = opt.withDefaults()
	if len(runs) < 2 {
		return SystemRanking{}, fmt.Errorf("agree: need at least 2 runs to rank, got %d", len(runs))
	}
	ja, jb := judgedQueries(a), judgedQueries(b)
	var queries []string
	for q := range ja {
		if jb[q] {
			queries = append(queries, q)
		}
	}
	if len(queries) == 0 {
		return SystemRanking{}, fmt.Errorf("agree: no query is judged by both (%d by A, %d by B)", len(ja), len(jb))
	}
	slices.Sort(queries)
	keep := func(q eval.Qrels) eval.Qrels {
		out := make(eval.Qrels, len(queries))
		for _, qid := range queries {
			out[qid] = q[qid]
		}
		return out
	}
	qa, qb := keep(a), keep(b)
	sr := SystemRanking{Measure: opt.Measure, Queries: queries, Alpha: opt.Alpha}
	perA, perB := make([][]float64, len(runs)), make([][]float64, len(runs))
	for i, r := range runs {
		name := r.Tag
		if name == "" {
			name = fmt.Sprintf("run %d", i+1)
		}
		sr.Runs = append(sr.Runs, name)
		var err error
		if perA[i], err = perQuery(qa, r, opt.Measure, queries); err != nil {
			return SystemRanking{}, fmt.Errorf("agree: %s under A: %w", name, err)
		}
		if perB[i], err = perQuery(qb, r, opt.Measure, queries); err != nil {
			return SystemRanking{}, fmt.Errorf("agree: %s under B: %w", name, err)
		}
		sr.MeanA = append(sr.MeanA, mean(perA[i]))
		sr.MeanB = append(sr.MeanB, mean(perB[i]))
	}
	sr.Tau = kendallTauB(sr.MeanA, sr.MeanB)
	sr.TauAP = tauAP(sr.MeanA, sr.MeanB)
	var pa, pb []float64
	for i := range runs {
		for j := i + 1; j < len(runs); j++ {
			s := Swap{RunX: sr.Runs[i], RunY: sr.Runs[j], DiffA: sr.MeanA[i] - sr.MeanA[j], DiffB: sr.MeanB[i] - sr.MeanB[j]}
			s.Swapped = s.DiffA*s.DiffB < 0
			sr.Pairs = append(sr.Pairs, s)
			pa = append(pa, tTestP(perA[i], perA[j]))
			pb = append(pb, tTestP(perB[i], perB[j]))
		}
	}
	pa, pb = stats.Holm(pa), stats.Holm(pb)
	for k := range sr.Pairs {
		s := &sr.Pairs[k]
		s.PA, s.PB = pa[k], pb[k]
		s.SigA, s.SigB = s.PA < opt.Alpha, s.PB < opt.Alpha
		s.SignificantAny = s.Swapped && (s.SigA || s.SigB)
	}
	return sr, nil
}

// perQuery evaluates run on qrels (every qrels query, trec_eval -c) and returns the values of
// measure m for queries, in order.
func perQuery(qrels eval.Qrels, run eval.Run, m eval.Measure, queries []string) ([]float64, error) {
	res, err := eval.Options{AllQueries: true}.Evaluate(qrels, run, m)
	if err != nil {
		return nil, err
	}
	by := res.PerQuery(m)
	out := make([]float64, len(queries))
	for i, q := range queries {
		out[i] = by[q]
	}
	return out, nil
}

func mean(x []float64) float64 {
	s := 0.0
	for _, v := range x {
		s += v
	}
	return s / float64(len(x))
}

// tTestP is the paired t-test's two-sided p-value; 1 when it is undefined (fewer than 2 queries).
func tTestP(x, y []float64) float64 {
	_, p, err := stats.PairedTTest(x, y)
	if err != nil || math.IsNaN(p) {
		return 1
	}
	return p
}
