package rag

import (
	"fmt"
	"maps"
	"slices"

	"github.com/ranklab/ranklab/eval"
)

// Aggregation turns the scores of a document's retrieved chunks into the document's score.
type Aggregation int

const (
	// MaxP scores a document by its best-scoring retrieved chunk (Dai & Callan 2019).
	MaxP Aggregation = iota
	// FirstP scores a document by its first chunk (the one that starts first in the document);
	// a document whose first chunk was not retrieved is not retrieved.
	FirstP
	// SumP scores a document by the sum of its retrieved chunks' scores, added in the
	// document's chunk order (span start, then end, then chunk ID).
	SumP
)

// aggregations are the three aggregations in the order reports show them.
var aggregations = []Aggregation{MaxP, FirstP, SumP}

// String returns "maxp", "firstp" or "sump".
func (a Aggregation) String() string {
	switch a {
	case MaxP:
		return "maxp"
	case FirstP:
		return "firstp"
	case SumP:
		return "sump"
	}
	return fmt.Sprintf("Aggregation(%d)", int(a))
}

// Label returns the name papers use: "MaxP", "FirstP" or "SumP".
func (a Aggregation) Label() string {
	switch a {
	case MaxP:
		return "MaxP"
	case FirstP:
		return "FirstP"
	case SumP:
		return "SumP"
	}
	return a.String()
}

// Score aggregates one document's retrieved chunk scores, given in the document's chunk order;
// first says whether scores[0] is the document's first chunk. It is the one implementation of
// the three aggregations (package retrieval's searcher calls it too):
//
//	MaxP   = max_i scores[i]
//	FirstP = scores[0] when first, else not retrieved
//	SumP   = ((scores[0] + scores[1]) + scores[2]) + …   (in the order given)
//
// ok is false when the document is not retrieved: no score, or FirstP without its first chunk.
// It panics on an Aggregation that is not one of the three.
func (a Aggregation) Score(scores []float64, first bool) (score float64, ok bool) {
	if len(scores) == 0 {
		return 0, false
	}
	switch a {
	case MaxP:
		return slices.Max(scores), true
	case FirstP:
		return scores[0], first
	case SumP:
		s := 0.0
		for _, v := range scores {
			s += v
		}
		return s, true
	}
	panic(fmt.Sprintf("rag: Score on invalid %v", a))
}

// chunked is one query's chunk ranking resolved against the map.
type chunked struct {
	id    string
	span  Span
	score float64
}

// resolve ranks a query's chunks in trec_eval's order (eval.Rank) and looks each up in m. where
// names the ranking in errors ("query \"q1\"").
func resolve(where string, docs []eval.ScoredDoc, m ChunkMap) ([]chunked, error) {
	ranked := eval.Rank(docs)
	out := make([]chunked, len(ranked))
	seen := make(map[string]bool, len(ranked))
	for i, d := range ranked {
		s, ok := m[d.Doc]
		if !ok {
			return nil, fmt.Errorf("%s: chunk %q is not in the chunk map", where, d.Doc)
		}
		if seen[d.Doc] {
			return nil, fmt.Errorf("%s: chunk %q listed twice", where, d.Doc)
		}
		seen[d.Doc] = true
		out[i] = chunked{id: d.Doc, span: s, score: d.Score}
	}
	return out, nil
}

// queryName names query q in errors.
func queryName(q string) string { return fmt.Sprintf("query %q", q) }

// firstChunks returns, for every document of m, the ID of its first chunk: the smallest in the
// order span start, span end, chunk ID.
func firstChunks(m ChunkMap) map[string]string {
	first := map[string]string{}
	for id, s := range m {
		cur, ok := first[s.Doc]
		if !ok || compareChunks(id, s, cur, m[cur]) < 0 {
			first[s.Doc] = id
		}
	}
	return first
}

// DocRun turns a chunk run into a document run: each document's score aggregates the scores of
// its chunks in the run (see Aggregation.Score), so a document retrieved through several chunks
// appears once. A query keeps its place in the run even when no document is left (FirstP). The
// run's tag is kept. It returns an error naming the query and chunk when a chunk is not in m or
// is listed twice for a query. run and m are not modified.
//
// A chunk run cut at depth N aggregates what its N chunks hold: a document whose chunks all rank
// below N is missing, as it would be from a pipeline that retrieved N chunks.
func DocRun(run eval.Run, m ChunkMap, agg Aggregation) (eval.Run, error) {
	if agg < MaxP || agg > SumP {
		return eval.Run{}, fmt.Errorf("rag: DocRun: invalid %v", agg)
	}
	var first map[string]string
	if agg == FirstP {
		first = firstChunks(m)
	}
	out := eval.Run{Tag: run.Tag, Queries: make(map[string][]eval.ScoredDoc, len(run.Queries))}
	for _, q := range slices.Sorted(maps.Keys(run.Queries)) {
		cs, err := resolve(queryName(q), run.Queries[q], m)
		if err != nil {
			return eval.Run{}, err
		}
		byDoc := map[string][]chunked{}
		for _, c := range cs {
			byDoc[c.span.Doc] = append(byDoc[c.span.Doc], c)
		}
		docs := make([]eval.ScoredDoc, 0, len(byDoc))
		for _, doc := range slices.Sorted(maps.Keys(byDoc)) {
			group := byDoc[doc]
			slices.SortFunc(group, func(a, b chunked) int { return compareChunks(a.id, a.span, b.id, b.span) })
			scores := make([]float64, len(group))
			for i, c := range group {
				scores[i] = c.score
			}
			if s, ok := agg.Score(scores, first[doc] == group[0].id); ok {
				docs = append(docs, eval.ScoredDoc{Doc: doc, Score: s})
			}
		}
		out.Queries[q] = eval.Rank(docs)
	}
	return out, nil
}

// Dedup is what a RAG context built from the top k chunks holds, as documents: the chunk run's
// first k chunks of each query (trec_eval's order; all of them when k <= 0), then each document
// once, at the place of its first chunk. The returned run gives the i-th of a query's n documents
// the score n − i, so every evaluator ranks them in exactly that order (the chunk scores' ties
// were already broken by chunk ID). It returns an error naming the query and chunk when a chunk is
// not in m. run and m are not modified.
func Dedup(run eval.Run, m ChunkMap, k int) (eval.Run, error) {
	out := eval.Run{Tag: run.Tag, Queries: make(map[string][]eval.ScoredDoc, len(run.Queries))}
	for _, q := range slices.Sorted(maps.Keys(run.Queries)) {
		cs, err := resolve(queryName(q), run.Queries[q], m)
		if err != nil {
			return eval.Run{}, err
		}
		if k > 0 && len(cs) > k {
			cs = cs[:k]
		}
		out.Queries[q] = positional(firstAppearance(cs))
	}
	return out, nil
}

// firstAppearance lists the documents of chunks in the order of their first chunk.
func firstAppearance(cs []chunked) []string {
	seen := map[string]bool{}
	var docs []string
	for _, c := range cs {
		if !seen[c.span.Doc] {
			seen[c.span.Doc] = true
			docs = append(docs, c.span.Doc)
		}
	}
	return docs
}

// positional scores docs n, n−1, …, 1 so that trec_eval's order is the given order.
func positional(docs []string) []eval.ScoredDoc {
	out := make([]eval.ScoredDoc, len(docs))
	for i, d := range docs {
		out[i] = eval.ScoredDoc{Doc: d, Score: float64(len(docs) - i)}
	}
	return out
}
