// Package lab is the teaching model of ranklab's lab: a visible synthetic ranking with its
// controls (State), prefix reranking, the metrics the evaluator computes on it, the chunking
// footprint beside it, plain-language readings, a shareable link and a CSV export.
//
// The simplest use:
//
//	o, err := lab.DefaultState().Outcome() // everything the lab shows
//	fmt.Println(o.Metrics.NDCG, o.Reading)
//
// State documents the controls, their defaults and ranges and the formulas of the metrics (they
// are package eval's measures, one source of truth). newSynthetic documents the seeded ranking and
// its reranker (from noise to perfect: State.RerankQuality), RerankOrder the prefix reranking, chunking.Footprint the chunking panel, Outcome's
// Reading and ChunkReading fields the readings, State.Link and ParseLink the link, and WriteCSV the CSV layout.
// Every invalid value is a *chunking.FieldError naming the field and its range, e.g.
// "overlap: 128 must be in 0..127 (below chunk size 128)".
package lab
