package study

import (
	"fmt"
	"slices"

	"github.com/ranklab/ranklab/compare"
	"github.com/ranklab/ranklab/eval"
	"github.com/ranklab/ranklab/fusion"
)

// Hybrid is one way of fusing a lexical run and a dense run (package fusion): the lexical run
// has weight 1 − Weight and the dense run Weight, so Weight 0 is the lexical run's ranking and 1
// the dense run's (for RRF, k = 60).
type Hybrid struct {
	Method fusion.Method
	Norm   fusion.Norm // CombSUM only
	Weight float64
}

// String returns "rrf w=0.5" or "combsum-minmax w=0.3".
func (h Hybrid) String() string {
	if h.Method == fusion.RRF {
		return fmt.Sprintf("rrf w=%.2g", h.Weight)
	}
	return fmt.Sprintf("%s-%s w=%.2g", h.Method, h.Norm, h.Weight)
}

// fuse fuses lexical and dense, each cut to its first depth documents (0: all), keeping the
// first 1000 fused documents of each query.
func (h Hybrid) fuse(lexical, dense eval.Run, depth int) (eval.Run, error) {
	return fusion.Fuse([]eval.Run{lexical, dense}, fusion.Options{Method: h.Method, Norm: h.Norm,
		Weights: []float64{1 - h.Weight, h.Weight}, Depth: depth, Top: 1000, Tag: h.String()})
}

// HybridRow is one fusion method with its weight chosen on the tuning half.
type HybridRow struct {
	Hybrid
	Tune, Test float64 // mean of the measure on each half
	// The fused run against each input on the test half (Diff = fused − input), with the
	// study's Holm and Bonferroni adjustment over its 2 × 4 comparisons.
	VsLexical, VsDense compare.Comparison
}

// HybridStudy is RunHybrid's result.
type HybridStudy struct {
	Measure                  eval.Measure
	TuneQueries, TestQueries []string
	// the inputs' means on each half
	LexicalTune, LexicalTest, DenseTune, DenseTest float64
	Rows                                           []HybridRow
}

// hybridMethods are the methods RunHybrid tries: RRF and CombSUM with each normalisation.
var hybridMethods = []Hybrid{{Method: fusion.RRF}, {Method: fusion.CombSUM, Norm: fusion.MinMax},
	{Method: fusion.CombSUM, Norm: fusion.ZScore}, {Method: fusion.CombSUM, Norm: fusion.Rank}}

// hybridWeights are the weights RunHybrid tries: 0.1, 0.2, …, 0.9.
var hybridWeights = []float64{0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9}

// RunHybrid fuses a lexical and a dense run of the same queries with RRF and with CombSUM
// after each normalisation (min-max, z-score, rank), at every dense weight 0.1, 0.2, …, 0.9, on the qrels queries split in two halves by
// the byte order of their IDs (1st, 3rd, 5th … tune; 2nd, 4th … test). For each method the
// weight with the best mean of m on the tuning half (the smaller weight on a tie) is kept and
// evaluated on the test half, where it is compared with each input query by query (pairs of
// per-query values; eval.Options{AllQueries: true}, so a query a run misses scores 0) by
// package compare with its defaults (95 % bootstrap interval, paired t-test, randomization
// test; 10,000 draws, seed 42), Holm and Bonferroni adjusting over the study's 8 comparisons
// (compare.Joint).
func RunHybrid(qrels eval.Qrels, lexical, dense eval.Run, m eval.Measure, depth int) (HybridStudy, error) {
	var ids []string
	for q := range qrels {
		ids = append(ids, q)
	}
	slices.Sort(ids)
	st := HybridStudy{Measure: m}
	for i, q := range ids {
		if i%2 == 0 {
			st.TuneQueries = append(st.TuneQueries, q)
		} else {
			st.TestQueries = append(st.TestQueries, q)
		}
	}
	if len(st.TestQueries) < 2 {
		return HybridStudy{}, fmt.Errorf("study: %d judged queries: too few to split", len(ids))
	}
	per := func(run eval.Run) (map[string]float64, error) {
		res, err := eval.Options{AllQueries: true}.Evaluate(qrels, run, m)
		if err != nil {
			return nil, err
		}
		return res.PerQuery(m), nil
	}
	lex, err := per(lexical)
	if err != nil {
		return HybridStudy{}, err
	}
	den, err := per(dense)
	if err != nil {
		return HybridStudy{}, err
	}
	st.LexicalTune, st.LexicalTest = meanOver(lex, st.TuneQueries), meanOver(lex, st.TestQueries)
	st.DenseTune, st.DenseTest = meanOver(den, st.TuneQueries), meanOver(den, st.TestQueries)
	scores := func(name string, v map[string]float64) compare.Scores {
		vals := make([][]float64, len(st.TestQueries))
		for i, q := range st.TestQueries {
			vals[i] = []float64{v[q]}
		}
		return compare.Scores{Name: name, Measures: []compare.Measure{m}, Queries: st.TestQueries, Values: vals}
	}
	lexTest, denTest := scores("lexical", lex), scores("dense", den)
	var reports []compare.Report
	for _, method := range hybridMethods {
		row := HybridRow{Tune: -1}
		var best map[string]float64
		for _, w := range hybridWeights {
			h := method
			h.Weight = w
			fused, err := h.fuse(lexical, dense, depth)
			if err != nil {
				return HybridStudy{}, err
			}
			v, err := per(fused)
			if err != nil {
				return HybridStudy{}, err
			}
			if t := meanOver(v, st.TuneQueries); t > row.Tune {
				row.Hybrid, row.Tune, best = h, t, v
			}
		}
		row.Test = meanOver(best, st.TestQueries)
		f := scores(row.Hybrid.String(), best)
		for _, input := range []compare.Scores{lexTest, denTest} {
			r, err := compare.Options{}.FromScores(input, f)
			if err != nil {
				return HybridStudy{}, err
			}
			reports = append(reports, r)
		}
		st.Rows = append(st.Rows, row)
	}
	joint := compare.Joint(reports...)
	for i := range st.Rows {
		st.Rows[i].VsLexical, st.Rows[i].VsDense = joint[2*i].Comparisons[0], joint[2*i+1].Comparisons[0]
	}
	return st, nil
}

func valuesOver(v map[string]float64, qs []string) []float64 {
	out := make([]float64, len(qs))
	for i, q := range qs {
		out[i] = v[q]
	}
	return out
}

func meanOver(v map[string]float64, qs []string) float64 {
	s := 0.0
	for _, x := range valuesOver(v, qs) {
		s += x
	}
	return s / float64(len(qs))
}
