package retrieval

import (
	"github.com/ranklab/ranklab/eval"
	"github.com/ranklab/ranklab/internal/ranking"
)

// retriever returns the documents it finds for a query, best first, at most k of them
// (all it finds when k <= 0): the BM25 Searcher of this package, or a TREC run written by
// another engine (runRetriever). Searcher.Run is the way to run a set of queries.
type retriever interface {
	Search(q Query, k int) []eval.ScoredDoc
}

// runQueries searches every query with r and returns the results as a TREC run tagged
// tag, each query's docs in the retriever's order. Queries are searched concurrently; the
// run does not depend on the number of CPUs. queries is not modified.
func runQueries(r retriever, queries []Query, k int, tag string) eval.Run {
	results := make([][]eval.ScoredDoc, len(queries))
	ranking.Parallel(len(queries), func(i int) { results[i] = r.Search(queries[i], k) })
	run := eval.Run{Tag: tag, Queries: make(map[string][]eval.ScoredDoc, len(queries))}
	for i, q := range queries {
		run.Queries[q.ID] = results[i]
	}
	return run
}

// runRetriever answers queries from a finished TREC run (for instance one written by
// Anserini or Pyserini): Search looks the query up by ID, ranks its docs in trec_eval's
// order (eval.Rank) and keeps the first k. A query absent from the run gets no docs.
type runRetriever eval.Run

// Search implements retriever.
func (r runRetriever) Search(q Query, k int) []eval.ScoredDoc {
	ranked := eval.Rank(r.Queries[q.ID])
	if k > 0 && len(ranked) > k {
		ranked = ranked[:k]
	}
	return ranked
}
