package charts

import (
	"cmp"
	"fmt"
	"html"
	"slices"

	"github.com/ranklab/ranklab/conventions"
	"github.com/ranklab/ranklab/eval"
)

// TieBands draws, for the tie-sensitive queries of one measure (at most max of them, the widest
// bands first; max <= 0 means 30), the band each query's value can take over the orders of its
// tied docs: a bar from the worst to the best order, a dot at trec_eval's value and a diamond at
// the expected value. The subtitle gives the band of the mean. A measure the report lacks, or a
// report without a tie-sensitive query on it, gives a visible note instead of a chart.
func TieBands(r conventions.TieReport, m eval.Measure, max int) string {
	j := slices.Index(r.Measures, m)
	if j < 0 {
		return errorBox(fmt.Sprintf("TieBands: %s is not in the tie report", m))
	}
	if max <= 0 {
		max = 30
	}
	type row struct {
		q string
		b conventions.Band
	}
	var rows []row
	for i, q := range r.Queries {
		if b := r.Bands[i][j]; b.Sensitive() {
			rows = append(rows, row{q, b})
		}
	}
	mean := r.Means[j]
	if len(rows) == 0 {
		return fmt.Sprintf(`<p style="font:13px system-ui,sans-serif">No query's %s depends on the order of tied docs (%d queries).</p>`,
			html.EscapeString(m.String()), len(r.Queries))
	}
	slices.SortStableFunc(rows, func(a, b row) int {
		if c := cmp.Compare(b.b.Width(), a.b.Width()); c != 0 {
			return c
		}
		return cmp.Compare(a.q, b.q)
	})
	shown := rows
	if len(shown) > max {
		shown = shown[:max]
	}
	cats := make([]string, len(shown))
	var base, width, trec, exp []any
	f := func(x float64) string { return fmt.Sprintf("%.4f", x) }
	for i, rw := range shown {
		cats[i] = rw.q
		tip := fmt.Sprintf("query %s: %s from %s (worst order) to %s (best); trec_eval %s; expected %s", rw.q, m, f(rw.b.Worst), f(rw.b.Best), f(rw.b.Trec), f(rw.b.Expected))
		base = append(base, map[string]any{"value": rw.b.Worst, "tooltip": map[string]any{"show": false}})
		width = append(width, map[string]any{"value": rw.b.Width(), "tooltip": tooltipMap(tip)})
		trec = append(trec, map[string]any{"value": []any{rw.b.Trec, i}, "tooltip": tooltipMap(tip)})
		exp = append(exp, map[string]any{"value": []any{rw.b.Expected, i}, "tooltip": tooltipMap(tip)})
	}
	title := fmt.Sprintf("%s: the tie band of %d tie-sensitive queries", m, len(rows))
	if len(rows) == 1 {
		title = fmt.Sprintf("%s: the tie band of the 1 tie-sensitive query", m)
	}
	if len(rows) > len(shown) {
		title = fmt.Sprintf("%s: the %d widest of %d tie-sensitive queries", m, len(shown), len(rows))
	}
	sub := fmt.Sprintf("mean over %d queries: trec_eval %s, worst %s, best %s, expected %s", len(r.Queries), f(mean.Trec), f(mean.Worst), f(mean.Best), f(mean.Expected))
	option := map[string]any{
		"title":   map[string]any{"text": title, "subtext": sub, "left": 8, "top": 2, "textStyle": map[string]any{"fontSize": 15}},
		"legend":  map[string]any{"top": 52, "left": 8, "data": []string{"worst → best", "trec_eval", "expected"}},
		"tooltip": map[string]any{"trigger": "item"},
		"grid":    map[string]any{"left": 56, "right": 48, "top": 90, "bottom": 48, "containLabel": true},
		"xAxis":   map[string]any{"type": "value", "name": m.String(), "nameLocation": "middle", "nameGap": 28},
		"yAxis":   map[string]any{"type": "category", "data": cats, "inverse": true, "name": "query", "axisLabel": map[string]any{"width": 90, "overflow": "truncate"}},
		"series": []any{
			map[string]any{"name": "base", "type": "bar", "stack": "band", "data": base, "itemStyle": map[string]any{"color": "transparent"}, "silent": true},
			map[string]any{"name": "worst → best", "type": "bar", "stack": "band", "data": width, "itemStyle": map[string]any{"color": "#9ecae1"}, "barMaxWidth": 18},
			map[string]any{"name": "trec_eval", "type": "scatter", "data": trec, "symbol": "circle", "symbolSize": 9, "itemStyle": map[string]any{"color": colorMark}},
			map[string]any{"name": "expected", "type": "scatter", "data": exp, "symbol": "diamond", "symbolSize": 11, "itemStyle": map[string]any{"color": "#08306b"}},
		},
	}
	return optionHTML(option, 140+22*len(shown))
}
