package compare

import (
	"fmt"
	"math"

	"github.com/ranklab/ranklab/stats"
)

// Verdicts of a comparison (verdict); the fourth is "equivalent within ±δ".
const (
	better       = "better"
	worse        = "worse"
	inconclusive = "inconclusive"
)

// verdict reads c as VerdictTable says, with minDiff as δ and alpha the significance level.
func (c Comparison) verdict(minDiff, alpha float64) string {
	switch {
	case c.CILow > -minDiff && c.CIHigh < minDiff:
		return fmt.Sprintf("equivalent within ±%g", minDiff)
	case c.SignificantT(alpha) && c.SignificantPerm(alpha) && (c.CILow > 0 || c.CIHigh < 0):
		if c.Diff > 0 {
			return better
		}
		return worse
	}
	return inconclusive
}

// Joint returns copies of reports whose Holm and Bonferroni p-values are adjusted over every
// comparison of every report, one family per test, as if they were one report: the correction
// for a question asked of several reports at once (each chunk size with overlap against the same
// size without, every size and measure together). Each copy's Family counts the whole family.
// Intervals are left as they are; compute the reports with Options.Level at the Bonferroni level
// 1 − α/m for intervals that hold together. The reports are not modified.
func Joint(reports ...Report) []Report {
	var all []Comparison
	for _, r := range reports {
		all = append(all, r.Comparisons...)
	}
	adjust(all)
	family := len(all)
	out := make([]Report, len(reports))
	for i, r := range reports {
		n := len(r.Comparisons)
		r.Comparisons, all = all[:n:n], all[n:]
		r.Family = family
		out[i] = r
	}
	return out
}

// VerdictTable returns one row per comparison of the reports: the comparison ("run vs
// baseline"), the measure, Δ, its interval, W/T/L, Cohen's d_av (stats.CohensDav, NaN for one
// query), the Holm-adjusted p-values of both tests and the verdict, read from the interval
// rather than from a p-value alone, with minDiff the smallest difference that matters (δ) and
// the report's Alpha:
//
//	"equivalent within ±δ"  when the whole interval lies inside (−δ, +δ);
//	"better" or "worse"     when both Holm-adjusted tests give p ≤ alpha, the interval excludes 0
//	                        and the comparison is not refused (the sign of Diff says which);
//	"inconclusive"          otherwise: the data allow a difference of δ or more and show none.
//
// Numbers are rounded for reading.
func VerdictTable(minDiff float64, reports ...Report) (header []string, rows [][]string) {
	header = []string{"comparison", "measure", "Δ", "interval", "W/T/L", "d_av", "p(t) Holm", "p(perm) Holm", "verdict"}
	for _, r := range reports {
		for _, c := range r.Comparisons {
			a, _ := r.Column(c.Run, c.Measure) // both are the report's own
			b, _ := r.Column(r.Baseline(), c.Measure)
			dav, err := stats.CohensDav(a, b)
			if err != nil {
				dav = math.NaN()
			}
			rows = append(rows, []string{c.Run + " vs " + r.Baseline(), c.Measure.String(), fmt.Sprintf("%+.4f", c.Diff),
				fmt.Sprintf("[%+.4f, %+.4f]", c.CILow, c.CIHigh), fmt.Sprintf("%d/%d/%d", c.Wins, c.Ties, c.Losses),
				fmt.Sprintf("%+.3f", dav), fmt.Sprintf("%.4f", c.PTHolm), fmt.Sprintf("%.4f", c.PPermHolm),
				c.verdict(minDiff, r.Options.Alpha)})
		}
	}
	return header, rows
}

// Verdicts counts the verdicts of the reports' comparisons (as VerdictTable reads them, with
// minDiff and each report's Alpha).
func Verdicts(minDiff float64, reports ...Report) map[string]int {
	out := map[string]int{}
	for _, r := range reports {
		for _, c := range r.Comparisons {
			out[c.verdict(minDiff, r.Options.Alpha)]++
		}
	}
	return out
}
