package compare

import (
	"math"
	"strconv"
	"strings"

	"github.com/ranklab/ranklab/internal/csvcell"
)

// csvHeader is the header row of CSV.
var csvHeader = []string{"run", "is_baseline", "measure", "queries", "mean", "mean_ci_low", "mean_ci_high",
	"scored_zero", "diff", "diff_ci_low", "diff_ci_high", "wins", "ties", "losses", "effect_size",
	"t", "p_t", "p_t_holm", "p_t_bonferroni", "p_perm", "p_perm_holm", "p_perm_bonferroni", "refused"}

// csvFloat prints full precision (shortest round-trip form); NaN (not computed) as an empty
// field, ±Inf as +Inf/-Inf.
func csvFloat(v float64) string {
	if math.IsNaN(v) {
		return ""
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// csvText returns one row per run and measure (baseline rows first, then run-major), with the
// columns of csvHeader. The baseline's comparison fields are empty, as are tests not run;
// "refused" says why a comparison is not a result (Report.Refuse), empty when it stands.
func (r Report) csvText() string {
	var b strings.Builder
	w := csvcell.NewWriter(&b)
	w.Write(csvHeader)
	n := strconv.Itoa(len(r.Queries))
	for i, run := range r.Runs {
		for j, m := range r.Measures {
			e := run.means[j]
			row := []string{run.Name, strconv.FormatBool(i == 0), m.String(), n, csvFloat(e.Mean),
				csvFloat(e.Low), csvFloat(e.High), strconv.Itoa(len(run.ScoredZero))}
			if i == 0 {
				row = append(row, make([]string, len(csvHeader)-len(row))...)
			} else {
				c := r.comparison(i, j)
				row = append(row, csvFloat(c.Diff), csvFloat(c.CILow), csvFloat(c.CIHigh),
					strconv.Itoa(c.Wins), strconv.Itoa(c.Ties), strconv.Itoa(c.Losses), csvFloat(c.EffectSize),
					csvFloat(c.T), csvFloat(c.PT), csvFloat(c.PTHolm), csvFloat(c.PTBonferroni),
					csvFloat(c.PPerm), csvFloat(c.PPermHolm), csvFloat(c.PPermBonferroni), c.Refused)
			}
			w.Write(row)
		}
	}
	w.Flush()
	return b.String()
}
