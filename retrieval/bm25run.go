package retrieval

import (
	"github.com/ranklab/ranklab/eval"
	"github.com/ranklab/ranklab/rag"
)

// BM25Run searches every query of c over whole documents with Anserini's BM25 (k1 = 0.9,
// b = 0.4, bleve's English analyzer) and returns the top k docs of each query (k > 0) as a run
// tagged tag, each query's docs in trec_eval's order. It is the whole-document row of
// study.RunSweep as a run of its own, for code that wants the run itself (to write it, or to
// score it otherwise), and is built as every run of this package is (Build, then Searcher.Run).
func BM25Run(c Collection, k int, tag string) (eval.Run, error) {
	s, err := Build(c, Whole, Anserini, rag.MaxP)
	if err != nil {
		return eval.Run{}, err
	}
	return s.Run(c.Queries, RunOptions{Depth: k, ChunkDepth: -1, Tag: tag}).Docs, nil
}
