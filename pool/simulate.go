package pool

import (
	"maps"
	"math/rand/v2"
	"slices"

	"github.com/ranklab/ranklab/eval"
)

// Judge returns the pool of runs to depth judged against truth: for every query of truth, each
// document among the first depth of any run (ranked in trec_eval's order, eval.Rank) keeps its
// grade in truth, or 0 (judged not relevant) when truth does not list it; documents outside the
// pool are absent (unjudged). A query no run ranks gets an empty judgment set. The inputs are
// not modified.
func Judge(truth eval.Qrels, depth int, runs ...eval.Run) eval.Qrels {
	out := eval.Qrels{}
	for q := range truth {
		out[q] = map[string]int{}
		for _, r := range runs {
			for i, d := range eval.Rank(r.Queries[q]) {
				if i >= depth {
					break
				}
				out[q][d.Doc] = truth[q][d.Doc] // 0 when truth does not list it
			}
		}
	}
	return out
}

// Sample judges a share of each query's pooled documents, each kept with probability share
// (one draw of a PCG generator seeded with (seed, 15) per document, queries and documents
// visited in byte order, so a seed always gives the same sample); the others get grade −1 (in
// the pool, unjudged). pooled is not modified.
func Sample(pooled eval.Qrels, share float64, seed uint64) eval.Qrels {
	rng := rand.New(rand.NewPCG(seed, 15))
	out := eval.Qrels{}
	for _, q := range slices.Sorted(maps.Keys(pooled)) {
		out[q] = map[string]int{}
		for _, d := range slices.Sorted(maps.Keys(pooled[q])) {
			out[q][d] = -1
			if rng.Float64() < share {
				out[q][d] = pooled[q][d]
			}
		}
	}
	return out
}

// WithRelevant lists, in byte order, the queries of q that hold at least one document with a
// positive grade: those an estimate of AP (or infAP) can be made for.
func WithRelevant(q eval.Qrels) []string {
	var out []string
	for id, docs := range q {
		for _, g := range docs {
			if g > 0 {
				out = append(out, id)
				break
			}
		}
	}
	slices.Sort(out)
	return out
}

// MeanOver returns the mean of m in res over queries, summed in their order:
//
//	MeanOver = Σ_{q ∈ queries} v_q / |queries|
//
// with v_q query q's value of m, 0 for a query res did not evaluate. It panics when m was not
// evaluated (as eval.Result's lookups do) and returns NaN for no query.
func MeanOver(res eval.Result, m eval.Measure, queries []string) float64 {
	values := res.PerQuery(m)
	sum := 0.0
	for _, q := range queries {
		sum += values[q]
	}
	return sum / float64(len(queries))
}
