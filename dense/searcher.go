package dense

import (
	"fmt"

	"github.com/ranklab/ranklab/chunking"
	"github.com/ranklab/ranklab/embed"
	"github.com/ranklab/ranklab/eval"
	"github.com/ranklab/ranklab/internal/ranking"
	"github.com/ranklab/ranklab/rag"
	"github.com/ranklab/ranklab/retrieval"
)

// Searcher is dense retrieval over a corpus cut by a retrieval.Chunking in the model's own
// tokens (WordPiece IDs of each document's DenseText, [CLS] and [SEP] left out):
//
//   - whole documents (Chunk 0): each document is one unit, embedded as the model sees it, cut
//     at its token limit (256 with [CLS] and [SEP] for all-MiniLM-L6-v2); its span is the
//     tokens the model read;
//   - Chunk N (1..limit−2): the windows of chunking.Windows over the document's tokens, each
//     embedded as [CLS] window [SEP], so no chunk is truncated and every token is read.
//
// A query scores every unit (cosine); a document's score aggregates the scores of all its units
// (rag.Aggregation.Score: MaxP, FirstP or SumP). Chunk IDs are doc + "#" + i (i from 0);
// ChunkMap gives their spans in WordPiece tokens (not cl100k_base: the budgets of package rag
// then count the model's tokens). Rankings follow trec_eval's order.
type Searcher struct {
	Chunking    retrieval.Chunking
	Aggregation rag.Aggregation
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

// Build tokenizes docs with e's WordPiece, cuts them by ch and embeds every unit with e
// (an embed.Cache over the model embeds each unit once across runs). A chunk size above the model's
// limit minus 2 ([CLS] and [SEP]) is an error naming that limit.
func Build(docs []retrieval.Document, e embed.Embedder, ch retrieval.Chunking, agg rag.Aggregation) (*Searcher, error) {
	if _, err := check(e, ch, agg); err != nil {
		return nil, err
	}
	return buildDense(docs, wordPieces(docs, e), e, ch, agg)
}

// check returns the most tokens a unit of e holds besides [CLS] and [SEP]
// (WordPiece().MaxTokens − 2), or an error when ch or agg is invalid or ch's chunks are longer.
func check(e embed.Embedder, ch retrieval.Chunking, agg rag.Aggregation) (int, error) {
	if err := ch.Validate(); err != nil {
		return 0, err
	}
	if agg < rag.MaxP || agg > rag.SumP {
		return 0, fmt.Errorf("dense: invalid %v", agg)
	}
	limit := e.WordPiece().MaxTokens - 2
	if ch.Chunk > limit {
		return 0, fmt.Errorf("chunk %d: the model reads at most %d tokens besides [CLS] and [SEP]", ch.Chunk, limit)
	}
	return limit, nil
}

// wordPieces returns every document's DenseText in e's WordPiece IDs, with no token limit and
// [CLS] and [SEP] left out: the tokens a Searcher cuts (and a dense sweep counts).
func wordPieces(docs []retrieval.Document, e embed.Embedder) [][]int32 {
	wp := e.WordPiece()
	toks := make([][]int32, len(docs))
	ranking.Parallel(len(docs), func(i int) { toks[i] = wp.Pieces(docs[i].DenseText()) })
	return toks
}

// buildDense is Build over docs already tokenized by wordPieces (toks[i]: docs[i]'s tokens),
// for a ch and agg its caller has passed through check.
func buildDense(docs []retrieval.Document, toks [][]int32, e embed.Embedder, ch retrieval.Chunking, agg rag.Aggregation) (*Searcher, error) {
	wp := e.WordPiece()
	limit := wp.MaxTokens - 2
	s := &Searcher{Chunking: ch, Aggregation: agg, Embedder: e, docIDs: make([]string, len(docs))}
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
			ids = append(ids, ranking.ChunkID(d.ID, n))
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
		for n, w := range chunking.Windows(len(t), ch.Chunk, ch.Overlap) {
			add(n, w)
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
func (s *Searcher) indexedTokens() int {
	n := 0
	for _, w := range s.window {
		n += int(w[1] - w[0])
	}
	return n
}

// ChunkMap returns every unit's document and span in WordPiece tokens.
func (s *Searcher) ChunkMap() rag.ChunkMap {
	m := make(rag.ChunkMap, len(s.index.IDs))
	for u, id := range s.index.IDs {
		m[id] = rag.Span{Doc: s.docIDs[s.unitDoc[u]], Start: int(s.window[u][0]), End: int(s.window[u][1])}
	}
	return m
}

// Run embeds the queries and returns the document run (units aggregated) and the chunk run
// (Depth, ChunkDepth and Tag as for retrieval.Searcher.Run; ChunkTokens cuts the chunk ranking once its
// chunks hold more than that many WordPiece tokens).
func (s *Searcher) Run(queries []retrieval.Query, opt retrieval.RunOptions) (retrieval.Runs, error) {
	texts := make([]string, len(queries))
	for i, q := range queries {
		texts[i] = q.Text
	}
	qv, err := s.Embedder.Embed(texts)
	if err != nil {
		return retrieval.Runs{}, err
	}
	for i, v := range qv {
		if len(s.index.IDs) > 0 && len(v) != s.index.Dim {
			return retrieval.Runs{}, fmt.Errorf("dense: query %s: a vector of %d dimensions, the index's have %d", queries[i].ID, len(v), s.index.Dim)
		}
	}
	opt.Depth, opt.ChunkDepth, opt.Tag = ranking.Defaults(opt.Depth, opt.ChunkDepth, opt.Tag)
	ids := make([]string, len(queries))
	for i, q := range queries {
		ids[i] = q.ID
	}
	var r retrieval.Runs
	r.Docs, r.Chunks = ranking.Gather(ids, opt.Tag, opt.ChunkDepth > 0, func(i int) (docs, chunks []eval.ScoredDoc) {
		scores := s.index.Scores(qv[i])
		docs = s.aggregate(scores, opt.Depth)
		if opt.ChunkDepth > 0 {
			chunks = s.chunks(scores, opt.ChunkDepth, opt.ChunkTokens)
		}
		return docs, chunks
	})
	return r, nil
}

// aggregate turns the units' scores into the top k documents.
func (s *Searcher) aggregate(scores []float32, k int) []eval.ScoredDoc {
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
	return ranking.Top(out, k, func(a, b eval.ScoredDoc) int { return ranking.Compare(a.Score, a.Doc, b.Score, b.Doc) })
}

// chunks returns the top k units in trec_eval's order and, with tokens > 0, the shortest prefix
// of them holding more than tokens tokens.
func (s *Searcher) chunks(scores []float32, k, tokens int) []eval.ScoredDoc {
	all := make([]eval.ScoredDoc, len(scores))
	for u, sc := range scores {
		all[u] = eval.ScoredDoc{Doc: s.index.IDs[u], Score: float64(sc)}
	}
	top := ranking.Top(all, k, func(a, b eval.ScoredDoc) int { return ranking.Compare(a.Score, a.Doc, b.Score, b.Doc) })
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
