package charts

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	gc "github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"
	"github.com/ranklab/ranklab/eval"
	"github.com/ranklab/ranklab/internal/words"
)

// maxLabelledQueries is the number of queries up to which bar charts label each bar with its
// query ID; beyond it the IDs are in the tooltips only.
const maxLabelledQueries = 40

// formatValue prints a measure value as trec_eval does: counts as integers, the rest with
// four decimals.
func formatValue(m eval.Measure, v float64) string {
	if m.IsCount() {
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	return strconv.FormatFloat(v, 'f', 4, 64)
}

// QueryTable shows an evaluation as a plain HTML table (Table): one column per measure, a
// first row "all" with trec_eval's summary value (the mean, or the sum for counts, Result.All),
// then one row per evaluated query in the result's order. Queries of the qrels without a
// ranking (Missing) and run queries absent from the qrels (Ignored) are listed under the table.
func QueryTable(r eval.Result) string {
	header := []string{"query"}
	all := []string{"all"}
	for _, m := range r.Measures {
		header = append(header, m.String())
		all = append(all, formatValue(m, r.All(m)))
	}
	var rows [][]string
	if len(r.Queries) > 0 {
		rows = append(rows, all)
	}
	for i, q := range r.Queries {
		row := []string{q}
		for j, m := range r.Measures {
			row = append(row, formatValue(m, r.Values[i][j]))
		}
		rows = append(rows, row)
	}
	var notes []string
	for _, l := range []struct {
		what string
		ids  []string
	}{{"qrels queries without a ranking in the run (missing)", r.Missing}, {"run queries absent from the qrels (ignored)", r.Ignored}} {
		if len(l.ids) > 0 {
			notes = append(notes, fmt.Sprintf("%d %s: %s", len(l.ids), l.what, strings.Join(l.ids, ", ")))
		}
	}
	return Table(fmt.Sprintf("%d %s, %d %s", len(r.Queries), words.Plural(len(r.Queries), "query", "queries"),
		len(r.Measures), words.Plural(len(r.Measures), "measure", "measures")), header, rows, notes...)
}

// column returns the position of m in r.Measures, or an error naming the evaluated measures
// (and an error for a result without queries).
func column(r eval.Result, m eval.Measure, who string) (int, error) {
	j := slices.Index(r.Measures, m)
	if j < 0 {
		names := make([]string, len(r.Measures))
		for i, e := range r.Measures {
			names[i] = e.String()
		}
		return 0, fmt.Errorf("charts: %s: %s was not evaluated (evaluated: %s)", who, m, strings.Join(names, ", "))
	}
	if len(r.Queries) == 0 {
		return 0, fmt.Errorf("charts: %s: the result has no evaluated queries", who)
	}
	return j, nil
}

// queryPair is one query's values in two results.
type queryPair struct {
	q      string
	va, vb float64
}

// pairByQuery pairs the queries both a and b evaluated, in a's order: a's value in column ja,
// b's in column jb.
func pairByQuery(a, b eval.Result, ja, jb int) []queryPair {
	inB := make(map[string]float64, len(b.Queries))
	for i, q := range b.Queries {
		inB[q] = b.Values[i][jb]
	}
	var out []queryPair
	for i, q := range a.Queries {
		if vb, ok := inB[q]; ok {
			out = append(out, queryPair{q, a.Values[i][ja], vb})
		}
	}
	return out
}

// QueryDistribution draws measure m over the queries as bars sorted from the best query to the
// worst (ties by query ID), with the mean as a dashed line. Query IDs label the bars for up to
// 40 queries and are in every bar's tooltip. A measure the result lacks, or a result without
// queries, gives a visible error box.
func QueryDistribution(r eval.Result, m eval.Measure) string {
	measure, err := column(r, m, "QueryDistribution")
	if err != nil {
		return errorBox(err.Error())
	}
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

// QueryDiff draws, for the queries evaluated in both results, the per-query difference of
// measure m, nameB − nameA, sorted from B's largest win to A's largest win: blue bars where B
// is better, orange where A is, grey ties (at 1e-12). The subtitle gives wins, ties, losses and
// the mean difference, and counts the queries evaluated in only one result (left out). Run
// names are escaped like all data; equal names get " (A)" and " (B)". A measure one result
// lacks, or no common query, gives a visible error box.
func QueryDiff(a, b eval.Result, m eval.Measure, nameA, nameB string) string {
	var cols [2]int
	for i, c := range []struct {
		r    eval.Result
		name string
	}{{a, nameA}, {b, nameB}} {
		j, err := column(c.r, m, "QueryDiff ("+c.name+")")
		if err != nil {
			return errorBox(err.Error())
		}
		cols[i] = j
	}
	if nameA == nameB {
		nameA, nameB = nameA+" (A)", nameB+" (B)"
	}
	ds := pairByQuery(a, b, cols[0], cols[1])
	if len(ds) == 0 {
		return errorBox(fmt.Sprintf("charts: QueryDiff: %s and %s have no evaluated query in common", nameA, nameB))
	}
	onlyA, onlyB := len(a.Queries)-len(ds), len(b.Queries)-len(ds)
	slices.SortStableFunc(ds, func(x, y queryPair) int {
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
