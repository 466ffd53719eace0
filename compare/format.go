package compare

import (
	"fmt"
	"math"
	"strings"

	"github.com/ranklab/ranklab/internal/words"
)

// Number formats shared by the human-readable reports (text, Markdown, LaTeX, and the tables
// charts.CompareTable shows); CSV and JSON print full precision.

// fmtNum prints v with prec decimals; NaN as "n/a", ±Inf as "inf"/"-inf".
func fmtNum(v float64, prec int) string {
	switch {
	case math.IsNaN(v):
		return "n/a"
	case math.IsInf(v, 1):
		return "inf"
	case math.IsInf(v, -1):
		return "-inf"
	}
	return fmt.Sprintf("%.*f", prec, v)
}

// fmtSigned prints a difference with its sign: +0.0123, -0.0100, 0.0000.
func fmtSigned(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) || v == 0 {
		return fmtNum(v, 4)
	}
	s := fmt.Sprintf("%+.4f", v)
	if s == "+0.0000" || s == "-0.0000" {
		return "0.0000"
	}
	return s
}

// fmtP prints a p-value: 4 decimals, or 2 significant digits in e-notation below 0.0001.
func fmtP(p float64) string {
	if math.IsNaN(p) {
		return "n/a"
	}
	if p != 0 && p < 0.0001 {
		return fmt.Sprintf("%.1e", p)
	}
	return fmt.Sprintf("%.4f", p)
}

// marks returns the significance marks of c: "*" (t-test, Holm ≤ α) and "†" (randomization,
// Holm ≤ α).
func marks(c Comparison, alpha float64) (t, perm bool) {
	return c.SignificantT(alpha), c.SignificantPerm(alpha)
}

// markString is the plain-text form of the marks.
func markString(c Comparison, alpha float64) string {
	t, p := marks(c, alpha)
	s := ""
	if t {
		s += "*"
	}
	if p {
		s += "†"
	}
	return s
}

// meanCell is one cell of the means table: a run's mean on a measure and its marks.
type meanCell struct {
	Mean    string
	T, Perm bool
}

// meansTable: one row per run, one cell per measure.
func meansTable(r Report) [][]meanCell {
	rows := make([][]meanCell, len(r.Runs))
	for i, run := range r.Runs {
		for j := range r.Measures {
			c := meanCell{Mean: fmtNum(run.means[j].Mean, 4)}
			if i > 0 {
				c.T, c.Perm = marks(r.comparison(i, j), r.Options.Alpha)
			}
			rows[i] = append(rows[i], c)
		}
	}
	return rows
}

// MeansTable returns the means table as the text report prints it: a header ("run", then the
// measures) and one row per run, the baseline first and named "<name> (baseline)", each mean
// with 4 decimals followed by its marks, "*" (t-test) and "†" (randomization test), where the
// Holm-adjusted p ≤ α.
func (r Report) MeansTable() (header []string, rows [][]string) {
	header = []string{"run"}
	for _, m := range r.Measures {
		header = append(header, m.String())
	}
	for i, cells := range meansTable(r) {
		name := r.Runs[i].Name
		if i == 0 {
			name += " (baseline)"
		}
		row := []string{name}
		for _, c := range cells {
			m := c.Mean
			if c.T {
				m += "*"
			}
			if c.Perm {
				m += "†"
			}
			row = append(row, m)
		}
		rows = append(rows, row)
	}
	return header, rows
}

// DetailTable returns the comparisons table as the text report prints it: one row per
// comparison with the run, the measure, both means, Δ, its interval, W/T/L, d_z, the statistics
// and p-values of the tests that were run (unadjusted, Holm, Bonferroni) and the marks.
func (r Report) DetailTable() (header []string, rows [][]string) {
	lvl := fmt.Sprintf("%g%% CI", 100*r.Options.Level)
	header = []string{"run", "measure", "baseline", "mean", "Δ", lvl, "W/T/L", "d_z"}
	if r.Options.Tests.runT() {
		header = append(header, "t", "p(t)", "p(t) Holm", "p(t) Bonf.")
	}
	if r.Options.Tests.runPerm() {
		header = append(header, "p(perm)", "p(perm) Holm", "p(perm) Bonf.")
	}
	header = append(header, "sig.")
	for _, c := range r.Comparisons {
		row := []string{c.Run, c.Measure.String(), fmtNum(c.Baseline, 4), fmtNum(c.Mean, 4),
			fmtSigned(c.Diff), "[" + fmtSigned(c.CILow) + ", " + fmtSigned(c.CIHigh) + "]",
			fmt.Sprintf("%d/%d/%d", c.Wins, c.Ties, c.Losses), fmtNum(c.EffectSize, 3)}
		if r.Options.Tests.runT() {
			row = append(row, fmtNum(c.T, 3), fmtP(c.PT), fmtP(c.PTHolm), fmtP(c.PTBonferroni))
		}
		if r.Options.Tests.runPerm() {
			row = append(row, fmtP(c.PPerm), fmtP(c.PPermHolm), fmtP(c.PPermBonferroni))
		}
		row = append(row, markString(c, r.Options.Alpha))
		rows = append(rows, row)
	}
	return header, rows
}

// Summary is the one-paragraph description of how the report was made: query count, baseline,
// tests, seed, correction and α.
func (r Report) Summary() string {
	o := r.Options
	var tests []string
	if o.Tests.runT() {
		tests = append(tests, "paired t-test (*)")
	}
	if o.Tests.runPerm() {
		tests = append(tests, fmt.Sprintf("paired randomization test (†; %d sign-flip permutations, seed %d)", o.Permutations, o.Seed))
	}
	tested := 0 // Judged@k comparisons are shown but never tested: not in the family
	for _, c := range r.Comparisons {
		if !descriptive(c.Measure) {
			tested++
		}
	}
	n, family := r.Family, "runs × measures"
	if n == 0 { // a Report built without FromScores
		n = tested
	}
	if n != tested {
		family = "a joint family of several reports"
	}
	return fmt.Sprintf("%d %s, %d runs, baseline %q. Tests: %s. Marks: Holm-adjusted p ≤ %g over the %d %s (%s). Intervals: %g%% percentile bootstrap (%d resamples, seed %d).",
		len(r.Queries), words.Plural(len(r.Queries), "query", "queries"), len(r.Runs), r.Baseline(), strings.Join(tests, " and "), o.Alpha, n, words.Plural(n, "comparison", "comparisons"), family,
		100*o.Level, o.Resamples, o.Seed)
}
