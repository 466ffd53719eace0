// Package rerank is the second stage of a retrieval pipeline: a first stage (BM25, query
// likelihood, any run) retrieves candidates, and a more expensive reranker reorders only the
// first N of them, the rerank depth. It is the lab's "Candidates reranked" control (package lab,
// notebook 06) on real documents: nothing the first stage did not retrieve can enter, and nothing
// past N can move up.
//
// The simplest use, with all-MiniLM-L6-v2 as the reranker:
//
//	c, _ := retrieval.ReadCollection("../shared/data/scifact", "test")
//	first, _ := retrieval.BM25Run(c, 1000, "bm25")
//	m, _ := embed.Open(embed.Options{})
//	r := rerank.BiEncoder(&embed.Cache{Inner: m})
//	run, _ := rerank.Rerank(c, first, r, rerank.Options{Depth: 100})
//	sw, _ := rerank.RunSweep(c, first, r, rerank.Options{}, 0, 10, 100, 1000)
//
// Decisions made once for the whole package:
//
//   - A Reranker scores a query's candidates from their texts: the query's text and each
//     document's retrieval.Document.DenseText (title, a space, text), the text a dense model
//     embeds. BiEncoder is the one here: the cosine of the query's and the document's
//     all-MiniLM-L6-v2 vectors. It is a bi-encoder, not the cross-encoder most pipelines rerank
//     with, because none ships in the package registries this project may use (no
//     ms-marco-MiniLM or bge-reranker weights); a cross-encoder plugs in as another Reranker.
//
//   - The first N candidates are the first N of the first-stage ranking in trec_eval's order
//     (eval.Rank: score descending, then doc ID descending). Depth 0 leaves the run as it is;
//     a depth beyond a query's candidates reranks all of them.
//
//   - New score of a candidate in the prefix: the reranker's score s when Options.Mix is 0;
//     otherwise, with both scores min-max normalised over the query's N candidates,
//
//     s' = (1 − W)·(s − min s)/(max s − min s) + W·(f − min f)/(max f − min f)
//
//     where f is the first-stage score and W = Options.Mix (a constant column normalises to 0).
//     W = 1 keeps the first-stage order of the prefix.
//
//   - Scores written: the prefix carries its new scores s' unchanged; every candidate past N keeps
//     its first-stage order and score differences, shifted to sit below the prefix:
//     f − f_{N+1} + min s' − 1, where f_{N+1} is the tail's highest first-stage score. The
//     reranked run therefore ranks the same read back from a file. Ties (equal s') are ordered
//     as everywhere in ranklab, by trec_eval's rule (doc ID descending), not by first-stage rank
//     as the lab's RerankOrder does.
//
//   - A sweep (RunSweep) reranks with one Reranker at every depth in increasing order, depth 0
//     (the first stage) first and the baseline. It evaluates every depth on nDCG@K and R@K
//     (K = Options.K, 10 by default) over every judged query (a query the run misses scores 0),
//     beside the first stage's R@N, the ceiling of the recall any reranking of N candidates can
//     reach. Paired tests (package compare: t-test, randomization test, bootstrap interval)
//     compare every depth with depth 0 on both measures: one family of (depths − 1) × 2
//     comparisons, Holm-adjusted over it.
//
//   - Cost: the documents a depth gives the reranker per query (N, or fewer when the first stage
//     returned fewer), and the CPU time the process spent reranking (getrusage: every thread,
//     ONNX Runtime's included). A BiEncoder keeps each vector it computed in memory and behind
//     an embed.Cache on disk, so in a sweep depth N pays only for the documents smaller depths
//     did not embed: the cumulated CPU through depth N is what depth N alone costs from the same
//     cache (plus the smaller depths' lookups and dot products), and reranking at 1000 embeds
//     each document at most once, as one dense run does. A cross-encoder, which scores pairs,
//     pays for N pairs per query at every depth.
//
//   - Losses: a relevant document (grade ≥ 1) the first stage ranked past N is out of reach of
//     a reranking at depth N. The sweep counts, per depth, those documents and the queries that
//     have one, and the ones that are lost: in the sweep's deepest reranking's top K but not in
//     this depth's (what a deeper reranking would have found). Relevant documents the first stage
//     never returned are out of reach at every depth (Sweep.Never).
package rerank
