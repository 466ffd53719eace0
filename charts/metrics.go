package charts

import (
	"fmt"
	"html"
	"strings"

	gc "github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"
	"github.com/ranklab/ranklab/lab"
)

// labMetric is one of the lab's four measures. labMetrics declares them once: the cards, the
// ranking table's caption, the metrics-over-k and rerank-sweep lines and their colours all
// come from it.
type labMetric struct {
	key   string // test hook (data-metric, data-metric-card) and CSV key
	short string // legend name: P, R, MRR, nDCG (+ "@k")
	name  string // card name: Precision, Recall, MRR, nDCG (+ "@k")
	color string
	value func(lab.Metrics) float64
	note  func(lab.Outcome) string // the card's note ("" for none), before the first-stage value
}

var labMetrics = []labMetric{
	{"precision", "P", "Precision", metricColors[0], func(m lab.Metrics) float64 { return m.Precision },
		func(lab.Outcome) string { return "" }},
	{"recall", "R", "Recall", metricColors[1], func(m lab.Metrics) float64 { return m.Recall },
		func(o lab.Outcome) string { return fmt.Sprintf("of R = %d", o.Metrics.Denominator) }},
	{"mrr", "MRR", "MRR", metricColors[2], func(m lab.Metrics) float64 { return m.MRR },
		func(lab.Outcome) string { return "RR of this query" }},
	{"ndcg", "nDCG", "nDCG", metricColors[3], func(m lab.Metrics) float64 { return m.NDCG },
		func(lab.Outcome) string { return "gain 2^grade − 1" }},
}

// labMetricByShort returns the metric whose short name is name; an unknown name is a bug of this
// package and panics.
func labMetricByShort(name string) labMetric {
	for _, m := range labMetrics {
		if m.short == name {
			return m
		}
	}
	panic("charts: unknown metric " + name)
}

// labMetricShorts returns the short names of labMetrics in order.
func labMetricShorts() []string {
	out := make([]string, len(labMetrics))
	for i, m := range labMetrics {
		out[i] = m.short
	}
	return out
}

// MetricCards shows the outcome's measures as plain HTML cards (no JavaScript), under the query
// the ranking answers (when the outcome has one): Precision@k, Recall@k, MRR@k, nDCG@k and the relevant items inside k, each with its first-stage value when
// reranking is on, followed by the metric reading and the state's link. Values are printed with
// three decimals.
func MetricCards(o lab.Outcome) string {
	var b strings.Builder
	b.WriteString(`<div class="ranklab-cards" style="font-family:system-ui,'DejaVu Sans',sans-serif;color:var(--jp-content-font-color1,#222);max-width:980px">` + "\n")
	if o.Query != "" {
		fmt.Fprintf(&b, `<div style="font-size:14px;margin:2px 0 4px">query: <q data-query>%s</q></div>`+"\n", html.EscapeString(o.Query))
	}
	writeCards(&b, o, false)
	writeReading(&b, o.Reading, false)
	if o.Link != "" {
		fmt.Fprintf(&b, `<div style="font-size:12px;color:var(--jp-content-font-color2,#555)">link: <code>%s</code></div>`+"\n", html.EscapeString(o.Link))
	}
	b.WriteString("</div>\n")
	return b.String()
}

// metricCardsCompact is the live panel's row of cards: MetricCards' cards in smaller type,
// without the query (the ranking's title shows it), the reading (beside the ranking) and the
// link (the panel's Copy link).
func metricCardsCompact(o lab.Outcome) string {
	var b strings.Builder
	b.WriteString(`<div class="ranklab-cards" style="font-family:system-ui,'DejaVu Sans',sans-serif;color:var(--jp-content-font-color1,#222);max-width:980px">` + "\n")
	writeCards(&b, o, true)
	b.WriteString("</div>\n")
	return b.String()
}

// writeCards writes one card per lab metric and one for the relevant items inside k, each
// marked data-metric-card="<key>".
func writeCards(b *strings.Builder, o lab.Outcome, compact bool) {
	s, m, f := o.State, o.Metrics, o.FirstMetrics
	k := s.K
	type card struct{ key, name, value, note string }
	var cards []card
	for _, lm := range labMetrics {
		note, name := lm.note(o), fmt.Sprintf("%s@%d", lm.name, k)
		if compact { // one short line: the static notes are in the reading; recall's R joins its name
			note = ""
			if lm.key == "recall" {
				name += fmt.Sprintf(" of R = %d", m.Denominator)
			}
		}
		if s.Rerank > 0 {
			note = joinNotes(note, fmt.Sprintf("first stage %.3f", lm.value(f)))
		}
		cards = append(cards, card{lm.key, name, fmt.Sprintf("%.3f", lm.value(m)), note})
	}
	cards = append(cards, card{"relevant", fmt.Sprintf("relevant in top %d", k), fmt.Sprintf("%d / %d", m.RelevantInK, k), fmt.Sprintf("grade ≥ %d", s.MinGrade)})
	gap, pad, flex, nameF, valueF, noteF, margin := 10, "8px 14px", "0 1 auto;min-width:130px", 13, 24, 12, "4px 0 10px"
	if compact {
		gap, pad, flex, nameF, valueF, noteF, margin = 8, "3px 10px", "1 1 0;min-width:0", 12, 18, 11, "2px 0 2px"
	}
	fmt.Fprintf(b, `<div style="display:flex;flex-wrap:wrap;gap:%dpx;margin:%s">`+"\n", gap, margin)
	for _, c := range cards {
		fmt.Fprintf(b, `<div data-metric-card="%s" style="border:1px solid var(--jp-border-color1,#ccd);border-radius:6px;padding:%s;flex:%s;background:var(--jp-layout-color2,#f7f9fc)">`+
			`<div style="font-size:%dpx;color:var(--jp-content-font-color2,#555)">%s</div><div style="font-size:%dpx;font-weight:600;line-height:1.2">%s</div>`+
			`<div style="font-size:%dpx;color:var(--jp-content-font-color2,#666)">%s</div></div>`+"\n",
			c.key, pad, flex, nameF, html.EscapeString(c.name), valueF, html.EscapeString(c.value), noteF, html.EscapeString(c.note))
	}
	b.WriteString("</div>\n")
}

func joinNotes(a, b string) string {
	if a == "" {
		return b
	}
	if b == "" {
		return a
	}
	return a + " · " + b
}

// writeReading writes sentences as an escaped list marked data-reading (compact: smaller type).
func writeReading(b *strings.Builder, lines []string, compact bool) {
	if len(lines) == 0 {
		return
	}
	style := "margin:4px 0 8px;padding-left:20px;font-size:14px;line-height:1.45"
	if compact {
		style = "margin:2px 0;padding-left:16px;font-size:12px;line-height:1.32"
	}
	b.WriteString(`<ul data-reading style="` + style + `">` + "\n")
	for _, l := range lines {
		b.WriteString("<li>" + html.EscapeString(l) + "</li>\n")
	}
	b.WriteString("</ul>\n")
}

// MetricsAtK draws P@k, R@k, MRR@k and nDCG@k over k = 1..N (o.SweepK) with the outcome's k
// marked by a dashed line. k is whole, so each value is a point joined to the next by a step
// (the value holds until the next k), never a slope between two depths that do not exist.
func MetricsAtK(o lab.Outcome) string { return metricsAtK(o, 380) }

// metricsAtK is MetricsAtK at the given height in pixels.
func metricsAtK(o lab.Outcome, height int) string {
	s := o.State
	return sweepChart(fmt.Sprintf("Metrics at k = 1..%d", len(o.SweepK)),
		fmt.Sprintf("rerank depth %d, relevant = grade ≥ %d, R = %d; dashed line: current k = %d",
			s.Rerank, s.MinGrade, o.Metrics.Denominator, s.K),
		sweepAxis{"k (evaluation depth)", func(m lab.Metrics) int { return m.K }, 1, s.K, fmt.Sprintf("k = %d", s.K)},
		o.SweepK, labMetricShorts(), "@k", height)
}

// RerankSweep draws nDCG@k and P@k at the outcome's k as the rerank depth goes over 0..N
// (o.SweepRerank), with the outcome's depth marked.
func RerankSweep(o lab.Outcome) string { return rerankSweep(o, 380) }

// rerankSweep is RerankSweep at the given height in pixels.
func rerankSweep(o lab.Outcome, height int) string {
	s := o.State
	return sweepChart(fmt.Sprintf("Rerank depth sweep at k = %d", s.K),
		fmt.Sprintf("depth 0 = first-stage order; relevant = grade ≥ %d; dashed line: current depth %d", s.MinGrade, s.Rerank),
		sweepAxis{"rerank depth (candidates reordered)", func(m lab.Metrics) int { return m.Rerank }, 0, s.Rerank, fmt.Sprintf("depth %d", s.Rerank)},
		o.SweepRerank, []string{"nDCG", "P"}, fmt.Sprintf("@%d", s.K), height)
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
func sweepChart(title, sub string, ax sweepAxis, sweep []lab.Metrics, names []string, suffix string, height int) string {
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
	return render(c, title, height)
}

// addMetricLines adds one series per named metric ("P", "R", "MRR", "nDCG", named name+suffix in
// the legend) over the whole numbers x(m): points joined by steps (step "end": the value at x
// holds until the next x), and the mark line at markX on the first of them.
func addMetricLines(c *gc.Line, sweep []lab.Metrics, x func(lab.Metrics) int, names []string, suffix string, markX int, markLabel string) {
	for i, name := range names {
		lm := labMetricByShort(name)
		data := make([]opts.LineData, len(sweep))
		for j, m := range sweep {
			data[j] = opts.LineData{Value: []any{x(m), lm.value(m)}}
		}
		legend := name + suffix
		color := lm.color
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
