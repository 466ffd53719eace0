package charts

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	gc "github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"
)

// Plot is the frame of a general chart (Bars, Lines): titles, axis names, the x categories and
// the y axis. Every field's zero value means "automatic".
//
// The y axis is honest by default: it starts at 0 (or below, when a value is negative) and ends
// at a round number above every value, interval, reference line and band. YMax > 0 makes it
// reach at least YMax (1 for measures in [0, 1]). Zoom fits the axis to the values instead; the
// subtitle then says that the axis does not start at 0.
type Plot struct {
	Title, Subtitle string
	X, Y            string   // axis names
	Categories      []string // the x positions, in order: Series.Values[i] is drawn at Categories[i]
	YMax            float64
	Zoom            bool
	Stacked         bool   // Bars: the series share one column per category (e.g. one of them has a value at each)
	Refs            []Ref  // horizontal reference lines
	Bands           []Band // shaded horizontal bands
	Height          int    // pixels; 0 means 360 (defaultHeight)
}

// Series is one named sequence of values over Plot.Categories.
type Series struct {
	Name   string
	Values []float64 // one per category; NaN leaves the position empty
	// Low and High, when not nil, are an interval per value (the same length as Values), drawn as
	// an error bar at the value's bar or point; NaN leaves one out.
	Low, High []float64
	Labels    []string // text beside each value (nil: none; "" leaves one out)
	Color     string   // CSS colour; "" takes the next colour of the palette
	Step      bool     // Lines: join the points by steps (a value holds until the next category)
}

// Ref is a horizontal reference line at Y, labelled inside the plot area at its right end.
type Ref struct {
	Y     float64
	Label string
	Color string // "" means dark grey
}

// Band is a shaded horizontal band from From to To, e.g. a confidence interval, with an optional
// label.
type Band struct {
	From, To float64
	Label    string
}

// palette gives series without a Color their colour, in order.
var palette = [...]string{"#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"}

// symbols tell the series of Lines apart without colour.
var symbols = [...]string{"circle", "diamond", "triangle", "rect", "roundRect", "pin"}

// Bar layout, set on every bar series so that error bars can be placed at each bar's centre.
const (
	barCategoryGap = 0.2 // share of a category's width left empty between groups
	barGap         = 0.3 // gap between the bars of one group, as a share of a bar's width
)

// Bars draws one bar per series and category, grouped by category (stacked with p.Stacked),
// with the series' intervals as error bars, p.Refs as labelled lines and p.Bands shaded. Invalid
// input (a series whose Values, Low, High or Labels do not match the categories) gives a
// visible error box instead of a chart.
func Bars(p Plot, series ...Series) string { return plot(p, series, true) }

// Lines draws each series as points at its categories, with distinct symbols, and with the
// series' intervals as error bars; a series with Step set joins its points by steps (the value
// holds until the next category). Points are not joined by sloped lines: the categories are
// whole positions and nothing lies between them. p.Refs and p.Bands are drawn as in Bars.
// Invalid input gives a visible error box.
func Lines(p Plot, series ...Series) string { return plot(p, series, false) }

func plot(p Plot, series []Series, bars bool) string {
	who := "Lines"
	if bars {
		who = "Bars"
	}
	if err := checkPlot(p, series); err != nil {
		return errorBox("charts: " + who + ": " + err.Error())
	}
	lo, hi, step := yRange(p, series)
	sub := p.Subtitle
	if p.Zoom && (lo > 0 || hi < 0) {
		sub = joinSub(sub, fmt.Sprintf("y axis truncated: it shows %s to %s, not 0", num(lo), num(hi)))
	}
	names := make([]string, len(series))
	for i, s := range series {
		names[i] = s.Name
	}
	c := gc.NewBar()
	c.SetGlobalOptions(frame(p.Title, sub, len(series) > 1)...)
	c.SetGlobalOptions(
		gc.WithLegendOpts(opts.Legend{Show: opts.Bool(len(series) > 1), Top: "52", Left: "8", Data: names}),
		gc.WithXAxisOpts(categoryAxis(p.Categories, p.X)),
		gc.WithYAxisOpts(opts.YAxis{Type: "value", Name: p.Y, NameLocation: "middle", NameGap: 48,
			Min: lo, Max: hi, SplitNumber: int(math.Round((hi - lo) / step)),
			// Off zero: the axis line would otherwise stand at 0 of the hidden value x axis.
			AxisLine: &opts.AxisLine{Show: opts.Bool(false), OnZero: opts.Bool(false)}}),
	)
	c.SetXAxis(p.Categories)
	// A hidden value axis over the categories (category i at i) places the error bars.
	n := len(p.Categories)
	c.ExtendXAxis(opts.XAxis{Type: "value", Show: opts.Bool(false), Min: -0.5, Max: float64(n) - 0.5})
	width, offsets := barOffsets(len(series), bars && !p.Stacked)
	for i, s := range series {
		color := s.Color
		if color == "" {
			color = palette[i%len(palette)]
		}
		data := make([]any, len(s.Values))
		for j, v := range s.Values {
			data[j] = item(p, s, j, v)
		}
		symbol := symbols[i%len(symbols)]
		c.AddSeries(s.Name, nil, seriesOpts(func(ss *gc.SingleSeries) {
			ss.Data = data
			ss.Color = color
			if bars {
				ss.BarGap = pct(barGap)
				ss.BarCategoryGap = pct(barCategoryGap)
				if p.Stacked {
					ss.Stack = "all"
				}
				return
			}
			ss.Type = "line"
			ss.Symbol = symbol
			ss.SymbolSize = 9
			ss.LineStyle = &opts.LineStyle{Color: color, Width: 1.5}
			if s.Step {
				ss.Step = "end"
			} else {
				ss.LineStyle.Opacity = opts.Float(0) // points only
			}
		}))
		if s.Low != nil {
			bars := errorBars(p, s, offsets[i], width)
			c.AddSeries(s.Name, nil, seriesOpts(func(ss *gc.SingleSeries) {
				ss.Type = "lines"
				ss.CoordSystem = "cartesian2d"
				ss.XAxisIndex = 1
				ss.Data = bars
				ss.LineStyle = &opts.LineStyle{Color: color, Width: 1.5, Opacity: opts.Float(1)}
			}))
		}
	}
	if len(p.Refs) > 0 || len(p.Bands) > 0 {
		// A series without data carries the lines and bands, so hiding a series in the legend
		// keeps them.
		c.AddSeries("", nil, seriesOpts(func(ss *gc.SingleSeries) {
			ss.Type = "line"
			ss.Data = []any{}
			ss.MarkLines = refLines(p.Refs)
			ss.MarkAreas = bands(p.Bands)
		}))
	}
	height := p.Height
	if height <= 0 {
		height = defaultHeight
	}
	return render(c, p.Title, height)
}

// checkPlot reports series that do not match the categories.
func checkPlot(p Plot, series []Series) error {
	if len(series) == 0 {
		return fmt.Errorf("no series")
	}
	n := len(p.Categories)
	for _, s := range series {
		for _, f := range []struct {
			what string
			len  int
			set  bool
		}{{"values", len(s.Values), true}, {"low ends", len(s.Low), s.Low != nil}, {"high ends", len(s.High), s.High != nil},
			{"labels", len(s.Labels), s.Labels != nil}} {
			if f.set && f.len != n {
				return fmt.Errorf("series %q has %d %s for %d categories", s.Name, f.len, f.what, n)
			}
		}
		if (s.Low == nil) != (s.High == nil) {
			return fmt.Errorf("series %q has only one end of its intervals", s.Name)
		}
		for _, v := range append(append(append([]float64{}, s.Values...), s.Low...), s.High...) {
			if math.IsInf(v, 0) {
				return fmt.Errorf("series %q has an infinite value", s.Name)
			}
		}
	}
	return nil
}

// item is one value's data item: the value ("-" for NaN: no bar, no point), its tooltip and
// its label.
func item(p Plot, s Series, j int, v float64) map[string]any {
	if math.IsNaN(v) {
		return map[string]any{"value": "-"}
	}
	tip := fmt.Sprintf("%s: %s", p.Categories[j], num(v))
	if s.Name != "" {
		tip = s.Name + " · " + tip
	}
	if s.Low != nil && !math.IsNaN(s.Low[j]) && !math.IsNaN(s.High[j]) {
		tip += fmt.Sprintf(" [%s, %s]", num(s.Low[j]), num(s.High[j]))
	}
	if s.Labels != nil && s.Labels[j] != "" {
		tip += " " + s.Labels[j]
	}
	it := map[string]any{"value": v, "tooltip": tooltipMap(tip)}
	if s.Labels != nil && s.Labels[j] != "" {
		pos := "top"
		if s.Low != nil {
			pos = "right" // above would sit on the error bar
		}
		it["label"] = map[string]any{"show": true, "position": pos, "formatter": plainText(s.Labels[j]), "fontSize": 11, "color": "#333"}
	}
	return it
}

// barOffsets returns the width of one bar and the centre of each series' bar relative to its
// category's centre, in category widths, as ECharts lays out grouped bars with barGap and
// barCategoryGap; for points and stacked bars every offset is 0 and the width that of a point.
func barOffsets(n int, grouped bool) (width float64, offsets []float64) {
	offsets = make([]float64, n)
	if !grouped {
		return 0.25, offsets
	}
	width = (1 - barCategoryGap) / (float64(n) + float64(n-1)*barGap)
	sum := float64(n)*width*(1+barGap) - width*barGap
	for i := range offsets {
		offsets[i] = -sum/2 + float64(i)*width*(1+barGap) + width/2
	}
	return width, offsets
}

// errorBars are the segments of a series' intervals on the hidden value axis: a vertical line
// from low to high at each value's bar or point, with caps at both ends.
func errorBars(p Plot, s Series, offset, width float64) []any {
	var out []any
	cap := width * 0.3
	for j := range s.Values {
		lo, hi := s.Low[j], s.High[j]
		if math.IsNaN(lo) || math.IsNaN(hi) || math.IsNaN(s.Values[j]) {
			continue
		}
		x := float64(j) + offset
		tip := tooltipMap(fmt.Sprintf("%s · %s: interval [%s, %s]", s.Name, p.Categories[j], num(lo), num(hi)))
		for _, seg := range [][2][2]float64{{{x, lo}, {x, hi}}, {{x - cap, lo}, {x + cap, lo}}, {{x - cap, hi}, {x + cap, hi}}} {
			out = append(out, map[string]any{"coords": seg, "tooltip": tip})
		}
	}
	return out
}

// refLines are the horizontal reference lines, labelled at their right end inside the plot
// (a label outside it would be cut off by the chart's edge). They take no tooltip.
func refLines(refs []Ref) *opts.MarkLines {
	if len(refs) == 0 {
		return nil
	}
	var data []any
	for _, r := range refs {
		color := r.Color
		if color == "" {
			color = "#444"
		}
		data = append(data, map[string]any{"yAxis": r.Y,
			"label":     map[string]any{"show": true, "formatter": plainText(r.Label), "position": "insideEndTop", "color": color},
			"lineStyle": map[string]any{"color": color, "type": "dashed", "width": 1.5}})
	}
	return &opts.MarkLines{Data: data, MarkLineStyle: opts.MarkLineStyle{Symbol: []string{"none", "none"}}}
}

// bands are the shaded horizontal bands, labelled at their bottom right inside the plot (bars
// drawn over a band hide its left part).
func bands(bs []Band) *opts.MarkAreas {
	if len(bs) == 0 {
		return nil
	}
	var data []any
	for _, b := range bs {
		data = append(data, []any{
			map[string]any{"yAxis": b.From, "label": map[string]any{"show": b.Label != "", "formatter": plainText(b.Label),
				"position": "insideBottomRight", "color": "#555"}},
			map[string]any{"yAxis": b.To},
		})
	}
	return &opts.MarkAreas{Data: data, MarkAreaStyle: opts.MarkAreaStyle{ItemStyle: &opts.ItemStyle{Color: "rgba(11,92,173,0.12)"}}}
}

// yRange returns the y axis' ends and its tick step (1, 2 or 5 times a power of ten, so that
// ECharts keeps the ticks on round numbers): from 0 (or the lowest value below it) to a round
// number above every value, or fitted to the values with p.Zoom.
func yRange(p Plot, series []Series) (lo, hi, step float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	see := func(v float64) {
		if !math.IsNaN(v) {
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
	}
	for _, s := range series {
		for _, xs := range [][]float64{s.Values, s.Low, s.High} {
			for _, v := range xs {
				see(v)
			}
		}
	}
	for _, r := range p.Refs {
		see(r.Y)
	}
	for _, b := range p.Bands {
		see(b.From)
		see(b.To)
	}
	if p.YMax > 0 {
		see(p.YMax)
	}
	if math.IsInf(lo, 1) { // nothing to show
		return 0, 1, 0.2
	}
	if p.Zoom {
		pad := (hi - lo) * 0.05
		if pad == 0 {
			pad = math.Max(math.Abs(hi)*0.05, 0.05)
		}
		// Padding never crosses 0: values that are all ≥ 0 get no negative axis.
		if lo >= 0 {
			lo = math.Max(0, lo-pad)
		} else {
			lo -= pad
		}
		if hi <= 0 {
			hi = math.Min(0, hi+pad)
		} else {
			hi += pad
		}
	} else {
		lo, hi = math.Min(lo, 0), math.Max(hi, 0)
	}
	if hi == lo {
		hi = lo + 1
	}
	step = niceStep((hi - lo) / 5)
	lo, hi = round12(math.Floor(lo/step+1e-9)*step), round12(math.Ceil(hi/step-1e-9)*step)
	if !p.Zoom && lo > 0 {
		lo = 0
	}
	return lo, hi, step
}

// niceStep rounds x > 0 to 1, 2 or 5 times a power of ten, the nearest as ECharts' own ticks
// round (a mantissa below 1.5 gives 1, below 3.5 gives 2, below 7 gives 5, else 10).
func niceStep(x float64) float64 {
	e := math.Pow(10, math.Floor(math.Log10(x)))
	switch f := x / e; {
	case f < 1.5:
		return e
	case f < 3.5:
		return 2 * e
	case f < 7:
		return 5 * e
	}
	return 10 * e
}

// round12 removes floating-point noise (0.30000000000000004) from an axis end.
func round12(x float64) float64 {
	v, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'g', 12, 64), 64)
	return v
}

// num prints a value with at most four significant digits after the point: 0.7518, 33.33, 30.
func num(v float64) string {
	if v == math.Trunc(v) && math.Abs(v) < 1e15 {
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	if math.Abs(v) >= 1000 {
		return strconv.FormatFloat(v, 'f', 1, 64)
	}
	return strconv.FormatFloat(v, 'g', 4, 64)
}

// pct writes a share as an ECharts percentage string.
func pct(x float64) string { return strconv.FormatFloat(100*x, 'f', -1, 64) + "%" }

// plainText keeps a label from being read as an ECharts template ({a}, {b}, {c}) or rich text
// ({style|text}): braces become their full-width forms. Labels are drawn on the canvas, never
// as HTML.
func plainText(s string) string { return strings.NewReplacer("{", "｛", "}", "｝").Replace(s) }

// joinSub appends a clause to a subtitle.
func joinSub(sub, clause string) string {
	if sub == "" {
		return clause
	}
	return sub + "; " + clause
}

// categoryAxis is a category x axis named name: every label shown level for up to 12 categories
// of about 90 characters together; rotated and cut at about 90 px for up to 40; none beyond (the
// categories are in the tooltips).
func categoryAxis(cats []string, name string) opts.XAxis {
	longest := 0
	for _, c := range cats {
		longest = max(longest, len([]rune(c)))
	}
	if len(cats) <= 12 && len(cats)*longest <= 90 {
		return opts.XAxis{Type: "category", Name: name, NameLocation: "middle", NameGap: 30,
			AxisLabel: &opts.AxisLabel{Interval: "0"}}
	}
	return queryAxis(len(cats), name)
}
