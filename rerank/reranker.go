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
// disk a dense run (retrieval.BuildDense) shares: a document's DenseText has the tokens its
// whole-document vector was keyed by. The reranker also keeps every vector it used in memory,
// so a text is embedded (or read from disk) once per BiEncoder however many queries or depths
// retrieve it; the texts a call has not seen are embedded in one call of e. Safe for
// concurrent use. BiEncoder panics when e is nil.
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

func (b *biEncoder) Score(query string, docs []string) ([]float64, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	var missing []string
	seen := map[string]bool{}
	for _, t := range append([]string{query}, docs...) {
		if _, ok := b.vecs[t]; !ok && !seen[t] {
			seen[t] = true
			missing = append(missing, t)
		}
	}
	if len(missing) > 0 {
		vecs, err := b.embedder.Embed(missing)
		if err != nil {
			return nil, err
		}
		if len(vecs) != len(missing) {
			return nil, fmt.Errorf("rerank: %d vectors for %d texts", len(vecs), len(missing))
		}
		for i, t := range missing {
			b.vecs[t] = vecs[i]
		}
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
