// Package study runs the studies built on package retrieval's runs: chunk-size × token-budget
// sweeps (RunSweep, with Family and Overlap for their families of tests) and the hybrid study
// (RunHybrid). Each returns plain values with package compare's reports inside, so a notebook
// looks a result up by configuration and measure.
//
// The simplest use:
//
//	c, _ := retrieval.ReadCollection("../shared/data/scifact", "test")
//	sw, _ := study.RunSweep(c, study.SweepOptions{})
//	cmp, _ := sw.Comparison(retrieval.Chunking{Chunk: 128}, eval.NDCG(10)) // against whole documents
//
// Decisions made once for the whole package:
//
//   - Sweeps evaluate the document run with eval.Evaluate (AllQueries) on nDCG@10, R@100 and
//     RR@10, and the chunk run at token budgets with rag.EvaluateBudgets (R, nDCG and Success of
//     what a B-token context holds); package compare then compares every configuration with
//     whole documents (paired t-test, sign-flip randomization test, bootstrap intervals): Holm
//     over the configurations for each document measure, over the whole table for the budgets.
//     With SweepOptions.Embedder the sweep is dense (dense.BuildTokenized per
//     configuration): chunk sizes, token counts and budgets are then the model's WordPiece
//     tokens, and chunks fit its limit.
//   - A sweep tokenizes the corpus once (retrieval.Tokenize or dense.Tokenize) and
//     counts each configuration's units and tokens from the searcher's chunk map, so what it
//     reports is what was indexed.
//   - RunHybrid fuses a lexical and a dense run (package fusion) with the weight chosen on half
//     of the queries and tested on the other.
//
// Measured here: the standard SciFact sweep (11 configurations, 6 budgets, 30 document and 180
// budget comparisons) took 33.0 s (32.1 s of CPU) on 2 cores shared with other jobs (load 3),
// against 17.4 s for the sweep before budgets and 14.7 s for this one without budgets on the
// same machine: the budget table's paired tests (bootstrap intervals and sign flips of 180
// comparisons, package compare, one core) are most of the difference.
package study
