package retrieval

import "github.com/ranklab/ranklab/eval"

// BM25Run searches every query of c over whole documents with Anserini's BM25 (k1 = 0.9,
// b = 0.4, bleve's English analyzer) and returns the top k docs of each query as a run tagged
// tag, each query's docs in trec_eval's order. It is the whole-document row of RunSweep as a
// run of its own, for code that wants the run itself (to write it, or to score it otherwise).
func BM25Run(c Collection, k int, tag string) (eval.Run, error) {
	tok, err := NewTokenizer()
	if err != nil {
		return eval.Run{}, err
	}
	an, err := English()
	if err != nil {
		return eval.Run{}, err
	}
	chunks, err := Tokenize(tok, c.Docs).Chunks(tok, Whole)
	if err != nil {
		return eval.Run{}, err
	}
	s := NewSearcher(an, Anserini, c.Docs, chunks, Whole, MaxP)
	return RunQueries(s, c.Queries, k, tag), nil
}
