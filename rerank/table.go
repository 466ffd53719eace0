package rerank

import (
	"fmt"
	"math"
	"time"
)

// Table returns the sweep as one row a depth, for a text or HTML table (charts.Table,
// ranklab rerank):
//
//	N | nDCG@K | Δ [95% CI] | p (t / rand) | R@K | Δ [95% CI] | p (t / rand) | ceiling R@N |
//	scored/q | CPU ms/q | cumulated | past N (queries) | lost (queries)
//
// Δ is the difference from depth 0 with its bootstrap interval; p are the paired t-test's and
// the randomization test's, Holm-adjusted over the sweep's family; blank at depth 0, as the
// ceiling is ("–"). CPU is in milliseconds per query ("n/a" where it was not measured).
func (sw Sweep) Table() (header []string, rows [][]string) {
	header = []string{"N"}
	for _, m := range sw.Measures {
		header = append(header, m.String(), "Δ [95% CI]", "p (t / rand)")
	}
	header = append(header, "ceiling R@N", "scored/q", "CPU ms/q", "cumulated",
		"past N (queries)", fmt.Sprintf("lost from top %d (queries)", sw.K))
	for _, r := range sw.Rows {
		row := []string{fmt.Sprint(r.Depth)}
		for _, m := range sw.Measures {
			row = append(row, fmt.Sprintf("%.4f", r.Result.Mean(m)), "", "")
			if c, err := sw.Report.Comparison(r.Run.Tag, m); err == nil && r.Depth > 0 {
				row[len(row)-2] = fmt.Sprintf("%+.4f [%+.4f, %+.4f]", c.Diff, c.CILow, c.CIHigh)
				row[len(row)-1] = fmt.Sprintf("%.3g / %.3g", c.PTHolm, c.PPermHolm)
			}
		}
		ceiling := "–"
		if !math.IsNaN(r.Ceiling) {
			ceiling = fmt.Sprintf("%.4f", r.Ceiling)
		}
		row = append(row, ceiling, fmt.Sprintf("%.1f", r.Scored), millis(r.CPU), millis(r.Cumulative),
			fmt.Sprintf("%d (%d)", r.Past, r.PastQueries), fmt.Sprintf("%d (%d)", r.Lost, len(r.LostQueries)))
		rows = append(rows, row)
	}
	return header, rows
}

// millis prints a duration in milliseconds, "n/a" when it was not measured (negative).
func millis(d time.Duration) string {
	if d < 0 {
		return "n/a"
	}
	return fmt.Sprintf("%.2f", float64(d)/1e6)
}
