// Package dense is dense retrieval: package embed's all-MiniLM-L6-v2 (or any embed.Embedder)
// over a BEIR collection of package retrieval, searched exactly (the cosine with every vector).
// It produces the same values as retrieval's lexical Searcher (retrieval.Runs: a document run
// and a chunk run, with a rag.ChunkMap), so eval, rag, compare and study evaluate them alike.
//
// The simplest use:
//
//	c, _ := retrieval.Cranfield.Load("test", nil)
//	m, _ := embed.Open(embed.Options{})
//	s, _ := dense.Build(c.Docs, &embed.Cache{Inner: m}, retrieval.Whole, rag.MaxP)
//	runs, _ := s.Run(c.Queries, retrieval.RunOptions{}) // runs.Docs, runs.Chunks; s.ChunkMap()
//
// Decisions made once for the whole package:
//
//   - A document is embedded as its DenseText (title + " " + text, trimmed: what BEIR's and
//     sentence-transformers' evaluations embed), cut at the model's 256 tokens, or cut into
//     windows of the model's own WordPiece tokens (chunk maps then count those tokens, not
//     cl100k_base). BERT's input format ([CLS] and [SEP]) is package embed's.
//   - Search is exact: every query vector against every unit vector, ties at the cut-off to the
//     unit that comes first, rankings in trec_eval's order (score descending, then ID
//     descending). A document's score aggregates its units' scores (rag.Aggregation).
//   - Tokenize tokenizes a corpus once for many chunkings (BuildTokenized): what a dense sweep
//     of package study does; Check validates a chunking before anything is embedded.
//
// This package is apart from retrieval so that a package that reads BEIR collections (judge,
// check) does not link the ONNX Runtime binding behind package embed.
//
// Measured here (TestDenseMatchesReference, against sentence-transformers with torch):
// Cranfield nDCG@10 0.3995 and R@100 0.7724, SciFact nDCG@10 0.6451, each within ±0.0005.
package dense
