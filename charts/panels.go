package charts

import (
	"html"
	"slices"
	"strings"

	"github.com/ranklab/ranklab/internal/labview"
	"github.com/ranklab/ranklab/lab"
)

// Heights of the live panel's charts: the ranking beside its reading, the other charts in tabs.
// With the controls, the cards and one tab open the panel's cell stays within about 900 px, and
// the controls, cards, ranking and reading fit a 1280×800 screen (scripts/live-test.mjs).
const (
	liveRankingHeight = 340
	liveTabHeight     = 330
)

// labViews are the lab's views, declared once in display order: the notebook panels (LabPanels)
// and the live panel's regions and tabs (package live, through LabViews) all come from this
// list, so adding a view to the lab is one entry here.
var labViews = []labview.View{
	{Key: "cards", Panel: "ranking", Uses: labview.Ranking, Full: MetricCards, Live: metricCardsCompact},
	{Key: "ranking", Tab: "Ranking", Panel: "ranking", Uses: labview.Ranking, Full: Ranking, Live: rankingWithReading},
	{Key: "at-k", Tab: "Measures over k", Panel: "ranking", Uses: labview.Ranking, Full: MetricsAtK,
		Live: func(o lab.Outcome) string { return metricsAtK(o, liveTabHeight) }},
	{Key: "table", Tab: "Ranking table", Uses: labview.Ranking, Live: rankingTable},
	{Key: "rerank", Tab: "Rerank", Panel: "ranking", Uses: labview.Ranking, Full: Rerank,
		Live: func(o lab.Outcome) string { return rerankChart(o, 400) }},
	{Key: "sweep", Tab: "Rerank depth", Panel: "ranking", Uses: labview.Ranking, Full: RerankSweep,
		Live: func(o lab.Outcome) string { return rerankSweep(o, liveTabHeight) }},
	{Key: "chunking", Tab: "Chunking", Panel: "chunking", Uses: labview.Chunking, Full: ChunkingCard,
		Live: func(o lab.Outcome) string { return chunkingCard(o, true) }},
	{Key: "chunks", Tab: "Chunk windows", Panel: "chunking", Uses: labview.Chunking, Full: ChunkOverlap,
		Live: func(o lab.Outcome) string { return chunkOverlap(o, 380) }},
	{Key: "footprint", Panel: "chunking", Uses: labview.Chunking,
		Full: func(o lab.Outcome) string { return FootprintOverOverlap(o.State.Corpus, o.State.Chunk) }},
}

// LabViews returns the lab's views in display order (a new slice): what package live shows as
// its regions and tabs, from the list the notebook panels (LabPanels) are made of.
func LabViews() []labview.View { return slices.Clone(labViews) }

// LabPanels returns the fragments of the lab's two notebook panels in display order. The ranking
// panel: a heading, then the lab's ranking views (the metric cards with the reading, the
// ranking, the metrics over k, the rerank before/after view and the rerank depth sweep). The
// chunking panel: a heading, then the lab's chunking views (the chunking card with its reading,
// the chunk windows and the footprint over overlap for the state's corpus and chunk size).
func LabPanels(o lab.Outcome) []string {
	return append(panel(o, "ranking", "Ranking panel"), panel(o, "chunking", "Chunking panel")...)
}

// panel returns the heading and the Full fragments of the views of the named panel.
func panel(o lab.Outcome, name, title string) []string {
	out := []string{heading(title)}
	for _, v := range labViews {
		if v.Panel == name && v.Full != nil {
			out = append(out, v.Full(o))
		}
	}
	return out
}

// rankingWithReading is the live panel's ranking: the chart and, beside it (below it on a narrow
// page), the query and the metric reading (marked data-reading).
func rankingWithReading(o lab.Outcome) string {
	var b strings.Builder
	b.WriteString(`<div style="display:flex;flex-wrap:wrap;gap:0 14px;align-items:flex-start;max-width:980px">`)
	b.WriteString(`<div style="flex:2 1 300px;min-width:0">` + rankingChart(o, liveRankingHeight, true) + `</div>`)
	b.WriteString(`<div style="flex:3 1 440px;min-width:0;font-family:system-ui,'DejaVu Sans',sans-serif;color:var(--jp-content-font-color1,#222)">`)
	if o.Query != "" {
		b.WriteString(`<div style="font-size:12px;margin:2px 0 0">query: <q data-query>` + html.EscapeString(o.Query) + `</q></div>`)
	}
	writeReading(&b, o.Reading, true)
	b.WriteString(`</div></div>`)
	return b.String()
}

// heading is a section title (plain HTML, escaped).
func heading(text string) string {
	return `<h2 style="font-family:system-ui,'DejaVu Sans',sans-serif;font-size:18px;margin:18px 0 6px">` +
		html.EscapeString(text) + "</h2>\n"
}
