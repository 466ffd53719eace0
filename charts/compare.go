package charts

import (
	"fmt"
	"html"
	"math"
	"slices"
	"sort"

	"github.com/ranklab/ranklab/compare"
)

// Colours of the comparison charts: significantly above the baseline green, below red, equal or
// not significant grey, the baseline blue.
const (
	colorWin  = "#1a7f37"
	colorLoss = "#b42318"
	colorTie  = "#8c959f"
	colorBase = "#0b5cad"
)

// CompareTable shows a comparison report as plain HTML (no JavaScript): its summary, the means
// table (baseline named, significant differences marked * for the t-test and † for the
// randomization test), the table of each run against the baseline and the report's notes, with
// every string escaped (Table).
func CompareTable(r compare.Report) string {
	mh, mrows := r.MeansTable()
	dh, drows := r.DetailTable()
	return `<div class="ranklab-compare">` + "\n" +
		`<p style="font:13px/1.4 system-ui,'DejaVu Sans',sans-serif;max-width:980px">` + html.EscapeString(r.Summary()) + "</p>\n" +
		Table("Means (baseline: "+r.Baseline()+")", mh, mrows) +
		Table("Each run against "+r.Baseline(), dh, drows, r.Notes...) +
		"</div>\n"
}

// CompareMeans draws every run's mean of measure m as a point with its percentile bootstrap
// interval as an error bar, labelled with the mean and its significance marks: the baseline in
// blue, runs significantly above it (either test, after Holm) in green, below it in red, the
// others grey. The y axis is zoomed to the intervals and says so. It returns an error when m is
// not a measure of r.
func CompareMeans(r compare.Report, m compare.Measure) (string, error) {
	j := slices.Index(r.Measures, m)
	if j < 0 {
		_, err := r.Mean(r.Baseline(), m) // the report's error, naming its measures
		return "", err
	}
	names := make([]string, len(r.Runs))
	groups := []Series{
		{Name: "baseline", Color: colorBase},
		{Name: "significantly above", Color: colorWin},
		{Name: "significantly below", Color: colorLoss},
		{Name: "no significant difference", Color: colorTie},
	}
	for g := range groups {
		groups[g].Values, groups[g].Low, groups[g].High = nans(len(r.Runs)), nans(len(r.Runs)), nans(len(r.Runs))
		groups[g].Labels = make([]string, len(r.Runs))
	}
	_, means := r.MeansTable()
	for i, run := range r.Runs {
		names[i] = run.Name
		g := 0
		if i > 0 {
			c, err := r.Comparison(run.Name, m)
			if err != nil {
				return "", err
			}
			switch sig := c.SignificantT(r.Options.Alpha) || c.SignificantPerm(r.Options.Alpha); {
			case sig && c.Diff > 0:
				g = 1
			case sig && c.Diff < 0:
				g = 2
			default:
				g = 3
			}
		}
		e, err := r.Mean(run.Name, m)
		if err != nil {
			return "", err
		}
		groups[g].Values[i], groups[g].Low[i], groups[g].High[i] = e.Mean, e.Low, e.High
		groups[g].Labels[i] = means[i][j+1]
	}
	var series []Series
	for _, s := range groups {
		if !allNaN(s.Values) {
			series = append(series, s)
		}
	}
	name := m.String()
	return Lines(Plot{
		Title: name + ": mean per run",
		Subtitle: fmt.Sprintf("%g%% bootstrap interval of each mean over %d queries; * t-test, † randomization (Holm, α = %g)",
			100*r.Options.Level, len(r.Queries), r.Options.Alpha),
		X: "run", Y: name, Categories: names, Zoom: true, Height: 380,
	}, series...), nil
}

// CompareDiff draws the per-query differences run − baseline of measure m as bars sorted from
// the largest gain to the largest loss (ties by query ID): green where the run is better, red
// where the baseline is, ties (|d| ≤ compare.TieTolerance) on the zero line; a dashed line at
// the mean difference and a band for its bootstrap interval. It returns an error when run or m
// is not in r (or run is the baseline).
func CompareDiff(r compare.Report, run string, m compare.Measure) (string, error) {
	c, err := r.Comparison(run, m)
	if err != nil {
		return "", err
	}
	name := m.String()
	order := make([]int, len(r.Queries))
	for k := range order {
		order[k] = k
	}
	// Differences within TieTolerance (floating-point noise) sort as equal, then by query ID.
	key := func(k int) float64 { return math.Round(c.Diffs[k] / compare.TieTolerance) }
	sort.SliceStable(order, func(x, y int) bool { return key(order[x]) > key(order[y]) })
	base := r.Baseline()
	series := []Series{
		{Name: run + " better", Color: colorWin, Values: nans(len(order))},
		{Name: base + " better", Color: colorLoss, Values: nans(len(order))},
		{Name: "tie", Color: colorTie, Values: nans(len(order))},
	}
	ids := make([]string, len(order))
	for n, k := range order {
		ids[n] = r.Queries[k]
		d := c.Diffs[k]
		switch {
		case d > compare.TieTolerance:
			series[0].Values[n] = d
		case d < -compare.TieTolerance:
			series[1].Values[n] = d
		default:
			series[2].Values[n] = d
		}
	}
	return Bars(Plot{
		Title: fmt.Sprintf("%s: %s − %s per query (sorted)", name, run, base),
		Subtitle: fmt.Sprintf("wins/ties/losses %d/%d/%d; mean %+.4f, %g%% CI [%+.4f, %+.4f]",
			c.Wins, c.Ties, c.Losses, c.Diff, 100*r.Options.Level, c.CILow, c.CIHigh),
		X: "query", Y: "Δ " + name, Categories: ids, Stacked: true, Height: 380,
		Refs:  []Ref{{Y: c.Diff, Label: fmt.Sprintf("mean %+.4f (band: %g%% CI)", c.Diff, 100*r.Options.Level), Color: colorBase}},
		Bands: []Band{{From: c.CILow, To: c.CIHigh}},
	}, series...), nil
}

// nans returns n NaNs (empty positions of a series).
func nans(n int) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = math.NaN()
	}
	return out
}

func allNaN(xs []float64) bool {
	for _, x := range xs {
		if !math.IsNaN(x) {
			return false
		}
	}
	return true
}
