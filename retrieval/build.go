package retrieval

import (
	"fmt"

	"github.com/ranklab/ranklab/eval"
	"github.com/ranklab/ranklab/internal/ranking"
	"github.com/ranklab/ranklab/rag"
)

// Build tokenizes c's documents (cl100k_base), cuts them by ch and indexes the chunks for model
// m (nil: Anserini's BM25) with bleve's English analyzer, aggregating chunk scores by agg. With
// BuildTokenized it is the one way this package turns a collection into a Searcher: `ranklab beir
// run`, study.RunSweep and the notebooks all call it.
//
//	s, err := retrieval.Build(c, retrieval.Chunking{Chunk: 128}, retrieval.Anserini, rag.MaxP)
//	runs := s.Run(c.Queries, retrieval.RunOptions{Tag: "bm25-128"})
func Build(c Collection, ch Chunking, m Model, agg rag.Aggregation) (*Searcher, error) {
	tok, err := NewTokenizer()
	if err != nil {
		return nil, err
	}
	return BuildTokenized(Tokenize(tok, c.Docs), ch, m, agg)
}

// BuildTokenized is Build on a corpus already tokenized by Tokenize (a sweep tokenizes once for
// all its configurations).
func BuildTokenized(tz Tokenized, ch Chunking, m Model, agg rag.Aggregation) (*Searcher, error) {
	if agg < rag.MaxP || agg > rag.SumP {
		return nil, fmt.Errorf("retrieval: invalid %v", agg)
	}
	if ql, ok := m.(QLDirichlet); ok && !(ql.Mu > 0) {
		return nil, fmt.Errorf("retrieval: %v: mu must be positive", ql)
	}
	tok, err := NewTokenizer()
	if err != nil {
		return nil, err
	}
	an, err := English()
	if err != nil {
		return nil, err
	}
	chunks, err := tz.chunks(tok, ch)
	if err != nil {
		return nil, err
	}
	return newSearcher(an, m, tz.Docs, chunks, ch, agg), nil
}

// RunOptions configure Searcher.Run. The zero value means: 1000 documents and 1000 chunks per
// query, tag "run".
type RunOptions struct {
	Depth       int    // documents per query; 0 means 1000
	ChunkDepth  int    // chunks per query; 0 means 1000; negative: no chunk run (Runs.Chunks is empty)
	ChunkTokens int    // > 0: cut each chunk ranking once its chunks hold more than ChunkTokens tokens
	Tag         string // tag of both runs; "" means "run"
}

// Runs are a searcher's answers to a set of queries, from one scoring of each query: Docs ranks
// documents (chunk scores aggregated), Chunks ranks chunks (IDs ChunkID, resolved by
// Searcher.ChunkMap). Both are in trec_eval's order.
type Runs struct {
	Docs, Chunks eval.Run
}

// Run searches every query once and returns its document run and its chunk run. The chunk
// ranking is cut to ChunkDepth chunks and, with ChunkTokens, to the shortest prefix holding more
// than ChunkTokens tokens: enough for every context of up to ChunkTokens tokens (rag.Context).
// Queries are searched on all CPUs; the runs do not depend on their number.
func (s *Searcher) Run(queries []Query, opt RunOptions) Runs {
	opt = opt.withDefaults()
	ids := make([]string, len(queries))
	for i, q := range queries {
		ids[i] = q.ID
	}
	var r Runs
	r.Docs, r.Chunks = ranking.Gather(ids, opt.Tag, opt.ChunkDepth > 0, func(i int) (docs, chunks []eval.ScoredDoc) {
		scores, matched := s.Model.scores(s.index, s.analyzer.Terms(queries[i].Text))
		docs = s.docs(scores, matched, opt.Depth)
		if opt.ChunkDepth > 0 {
			chunks = s.chunks(scores, matched, opt.ChunkDepth, opt.ChunkTokens)
		}
		return docs, chunks
	})
	return r
}

// withDefaults fills the zero values of opt: Depth and ChunkDepth 1000, Tag "run".
func (opt RunOptions) withDefaults() RunOptions {
	opt.Depth, opt.ChunkDepth, opt.Tag = ranking.Defaults(opt.Depth, opt.ChunkDepth, opt.Tag)
	return opt
}
