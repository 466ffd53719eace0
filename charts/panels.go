package charts

import (
	"html"

	"github.com/ranklab/ranklab/lab"
)

// RankingPanel returns the fragments of the lab's ranking panel in display order: a heading,
// the metric cards with the reading, the ranking, the rerank before/after view, the metrics over
// k and the rerank depth sweep.
func RankingPanel(o lab.Outcome) []string {
	return []string{
		heading("Ranking panel"),
		MetricCards(o),
		Ranking(o),
		Rerank(o),
		MetricsAtK(o),
		RerankSweep(o),
	}
}

// ChunkingPanel returns the fragments of the lab's chunking panel in display order: a heading,
// the chunking card with its reading, the chunk windows and the footprint over overlap for the
// state's corpus and chunk size.
func ChunkingPanel(o lab.Outcome) []string {
	return []string{
		heading("Chunking panel"),
		ChunkingCard(o),
		ChunkOverlap(o),
		FootprintOverOverlap(o.State.Corpus, o.State.Chunk),
	}
}

// heading is a section title (plain HTML, escaped).
func heading(text string) string {
	return `<h2 style="font-family:system-ui,'DejaVu Sans',sans-serif;font-size:18px;margin:18px 0 6px">` +
		html.EscapeString(text) + "</h2>\n"
}
