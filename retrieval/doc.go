// Package retrieval runs real retrieval on real qrels: BEIR collections, cl100k_base token
// counting and chunking, a Lucene/Anserini BM25, chunked retrieval and chunk-size sweeps. It
// produces eval.Run values that package lab evaluates like any other run.
//
// The simplest use:
//
//	c, _ := retrieval.ReadCollection("../shared/data/scifact", "test")
//	sw, _ := retrieval.RunSweep(c, retrieval.SweepOptions{})
//
// Decisions made once for the whole package:
//
//   - Collections use the BEIR layout: corpus.jsonl (or .gz), queries.jsonl, qrels/<split>.tsv.
//     Only the queries the split's qrels judge are searched; qrels naming an unknown query or
//     document are an error. Malformed lines are errors "file:line: message".
//   - A document is one field, Content = title + "\n" + text (Anserini's "flat" BEIR index
//     joins title and text into one field too).
//   - Tokens are cl100k_base (tiktoken-go with its embedded vocabulary, offline); special-token
//     strings are ordinary text.
//   - Chunks are the lab's footprint windows (chunking.WindowSeq) over each document's tokens, cut on
//     token boundaries (a chunk may start or end inside a word, and then indexes the fragment).
//     Chunk text is exactly the decoded tokens. Empty documents have no chunk.
//   - Analysis is bleve's English analyzer ("en": Unicode words, possessive filter, lower case,
//     stop words, Porter stemmer), applied alike to chunks and queries.
//   - Scoring is Lucene's BM25 (see Index) with k1 = 0.9, b = 0.4; chunk statistics (N, df,
//     avgdl) are counted over chunks. A document's score aggregates all its matching chunks
//     (MaxP, FirstP or SumP); no chunk-level cut-off.
//   - Rankings follow trec_eval's order (score descending, then doc ID descending), so a run
//     cut at depth k agrees with what the evaluator reads back.
//   - Sweeps evaluate with eval.Evaluate (AllQueries) on nDCG@10, R@100 and RR@10, and compare
//     every configuration with whole documents by a paired t-test and a sign-flip randomization
//     test (package stats), each Holm-adjusted over the sweep's configurations per measure.
//
// Measured here (2 shared cores): whole-document SciFact test nDCG@10 0.6795 and R@100 0.9287
// against Anserini's published 0.6789 and 0.9253; the 11-configuration SciFact sweep takes
// about 18 s (BenchmarkSweepSciFact).
package retrieval
