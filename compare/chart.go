package compare

import (
	"fmt"
	"math"
	"sort"

	"github.com/ranklab/ranklab/charts"
)

// Chart colours: runs above the baseline green, below red, equal grey.
const (
	colorWin  = "#1a7f37"
	colorLoss = "#b42318"
	colorTie  = "#8c959f"
	colorMean = "#0b5cad"
)

// MeansOption returns the ECharts option of the means chart for one measure: one point per run
// (its mean, labelled with 4 decimals and the significance marks) with an error bar from the
// run's percentile bootstrap interval of the mean (a candlestick whose open and close are the
// mean and whose wick is the interval, so the option is plain JSON without functions).
func (r Report) MeansOption(measure int) map[string]any {
	names := make([]string, len(r.Runs))
	bars := make([][]float64, len(r.Runs))
	points := make([]map[string]any, len(r.Runs))
	for i, run := range r.Runs {
		names[i] = run.Name
		m, ci := run.Means[measure], run.CI[measure]
		bars[i] = []float64{m, m, ci[0], ci[1]}
		label := fmt.Sprintf("%.4f", m)
		color := colorMean
		if i > 0 {
			c := r.Comparison(i, measure)
			label += markString(c, r.Options.Alpha)
			if markString(c, r.Options.Alpha) != "" {
				color = colorWin
				if c.Diff < 0 {
					color = colorLoss
				}
			}
		}
		points[i] = map[string]any{"value": m, "label": map[string]any{"formatter": label}, "itemStyle": map[string]any{"color": color}}
	}
	subtitle := fmt.Sprintf("%g%% bootstrap interval of each mean over %d queries; baseline %s; * t-test, † randomization (Holm, α = %g)",
		100*r.Options.Level, len(r.Queries), r.Baseline(), r.Options.Alpha)
	return map[string]any{
		"title":   map[string]any{"text": r.Measures[measure] + ": mean per run", "subtext": subtitle, "left": "center"},
		"tooltip": map[string]any{"trigger": "item"},
		"grid":    map[string]any{"top": 70, "left": 60, "right": 30, "bottom": 60, "containLabel": true},
		"xAxis":   map[string]any{"type": "category", "data": names, "axisLabel": map[string]any{"interval": 0}},
		"yAxis":   map[string]any{"type": "value", "name": r.Measures[measure], "scale": true},
		"series": []any{
			map[string]any{"type": "candlestick", "name": "interval", "data": bars, "barMaxWidth": 24,
				"tooltip":   map[string]any{"show": false},
				"itemStyle": map[string]any{"color": colorMean, "color0": colorMean, "borderColor": colorMean, "borderColor0": colorMean}},
			map[string]any{"type": "scatter", "name": "mean", "data": points, "symbolSize": 11,
				"label": map[string]any{"show": true, "position": "right"}},
		},
	}
}

// MeansChart returns the means chart of one measure as a notebook fragment (charts.HTML).
func (r Report) MeansChart(measure int) string { return charts.HTML(r.MeansOption(measure), 380) }

// DiffOption returns the ECharts option of the sorted per-query difference plot of one
// comparison (index in r.Comparisons): one bar per query, run − baseline, sorted from the largest
// gain to the largest loss (ties by query id), green above 0, red below, grey at 0; a line at
// the mean difference and a band for its bootstrap interval.
func (r Report) DiffOption(comparison int) map[string]any {
	c := r.Comparisons[comparison]
	order := make([]int, len(r.Queries))
	for k := range order {
		order[k] = k
	}
	// Differences within TieTolerance (floating-point noise) sort as equal, then by query id.
	key := func(k int) float64 { return math.Round(c.Diffs[k] / TieTolerance) }
	sort.SliceStable(order, func(x, y int) bool { return key(order[x]) > key(order[y]) })
	ids := make([]string, len(order))
	data := make([]map[string]any, len(order))
	for n, k := range order {
		ids[n] = r.Queries[k]
		d := c.Diffs[k]
		color := colorTie
		switch {
		case d > TieTolerance:
			color = colorWin
		case d < -TieTolerance:
			color = colorLoss
		}
		data[n] = map[string]any{"value": d, "itemStyle": map[string]any{"color": color}}
	}
	run, base, m := r.Runs[c.Run].Name, r.Baseline(), r.Measures[c.Measure]
	subtitle := fmt.Sprintf("wins/ties/losses %d/%d/%d; mean %s, %g%% CI [%s, %s]",
		c.Wins, c.Ties, c.Losses, fmtSigned(c.Diff), 100*r.Options.Level, fmtSigned(c.CILow), fmtSigned(c.CIHigh))
	return map[string]any{
		"title":   map[string]any{"text": fmt.Sprintf("%s: %s − %s per query (sorted)", m, run, base), "subtext": subtitle, "left": "center"},
		"tooltip": map[string]any{"trigger": "axis"},
		"grid":    map[string]any{"top": 70, "left": 60, "right": 90, "bottom": 40, "containLabel": true},
		"xAxis": map[string]any{"type": "category", "data": ids, "name": "query",
			"axisLabel": map[string]any{"show": len(ids) <= 40, "rotate": 60}},
		"yAxis": map[string]any{"type": "value", "name": "Δ " + m},
		"series": []any{map[string]any{
			"type": "bar", "name": "Δ " + m, "data": data, "barCategoryGap": "10%",
			"markLine": map[string]any{"symbol": "none", "silent": true,
				"lineStyle": map[string]any{"color": colorMean, "type": "dashed"},
				"label":     map[string]any{"formatter": "mean " + fmtSigned(c.Diff), "position": "insideEndTop"}, // inside the plot: never clipped
				"data":      []any{map[string]any{"yAxis": c.Diff}}},
			"markArea": map[string]any{"silent": true, "itemStyle": map[string]any{"color": "rgba(11,92,173,0.12)"},
				"data": []any{[]any{map[string]any{"yAxis": c.CILow}, map[string]any{"yAxis": c.CIHigh}}}},
		}},
	}
}

// DiffChart returns the per-query difference plot of one comparison as a notebook fragment.
func (r Report) DiffChart(comparison int) string { return charts.HTML(r.DiffOption(comparison), 380) }
