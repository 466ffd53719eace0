// Package fusion combines TREC runs into one: reciprocal rank fusion (RRF), CombSUM and CombMNZ
// with min-max, z-score or rank normalisation, and weighted sums, over any number of runs.
//
// The simplest call, the command `ranklab fuse --method rrf --k 60 bm25.run chunks.run`:
//
//	fused, err := fusion.Fuse([]eval.Run{bm25, chunks}, fusion.Options{}) // RRF, k = 60
//	fused, err = fusion.Fuse(runs, fusion.Options{Method: fusion.CombSUM, Norm: fusion.MinMax, Weights: []float64{0.7, 0.3}})
//
// Decisions made once (formulas on Fuse and Norm):
//
//   - Ranks are trec_eval's: each input query is ranked by score descending, then doc ID
//     descending (eval.Rank), before anything else; the rank column of a run file plays no part.
//   - A document missing from a run contributes nothing (not a zero-normalised score, not a rank
//     past the end); a query missing from a run is fused from the runs that have it.
//   - Normalisation is per run and per query, over the documents that run returned for the query
//     (after Depth). The 1e-9 floor on the min-max and z-score denominators is ranx's.
//   - The fused run is ranked in trec_eval's order, so tied fused scores (common under RRF: two
//     documents each at rank 3 of one run) come out by doc ID descending, the order trec_eval
//     itself would give them. Scores are full float64 precision.
//   - The results equal ranx 0.3.21's fuse (norm="min-max", "zmuv", "rank"; method "rrf", "sum",
//     "mnz", "wsum") on the same runs; ranx_test.go checks it on real runs with the peers'
//     environment of scripts/peers.sh (RANKLAB_PEERS_PYTHON; CI sets RANKLAB_PEERS=1). ranx sorts ties with NumPy's unstable quicksort,
//     so where an input run has tied scores its ranks, and hence RRF and the rank normalisation,
//     are defined by trec_eval's order here and left to chance there; the test feeds ranx the
//     same ranks in that case.
package fusion
