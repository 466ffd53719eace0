package rerank

import (
	"fmt"
	"sync"

	"github.com/ranklab/ranklab/embed"
)

// Reranker scores a query's candidate documents from their texts; a higher score means more
// relevant. Score returns one finite score per document, in the order given. A cross-encoder
// implements it by scoring each (query, document) pair; BiEncoder by comparing vectors.
type Reranker interface {
	Score(query string, docs []string) ([]float64, error)
}

// BiEncoder returns a Reranker that embeds the query and each document separately with e and
// scores a document by the cosine of the two unit vectors:
//
//	score(q, d) = e(q) · e(d)   (summed in float64, embed.Dot)
//
// e is all-MiniLM-L6-v2 in ranklab (embed.Open), best behind an embed.Cache, whose vectors on
// disk a dense run (dense.Build) shares: a document's DenseText has the tokens its
// whole-document vector was keyed by. The reranker also keeps every vector it used in memory,
// so a text is embedded (or read from disk) once per BiEncoder however many queries or depths
// retrieve it. Rerank and RunSweep give it every text of a depth before scoring, so the texts
// not seen yet are embedded in one call of e, in full batches as a dense run embeds them. Safe
// for concurrent use. BiEncoder panics when e is nil.
func BiEncoder(e embed.Embedder) Reranker {
	if e == nil {
		panic("rerank: BiEncoder of a nil Embedder")
	}
	return &biEncoder{embedder: e, vecs: map[string][]float32{}}
}

type biEncoder struct {
	embedder embed.Embedder

	mu   sync.Mutex
	vecs map[string][]float32
}

// Score implements Reranker.
func (b *biEncoder) Score(query string, docs []string) ([]float64, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if err := b.embed(append([]string{query}, docs...)); err != nil {
		return nil, err
	}
	q := b.vecs[query]
	out := make([]float64, len(docs))
	for i, d := range docs {
		v := b.vecs[d]
		if len(v) != len(q) {
			return nil, fmt.Errorf("rerank: a document vector of %d dimensions, the query's %d", len(v), len(q))
		}
		out[i] = embed.Dot(q, v)
	}
	return out, nil
}

// prefetch embeds, in one call, the texts of texts not yet seen: Rerank hands it every text of a
// reranking before scoring query by query, so the model embeds in full batches of texts of similar
// length (as a dense run does) rather than a few texts per query.
func (b *biEncoder) prefetch(texts []string) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.embed(texts)
}

// embed embeds the texts not yet in b.vecs in one Embedder call; b.mu is held.
func (b *biEncoder) embed(texts []string) error {
	var missing []string
	seen := map[string]bool{}
	for _, t := range texts {
		if _, ok := b.vecs[t]; !ok && !seen[t] {
			seen[t] = true
			missing = append(missing, t)
		}
	}
	if len(missing) == 0 {
		return nil
	}
	vecs, err := b.embedder.Embed(missing)
	if err != nil {
		return err
	}
	if len(vecs) != len(missing) {
		return fmt.Errorf("rerank: %d vectors for %d texts", len(vecs), len(missing))
	}
	for i, t := range missing {
		b.vecs[t] = vecs[i]
	}
	return nil
}
