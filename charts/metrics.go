package charts

import (
	"fmt"
	"html"
	"strings"

	gc "github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"
	"github.com/ranklab/ranklab/lab"
)

// MetricCards shows the outcome's measures as plain HTML cards (no JavaScript), under the query
// the ranking answers (when the outcome has one): Precision@k, Recall@k, MRR@k, nDCG@k and the relevant items inside k, each with its first-stage value when
// reranking is on, followed by the metric reading and the state's link. Values are printed with
// three decimals.
func MetricCards(o lab.Outcome) string {
	s, m, f := o.State, o.Metrics, o.FirstMetrics
	k := s.K
	type card struct{ name, value, note string }
	before := func(v float64) string {
		if s.Rerank == 0 {
			return ""
		}
		return fmt.Sprintf("first stage %.3f", v)
	}
	cards := []card{
		{fmt.Sprintf("Precision@%d", k), fmt.Sprintf("%.3f", m.Precision), before(f.Precision)},
		{fmt.Sprintf("Recall@%d", k), fmt.Sprintf("%.3f", m.Recall), joinNotes(fmt.Sprintf("of R = %d", m.Denominator), before(f.Recall))},
		{fmt.Sprintf("MRR@%d", k), fmt.Sprintf("%.3f", m.MRR), joinNotes("RR of this query", before(f.MRR))},
		{fmt.Sprintf("nDCG@%d", k), fmt.Sprintf("%.3f", m.NDCG), joinNotes("gain 2^grade − 1", before(f.NDCG))},
		{fmt.Sprintf("relevant in top %d", k), fmt.Sprintf("%d / %d", m.RelevantInK, k), fmt.Sprintf("grade ≥ %d", s.MinGrade)},
	}
	var b strings.Builder
	b.WriteString(`<div class="ranklab-cards" style="font-family:system-ui,'DejaVu Sans',sans-serif;color:var(--jp-content-font-color1,#222);max-width:980px">` + "\n")
	if o.Query != "" {
		fmt.Fprintf(&b, `<div style="font-size:14px;margin:2px 0 4px">query: <q data-query>%s</q></div>`+"\n", html.EscapeString(o.Query))
	}
	b.WriteString(`<div style="display:flex;flex-wrap:wrap;gap:10px;margin:4px 0 10px">` + "\n")
	for _, c := range cards {
		fmt.Fprintf(&b, `<div style="border:1px solid var(--jp-border-color1,#ccd);border-radius:6px;padding:8px 14px;min-width:130px;background:var(--jp-layout-color2,#f7f9fc)">`+
			`<div style="font-size:13px;color:var(--jp-content-font-color2,#555)">%s</div><div style="font-size:24px;font-weight:600">%s</div>`+
			`<div style="font-size:12px;color:var(--jp-content-font-color2,#666)">%s</div></div>`+"\n",
			html.EscapeString(c.name), html.EscapeString(c.value), html.EscapeString(c.note))
	}
	b.WriteString("</div>\n")
	writeReading(&b, o.Reading)
	if o.Link != "" {
		fmt.Fprintf(&b, `<div style="font-size:12px;color:var(--jp-content-font-color2,#555)">link: <code>%s</code></div>`+"\n", html.EscapeString(o.Link))
	}
	b.WriteString("</div>\n")
	return b.String()
}

func joinNotes(a, b string) string {
	if b == "" {
		return a
	}
	return a + " · " + b
}

// writeReading writes sentences as an escaped list.
func writeReading(b *strings.Builder, lines []string) {
	if len(lines) == 0 {
		return
	}
	b.WriteString(`<ul style="margin:4px 0 8px;padding-left:20px;font-size:14px;line-height:1.45">` + "\n")
	for _, l := range lines {
		b.WriteString("<li>" + html.EscapeString(l) + "</li>\n")
	}
	b.WriteString("</ul>\n")
}

// MetricsAtK draws P@k, R@k, MRR@k and nDCG@k over k = 1..N (o.SweepK) with the outcome's k
// marked by a dashed line. k is whole, so each value is a point joined to the next by a step
// (the value holds until the next k), never a slope between two depths that do not exist.
func MetricsAtK(o lab.Outcome) string {
	s := o.State
	return sweepChart(fmt.Sprintf("Metrics at k = 1..%d", len(o.SweepK)),
		fmt.Sprintf("rerank depth %d, relevant = grade ≥ %d, R = %d; dashed line: current k = %d",
			s.Rerank, s.MinGrade, o.Metrics.Denominator, s.K),
		sweepAxis{"k (evaluation depth)", func(m lab.Metrics) int { return m.K }, 1, s.K, fmt.Sprintf("k = %d", s.K)},
		o.SweepK, []string{"P", "R", "MRR", "nDCG"}, "@k")
}

// RerankSweep draws nDCG@k and P@k at the outcome's k as the rerank depth goes over 0..N
// (o.SweepRerank), with the outcome's depth marked.
func RerankSweep(o lab.Outcome) string {
	s := o.State
	return sweepChart(fmt.Sprintf("Rerank depth sweep at k = %d", s.K),
		fmt.Sprintf("depth 0 = first-stage order; relevant = grade ≥ %d; dashed line: current depth %d", s.MinGrade, s.Rerank),
		sweepAxis{"rerank depth (candidates reordered)", func(m lab.Metrics) int { return m.Rerank }, 0, s.Rerank, fmt.Sprintf("depth %d", s.Rerank)},
		o.SweepRerank, []string{"nDCG", "P"}, fmt.Sprintf("@%d", s.K))
}

// sweepAxis is the x axis of a sweep chart: its name, the swept value of a point, where the axis
// starts, and the state's value (marked, and inside the axis) with its label.
type sweepAxis struct {
	name      string
	x         func(lab.Metrics) int
	min, mark int
	markLabel string
}

// sweepChart draws the named metrics (suffix appended in the legend) of sweep over the axis,
// values on 0..1.
func sweepChart(title, sub string, ax sweepAxis, sweep []lab.Metrics, names []string, suffix string) string {
	xmax := ax.mark
	for _, m := range sweep {
		xmax = max(xmax, ax.x(m))
	}
	c := gc.NewLine()
	c.SetGlobalOptions(frame(title, sub, true)...)
	c.SetGlobalOptions(
		gc.WithTooltipOpts(opts.Tooltip{Show: opts.Bool(true), Trigger: "axis"}),
		gc.WithXAxisOpts(opts.XAxis{Type: "value", Name: ax.name, NameLocation: "middle", NameGap: 28, Min: ax.min, Max: xmax, MinInterval: 1}),
		gc.WithYAxisOpts(opts.YAxis{Type: "value", Name: "value", NameLocation: "middle", NameGap: 40, Min: 0, Max: 1}),
	)
	addMetricLines(c, sweep, ax.x, names, suffix, ax.mark, ax.markLabel)
	return render(c, title, 380)
}

// addMetricLines adds one series per named metric ("P", "R", "MRR", "nDCG", named name+suffix in
// the legend) over the whole numbers x(m): points joined by steps (step "end": the value at x
// holds until the next x), and the mark line at markX on the first of them.
func addMetricLines(c *gc.Line, sweep []lab.Metrics, x func(lab.Metrics) int, names []string, suffix string, markX int, markLabel string) {
	for i, name := range names {
		idx, value := metricIndex(name)
		data := make([]opts.LineData, len(sweep))
		for j, m := range sweep {
			data[j] = opts.LineData{Value: []any{x(m), value(m)}}
		}
		legend := name + suffix
		color := metricColors[idx]
		c.AddSeries(legend, data,
			gc.WithLineChartOpts(opts.LineChart{Symbol: "circle", SymbolSize: 6, Step: "end"}),
			gc.WithItemStyleOpts(opts.ItemStyle{Color: color}),
			gc.WithLineStyleOpts(opts.LineStyle{Color: color, Width: 2.2}),
			seriesOpts(func(ss *gc.SingleSeries) {
				if i == 0 {
					ss.MarkLines = markLineX(markX, markLabel)
				}
			}))
	}
}

// metricIndex maps a metric name to its colour index and value.
func metricIndex(name string) (int, func(lab.Metrics) float64) {
	switch name {
	case "P":
		return 0, func(m lab.Metrics) float64 { return m.Precision }
	case "R":
		return 1, func(m lab.Metrics) float64 { return m.Recall }
	case "MRR":
		return 2, func(m lab.Metrics) float64 { return m.MRR }
	case "nDCG":
		return 3, func(m lab.Metrics) float64 { return m.NDCG }
	}
	panic("charts: unknown metric " + name)
}
