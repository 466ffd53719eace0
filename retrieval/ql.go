package retrieval

import (
	"fmt"
	"math"
	"slices"
)

// QLDirichlet is query likelihood with Dirichlet smoothing, as Lucene's LMDirichletSimilarity
// scores it (Anserini's -qld, Zhai & Lafferty 2001): for each query term t found in unit u,
//
//	s(t, u) = max(0, n(t, q) · (ln(1 + tf(t, u) / (μ · p(t|C))) + ln(μ / (dl(u) + μ))))
//	p(t|C)  = (cf(t) + 1) / (|C| + 1)
//	score(q, u) = Σ_{t ∈ q, tf(t, u) > 0} s(t, u)
//
// where cf(t) is the number of occurrences of t in all units, |C| the number of terms in all
// units, n(t, q) the term's count in the analyzed query (its boost, as for BM25), and dl(u) the
// unit length as Lucene stores it (the same lossy SmallFloat byte as BM25's). As in Lucene, only
// units holding at least one query term are scored (the smoothing mass of absent terms, equal for
// every unit up to the length term, is not added), and a term's negative contribution is cut to
// 0. Scores are float64 where Lucene uses float32.
type QLDirichlet struct {
	Mu float64 // the Dirichlet prior μ, > 0
}

// AnseriniQL is Anserini's default query-likelihood setting: μ = 1000.
var AnseriniQL = QLDirichlet{Mu: 1000}

// String returns "qld mu=1000".
func (m QLDirichlet) String() string { return fmt.Sprintf("qld mu=%g", m.Mu) }

// String returns "bm25 k1=0.9 b=0.4".
func (p BM25) String() string { return fmt.Sprintf("bm25 k1=%g b=%g", p.K1, p.B) }

// Model is a ranking function of a Searcher: BM25 or QLDirichlet.
type Model interface {
	String() string
	scores(ix *invIndex, terms []string) ([]float64, []int32)
}

// scores ranks by BM25 with p's own k1 and b, whatever parameters the index was built with (a
// Searcher copied with another BM25 model scores with that model).
func (p BM25) scores(ix *invIndex, terms []string) ([]float64, []int32) {
	return ix.scoresWith(terms, p)
}

func (m QLDirichlet) scores(ix *invIndex, terms []string) ([]float64, []int32) {
	return ix.QLScores(terms, m)
}

// QLScores returns the QLDirichlet score of every unit for the analyzed query terms (the
// formula on QLDirichlet), indexed by unit, and the units that hold at least one term, in
// ascending order. It panics when m.Mu is not positive.
func (ix *invIndex) QLScores(terms []string, m QLDirichlet) (scores []float64, matched []int32) {
	if !(m.Mu > 0) {
		panic(fmt.Sprintf("retrieval: QLDirichlet mu = %v: must be positive", m.Mu))
	}
	var lengthPart [256]float64 // ln(μ / (dl + μ)) by norm byte
	for b := range lengthPart {
		lengthPart[b] = math.Log(m.Mu / (float64(byte4ToInt(uint8(b))) + m.Mu))
	}
	scores = make([]float64, len(ix.norms))
	seen := make([]bool, len(ix.norms))
	ids, counts := ix.queryTerms(terms)
	for i, id := range ids {
		pc := (float64(ix.cf[id]) + 1) / (float64(ix.sumTF) + 1)
		for _, p := range ix.postings[id] {
			s := counts[i] * (math.Log(1+float64(p.tf)/(m.Mu*pc)) + lengthPart[ix.norms[p.unit]])
			scores[p.unit] += max(0, s)
			if !seen[p.unit] {
				seen[p.unit] = true
				matched = append(matched, p.unit)
			}
		}
	}
	slices.Sort(matched)
	return scores, matched
}
