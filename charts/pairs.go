package charts

import "github.com/ranklab/ranklab/compare"

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
