// Package rag evaluates retrieval the way RAG pipelines use it: runs whose IDs are chunks,
// judged by document qrels (or by judged spans), and quality at a token budget rather than at a
// rank.
//
// The simplest use, with a chunk run and its chunk map (package retrieval writes both for its
// own chunkings; `ranklab beir run --chunks` on the command line):
//
//	m, err := rag.ReadChunkMapFile("chunks.map")
//	run, err := eval.ReadRunFile("chunks.run")
//	vs, err := rag.Variants(run, m, 10) // top-10 chunks deduplicated, MaxP, FirstP, SumP
//	r, err := compare.Runs(qrels, []eval.Measure{eval.NDCG(10)}, vs...)
//	res, err := rag.EvaluateBudgets(qrels, run, m, eval.Options{}, rag.BudgetMeasures(512)...) // nDCG, R, Success
//	res.Mean(rag.NDCGAt(512))
//
// Decisions made once for the whole package:
//
//   - A chunk map (ReadChunkMapFile) says which span [start, end) of which document each chunk ID
//     covers. Package retrieval's spans are cl100k_base tokens of the document's Content (title,
//     newline, text); a user's map may use another unit as long as budgets and passage qrels use
//     the same one. A chunk run naming a chunk the map lacks is an error, never skipped.
//   - A chunk run is ranked as trec_eval ranks any run (score descending, then chunk ID
//     descending) before anything else happens.
//   - A document retrieved through several chunks counts once, everywhere: the document views
//     hold each document once, so no measure can exceed 1 by counting a document twice (the bug of
//     evaluators that substitute document IDs into a chunk run).
//   - Document views (Variants): Dedup keeps the first k chunks and lists their documents in the
//     order of their first chunk (what a k-chunk context holds); DocRun aggregates all the run's
//     chunks per document by MaxP, FirstP or SumP (Aggregation.Score, the one implementation,
//     which package retrieval's searcher calls as well). A view is an eval.Run, evaluated by
//     package eval and compared by package compare like any run.
//   - Budgets (Context, BudgetMeasure): a B-token context is the longest prefix of
//     the ranked chunk list, deduplicated (a chunk with the same document and span as one already
//     taken is dropped at no cost), whose chunk lengths sum to at most B. A chunk counts only when
//     it fits whole; the first chunk that does not fit ends the context (no skipping ahead to a
//     shorter one), so a whole document longer than B gives an empty context. Overlapping chunks
//     are paid in full, as a prompt that concatenates chunk texts pays for them. R@Btok,
//     nDCG@Btok and Success@Btok are the evaluator's R, nDCG (uncut ideal) and Success on the
//     documents of that context (formulas on BudgetMeasure); every qrels query is evaluated, and
//     one whose context is empty scores 0.
//   - Passage qrels (ReadPassageQrelsFile) judge spans. A chunk's grade is the largest grade of the
//     judged spans it overlaps by at least one unit (ChunkQrels); span recall and precision of a
//     context count distinct units (EvaluatePassages). Neither BEIR SciFact nor Cranfield as
//     stored in ../shared/data has judged spans (SciFact's rationale sentences are in its
//     original release only), so these are tested on hand-made inputs, not measured on them.
package rag
