package retrieval

import (
	"fmt"
	"github.com/ranklab/ranklab/eval"
	"slices"
)

// Aggregation turns the scores of a document's chunks into the document's score.
type Aggregation int

const (
	// MaxP scores a document by its best-scoring chunk (Dai & Callan 2019).
	MaxP Aggregation = iota
	// FirstP scores a document by its first chunk only; a document whose first chunk
	// matches no query term is not retrieved.
	FirstP
	// SumP scores a document by the sum of its chunks' scores (added in chunk order).
	SumP
)

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

// ParseAggregation parses "maxp", "firstp" or "sump".
func ParseAggregation(s string) (Aggregation, error) {
	for _, a := range []Aggregation{MaxP, FirstP, SumP} {
		if s == a.String() {
			return a, nil
		}
	}
	return 0, fmt.Errorf("aggregation %q: want maxp, firstp or sump", s)
}

// Searcher is a BM25 retriever over a corpus cut by a Chunking: every chunk is one unit of
// a BM25 Index (document frequencies, N and avgdl are counted over chunks), a query scores
// every chunk, and a document's score aggregates the scores of all its matching chunks
// (no chunk-level cut-off before aggregation). With whole documents each document is one
// unit and the aggregation makes no difference. Results are ranked as trec_eval ranks them
// (score descending, doc ID descending), so cutting at k agrees with the evaluation.
type Searcher struct {
	Chunking    Chunking
	Aggregation Aggregation

	analyzer Analyzer
	index    *Index
	docIDs   []string
	unitDoc  []int32 // document of each unit
	notFirst []bool  // true unless the unit is its document's first chunk
	indexed  int     // tokens in all units
}

// NewSearcher indexes chunks (from Tokenized.Chunks, in document order) of docs with BM25
// parameters p and analyzer a.
func NewSearcher(a Analyzer, p BM25, docs []Document, chunks []Chunk, c Chunking, agg Aggregation) *Searcher {
	s := &Searcher{Chunking: c, Aggregation: agg, analyzer: a,
		docIDs: make([]string, len(docs)), unitDoc: make([]int32, len(chunks)), notFirst: make([]bool, len(chunks))}
	for i, d := range docs {
		s.docIDs[i] = d.ID
	}
	texts := make([]string, len(chunks))
	for u, ch := range chunks {
		texts[u] = ch.Text
		s.unitDoc[u] = int32(ch.Doc)
		s.notFirst[u] = u > 0 && chunks[u-1].Doc == ch.Doc
		s.indexed += ch.Len()
	}
	s.index = NewIndex(a, p, texts)
	return s
}

// Index returns the BM25 index of the chunks.
func (s *Searcher) Index() *Index { return s.index }

// IndexedTokens returns the number of cl100k_base tokens in all indexed chunks.
func (s *Searcher) IndexedTokens() int { return s.indexed }

// Search implements Retriever: it analyzes q.Text, scores the chunks and returns the top k
// documents (all matching documents when k <= 0).
func (s *Searcher) Search(q Query, k int) []eval.ScoredDoc {
	scores, matched := s.index.Scores(s.analyzer.Terms(q.Text))
	docScore := make(map[int32]float64, len(matched))
	for _, u := range matched {
		d := s.unitDoc[u]
		sc := scores[u]
		switch s.Aggregation {
		case MaxP:
			if prev, ok := docScore[d]; !ok || sc > prev {
				docScore[d] = sc
			}
		case FirstP:
			if !s.notFirst[u] {
				docScore[d] = sc
			}
		case SumP:
			docScore[d] += sc
		}
	}
	out := make([]eval.ScoredDoc, 0, len(docScore))
	for d, sc := range docScore {
		out = append(out, eval.ScoredDoc{Doc: s.docIDs[d], Score: sc})
	}
	slices.SortFunc(out, func(a, b eval.ScoredDoc) int { return compareDocs(a.Score, a.Doc, b.Score, b.Doc) })
	if k > 0 && len(out) > k {
		out = out[:k:k]
	}
	return out
}
