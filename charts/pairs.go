package charts

import (
	"fmt"
	"math"

	"github.com/ranklab/ranklab/compare"
)

// PairsTables returns an all-pairs comparison of many runs (compare.AllPairs) as two plain HTML
// tables (every string escaped, no script): the runs by mean with the letters of both tests,
// then the matrix of differences row − column with the marks ("*" Tukey HSD, "†" randomised
// Tukey, adjusted for every pair).
func PairsTables(r compare.PairsReport) string {
	h, rows := r.RunsTable()
	out := Table(r.Caption(), h, rows, "runs sharing a letter are not told apart by that test")
	h, rows = r.Matrix()
	return out + Table(r.Measure.String()+": row − column", h, rows, "* Tukey HSD p ≤ α, † randomised Tukey p ≤ α, both adjusted for every pair")
}

// PairsIntervals draws Tukey's comparison intervals of an all-pairs comparison: each run's
// tested mean (in the order given) as a point with an interval of ± HSD/2, HSD = q_crit·√(MSE/n)
// the HSD's critical difference, and its HSD letters. With every run on the same n queries, two intervals
// overlap exactly when the HSD does not separate the pair.
func PairsIntervals(r compare.PairsReport) string {
	half := r.HSD.Critical * math.Sqrt(r.HSD.MSE/float64(len(r.Queries))) / 2
	s := Series{Name: r.Measure.String() + " ± HSD/2", Labels: r.LettersHSD}
	for _, m := range r.HSD.Means {
		s.Values, s.Low, s.High = append(s.Values, m), append(s.Low, m-half), append(s.High, m+half)
	}
	scale := ""
	if r.Options.Standardize {
		scale = " (standardised)"
	}
	return Lines(Plot{Title: fmt.Sprintf("%s%s of %d runs with Tukey's comparison intervals", r.Measure, scale, len(r.Names)),
		Subtitle: fmt.Sprintf("intervals that do not overlap differ (HSD, %g%%); the HSD's letters", 100*r.Options.Level),
		X:        "run", Y: r.Measure.String() + scale, Categories: r.Names, Zoom: true, Height: 380}, s)
}
