// Package retrieval runs real retrieval on real qrels: BEIR collections, cl100k_base token
// counting and chunking, Lucene/Anserini BM25 and query likelihood over whole documents or
// chunks. It produces eval.Run values (document runs, and chunk runs with their rag.ChunkMap)
// that packages eval, rag and compare evaluate like any other run; package dense runs dense
// retrieval over the same collections, and package study the studies built on both (chunk-size
// × token-budget sweeps, the hybrid study).
//
// The simplest use:
//
//	c, _ := retrieval.ReadCollection("../shared/data/scifact", "test")
//	s, _ := retrieval.Build(c, retrieval.Chunking{Chunk: 128}, retrieval.Anserini, rag.MaxP)
//	runs := s.Run(c.Queries, retrieval.RunOptions{}) // runs.Docs, runs.Chunks; s.ChunkMap()
//
// Decisions made once for the whole package:
//
//   - Collections use the BEIR layout: corpus.jsonl (or .gz), queries.jsonl, qrels/<split>.tsv
//     (TREC qrels or BEIR TSV). Every query is searched but those only another split judges;
//     Collection.Unjudged names the ones without qrels, and a collection without a qrels
//     folder has none. Qrels naming an unknown query or document are an error. Malformed lines
//     are errors "file:line: message".
//   - A document is one field, Content = title + "\n" + text (Anserini's "flat" BEIR index
//     joins title and text into one field too).
//   - Tokens are cl100k_base (tiktoken-go with its embedded vocabulary, offline); special-token
//     strings are ordinary text.
//   - Chunks are the lab's footprint windows (chunking.Windows) over each document's tokens, cut on
//     token boundaries (a chunk may start or end inside a word, and then indexes the fragment).
//     Chunk text is exactly the decoded tokens. Empty documents have no chunk.
//   - Analysis is bleve's English analyzer ("en": Unicode words, possessive filter, lower case,
//     stop words, Porter stemmer), applied alike to chunks and queries.
//   - Scoring is Lucene's BM25 (see BM25) with k1 = 0.9, b = 0.4, or Lucene's query likelihood
//     with Dirichlet smoothing (QLDirichlet, μ = 1000 as Anserini); chunk statistics (N, df,
//     avgdl, collection frequencies) are counted over chunks. A document's score aggregates all
//     its matching chunks (rag.Aggregation: rag.MaxP, FirstP or SumP); no chunk-level cut-off.
//   - Build is the one way a collection becomes a Searcher; Searcher.Run scores each query once
//     and gives both the document run and the chunk run. Chunk IDs are DOC#i (the chunk number after the last #); the
//     chunk map gives each chunk's document and token window.
//   - Rankings follow trec_eval's order (score descending, then ID descending), so a run cut at
//     depth k agrees with what the evaluator reads back.
//   - Tokenize tokenizes a corpus once for many chunkings (BuildTokenized): what a sweep of
//     package study does.
//
// Measured here: whole-document SciFact test nDCG@10 0.6795 and R@100 0.9287 against Anserini's
// published 0.6789 and 0.9253.
package retrieval
