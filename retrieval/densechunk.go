package retrieval

import (
	"fmt"

	"github.com/ranklab/ranklab/chunking"
	"github.com/ranklab/ranklab/embed"
	"github.com/ranklab/ranklab/eval"
	"github.com/ranklab/ranklab/rag"
)

// DenseSearcher is dense retrieval over a corpus cut by a Chunking in the model's own tokens
// (WordPiece IDs of each document's DenseText, [CLS] and [SEP] left out):
//
//   - whole documents (Chunk 0): each document is one unit, embedded as the model sees it, cut
//     at its token limit (256 with [CLS] and [SEP] for all-MiniLM-L6-v2); its span is the
//     tokens the model read;
//   - Chunk N (1..limit−2): the windows of chunking.WindowSeq over the document's tokens, each
//     embedded as [CLS] window [SEP], so no chunk is truncated and every token is read.
//
// A query scores every unit (cosine); a document's score aggregates the scores of all its units
// (Aggregation.Score: MaxP, FirstP or SumP). Chunk IDs are ChunkID(doc, i); ChunkMap gives their
// spans in WordPiece tokens (not cl100k_base: the budgets of package rag then count the model's
// tokens). Rankings follow trec_eval's order.
type DenseSearcher struct {
	Chunking    Chunking
	Aggregation Aggregation
	Embedder    embed.Embedder

	index   denseIndex
	docIDs  []string
	unitDoc []int32
	window  [][2]int32
	unitOf  map[string]int32
	// Truncated counts the documents whose tokens do not all fit the model's limit (whole
	// documents only: their tail is never read).
	Truncated int
	// Tokens counts every document's WordPiece tokens ([CLS] and [SEP] left out).
	Tokens int
	// Empty lists the documents with no tokens (an empty DenseText, or one of characters the
	// tokenizer drops), in corpus order: they have no unit, so no query retrieves them.
	Empty []string
}

// BuildDense tokenizes docs with e's WordPiece, cuts them by ch and embeds every unit with e
// (a Cache over the model embeds each unit once across runs). A chunk size above the model's
// limit minus 2 ([CLS] and [SEP]) is an error naming that limit.
func BuildDense(docs []Document, e embed.Embedder, ch Chunking, agg Aggregation) (*DenseSearcher, error) {
	if _, err := checkDense(e, ch, agg); err != nil {
		return nil, err
	}
	return buildDense(docs, wordPieces(docs, e), e, ch, agg)
}

// checkDense returns the most tokens a unit of e holds besides [CLS] and [SEP]
// (WordPiece().MaxTokens − 2), or an error when ch or agg is invalid or ch's chunks are longer.
func checkDense(e embed.Embedder, ch Chunking, agg Aggregation) (int, error) {
	if err := ch.Validate(); err != nil {
		return 0, err
	}
	if agg < MaxP || agg > rag.SumP {
		return 0, fmt.Errorf("retrieval: invalid %v", agg)
	}
	limit := e.WordPiece().MaxTokens - 2
	if ch.Chunk > limit {
		return 0, fmt.Errorf("chunk %d: the model reads at most %d tokens besides [CLS] and [SEP]", ch.Chunk, limit)
	}
	return limit, nil
}

// wordPieces returns every document's DenseText in e's WordPiece IDs, with no token limit and
// [CLS] and [SEP] left out: the tokens a DenseSearcher cuts (and a dense sweep counts).
func wordPieces(docs []Document, e embed.Embedder) [][]int32 {
	wp := e.WordPiece()
	toks := make([][]int32, len(docs))
	parallel(len(docs), func(i int) { toks[i] = wp.Pieces(docs[i].DenseText()) })
	return toks
}

// buildDense is BuildDense over docs already tokenized by wordPieces (toks[i]: docs[i]'s tokens),
// for a ch and agg its caller has passed through checkDense.
func buildDense(docs []Document, toks [][]int32, e embed.Embedder, ch Chunking, agg Aggregation) (*DenseSearcher, error) {
	wp := e.WordPiece()
	limit := wp.MaxTokens - 2
	s := &DenseSearcher{Chunking: ch, Aggregation: agg, Embedder: e, docIDs: make([]string, len(docs))}
	var units [][]int32
	var ids []string
	for i, d := range docs {
		s.docIDs[i] = d.ID
		t := toks[i]
		s.Tokens += len(t)
		if len(t) == 0 {
			s.Empty = append(s.Empty, d.ID)
			continue
		}
		add := func(n int, w chunking.Window) {
			units = append(units, wp.Wrap(t[w.Start:w.End]))
			ids = append(ids, ChunkID(d.ID, n))
			s.unitDoc = append(s.unitDoc, int32(i))
			s.window = append(s.window, [2]int32{int32(w.Start), int32(w.End)})
		}
		if ch.Chunk == 0 || len(t) <= ch.Chunk {
			end := len(t)
			if end > limit {
				end = limit
				s.Truncated++
			}
			add(0, chunking.Window{Start: 0, End: end})
			continue
		}
		n := 0
		for w := range chunking.WindowSeq(len(t), ch.Chunk, ch.Overlap) {
			add(n, w)
			n++
		}
	}
	vecs, err := e.EmbedTokens(units)
	if err != nil {
		return nil, err
	}
	if s.index, err = newDenseIndex(ids, vecs); err != nil {
		return nil, err
	}
	s.unitOf = make(map[string]int32, len(ids))
	for u, id := range ids {
		s.unitOf[id] = int32(u)
	}
	return s, nil
}

// indexedTokens returns the WordPiece tokens of every unit ([CLS] and [SEP] left out): for
// whole documents the tokens the model reads, at most its limit minus 2 per document.
func (s *DenseSearcher) indexedTokens() int {
	n := 0
	for _, w := range s.window {
		n += int(w[1] - w[0])
	}
	return n
}

// ChunkMap returns every unit's document and span in WordPiece tokens.
func (s *DenseSearcher) ChunkMap() rag.ChunkMap {
	m := make(rag.ChunkMap, len(s.index.IDs))
	for u, id := range s.index.IDs {
		m[id] = rag.Span{Doc: s.docIDs[s.unitDoc[u]], Start: int(s.window[u][0]), End: int(s.window[u][1])}
	}
	return m
}

// Run embeds the queries and returns the document run (units aggregated) and the chunk run
// (Depth, ChunkDepth and Tag as for Searcher.Run; ChunkTokens cuts the chunk ranking once its
// chunks hold more than that many WordPiece tokens).
func (s *DenseSearcher) Run(queries []Query, opt RunOptions) (Runs, error) {
	texts := make([]string, len(queries))
	for i, q := range queries {
		texts[i] = q.Text
	}
	qv, err := s.Embedder.Embed(texts)
	if err != nil {
		return Runs{}, err
	}
	for i, v := range qv {
		if len(s.index.IDs) > 0 && len(v) != s.index.Dim {
			return Runs{}, fmt.Errorf("retrieval: query %s: a vector of %d dimensions, the index's have %d", queries[i].ID, len(v), s.index.Dim)
		}
	}
	return searchAll(queries, opt.withDefaults(), func(i int, opt RunOptions) (docs, chunks []eval.ScoredDoc) {
		scores := s.index.Scores(qv[i])
		docs = s.aggregate(scores, opt.Depth)
		if opt.ChunkDepth > 0 {
			chunks = s.chunks(scores, opt.ChunkDepth, opt.ChunkTokens)
		}
		return docs, chunks
	}), nil
}

// aggregate turns the units' scores into the top k documents.
func (s *DenseSearcher) aggregate(scores []float32, k int) []eval.ScoredDoc {
	out := make([]eval.ScoredDoc, 0, len(s.docIDs))
	var group []float64
	for u := 0; u < len(scores); {
		d := s.unitDoc[u]
		group = group[:0]
		for ; u < len(scores) && s.unitDoc[u] == d; u++ {
			group = append(group, float64(scores[u]))
		}
		if sc, ok := s.Aggregation.Score(group, true); ok {
			out = append(out, eval.ScoredDoc{Doc: s.docIDs[d], Score: sc})
		}
	}
	return topK(out, k, func(a, b eval.ScoredDoc) int { return compareDocs(a.Score, a.Doc, b.Score, b.Doc) })
}

// chunks returns the top k units in trec_eval's order and, with tokens > 0, the shortest prefix
// of them holding more than tokens tokens.
func (s *DenseSearcher) chunks(scores []float32, k, tokens int) []eval.ScoredDoc {
	all := make([]eval.ScoredDoc, len(scores))
	for u, sc := range scores {
		all[u] = eval.ScoredDoc{Doc: s.index.IDs[u], Score: float64(sc)}
	}
	top := topK(all, k, func(a, b eval.ScoredDoc) int { return compareDocs(a.Score, a.Doc, b.Score, b.Doc) })
	if tokens <= 0 {
		return top
	}
	used := 0
	for i, h := range top {
		if used > tokens {
			return top[:i]
		}
		w := s.window[s.unitOf[h.Doc]]
		used += int(w[1] - w[0])
	}
	return top
}
