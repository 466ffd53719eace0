package dense

import (
	"cmp"
	"fmt"

	"github.com/ranklab/ranklab/eval"
	"github.com/ranklab/ranklab/internal/ranking"
)

// denseIndex is exact cosine search over unit vectors, one per document (or chunk):
//
//	score(q, d) = q · d = cos(q, d)
//
// computed for every vector (no approximate index). Rank ties at the cut-off go to the vector
// that comes first (array order); the kept documents are returned in trec_eval's order.
type denseIndex struct {
	IDs  []string
	Dim  int
	Vecs []float32 // row-major: vector i is Vecs[i*Dim : (i+1)*Dim]
}

// newDenseIndex packs vectors (all of one dimension) under their IDs.
func newDenseIndex(ids []string, vecs [][]float32) (denseIndex, error) {
	if len(ids) != len(vecs) {
		return denseIndex{}, fmt.Errorf("dense: %d IDs for %d vectors", len(ids), len(vecs))
	}
	x := denseIndex{IDs: ids}
	if len(vecs) > 0 {
		x.Dim = len(vecs[0])
	}
	x.Vecs = make([]float32, 0, len(vecs)*x.Dim)
	for i, v := range vecs {
		if len(v) != x.Dim {
			return denseIndex{}, fmt.Errorf("dense: vector %s has %d dimensions, the first %d", ids[i], len(v), x.Dim)
		}
		x.Vecs = append(x.Vecs, v...)
	}
	return x, nil
}

// Search returns the k vectors with the largest dot product with q (all when k <= 0), in
// trec_eval's order.
func (x denseIndex) Search(q []float32, k int) []eval.ScoredDoc {
	type hit struct {
		i     int
		score float32
	}
	scores := x.Scores(q)
	hits := make([]hit, len(x.IDs))
	for i, s := range scores {
		hits[i] = hit{i, s}
	}
	top := ranking.Top(hits, k, func(a, b hit) int {
		if c := cmp.Compare(b.score, a.score); c != 0 {
			return c
		}
		return cmp.Compare(a.i, b.i)
	})
	out := make([]eval.ScoredDoc, len(top))
	for r, h := range top {
		out[r] = eval.ScoredDoc{Doc: x.IDs[h.i], Score: float64(h.score)}
	}
	return eval.Rank(out)
}

// Scores returns the dot product of q with every vector, in array order (float32 products
// summed in float32, as a float32 matrix product computes them).
func (x denseIndex) Scores(q []float32) []float32 {
	if len(q) != x.Dim {
		panic(fmt.Sprintf("dense: query of %d dimensions, index of %d", len(q), x.Dim))
	}
	out := make([]float32, len(x.IDs))
	for i := range out {
		v := x.Vecs[i*x.Dim : (i+1)*x.Dim]
		var s float32
		for j, a := range q {
			s += a * v[j]
		}
		out[i] = s
	}
	return out
}
