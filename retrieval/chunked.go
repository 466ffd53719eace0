package retrieval

import (
	"github.com/ranklab/ranklab/eval"
	"github.com/ranklab/ranklab/internal/ranking"
	"github.com/ranklab/ranklab/rag"
)

// Searcher is a retriever over a corpus cut by a Chunking: every chunk is one unit of an inverted index
// (document frequencies, N and avgdl are counted over chunks), a query scores every chunk with
// the Model, and a document's score aggregates the scores of all its matching chunks
// (rag.Aggregation.Score; no chunk-level cut-off before aggregation). With whole documents each
// document is one unit and the aggregation makes no difference. Results are ranked as trec_eval
// ranks them (score descending, ID descending), so cutting at k agrees with the evaluation.
// The index does not depend on the model: a copy of a Searcher with another Model (or
// Aggregation) scores the same index another way without indexing again.
type Searcher struct {
	Chunking    Chunking
	Aggregation rag.Aggregation
	Model       Model

	analyzer Analyzer
	index    *invIndex
	docIDs   []string
	unitDoc  []int32  // document of each unit
	notFirst []bool   // true unless the unit is its document's first chunk
	unitID   []string // ChunkID of each unit
	window   [][2]int32
	indexed  int // tokens in all units
}

// newSearcher indexes chunks (from Tokenized.chunks, in document order) of docs with model m
// (nil means Anserini's BM25) and analyzer a. Build and BuildTokenized are the way in.
func newSearcher(a Analyzer, m Model, docs []Document, chunks []textChunk, c Chunking, agg rag.Aggregation) *Searcher {
	if m == nil {
		m = Anserini
	}
	s := &Searcher{Chunking: c, Aggregation: agg, Model: m, analyzer: a,
		docIDs: make([]string, len(docs)), unitDoc: make([]int32, len(chunks)), notFirst: make([]bool, len(chunks)),
		unitID: make([]string, len(chunks)), window: make([][2]int32, len(chunks))}
	for i, d := range docs {
		s.docIDs[i] = d.ID
	}
	texts := make([]string, len(chunks))
	n := 0
	for u, ch := range chunks {
		texts[u] = ch.Text
		s.unitDoc[u] = int32(ch.Doc)
		s.notFirst[u] = u > 0 && chunks[u-1].Doc == ch.Doc
		if !s.notFirst[u] {
			n = 0
		}
		s.unitID[u] = ranking.ChunkID(docs[ch.Doc].ID, n)
		n++
		s.window[u] = [2]int32{int32(ch.Window.Start), int32(ch.Window.End)}
		s.indexed += ch.len()
	}
	p := Anserini // the index's own parameters: the BM25 model's, if it is one (QL ignores them)
	if b, ok := m.(BM25); ok {
		p = b
	}
	s.index = newInvIndex(a, p, texts)
	return s
}

// indexedTokens returns the number of cl100k_base tokens in all indexed chunks.
func (s *Searcher) indexedTokens() int { return s.indexed }

// ChunkMap returns the chunk map of the indexed chunks: ChunkID → document and token window
// (cl100k_base tokens of the document's Content). rag.WriteChunkMap writes it.
func (s *Searcher) ChunkMap() rag.ChunkMap {
	m := make(rag.ChunkMap, len(s.unitID))
	for u, id := range s.unitID {
		m[id] = rag.Span{Doc: s.docIDs[s.unitDoc[u]], Start: int(s.window[u][0]), End: int(s.window[u][1])}
	}
	return m
}

// Search analyzes q.Text, scores the chunks and returns the top k documents (all matching
// documents when k <= 0).
func (s *Searcher) Search(q Query, k int) []eval.ScoredDoc {
	scores, matched := s.Model.scores(s.index, s.analyzer.Terms(q.Text))
	return s.docs(scores, matched, k)
}

// searchChunks returns the top k chunks for q (all matching chunks when k <= 0), IDs ChunkID,
// ranked as trec_eval ranks them.
func (s *Searcher) searchChunks(q Query, k int) []eval.ScoredDoc {
	scores, matched := s.Model.scores(s.index, s.analyzer.Terms(q.Text))
	return s.chunks(scores, matched, k, 0)
}

// docs aggregates the matched units' scores per document (units of a document are adjacent and
// in window order) and returns the top k documents.
func (s *Searcher) docs(scores []float64, matched []int32, k int) []eval.ScoredDoc {
	out := make([]eval.ScoredDoc, 0, len(matched))
	var group []float64
	for i := 0; i < len(matched); {
		d := s.unitDoc[matched[i]]
		first := !s.notFirst[matched[i]]
		group = group[:0]
		for ; i < len(matched) && s.unitDoc[matched[i]] == d; i++ {
			group = append(group, scores[matched[i]])
		}
		if sc, ok := s.Aggregation.Score(group, first); ok {
			out = append(out, eval.ScoredDoc{Doc: s.docIDs[d], Score: sc})
		}
	}
	return ranking.Top(out, k, func(a, b eval.ScoredDoc) int { return ranking.Compare(a.Score, a.Doc, b.Score, b.Doc) })
}

// chunks returns the matched units in trec_eval's order, cut to the first k (k > 0) and, when
// tokens > 0, to the shortest prefix whose lengths sum to more than tokens (all of them when
// they sum to less): enough chunks for any context of up to tokens tokens, since a context is a
// prefix of the ranking that fits the budget.
func (s *Searcher) chunks(scores []float64, matched []int32, k, tokens int) []eval.ScoredDoc {
	before := func(a, b int32) int { return ranking.Compare(scores[a], s.unitID[a], scores[b], s.unitID[b]) }
	units := append([]int32(nil), matched...)
	limit := len(units)
	if k > 0 {
		limit = min(limit, k)
	}
	var top []int32
	if tokens <= 0 {
		top = ranking.Top(units, limit, before)
	} else {
		// Select a top that probably holds tokens tokens (twice the count of average-length
		// chunks), and select again, twice as many, until it does or holds every candidate.
		avg := max(1, s.indexed/max(1, len(s.unitID)))
		for want := min(limit, 2*tokens/avg+8); ; want = min(limit, 2*want) {
			top = ranking.Top(units, want, before)
			if want == limit || sumLen(s, top) > tokens {
				break
			}
		}
	}
	out := make([]eval.ScoredDoc, 0, len(top))
	used := 0
	for _, u := range top {
		if tokens > 0 && used > tokens {
			break
		}
		out = append(out, eval.ScoredDoc{Doc: s.unitID[u], Score: scores[u]})
		used += int(s.window[u][1] - s.window[u][0])
	}
	return out
}

// sumLen is the number of tokens the units hold.
func sumLen(s *Searcher, units []int32) int {
	n := 0
	for _, u := range units {
		n += int(s.window[u][1] - s.window[u][0])
	}
	return n
}
