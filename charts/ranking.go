package charts

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	gc "github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"
	"github.com/ranklab/ranklab/lab"
)

// maxLabelledRanks is the longest ranking whose x-axis labels show the doc ID under the rank.
const maxLabelledRanks = 30

// Ranking draws the ranking after reranking, o.Items, one bar per candidate in rank order, under
// the query it answers (when the outcome has one). Bar height is the first-stage score, so with
// reranking on the heights need not fall from left to right: the bars stand in reranked order
// but keep the first stage's heights (the reranker's scores are on another scale; they are in
// the tooltip; the subtitle and the axis name say so). Bar colour is the grade (0..3, one legend entry per grade), the top k is
// shaded (when k exceeds the list, all of it), a marker sits above each item whose grade clears
// the threshold (grade >= MinGrade) and, when reranking is on, a dashed line ends the reranked
// prefix. The x axis shows the rank and, for up to 30 candidates, the doc ID.
func Ranking(o lab.Outcome) string { return rankingChart(o, 400, false) }

// rankingChart is Ranking at the given height in pixels; compact (the live panel, beside the
// reading) leaves the query out of the title and breaks the subtitle into lines.
func rankingChart(o lab.Outcome, height int, compact bool) string {
	s := o.State
	n := len(o.Items)
	cats := rankCategories(o.Items)
	title := fmt.Sprintf("Ranking: top %d of %d candidates", min(s.K, n), n)
	if o.Query != "" && !compact {
		title = fmt.Sprintf("Ranking for “%s”: top %d of %d", o.Query, min(s.K, n), n)
	}
	sub := fmt.Sprintf("bar = first-stage score, colour = grade, ● = grade ≥ %d (relevant)", s.MinGrade)
	if s.Rerank > 0 {
		sub = fmt.Sprintf("bars in reranked order (ranks 1–%d reordered), height = first-stage score, so heights need not fall; colour = grade, ● = grade ≥ %d",
			min(s.Rerank, n), s.MinGrade)
	}
	yName, yGap := "first-stage score", 44
	if s.Rerank > 0 && !compact {
		yName = "first-stage score (in reranked order)"
	}
	if compact {
		yGap = 36
	}
	// the legend: one entry per grade and the relevant marker; compact (a narrow chart) leaves
	// the marker to the subtitle and draws smaller entries, so they fit one line
	legendData := []string{}
	for g := 0; g <= lab.MaxGrade; g++ {
		legendData = append(legendData, "grade "+strconv.Itoa(g))
	}
	if !compact {
		legendData = append(legendData, fmt.Sprintf("grade ≥ %d (relevant)", s.MinGrade))
	}
	legendTop := "52"
	b := gc.NewBar()
	b.SetGlobalOptions(frame(title, sub, true)...)
	if compact {
		sub = fmt.Sprintf("colour = grade, ● = grade ≥ %d (relevant)", s.MinGrade)
		if s.Rerank > 0 {
			sub = fmt.Sprintf("reranked order (ranks 1–%d), first-stage heights;\ncolour = grade, ● = grade ≥ %d", min(s.Rerank, n), s.MinGrade)
		}
		lines := strings.Count(sub, "\n")
		legendTop = strconv.Itoa(52 + 15*lines)
		b.SetGlobalOptions(
			gc.WithTitleOpts(opts.Title{Title: title, Subtitle: sub, Left: "8", Top: "2",
				TitleStyle: &opts.TextStyle{FontSize: 15}, SubtitleStyle: &opts.TextStyle{FontSize: 12, Color: "#555", LineHeight: 15}}),
			gc.WithLegendOpts(opts.Legend{Show: opts.Bool(true), Top: legendTop, Left: "8", Data: legendData,
				ItemWidth: 14, ItemHeight: 10, TextStyle: &opts.TextStyle{FontSize: 11}}),
			gc.WithGridOpts(opts.Grid{Left: "40", Right: "12", Top: strconv.Itoa(90 + 15*lines), Bottom: "40", ContainLabel: opts.Bool(true)}),
		)
	}
	b.SetGlobalOptions(
		gc.WithXAxisOpts(opts.XAxis{Type: "category", Name: "rank", NameLocation: "middle", NameGap: nameGap(n),
			AxisLabel: &opts.AxisLabel{Interval: "auto"}}),
		gc.WithYAxisOpts(opts.YAxis{Type: "value", Name: yName, NameLocation: "middle", NameGap: yGap,
			Min: 0, Max: headroom(o.Items), AxisLabel: &opts.AxisLabel{ShowMaxLabel: opts.Bool(false)},
			// not on 0 of the hidden value axis of the rerank line (it would cross the first bar)
			AxisLine: &opts.AxisLine{OnZero: opts.Bool(false)}}),
	)
	b.SetXAxis(cats)
	for g := 0; g <= lab.MaxGrade; g++ {
		data := make([]opts.BarData, n)
		for i, it := range o.Items {
			data[i] = opts.BarData{Value: "-"}
			if it.Grade == g || (g == lab.MaxGrade && it.Grade > g) || (g == 0 && it.Grade < 0) {
				data[i] = opts.BarData{Value: it.FirstScore, Tooltip: itemTooltip(itemTip(it, s.Rerank))}
			}
		}
		name := "grade " + strconv.Itoa(g)
		c := gradeColor(g)
		b.AddSeries(name, data, gc.WithBarChartOpts(opts.BarChart{Stack: "rank", BarCategoryGap: "25%"}),
			gc.WithItemStyleOpts(opts.ItemStyle{Color: c}),
			seriesOpts(func(ss *gc.SingleSeries) {
				if g == 0 {
					ss.MarkAreas = topKArea(cats, s.K)
				}
			}))
	}
	marks := []opts.ScatterData{}
	for i, it := range o.Items {
		if it.Relevant {
			marks = append(marks, opts.ScatterData{Name: itemTip(it, s.Rerank), Value: []any{cats[i], it.FirstScore}})
		}
	}
	sc := gc.NewScatter()
	sc.AddSeries(fmt.Sprintf("grade ≥ %d (relevant)", s.MinGrade), marks,
		gc.WithItemStyleOpts(opts.ItemStyle{Color: colorMark}),
		seriesOpts(func(ss *gc.SingleSeries) {
			ss.Symbol = "circle"
			ss.SymbolSize = 8
			ss.Data = relevantMarks(marks)
		}))
	b.Overlap(sc)
	if s.Rerank > 0 && s.Rerank < n {
		b.ExtendXAxis(opts.XAxis{Type: "value", Show: opts.Bool(false), Min: -0.5, Max: float64(n) - 0.5})
		b.Overlap(rerankBoundary(s.Rerank, !compact))
		if !compact {
			b.SetGlobalOptions(gc.WithLegendOpts(opts.Legend{Show: opts.Bool(true), Top: legendTop, Left: "8", Data: legendData}))
		}
	}
	return render(b, title, height)
}

// rerankBoundary is the dashed line that ends the reranked prefix, between the bars of ranks
// rerank and rerank+1. A category axis puts a mark line at a whole category (9.5 lands on the
// bar of rank 11), so the line sits on a second, hidden value axis spanning -0.5..n-0.5, on
// which the bar of category index i is centred at i and the gap after rank r (index r-1) is at
// r-0.5. The series has no data and is left out of the legend. Its label ("reranked: ranks
// 1–r") is left out when label is false (a narrow chart, whose subtitle says it).
func rerankBoundary(rerank int, label bool) *gc.Line {
	l := gc.NewLine()
	l.AddSeries("reranked prefix", nil,
		gc.WithLineChartOpts(opts.LineChart{XAxisIndex: 1}),
		seriesOpts(func(ss *gc.SingleSeries) {
			ss.MarkLines = markLineX(float64(rerank)-0.5, fmt.Sprintf("reranked: ranks 1–%d", rerank))
			ss.MarkLines.Label.Position = "insideEndTop"
			ss.MarkLines.Label.Show = opts.Bool(label)
		}))
	return l
}

// headroom is the y-axis top: the largest first-stage score plus 30% (for the markers and
// the top-k label), rounded up to a whole number; 1 for an empty or all-zero ranking. Its axis
// label is hidden: it rarely falls on the axis' tick step.
func headroom(items []lab.Item) float64 {
	top := 0.0
	for _, it := range items {
		top = max(top, it.FirstScore)
	}
	if top <= 0 {
		return 1
	}
	return math.Ceil(top * 1.3)
}

// relevantMarks lifts each marker 12 px above its bar.
func relevantMarks(marks []opts.ScatterData) []any {
	out := make([]any, len(marks))
	for i, m := range marks {
		out[i] = map[string]any{"tooltip": tooltipMap(m.Name), "value": m.Value, "symbolOffset": []int{0, -12}}
	}
	return out
}

// rankCategories names the x-axis slots: "rank\ndoc" for short lists, the rank alone otherwise.
func rankCategories(items []lab.Item) []string {
	cats := make([]string, len(items))
	for i, it := range items {
		cats[i] = strconv.Itoa(it.Rank)
		if len(items) <= maxLabelledRanks {
			cats[i] += "\n" + it.Doc
		}
	}
	return cats
}

// nameGap leaves room under two-line category labels for the axis name.
func nameGap(n int) int {
	if n <= maxLabelledRanks {
		return 40
	}
	return 26
}

// topKArea shades the first k categories (all of them when k is beyond the list).
func topKArea(cats []string, k int) *opts.MarkAreas {
	if len(cats) == 0 {
		return nil
	}
	last := min(k, len(cats)) - 1
	label := fmt.Sprintf("top k = %d", k)
	if k > len(cats) {
		label += fmt.Sprintf(" (beyond the %d candidates)", len(cats))
	}
	return &opts.MarkAreas{
		Data: []interface{}{[]any{
			map[string]any{"name": label, "xAxis": cats[0]},
			map[string]any{"xAxis": cats[last]},
		}},
		MarkAreaStyle: opts.MarkAreaStyle{
			ItemStyle: &opts.ItemStyle{Color: colorHighlight, BorderColor: "#e0a800", BorderWidth: 1},
			Label:     &opts.Label{Show: opts.Bool(true), Position: "insideTop", Color: colorKLabel, FontWeight: "bold"},
		},
	}
}

// itemTip is the tooltip text of one ranked item.
func itemTip(it lab.Item, rerank int) string {
	t := fmt.Sprintf("rank %d: %s (%s), grade %d, first-stage score %.2f", it.Rank, it.Doc, it.Label, it.Grade, it.FirstScore)
	if it.FirstRank <= rerank {
		t += fmt.Sprintf(", reranker score %.4f", it.RerankScore)
	}
	if it.FirstRank != it.Rank {
		t += fmt.Sprintf(", first-stage rank %d", it.FirstRank)
	}
	return t
}
