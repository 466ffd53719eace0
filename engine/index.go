package engine

import (
	"context"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/ranklab/ranklab/chunking"
	"github.com/ranklab/ranklab/dense"
	"github.com/ranklab/ranklab/embed"
	"github.com/ranklab/ranklab/eval"
	"github.com/ranklab/ranklab/internal/ranking"
	"github.com/ranklab/ranklab/rag"
	"github.com/ranklab/ranklab/retrieval"
)

// IndexOptions configure CreateIndex. The zero value is one shard, per-shard statistics, whole
// documents, no vectors.
type IndexOptions struct {
	Shards int // shards of the index; 0 means 1
	// ExactStats scores with statistics gathered from every shard (Solr's ExactStatsCache, set
	// on the collection; OpenSearch's dfs_query_then_fetch, used by every search of this Index),
	// so BM25 over N shards equals BM25 over one. Without it each shard uses its own document
	// frequencies and lengths (both engines' default).
	ExactStats bool
	// Chunking cuts documents as the in-process retrievers do: BM25 units are cl100k_base windows
	// of the document's Content (retrieval.Build's), vector units the model's WordPiece windows
	// (dense.Build's). With chunks an index holds one of the two: vectors when Embedder
	// is set, else text.
	Chunking retrieval.Chunking
	// Embedder, when set, embeds every unit as dense.Build does (through an
	// embed.Cache, the in-process vectors themselves) into an HNSW field (cosine) with M
	// neighbours per node (0: 16) and construction beam EfConstruction (0: 100).
	Embedder          embed.Embedder
	M, EfConstruction int
	Replace           bool      // delete an index of that name first; without it an existing index is an error
	Batch             int       // units per indexing request; 0 means 500
	Progress          io.Writer // where a line says how indexing goes (nil: silent)
}

// Index is an index CreateIndex made on an engine: its name, shards and statistics mode, what it
// holds, and the chunk maps of its units.
type Index struct {
	Client     *Client
	Name       string
	Shards     int
	ExactStats bool
	Chunking   retrieval.Chunking
	Lexical    bool // holds text (BM25)
	Dense      bool // holds vectors (kNN)
	Units      int  // units indexed (documents, or chunks)
	Indexing   time.Duration

	spec     indexSpec
	embedder embed.Embedder
	docs     []retrieval.Document
	lexMap   rag.ChunkMap // nil until asked for whole documents (it needs the corpus tokenized)
	denseMap rag.ChunkMap
	once     sync.Once
	mapErr   error
}

// CreateIndex makes index name on the engine and indexes docs into it, as the in-process
// retrievers index them (see IndexOptions), then checks that the engine counts every unit.
func (c *Client) CreateIndex(ctx context.Context, name string, docs []retrieval.Document, opt IndexOptions) (*Index, error) {
	t0 := time.Now()
	if opt.Shards == 0 {
		opt.Shards = 1
	}
	if opt.Shards < 1 {
		return nil, fmt.Errorf("engine: %d shards: want at least 1", opt.Shards)
	}
	if err := opt.Chunking.Validate(); err != nil {
		return nil, err
	}
	if c.Kind == "solr" && !c.Cloud {
		return nil, fmt.Errorf("engine %s: Solr is not in SolrCloud mode: ranklab makes collections through the Collections API (query a standalone core with a template instead)", c.URL)
	}
	if err := checkIndexName(name); err != nil {
		return nil, err
	}
	ix := &Index{Client: c, Name: name, Shards: opt.Shards, ExactStats: opt.ExactStats, Chunking: opt.Chunking, docs: docs, embedder: opt.Embedder}
	ix.spec = indexSpec{Shards: opt.Shards, ExactStats: opt.ExactStats, M: max(opt.M, 0), EfC: max(opt.EfConstruction, 0)}
	if ix.spec.M == 0 {
		ix.spec.M = 16
	}
	if ix.spec.EfC == 0 {
		ix.spec.EfC = 100
	}
	byID := map[string]*unit{}
	var units []*unit
	put := func(u unit) *unit {
		if p, ok := byID[u.ID]; ok {
			return p
		}
		p := &u
		byID[u.ID] = p
		units = append(units, p)
		return p
	}
	whole := opt.Chunking.Chunk == 0
	if opt.Embedder == nil || whole {
		ix.Lexical = true
		if whole {
			for _, d := range docs {
				if d.Content() != "" {
					put(unit{ID: d.ID, Doc: d.ID, Text: d.Content()})
				}
			}
		} else {
			chunks, err := cutChunks(docs, opt.Chunking)
			if err != nil {
				return nil, err
			}
			ix.lexMap = rag.ChunkMap{}
			for _, ch := range chunks {
				put(unit{ID: ch.id, Doc: docs[ch.doc].ID, No: ch.no, Text: ch.text})
				ix.lexMap[ch.id] = rag.Span{Doc: docs[ch.doc].ID, Start: ch.w.Start, End: ch.w.End}
			}
		}
	}
	if opt.Embedder != nil {
		ix.Dense = true
		progress(opt.Progress, "engine: embedding %d documents with %s (%s)", len(docs), opt.Embedder.Key(), opt.Chunking)
		ds, err := dense.Build(docs, opt.Embedder, opt.Chunking, rag.MaxP)
		if err != nil {
			return nil, err
		}
		ids, vecs := ds.Vectors()
		ix.denseMap = ds.ChunkMap()
		for i, id := range ids {
			sp := ix.denseMap[id]
			uid := id
			if whole {
				uid = sp.Doc
			}
			u := put(unit{ID: uid, Doc: sp.Doc, No: chunkNo(id)})
			u.Vector = vecs[i]
			if ix.spec.Dim == 0 {
				ix.spec.Dim = len(vecs[i])
			}
		}
	}
	b := c.b
	exists, err := b.exists(ctx, name)
	if err != nil {
		return nil, err
	}
	if exists {
		if !opt.Replace {
			return nil, fmt.Errorf("engine %s: index %q exists: choose another name, or replace it", c.URL, name)
		}
		if err := b.drop(ctx, name); err != nil {
			return nil, err
		}
	}
	c.sync()
	if err := b.create(ctx, name, ix.spec); err != nil {
		return nil, err
	}
	batch := opt.Batch
	if batch <= 0 {
		batch = 500
	}
	progress(opt.Progress, "engine: indexing %d units into %s %q (%d shards)", len(units), c.Kind, name, opt.Shards)
	last := time.Now()
	for i := 0; i < len(units); i += batch {
		part := make([]unit, 0, batch)
		for _, u := range units[i:min(i+batch, len(units))] {
			part = append(part, *u)
		}
		if err := b.add(ctx, name, part); err != nil {
			return nil, err
		}
		if time.Since(last) > 10*time.Second {
			progress(opt.Progress, "engine: %d of %d units indexed (%.0f s)", i+len(part), len(units), time.Since(t0).Seconds())
			last = time.Now()
		}
	}
	if err := b.commit(ctx, name); err != nil {
		return nil, err
	}
	n, err := b.count(ctx, name)
	if err != nil {
		return nil, err
	}
	if n != len(units) {
		return nil, fmt.Errorf("engine %s: index %q counts %d units after indexing %d", c.URL, name, n, len(units))
	}
	if ix.Shards, err = b.shards(ctx, name); err != nil {
		return nil, err
	}
	ix.Units = n
	ix.Indexing = time.Since(t0)
	progress(opt.Progress, "engine: %d units indexed in %.1f s", n, ix.Indexing.Seconds())
	return ix, nil
}

// checkIndexName refuses a name both engines would not take or that would need escaping in a
// URL path: lower-case letters, digits, '-', '_' and '.', not starting with one of the last three.
func checkIndexName(name string) error {
	if name == "" || len(name) > 200 || strings.IndexByte("-_.", name[0]) >= 0 {
		return fmt.Errorf("engine: index name %q: want 1-200 of a-z 0-9 - _ . not starting with - _ .", name)
	}
	for _, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.') {
			return fmt.Errorf("engine: index name %q: want 1-200 of a-z 0-9 - _ . not starting with - _ .", name)
		}
	}
	return nil
}

// chunkNo returns the number after the last '#' of a ChunkID.
func chunkNo(id string) int {
	n := 0
	for _, c := range id[strings.LastIndexByte(id, '#')+1:] {
		n = 10*n + int(c-'0')
	}
	return n
}

func progress(w io.Writer, format string, args ...any) {
	if w != nil {
		fmt.Fprintf(w, format+"\n", args...)
	}
}

// RunOptions configure Index.Run. The zero value is BM25, 1000 documents and 1000 chunks per
// query, tag "run".
type RunOptions struct {
	Mode       string // "bm25" (default), "knn" or "hybrid" (the engine's own sum of both, see Run)
	Depth      int    // documents per query; 0 means 1000
	ChunkDepth int    // chunks per query; 0 means 1000; negative: no chunk run
	// Width is kNN's search width: the candidates the HNSW search keeps (Solr's topK, OpenSearch's
	// k); 0 means max(Depth, 100). The Depth best of them are returned.
	Width  int
	Weight float64 // hybrid: the kNN part's weight w; the BM25 part has 1 − w
	// Aggregation of chunk scores into a document score: MaxP (the engine collapses a document's
	// units to its best one) or FirstP (only first chunks searched). SumP needs every chunk's
	// score and is refused.
	Aggregation rag.Aggregation
	Tag         string // tag of both runs; "" means "run"
	Workers     int    // queries in flight at once; 0 means 4
}

// Run searches every query on the engine and returns the document run and the chunk run, as
// retrieval.Searcher.Run and dense.Searcher.Run return them (IDs, ChunkIDs, trec_eval's order).
//
//   - bm25: the text field, an OR of the query's analyzed words (Anserini's bag of words); the
//     query is text, every character of query syntax in it escaped.
//   - knn: the query embedded by the Index's Embedder, the HNSW search of Width candidates;
//     scores are the cosine, 2·s − 1 of the engine's (1 + cos)/2, as the in-process run has them.
//   - hybrid: one request whose score is (1 − w)·BM25 + w·(1 + cos)/2, a document missing
//     from one part getting 0 from it: CombSUM without normalisation (fusion.Fuse with Norm
//     none and weights 1 − w, w over the engine's own two runs computes the same).
//
// With whole documents one request answers both runs (its first ChunkDepth hits, as ChunkID(doc,
// 0)); with chunks the chunk run and the document run are two requests. The runs are returned only
// when every query has been answered: any failure is an error and no run.
func (ix *Index) Run(ctx context.Context, queries []retrieval.Query, opt RunOptions) (retrieval.Runs, error) {
	ix.Client.sync()
	if opt.Mode == "" {
		opt.Mode = "bm25"
	}
	if opt.Depth == 0 {
		opt.Depth = 1000
	}
	if opt.ChunkDepth == 0 {
		opt.ChunkDepth = 1000
	}
	if opt.Tag == "" {
		opt.Tag = "run"
	}
	if opt.Workers <= 0 {
		opt.Workers = 4
	}
	if opt.Depth < 1 {
		return retrieval.Runs{}, fmt.Errorf("engine: depth %d: want at least 1", opt.Depth)
	}
	switch opt.Mode {
	case "bm25":
		if !ix.Lexical {
			return retrieval.Runs{}, fmt.Errorf("engine: index %q holds no text (chunks of vectors only)", ix.Name)
		}
	case "knn", "hybrid":
		if !ix.Dense {
			return retrieval.Runs{}, fmt.Errorf("engine: index %q holds no vectors (made without an Embedder)", ix.Name)
		}
		if opt.Mode == "hybrid" && (!ix.Lexical || !(opt.Weight >= 0 && opt.Weight <= 1)) {
			return retrieval.Runs{}, fmt.Errorf("engine: hybrid needs an index of whole documents with text and vectors and a weight in [0, 1] (got %v)", opt.Weight)
		}
	default:
		return retrieval.Runs{}, fmt.Errorf("engine: mode %q: want bm25, knn or hybrid", opt.Mode)
	}
	whole := ix.Chunking.Chunk == 0
	if !whole && opt.Aggregation == rag.SumP {
		return retrieval.Runs{}, fmt.Errorf("engine: sump needs the score of every chunk of a document, which an engine does not return: use maxp or firstp")
	}
	if opt.Width == 0 {
		opt.Width = max(opt.Depth, 100)
	}
	var vecs [][]float32
	if opt.Mode != "bm25" {
		texts := make([]string, len(queries))
		for i, q := range queries {
			texts[i] = q.Text
		}
		var err error
		if vecs, err = ix.embedder.Embed(texts); err != nil {
			return retrieval.Runs{}, err
		}
	}
	docs := make([][]eval.ScoredDoc, len(queries))
	chunks := make([][]eval.ScoredDoc, len(queries))
	err := forEach(ctx, len(queries), opt.Workers, func(ctx context.Context, i int) error {
		req := searchRequest{Mode: opt.Mode, Text: queries[i].Text, Weight: opt.Weight}
		if vecs != nil {
			req.Vector = vecs[i]
		}
		search := func(k int, collapse, first bool) ([]eval.ScoredDoc, error) {
			r := req
			r.K, r.Width, r.Collapse, r.FirstP = k, max(opt.Width, k), collapse, first
			hits, err := ix.Client.b.search(ctx, ix.Name, ix.spec, r)
			if err != nil {
				return nil, err
			}
			if opt.Mode == "knn" {
				for j := range hits {
					hits[j].Score = 2*hits[j].Score - 1
				}
			}
			return hits, nil
		}
		if whole {
			hits, err := search(max(opt.Depth, opt.ChunkDepth), false, false)
			if err != nil {
				return err
			}
			docs[i] = eval.Rank(hits[:min(len(hits), opt.Depth)])
			if opt.ChunkDepth > 0 {
				c := make([]eval.ScoredDoc, min(len(hits), opt.ChunkDepth))
				for j := range c {
					c[j] = eval.ScoredDoc{Doc: ranking.ChunkID(hits[j].Doc, 0), Score: hits[j].Score}
				}
				chunks[i] = eval.Rank(c)
			}
			return nil
		}
		if opt.ChunkDepth > 0 {
			hits, err := search(opt.ChunkDepth, false, false)
			if err != nil {
				return err
			}
			chunks[i] = eval.Rank(hits)
		}
		hits, err := search(opt.Depth, opt.Aggregation == rag.MaxP, opt.Aggregation == rag.FirstP)
		if err != nil {
			return err
		}
		for j := range hits {
			hits[j].Doc = hits[j].Doc[:strings.LastIndexByte(hits[j].Doc, '#')]
		}
		docs[i] = eval.Rank(hits)
		return nil
	})
	if err != nil {
		return retrieval.Runs{}, err
	}
	r := retrieval.Runs{
		Docs:   eval.Run{Tag: opt.Tag, Queries: make(map[string][]eval.ScoredDoc, len(queries))},
		Chunks: eval.Run{Tag: opt.Tag, Queries: make(map[string][]eval.ScoredDoc, len(queries))},
	}
	for i, q := range queries {
		r.Docs.Queries[q.ID] = docs[i]
		if opt.ChunkDepth > 0 {
			r.Chunks.Queries[q.ID] = chunks[i]
		}
	}
	return r, nil
}

// forEach calls fn(ctx, i) for i in [0, n) on workers goroutines and returns the first error,
// cancelling the others' context at once.
func forEach(ctx context.Context, n, workers int, fn func(ctx context.Context, i int) error) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		wg   sync.WaitGroup
		mu   sync.Mutex
		next int
		ferr error
	)
	for range min(workers, max(n, 1)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				mu.Lock()
				i := next
				next++
				stop := ferr != nil
				mu.Unlock()
				if i >= n || stop {
					return
				}
				if err := fn(ctx, i); err != nil {
					mu.Lock()
					if ferr == nil {
						ferr = err
						cancel()
					}
					mu.Unlock()
					return
				}
			}
		}()
	}
	wg.Wait()
	if ferr == nil && ctx.Err() != nil {
		return ctx.Err()
	}
	return ferr
}

// ChunkMap returns the chunk map of the units the mode searches, as the in-process retriever
// of that mode writes it: for "knn" the WordPiece spans of dense.Build, otherwise the
// cl100k_base spans of retrieval.Build (for whole documents computed on first use: it tokenizes
// the corpus).
func (ix *Index) ChunkMap(mode string) (rag.ChunkMap, error) {
	if mode == "knn" {
		if !ix.Dense {
			return nil, fmt.Errorf("engine: index %q holds no vectors", ix.Name)
		}
		return ix.denseMap, nil
	}
	if !ix.Lexical {
		return nil, fmt.Errorf("engine: index %q holds no text", ix.Name)
	}
	ix.once.Do(func() {
		if ix.lexMap != nil {
			return
		}
		chunks, err := cutChunks(ix.docs, retrieval.Whole)
		if err != nil {
			ix.mapErr = err
			return
		}
		m := make(rag.ChunkMap, len(chunks))
		for _, ch := range chunks {
			m[ch.id] = rag.Span{Doc: ix.docs[ch.doc].ID, Start: ch.w.Start, End: ch.w.End}
		}
		ix.lexMap = m
	})
	return ix.lexMap, ix.mapErr
}

// via returns the index as seen through another client (a proxy in front of the same engine).
func (ix *Index) via(c *Client) *Index {
	return &Index{Client: c, Name: ix.Name, Shards: ix.Shards, ExactStats: ix.ExactStats, Chunking: ix.Chunking,
		Lexical: ix.Lexical, Dense: ix.Dense, Units: ix.Units, spec: ix.spec, embedder: ix.embedder, docs: ix.docs,
		lexMap: ix.lexMap, denseMap: ix.denseMap}
}

// textChunk is one BM25 unit: its ChunkID and number, its document, its window of cl100k_base
// tokens of the document's Content and the text of that window.
type textChunk struct {
	id, text string
	doc, no  int
	w        chunking.Window
}

// cutChunks cuts docs as retrieval.Build does: each document's Content in cl100k_base tokens,
// whole (one unit) when ch is Whole or the document fits one chunk, else the windows of
// chunking.Windows; a document without tokens gives no unit. A window's text is its tokens'
// bytes (the tokens' bytes concatenate to the Content).
func cutChunks(docs []retrieval.Document, ch retrieval.Chunking) ([]textChunk, error) {
	tok, err := retrieval.NewTokenizer()
	if err != nil {
		return nil, err
	}
	tz := retrieval.Tokenize(tok, docs)
	var out []textChunk
	for i, toks := range tz.Tokens {
		if len(toks) == 0 {
			continue
		}
		if ch.Chunk == 0 || len(toks) <= ch.Chunk {
			out = append(out, textChunk{id: ranking.ChunkID(docs[i].ID, 0), text: docs[i].Content(), doc: i, w: chunking.Window{Start: 0, End: len(toks)}})
			continue
		}
		for n, w := range chunking.Windows(len(toks), ch.Chunk, ch.Overlap) {
			out = append(out, textChunk{id: ranking.ChunkID(docs[i].ID, n), text: tok.Decode(toks[w.Start:w.End]), doc: i, no: n, w: w})
		}
	}
	return out, nil
}
