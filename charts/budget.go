package charts

import (
	"fmt"
	"strconv"

	gc "github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"
)

// BudgetCurve is one configuration of a chunk-size × budget sweep: a measure's mean at each
// budget, optionally with an interval, and the storage the configuration costs.
type BudgetCurve struct {
	Name      string    // legend label, e.g. "chunk 128"
	Values    []float64 // the measure's mean at each budget
	Low, High []float64 // an interval per budget (e.g. a bootstrap interval of the mean); nil for none
	Indexed   int       // tokens the configuration indexes (its storage footprint)
	Dashed    bool      // draw the line dashed (e.g. the variant with overlap of a chunk size)
}

// budgetColors are the curves' colours after the first (dark grey): ColorBrewer's "Paired",
// dark before light, so a chunk size and its variant (given next to each other) share a hue.
var budgetColors = [...]string{"#1f78b4", "#a6cee3", "#33a02c", "#b2df8a", "#e31a1c", "#fb9a99", "#ff7f00", "#fdbf6f", "#6a3d9a", "#cab2d6"}

// curveColor is the colour of curve i.
func curveColor(i int) string {
	if i == 0 {
		return "#444"
	}
	return budgetColors[(i-1)%len(budgetColors)]
}

// QualityAtBudget draws measure against the context budget, one line per curve (x: the budgets
// in tokens, evenly spaced; the first curve, usually whole documents, dark grey; curves marked
// Dashed dashed; the tooltip gives each value with its interval when the curve has one), and
// beside it the storage footprint of each curve's configuration (millions of tokens indexed,
// bars in the curves' colours, with a dashed line at the corpus's tokens). The two charts come as one HTML fragment, side by side where the page is
// wide enough. Curves whose value count differs from the budgets', or whose interval does,
// give a visible error box instead.
func QualityAtBudget(title, measure string, budgets []int, corpus int, curves []BudgetCurve) string {
	cats := make([]string, len(budgets))
	for i, b := range budgets {
		cats[i] = strconv.Itoa(b)
	}
	for _, c := range curves {
		if len(c.Values) != len(budgets) || (c.Low != nil || c.High != nil) && (len(c.Low) != len(budgets) || len(c.High) != len(budgets)) {
			return errorBox(fmt.Sprintf("charts: QualityAtBudget: curve %q has %d values and %d/%d interval bounds for %d budgets",
				c.Name, len(c.Values), len(c.Low), len(c.High), len(budgets)))
		}
	}
	line := gc.NewLine()
	line.SetGlobalOptions(frame(title, measure+" of what a context of B tokens holds, by chunking", true)...)
	line.SetGlobalOptions(
		gc.WithTooltipOpts(opts.Tooltip{Show: opts.Bool(true), Trigger: "item"}),
		gc.WithXAxisOpts(opts.XAxis{Type: "category", Name: "context budget B (cl100k tokens)", NameLocation: "middle", NameGap: 28}),
		gc.WithYAxisOpts(yValue(measure)),
		gc.WithLegendOpts(opts.Legend{Show: opts.Bool(true), Top: "52", Left: "8", Right: "8"}),
	)
	// WithGridOpts appends a grid to frame's; the series draw on the first, so replace it: the
	// legend may take two rows.
	line.GridList = []opts.Grid{{Left: "56", Right: "48", Top: "132", Bottom: "48", ContainLabel: opts.Bool(true)}}
	line.SetXAxis(cats)
	for i, c := range curves {
		// opts.LineData has no tooltip: the items are maps, set on the series directly.
		data := make([]map[string]any, len(c.Values))
		for j, v := range c.Values {
			tip := fmt.Sprintf("%s, B = %d: %s %.4f", c.Name, budgets[j], measure, v)
			if c.Low != nil {
				tip += fmt.Sprintf(" [%.4f, %.4f]", c.Low[j], c.High[j])
			}
			data[j] = map[string]any{"value": v, "tooltip": tooltipMap(tip)}
		}
		color, style := curveColor(i), "solid"
		if c.Dashed {
			style = "dashed"
		}
		line.AddSeries(c.Name, nil, seriesOpts(func(ss *gc.SingleSeries) { ss.Data = data }),
			gc.WithLineChartOpts(opts.LineChart{Symbol: "circle", SymbolSize: 6}),
			gc.WithItemStyleOpts(opts.ItemStyle{Color: color}),
			gc.WithLineStyleOpts(opts.LineStyle{Color: color, Width: 2, Type: style}))
	}

	names := make([]string, len(curves))
	bars := make([]opts.BarData, len(curves))
	for i, c := range curves {
		names[i] = c.Name
		color := curveColor(i)
		tip := fmt.Sprintf("%s: %d tokens indexed", c.Name, c.Indexed)
		if corpus > 0 {
			tip += fmt.Sprintf(" (%.1f%% duplicated)", 100*float64(c.Indexed-corpus)/float64(corpus))
		}
		bars[i] = opts.BarData{Value: float64(c.Indexed) / 1e6, ItemStyle: &opts.ItemStyle{Color: color}, Tooltip: itemTooltip(tip)}
	}
	bar := gc.NewBar()
	bar.SetGlobalOptions(frame("Storage footprint", "tokens indexed by each chunking", false)...)
	bar.SetGlobalOptions(
		gc.WithXAxisOpts(opts.XAxis{Type: "value", Name: "million tokens indexed", NameLocation: "middle", NameGap: 28, SplitNumber: 4}),
		gc.WithYAxisOpts(opts.YAxis{Type: "category", Inverse: opts.Bool(true), AxisLabel: &opts.AxisLabel{FontSize: 11}}),
	)
	bar.GridList = []opts.Grid{{Left: "8", Right: "40", Top: "132", Bottom: "48", ContainLabel: opts.Bool(true)}}
	bar.SetXAxis(names).XYReversal()
	bar.AddSeries("tokens indexed", bars, seriesOpts(func(ss *gc.SingleSeries) {
		if corpus > 0 {
			ss.MarkLines = &opts.MarkLines{
				Data: []interface{}{map[string]any{"xAxis": float64(corpus) / 1e6, "name": fmt.Sprintf("corpus %.2fM", float64(corpus)/1e6)}},
				MarkLineStyle: opts.MarkLineStyle{Symbol: []string{"none", "none"},
					Label:     &opts.Label{Show: opts.Bool(true), Formatter: "{b}", Color: "#555", Position: "start"},
					LineStyle: &opts.LineStyle{Color: "#777", Type: "dashed"}},
			}
		}
	}))
	height := 420
	return `<div class="ranklab-row" style="display:flex;flex-wrap:wrap;gap:8px;max-width:1400px">` + "\n" +
		`<div style="flex:3 1 560px;min-width:0">` + render(line, title, height) + "</div>\n" +
		`<div style="flex:2 1 340px;min-width:0">` + render(bar, "Storage footprint", height) + "</div>\n</div>\n"
}
