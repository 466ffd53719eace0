package rag

import (
	"fmt"

	"github.com/ranklab/ranklab/eval"
)

// Variants returns the document runs that pipelines and papers read from one chunk run, side by
// side, each named by its Tag for a report: "top-k chunks, dedup" (Dedup: what a RAG context of
// k chunks holds), then "MaxP", "FirstP" and "SumP" (DocRun over all the run's chunks). Hand
// them to compare.Runs to evaluate them on document qrels with paired tests against the first:
//
//	vs, err := rag.Variants(chunkRun, chunkMap, 10)
//	r, err := compare.Runs(qrels, []eval.Measure{eval.NDCG(10), eval.Recall(100)}, vs...)
//
// k must be positive. run and m are not modified.
func Variants(run eval.Run, m ChunkMap, k int) ([]eval.Run, error) {
	if k < 1 {
		return nil, fmt.Errorf("rag: Variants: k = %d: want at least 1 chunk", k)
	}
	dedup, err := Dedup(run, m, k)
	if err != nil {
		return nil, err
	}
	dedup.Tag = dedupName(k)
	out := []eval.Run{dedup}
	for _, agg := range aggregations {
		r, err := DocRun(run, m, agg)
		if err != nil {
			return nil, err
		}
		r.Tag = agg.Label()
		out = append(out, r)
	}
	return out, nil
}

// dedupName is the name Variants gives Dedup(run, m, k): "top-k chunks, dedup".
func dedupName(k int) string { return fmt.Sprintf("top-%d chunks, dedup", k) }
