package charts

import (
	"fmt"
	"github.com/ranklab/ranklab/chunking"
	"html"
	"strings"

	gc "github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"
	"github.com/ranklab/ranklab/lab"
)

// maxWindows is the number of chunk windows ChunkOverlap draws; longer corpora show their
// first maxWindows windows and say so in the title.
const maxWindows = 40

// Colours of the chunk charts.
const (
	colorOnce    = "#4292c6" // tokens indexed once
	colorOverlap = "#e6550d" // tokens shared with a neighbouring window
)

// ChunkOverlap lays the chunk windows of the outcome's corpus (chunking.Windows(Corpus, Chunk,
// Overlap)) along the token axis, one row per window: the tokens a window shares with its
// neighbour are shaded as overlap, the rest as indexed once, and the stride (the distance between
// window starts) is marked between the first two windows. At most 40 windows are drawn; the
// title says when there are more.
func ChunkOverlap(o lab.Outcome) string { return chunkOverlap(o, 0) }

// chunkOverlap is ChunkOverlap with its height (17 px per window, at least 300) capped at
// maxHeight (0: no cap).
func chunkOverlap(o lab.Outcome, maxHeight int) string {
	s := o.State
	f := o.Footprint
	all := chunking.Windows(s.Corpus, s.Chunk, s.Overlap)
	ws := all[:min(len(all), maxWindows)]
	title := fmt.Sprintf("Chunk windows over %d tokens: %d chunks", s.Corpus, len(all))
	if len(ws) < len(all) {
		title = fmt.Sprintf("Chunk windows over %d tokens: first %d of %d chunks", s.Corpus, len(ws), len(all))
	}
	sub := fmt.Sprintf("chunk %d, overlap %d, stride %d = %d − %d (↔ on chunk 2); %d tokens indexed, %.1f%% duplicated",
		s.Chunk, s.Overlap, f.Stride, s.Chunk, s.Overlap, f.Indexed, 100*f.Duplication)
	rows := make([]string, len(ws))
	offset := make([]opts.BarData, len(ws))
	prevPart := make([]opts.BarData, len(ws))
	once := make([]opts.BarData, len(ws))
	nextPart := make([]opts.BarData, len(ws))
	for i, w := range ws {
		rows[i] = fmt.Sprintf("chunk %d", i+1)
		ovPrev := 0
		if i > 0 {
			ovPrev = max(0, min(all[i-1].End, w.End)-w.Start)
		}
		ownStart := w.Start + ovPrev
		ownEnd := w.End
		if i+1 < len(all) {
			ownEnd = max(ownStart, min(w.End, all[i+1].Start))
		}
		tip := fmt.Sprintf("chunk %d: tokens %d–%d (%d tokens)", i+1, w.Start, w.End, w.End-w.Start)
		offset[i] = opts.BarData{Value: w.Start, Tooltip: &opts.Tooltip{Show: opts.Bool(false)}}
		prevPart[i] = opts.BarData{Value: ovPrev, Tooltip: itemTooltip(tip)}
		once[i] = opts.BarData{Value: ownEnd - ownStart, Tooltip: itemTooltip(tip)}
		nextPart[i] = opts.BarData{Value: w.End - ownEnd, Tooltip: itemTooltip(tip)}
	}
	b := gc.NewBar()
	b.SetGlobalOptions(frame(title, sub, true)...)
	b.SetGlobalOptions(
		gc.WithXAxisOpts(opts.XAxis{Type: "value", Name: "token position", NameLocation: "middle", NameGap: 28, Min: 0, Max: s.Corpus}),
		gc.WithYAxisOpts(opts.YAxis{Type: "category", Inverse: opts.Bool(true), AxisLabel: &opts.AxisLabel{Interval: "auto", FontSize: 11}}),
		gc.WithLegendOpts(opts.Legend{Show: opts.Bool(true), Top: "52", Left: "8", Data: []string{"indexed once", "overlap (indexed twice)"}}),
	)
	b.SetXAxis(rows).XYReversal()
	stack := gc.WithBarChartOpts(opts.BarChart{Stack: "window", BarCategoryGap: "30%"})
	b.AddSeries("offset", offset, stack, gc.WithItemStyleOpts(opts.ItemStyle{Color: "transparent"}),
		seriesOpts(func(ss *gc.SingleSeries) {
			if len(ws) >= 2 {
				ss.MarkLines = strideMark(rows[1], all[1].Start, f.Stride)
			}
		}))
	b.AddSeries("overlap (indexed twice)", prevPart, stack, gc.WithItemStyleOpts(opts.ItemStyle{Color: colorOverlap}))
	b.AddSeries("indexed once", once, stack, gc.WithItemStyleOpts(opts.ItemStyle{Color: colorOnce}))
	b.AddSeries("overlap (indexed twice)", nextPart, stack, gc.WithItemStyleOpts(opts.ItemStyle{Color: colorOverlap}))
	height := max(300, 130+17*len(ws))
	if maxHeight > 0 {
		height = max(300, min(maxHeight, height))
	}
	return render(b, title, height)
}

// strideMark is a double-headed line on row from token 0 to the second window's start. Its
// name ("stride N") shows in the tooltip, not as a label: the segment is often narrower than
// the text, which then covered the second window; the subtitle names the stride.
func strideMark(row string, start, stride int) *opts.MarkLines {
	return &opts.MarkLines{
		Data: []interface{}{[]any{
			map[string]any{"coord": []any{0, row}, "name": fmt.Sprintf("stride %d", stride)},
			map[string]any{"coord": []any{start, row}},
		}},
		MarkLineStyle: opts.MarkLineStyle{
			Symbol:     []string{"arrow", "arrow"},
			SymbolSize: 7,
			Label:      &opts.Label{Show: opts.Bool(false)},
			LineStyle:  &opts.LineStyle{Color: "#333", Width: 1.5, Type: "solid"},
		},
	}
}

// ChunkingCard shows the outcome's footprint as plain HTML (no JavaScript): chunk size,
// overlap, stride, chunks, indexed and duplicated tokens and the duplication share, followed by
// the chunking reading.
func ChunkingCard(o lab.Outcome) string { return chunkingCard(o, false) }

// chunkingCard is ChunkingCard, in smaller type when compact (the live panel), marked
// data-footprint with the chunk and indexed-token counts as test hooks.
func chunkingCard(o lab.Outcome, compact bool) string {
	f := o.Footprint
	cells := [][2]string{
		{"corpus tokens", fmt.Sprint(f.Corpus)},
		{"chunk size", fmt.Sprint(f.Chunk)},
		{"overlap", fmt.Sprint(f.Overlap)},
		{"stride", fmt.Sprint(f.Stride)},
		{"chunks", fmt.Sprint(f.Chunks)},
		{"indexed tokens", fmt.Sprint(f.Indexed)},
		{"duplicated tokens", fmt.Sprint(f.Duplicated)},
		{"duplication", fmt.Sprintf("%.1f%%", 100*f.Duplication)},
	}
	var b strings.Builder
	pad, minW, valueF := "6px 12px", 100, 20
	if compact {
		pad, minW, valueF = "4px 10px", 90, 17
	}
	fmt.Fprintf(&b, `<div class="ranklab-cards" data-footprint data-chunks="%d" data-indexed="%d" style="font-family:system-ui,'DejaVu Sans',sans-serif;color:var(--jp-content-font-color1,#222);max-width:980px">`+"\n", f.Chunks, f.Indexed)
	b.WriteString(`<div style="display:flex;flex-wrap:wrap;gap:8px;margin:4px 0 8px">` + "\n")
	for _, c := range cells {
		fmt.Fprintf(&b, `<div style="border:1px solid var(--jp-border-color1,#ccd);border-radius:6px;padding:%s;min-width:%dpx;background:var(--jp-layout-color2,#f7f9fc)">`+
			`<div style="font-size:12px;color:var(--jp-content-font-color2,#555)">%s</div><div style="font-size:%dpx;font-weight:600">%s</div></div>`+"\n",
			pad, minW, html.EscapeString(c[0]), valueF, html.EscapeString(c[1]))
	}
	b.WriteString("</div>\n")
	writeReading(&b, o.ChunkReading, compact)
	b.WriteString("</div>\n")
	return b.String()
}

// FootprintOverOverlap draws, for one corpus and chunk size, the indexed tokens (left axis)
// and the duplication in % of the corpus (right axis) as the overlap goes from 0 to 3/4 of the
// chunk in about 24 steps, computed by chunking.NewFootprint; a dashed line marks the corpus size.
// Invalid sizes give a visible error box instead of a chart.
func FootprintOverOverlap(corpus, chunk int) string {
	if _, err := chunking.NewFootprint(corpus, chunk, 0); err != nil {
		return errorBox("charts: FootprintOverOverlap: " + err.Error())
	}
	hi := min(chunk-1, 3*chunk/4)
	step := max(1, hi/24)
	var overlaps []int
	for ov := 0; ov <= hi; ov += step {
		overlaps = append(overlaps, ov)
	}
	if overlaps[len(overlaps)-1] != hi {
		overlaps = append(overlaps, hi)
	}
	indexed := make([]opts.LineData, len(overlaps))
	dup := make([]opts.LineData, len(overlaps))
	for i, ov := range overlaps {
		f, _ := chunking.NewFootprint(corpus, chunk, ov) // valid: 0 <= ov < chunk
		indexed[i] = opts.LineData{Value: []any{ov, f.Indexed}}
		dup[i] = opts.LineData{Value: []any{ov, round1(100 * f.Duplication)}}
	}
	title := fmt.Sprintf("Footprint over overlap: %d-token chunks, corpus of %d tokens", chunk, corpus)
	sub := "indexed tokens (left axis) and duplication in % of the corpus (right axis)"
	c := gc.NewLine()
	c.SetGlobalOptions(frame(title, sub, true)...)
	c.SetGlobalOptions(
		gc.WithTooltipOpts(opts.Tooltip{Show: opts.Bool(true), Trigger: "axis"}),
		gc.WithXAxisOpts(opts.XAxis{Type: "value", Name: "overlap (tokens)", NameLocation: "middle", NameGap: 28, Min: 0, Max: hi}),
		gc.WithYAxisOpts(opts.YAxis{Type: "value", Name: "indexed tokens", NameLocation: "middle", NameGap: 56, Min: 0}),
		gc.WithGridOpts(opts.Grid{Left: "64", Right: "64", Top: "90", Bottom: "48", ContainLabel: opts.Bool(true)}),
	)
	c.ExtendYAxis(opts.YAxis{Type: "value", Name: "duplication (%)", NameLocation: "middle", NameGap: 44, Min: 0,
		SplitLine: &opts.SplitLine{Show: opts.Bool(false)}})
	c.AddSeries("indexed tokens", indexed,
		gc.WithLineChartOpts(opts.LineChart{Symbol: "circle", SymbolSize: 5}),
		gc.WithItemStyleOpts(opts.ItemStyle{Color: colorOnce}),
		gc.WithLineStyleOpts(opts.LineStyle{Color: colorOnce, Width: 2.2}),
		seriesOpts(func(ss *gc.SingleSeries) {
			ss.MarkLines = &opts.MarkLines{
				Data: []interface{}{map[string]any{"yAxis": corpus, "name": fmt.Sprintf("corpus %d", corpus)}},
				MarkLineStyle: opts.MarkLineStyle{Symbol: []string{"none", "none"},
					Label:     &opts.Label{Show: opts.Bool(true), Formatter: "{b}", Position: "insideStartTop", Color: "#555"},
					LineStyle: &opts.LineStyle{Color: "#777", Type: "dashed"}},
			}
		}))
	c.AddSeries("duplication (%)", dup,
		gc.WithLineChartOpts(opts.LineChart{Symbol: "diamond", SymbolSize: 6, YAxisIndex: 1}),
		gc.WithItemStyleOpts(opts.ItemStyle{Color: colorOverlap}),
		gc.WithLineStyleOpts(opts.LineStyle{Color: colorOverlap, Width: 2.2, Type: "dashed"}))
	return render(c, title, 360)
}

func round1(x float64) float64 { return float64(int64(x*10+0.5)) / 10 }
