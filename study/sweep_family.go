package study

import (
	"fmt"
	"math"
	"slices"

	"github.com/ranklab/ranklab/compare"
	"github.com/ranklab/ranklab/eval"
	"github.com/ranklab/ranklab/rag"
	"github.com/ranklab/ranklab/retrieval"
	"github.com/ranklab/ranklab/stats"
)

// Family compares every configuration with the baseline (Rows[0]) on every document measure in
// one report, runs named by their Chunking: Holm over all m = (configurations − 1) × measures
// comparisons at once (not per measure), and intervals at the Bonferroni level 1 − alpha/m, so
// all m cover their true differences together with probability approximately at least 1 − alpha
// (percentile bootstrap intervals: nominal coverage is approximate). alpha is
// also the report's significance level (its Alpha).
func (s Sweep) Family(alpha float64) (compare.Report, error) {
	if len(s.Rows) < 2 {
		return compare.Report{}, fmt.Errorf("sweep: one configuration, nothing to compare")
	}
	results := make([]eval.Result, len(s.Rows))
	for i, r := range s.Rows {
		results[i] = r.Result
		results[i].Tag = r.Chunking.String()
	}
	return s.familyOptions(alpha, len(s.Rows)-1).FromResults(results...)
}

// Overlap compares each configuration with overlap with the same chunk size without overlap,
// on every document measure: one report per chunk size (its baseline the size without
// overlap), adjusted together as one family (compare.Joint: Holm and Bonferroni over every size
// and measure), with intervals at the Bonferroni level 1 − alpha/m for the m comparisons. A
// size without its no-overlap configuration in the sweep is skipped.
func (s Sweep) Overlap(alpha float64) ([]compare.Report, error) {
	type pair struct{ without, with SweepRow }
	var pairs []pair
	for _, r := range s.Rows {
		if r.Chunking.Overlap == 0 {
			continue
		}
		if without, err := s.Row(retrieval.Chunking{Chunk: r.Chunking.Chunk}); err == nil {
			pairs = append(pairs, pair{without, r})
		}
	}
	if len(pairs) == 0 {
		return nil, fmt.Errorf("sweep: no chunk size with and without overlap")
	}
	opt := s.familyOptions(alpha, len(pairs))
	reports := make([]compare.Report, len(pairs))
	for i, p := range pairs {
		a, b := p.without.Result, p.with.Result
		a.Tag, b.Tag = p.without.Chunking.String(), p.with.Chunking.String()
		var err error
		if reports[i], err = opt.FromResults(a, b); err != nil {
			return nil, err
		}
	}
	return compare.Joint(reports...), nil
}

// familyOptions are the sweep's test options for a family of runs × len(Measures) comparisons at
// level alpha: intervals at the Bonferroni level 1 − alpha/m.
//
// The bootstrap draws enough resamples that each tail of a Bonferroni-level interval rests on
// about 80 of them, at least: B = 10,000 · ceil(80 / (alpha/m/2) / 10,000) (m = 30, alpha = 0.05:
// 100,000), so the percentile interval's ends are not set by a handful of draws.
func (s Sweep) familyOptions(alpha float64, runs int) compare.Options {
	opt := s.Tests
	opt.Alpha = alpha
	m := float64(runs * len(s.Measures))
	opt.Level = 1 - alpha/m
	need := 10_000 * int(math.Ceil(80/(alpha/m/2)/10_000))
	if opt.Resamples == 0 {
		opt.Resamples = stats.DefaultResamples
	}
	opt.Resamples = max(opt.Resamples, need)
	return opt
}

// Best returns the configuration other than the baseline (Rows[0]) with the highest mean on
// budget measure m (the first of equal means), or an error when the sweep has no other
// configuration or did not measure m.
func (s Sweep) Best(m rag.BudgetMeasure) (retrieval.Chunking, error) {
	if len(s.Rows) < 2 {
		return retrieval.Chunking{}, fmt.Errorf("sweep: one configuration, no best")
	}
	if !slices.Contains(s.budgetMeasures(), m) {
		return retrieval.Chunking{}, fmt.Errorf("sweep: %v was not measured (budget measures: %v)", m, s.budgetMeasures())
	}
	best := s.Rows[1]
	for _, r := range s.Rows[2:] {
		if r.Budget.Mean(m) > best.Budget.Mean(m) {
			best = r
		}
	}
	return best.Chunking, nil
}
