package charts

import (
	"encoding/json"
	"html"

	gc "github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"
	"github.com/go-echarts/go-echarts/v2/types"
)

// metricColors are the colours of the four lab metrics, in the order P, R, MRR, nDCG (colors.go
// lists every chart colour with its dark-theme counterpart).
var metricColors = [...]string{"#1f77b4", "#d95f02", "#2ca02c", "#9467bd"}

// gradeColor is the colour of a grade; grades outside 0..3 get the nearest end of the scale.
func gradeColor(g int) string {
	return gradeColors[max(0, min(g, len(gradeColors)-1))]
}

// frame returns the options every chart shares: the title (with a subtitle line), the legend
// under the title when legend is true, an item tooltip and a grid that leaves room for both.
func frame(title, subtitle string, legend bool) []gc.GlobalOpts {
	top := "62"
	if legend {
		top = "90"
	}
	return []gc.GlobalOpts{
		gc.WithTitleOpts(opts.Title{Title: title, Subtitle: subtitle, Left: "8", Top: "2",
			TitleStyle: &opts.TextStyle{FontSize: 15}, SubtitleStyle: &opts.TextStyle{FontSize: 12, Color: "#555"}}),
		gc.WithLegendOpts(opts.Legend{Show: opts.Bool(legend), Top: "52", Left: "8"}),
		gc.WithTooltipOpts(opts.Tooltip{Show: opts.Bool(true), Trigger: "item"}),
		gc.WithGridOpts(opts.Grid{Left: "56", Right: "48", Top: top, Bottom: "48", ContainLabel: opts.Bool(true)}),
	}
}

// yValue is a value axis with a name placed at the middle of the axis.
func yValue(name string) opts.YAxis {
	return opts.YAxis{Type: "value", Name: name, NameLocation: "middle", NameGap: 44}
}

// validator is what every go-echarts chart offers: Validate fills the axes, JSON the option.
type validator interface {
	Validate()
	JSON() map[string]interface{}
}

// render validates a go-echarts chart and wraps its option into a fragment.
func render(c validator, title string, height int) string {
	c.Validate()
	js, err := json.Marshal(c.JSON())
	if err != nil {
		panic("charts: cannot encode the ECharts option: " + err.Error())
	}
	return fragment(title, js, height)
}

// errorBox is the fragment shown instead of a chart whose input is invalid: a visible,
// escaped message (plain HTML).
func errorBox(msg string) string {
	return `<div class="ranklab-error" style="border:1px solid #d62728;color:#a00;padding:8px 12px;` +
		`font-family:sans-serif;font-size:14px;border-radius:4px">` + html.EscapeString(msg) + "</div>\n"
}

// seriesOpts applies fn to the series being added (for fields go-echarts has no helper for).
func seriesOpts(fn func(s *gc.SingleSeries)) gc.SeriesOpts { return gc.WithSeriesOpts(fn) }

// markLineX is a vertical mark line at x with a label, drawn dashed in the marker colour.
func markLineX(x any, label string) *opts.MarkLines {
	return &opts.MarkLines{
		Data: []interface{}{map[string]any{"xAxis": x, "name": label}},
		MarkLineStyle: opts.MarkLineStyle{
			Symbol:    []string{"none", "none"},
			Label:     &opts.Label{Show: opts.Bool(true), Formatter: "{b}", Color: colorMark},
			LineStyle: &opts.LineStyle{Color: colorMark, Type: "dashed", Width: 1.5},
		},
	}
}

// itemTooltip is a data item's tooltip showing text. ECharts inserts a tooltip formatter's
// result as HTML, so the text is HTML-escaped here (data strings never reach the tooltip any
// other way: no chart uses ECharts' {b} templates for them).
func itemTooltip(text string) *opts.Tooltip {
	return &opts.Tooltip{Formatter: types.FuncStr(html.EscapeString(text))}
}

// tooltipMap is itemTooltip for data items built as maps.
func tooltipMap(text string) map[string]any {
	return map[string]any{"formatter": html.EscapeString(text)}
}
