package charts

import (
	"fmt"
	"html"
	"slices"
	"strconv"
	"strings"

	gc "github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"
	"github.com/ranklab/ranklab/lab"
)

// maxLabelledQueries is the number of queries up to which bar charts label each bar with its
// query ID; beyond it the IDs are in the tooltips only.
const maxLabelledQueries = 40

// formatValue prints a measure value as trec_eval does: counts as integers, the rest with
// four decimals.
func formatValue(m lab.Measure, v float64) string {
	if m.IsCount() {
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	return strconv.FormatFloat(v, 'f', 4, 64)
}

// QueryTable shows an evaluation as a plain HTML table (no JavaScript): one column per
// measure, a first row "all" with trec_eval's summary value (the mean, or the sum for counts,
// Result.All), then one row per evaluated query in the result's order. Queries of the qrels
// without a ranking (Missing) and run queries absent from the qrels (Ignored) are listed under
// the table.
func QueryTable(r lab.Result) string {
	var b strings.Builder
	b.WriteString(`<div class="ranklab-table" style="font-family:system-ui,'DejaVu Sans',sans-serif;color:var(--jp-content-font-color1,#222);max-width:980px;overflow-x:auto">` + "\n")
	fmt.Fprintf(&b, `<table style="border-collapse:collapse;font-size:13px;font-variant-numeric:tabular-nums">`+
		`<caption style="text-align:left;font-weight:600;padding:4px 0">%s, %s</caption>`+"\n",
		count(len(r.Queries), "query", "queries"), count(len(r.Measures), "measure", "measures"))
	th := `<th style="border-bottom:2px solid #888;padding:3px 10px;text-align:%s">%s</th>`
	b.WriteString("<thead><tr>")
	fmt.Fprintf(&b, th, "left", "query")
	for _, m := range r.Measures {
		fmt.Fprintf(&b, th, "right", html.EscapeString(m.String()))
	}
	b.WriteString("</tr></thead>\n<tbody>\n")
	td := `<td style="border-bottom:1px solid #ddd;padding:2px 10px;text-align:%s%s">%s</td>`
	if len(r.Queries) > 0 {
		b.WriteString(`<tr style="background:var(--jp-layout-color2,#f2f5fa)">`)
		fmt.Fprintf(&b, td, "left", ";font-weight:600", "all")
		for j, m := range r.Measures {
			fmt.Fprintf(&b, td, "right", ";font-weight:600", formatValue(m, r.All(j)))
		}
		b.WriteString("</tr>\n")
	}
	for i, q := range r.Queries {
		b.WriteString("<tr>")
		fmt.Fprintf(&b, td, "left", "", html.EscapeString(q))
		for j, m := range r.Measures {
			fmt.Fprintf(&b, td, "right", "", formatValue(m, r.Values[i][j]))
		}
		b.WriteString("</tr>\n")
	}
	b.WriteString("</tbody></table>\n")
	for _, l := range []struct {
		what string
		ids  []string
	}{{"qrels queries without a ranking in the run (missing)", r.Missing}, {"run queries absent from the qrels (ignored)", r.Ignored}} {
		if len(l.ids) > 0 {
			esc := make([]string, len(l.ids))
			for i, id := range l.ids {
				esc[i] = html.EscapeString(id)
			}
			fmt.Fprintf(&b, `<p style="font-size:13px;margin:6px 0">%d %s: %s</p>`+"\n", len(l.ids), l.what, strings.Join(esc, ", "))
		}
	}
	b.WriteString("</div>\n")
	return b.String()
}

// checkMeasure reports a measure index outside the result, or a result without queries.
func checkMeasure(r lab.Result, measure int, who string) error {
	if measure < 0 || measure >= len(r.Measures) {
		return fmt.Errorf("charts: %s: measure index %d outside 0..%d", who, measure, len(r.Measures)-1)
	}
	if len(r.Queries) == 0 {
		return fmt.Errorf("charts: %s: the result has no evaluated queries", who)
	}
	return nil
}

// QueryDistribution draws one measure (index into r.Measures) over the queries as bars sorted
// from the best query to the worst (ties by query ID), with the mean as a dashed line. Query IDs
// label the bars for up to 40 queries and are in every bar's tooltip. An index outside the
// result, or a result without queries, gives a visible error box.
func QueryDistribution(r lab.Result, measure int) string {
	if err := checkMeasure(r, measure, "QueryDistribution"); err != nil {
		return errorBox(err.Error())
	}
	m := r.Measures[measure]
	idx := make([]int, len(r.Queries))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		va, vb := r.Values[a][measure], r.Values[b][measure]
		switch {
		case va > vb:
			return -1
		case va < vb:
			return 1
		}
		return strings.Compare(r.Queries[a], r.Queries[b])
	})
	cats := make([]string, len(idx))
	data := make([]opts.BarData, len(idx))
	for k, i := range idx {
		cats[k] = r.Queries[i]
		v := r.Values[i][measure]
		data[k] = opts.BarData{Value: v, Tooltip: itemTooltip(fmt.Sprintf("query %s: %s = %s", r.Queries[i], m, formatValue(m, v)))}
	}
	mean := r.Means[measure]
	title := fmt.Sprintf("%s per query, sorted", m)
	sub := fmt.Sprintf("%d queries; dashed line: mean %s", len(idx), formatValue(m, mean))
	b := gc.NewBar()
	b.SetGlobalOptions(frame(title, sub, false)...)
	b.SetGlobalOptions(
		gc.WithXAxisOpts(queryAxis(len(idx), "query (sorted by "+m.String()+")")),
		gc.WithYAxisOpts(yValue(m.String())),
	)
	b.SetXAxis(cats)
	b.AddSeries(m.String(), data, gc.WithItemStyleOpts(opts.ItemStyle{Color: colorUp}),
		gc.WithBarChartOpts(opts.BarChart{BarCategoryGap: "20%"}),
		seriesOpts(func(ss *gc.SingleSeries) {
			ss.BarMaxWidth = "60"
			ss.MarkLines = &opts.MarkLines{
				Data: []interface{}{map[string]any{"yAxis": mean, "name": "mean " + formatValue(m, mean)}},
				MarkLineStyle: opts.MarkLineStyle{Symbol: []string{"none", "none"},
					Label:     &opts.Label{Show: opts.Bool(true), Formatter: "{b}", Position: "insideEndTop", Color: colorMark},
					LineStyle: &opts.LineStyle{Color: colorMark, Type: "dashed", Width: 1.5}},
			}
		}))
	return render(b, title, 380)
}

// count writes n with the noun in the right number: "1 measure", "3 measures".
func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// queryAxis is a category x axis of query IDs: every ID shown (rotated, IDs longer than about
// 90 px cut with an ellipsis) for up to 40 queries, none beyond; the full IDs are in the tooltips.
func queryAxis(n int, name string) opts.XAxis {
	x := opts.XAxis{Type: "category", Name: name, NameLocation: "middle", NameGap: 28}
	if n <= maxLabelledQueries {
		x.AxisLabel = &opts.AxisLabel{Interval: "0", Rotate: 45, FontSize: 11, Width: 90, Overflow: "truncate"}
		x.NameGap = 80
	} else {
		x.AxisLabel = &opts.AxisLabel{Show: opts.Bool(false)}
		x.AxisTick = &opts.AxisTick{Show: opts.Bool(false)}
	}
	return x
}

// QueryDiff draws, for the queries evaluated in both results, the per-query difference of one
// measure, nameB − nameA (the measure at index measure in both, which must be the same
// measure), sorted from B's largest win to A's largest win: blue bars where B is better, orange
// where A is, grey ties (at 1e-12). The subtitle gives wins, ties, losses and the mean
// difference, and counts the queries evaluated in only one result (left out). Run names are
// escaped like all data; equal names get " (A)" and " (B)". A bad index, different measures or no common query give a visible
// error box.
func QueryDiff(a, b lab.Result, measure int, nameA, nameB string) string {
	for _, c := range []struct {
		r    lab.Result
		name string
	}{{a, nameA}, {b, nameB}} {
		if err := checkMeasure(c.r, measure, "QueryDiff ("+c.name+")"); err != nil {
			return errorBox(err.Error())
		}
	}
	if nameA == nameB {
		nameA, nameB = nameA+" (A)", nameB+" (B)"
	}
	m := a.Measures[measure]
	if mb := b.Measures[measure]; mb.String() != m.String() {
		return errorBox(fmt.Sprintf("charts: QueryDiff: measure %d is %s in %s but %s in %s", measure, m, nameA, mb, nameB))
	}
	inB := make(map[string]float64, len(b.Queries))
	for i, q := range b.Queries {
		inB[q] = b.Values[i][measure]
	}
	type diff struct {
		q      string
		va, vb float64
	}
	var ds []diff
	for i, q := range a.Queries {
		if vb, ok := inB[q]; ok {
			ds = append(ds, diff{q, a.Values[i][measure], vb})
		}
	}
	if len(ds) == 0 {
		return errorBox(fmt.Sprintf("charts: QueryDiff: %s and %s have no evaluated query in common", nameA, nameB))
	}
	onlyA, onlyB := len(a.Queries)-len(ds), len(b.Queries)-len(ds)
	slices.SortStableFunc(ds, func(x, y diff) int {
		dx, dy := x.vb-x.va, y.vb-y.va
		switch {
		case dx > dy:
			return -1
		case dx < dy:
			return 1
		}
		return strings.Compare(x.q, y.q)
	})
	const eps = 1e-12
	cats := make([]string, len(ds))
	series := map[string][]opts.BarData{}
	keys := []string{nameB + " better", nameA + " better", "tie"}
	var wins, losses, ties int
	var tieData []any
	sum := 0.0
	for i, d := range ds {
		cats[i] = d.q
		delta := d.vb - d.va
		sum += delta
		key := keys[2]
		switch {
		case delta > eps:
			key = keys[0]
			wins++
		case delta < -eps:
			key = keys[1]
			losses++
		default:
			ties++
		}
		tip := fmt.Sprintf("query %s: %s %s − %s %s = %+.4f", d.q, nameB, formatValue(m, d.vb), nameA, formatValue(m, d.va), delta)
		if key == keys[2] { // ties have no height: a grey diamond on the zero line marks each
			tieData = append(tieData, map[string]any{"value": []any{d.q, 0}, "tooltip": tooltipMap(tip)})
		}
		for _, k := range keys[:2] {
			bd := opts.BarData{Value: "-"}
			if k == key {
				bd = opts.BarData{Value: delta, Tooltip: itemTooltip(tip)}
			}
			series[k] = append(series[k], bd)
		}
	}
	title := fmt.Sprintf("%s per query: %s − %s, sorted", m, nameB, nameA)
	sub := fmt.Sprintf("%d queries: %s better on %d, %s better on %d, %d ties; mean difference %+.4f",
		len(ds), nameB, wins, nameA, losses, ties, sum/float64(len(ds)))
	if onlyA > 0 || onlyB > 0 {
		sub += fmt.Sprintf(" (left out: %d queries only in %s, %d only in %s)", onlyA, nameA, onlyB, nameB)
	}
	c := gc.NewBar()
	c.SetGlobalOptions(frame(title, sub, true)...)
	c.SetGlobalOptions(
		gc.WithXAxisOpts(queryAxis(len(ds), "query (sorted by difference)")),
		gc.WithYAxisOpts(yValue("difference in "+m.String())),
	)
	c.SetXAxis(cats)
	for i, k := range keys[:2] {
		color := []string{colorUp, colorDown}[i]
		c.AddSeries(k, series[k], gc.WithItemStyleOpts(opts.ItemStyle{Color: color}),
			gc.WithBarChartOpts(opts.BarChart{Stack: "diff", BarCategoryGap: "20%"}),
			seriesOpts(func(ss *gc.SingleSeries) { ss.BarMaxWidth = "60" }))
	}
	sc := gc.NewScatter()
	sc.AddSeries(keys[2], nil, gc.WithItemStyleOpts(opts.ItemStyle{Color: colorSame}),
		seriesOpts(func(ss *gc.SingleSeries) { ss.Symbol = "diamond"; ss.SymbolSize = 10; ss.Data = tieData }))
	c.Overlap(sc)
	return render(c, title, 400)
}
