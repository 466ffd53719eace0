package charts

import (
	"fmt"

	gc "github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"
	"github.com/ranklab/ranklab/lab"
)

// Rerank draws what prefix reranking did to the ranking, as a slope chart: for every candidate
// a line from its first-stage rank (left) to its rank after reranking (right), in blue when it
// moved up, orange when it moved down and grey when it kept its rank; the ends carry the doc
// ID (for up to 30 candidates) and a dot coloured by grade. The subtitle counts the moved
// items and states that the tail beyond the rerank depth did not move.
func Rerank(o lab.Outcome) string { return rerankChart(o, 900) }

// rerankChart is Rerank with its height (22 px per candidate, at least 360) capped at maxHeight.
func rerankChart(o lab.Outcome, maxHeight int) string {
	s := o.State
	n := len(o.Items)
	moved := 0
	groups := map[string][]any{}
	for _, it := range o.Items {
		key := "unchanged"
		switch {
		case it.Rank < it.FirstRank:
			key = "moved up"
		case it.Rank > it.FirstRank:
			key = "moved down"
		}
		if key != "unchanged" {
			moved++
		}
		groups[key] = append(groups[key], map[string]any{
			"tooltip": tooltipMap(fmt.Sprintf("%s (%s), grade %d: rank %d → %d", it.Doc, it.Label, it.Grade, it.FirstRank, it.Rank)),
			"coords":  [][2]int{{0, it.FirstRank}, {1, it.Rank}},
		})
	}
	title := fmt.Sprintf("Reranking the first %d: %d of %d items moved", s.Rerank, moved, n)
	sub := "left: first-stage rank, right: rank after reranking; dot colour = grade"
	switch {
	case s.Rerank == 0:
		title = "Reranking off (depth 0): the first-stage order is kept"
	case s.Rerank < n:
		sub += fmt.Sprintf("; ranks %d–%d (beyond the rerank depth) unchanged", s.Rerank+1, n)
	}
	c := gc.NewLine()
	c.SetGlobalOptions(frame(title, sub, true)...)
	c.SetGlobalOptions(
		gc.WithXAxisOpts(opts.XAxis{Type: "category", Position: "bottom", AxisLine: &opts.AxisLine{Show: opts.Bool(false)}, AxisTick: &opts.AxisTick{Show: opts.Bool(false)},
			AxisLabel: &opts.AxisLabel{FontSize: 13, FontWeight: "bold"}}),
		gc.WithYAxisOpts(opts.YAxis{Type: "value", Name: "rank (1 = top)", NameLocation: "middle", NameGap: 14, Inverse: opts.Bool(true),
			Min: 0, Max: n + 1, AxisLabel: &opts.AxisLabel{Show: opts.Bool(false)},
			SplitLine: &opts.SplitLine{Show: opts.Bool(false)}}),
	)
	c.SetXAxis([]string{"first stage", "after reranking"})
	for _, key := range []string{"moved up", "moved down", "unchanged"} {
		color := map[string]string{"moved up": colorUp, "moved down": colorDown, "unchanged": colorSame}[key]
		width := float32(2.5)
		if key == "unchanged" {
			width = 1.5
		}
		data := groups[key]
		c.AddSeries(key, nil, seriesOpts(func(ss *gc.SingleSeries) {
			ss.Type = "lines"
			ss.CoordSystem = "cartesian2d"
			ss.Data = data
			ss.Color = color
			ss.LineStyle = &opts.LineStyle{Color: color, Width: width, Opacity: opts.Float(0.9)}
		}))
	}
	for side, pos := range []string{"left", "right"} {
		pts := make([]any, n)
		for i, it := range o.Items {
			rank := it.FirstRank
			if side == 1 {
				rank = it.Rank
			}
			p := map[string]any{
				"tooltip":   tooltipMap(fmt.Sprintf("%s (%s), grade %d, rank %d", it.Doc, it.Label, it.Grade, rank)),
				"value":     []int{side, rank},
				"itemStyle": map[string]any{"color": gradeColor(it.Grade), "borderColor": "#333", "borderWidth": 0.5},
			}
			label := fmt.Sprintf("%d  %s", rank, it.Doc)
			if side == 1 {
				label = fmt.Sprintf("%s  %d", it.Doc, rank)
			}
			if n > maxLabelledRanks {
				label = fmt.Sprint(rank)
			}
			p["label"] = map[string]any{"show": n <= 2*maxLabelledRanks, "position": pos, "formatter": label, "fontSize": 11}
			pts[i] = p
		}
		c.AddSeries(map[string]string{"left": "first-stage ranks", "right": "reranked ranks"}[pos], nil, seriesOpts(func(ss *gc.SingleSeries) {
			ss.Type = "scatter"
			ss.Data = pts
			ss.SymbolSize = 9
		}))
	}
	c.SetGlobalOptions(gc.WithLegendOpts(opts.Legend{Show: opts.Bool(true), Top: "52", Left: "8",
		Data: []string{"moved up", "moved down", "unchanged"}}))
	return render(c, title, max(360, min(maxHeight, 120+22*n)))
}
