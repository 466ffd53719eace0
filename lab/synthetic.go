package lab

import (
	"cmp"
	"fmt"
	"math"
	"slices"
)

// MaxGrade is the top of the lab's grade scale: synthetic judgments are 0 (not relevant) to 3.
const MaxGrade = 3

// DefaultQuality is the first-stage quality State.Outcome asks NewSynthetic for.
const DefaultQuality = 0.4

// A Candidate is one item of a synthetic ranking: a doc ID, a short label, its graded
// judgment (0..MaxGrade) and the scores of the first stage and of the reranker.
type Candidate struct {
	Doc, Label  string
	Grade       int
	FirstScore  float64
	RerankScore float64
}

// Synthetic is a seeded ranking with its judgments. Candidates is the first-stage ranking in
// rank order (first-stage scores strictly descending); Missed holds items the qrels judge that the
// candidate list did not retrieve (their scores are 0), so recall stays below 1 even at k = N.
// The judged set of the query is Candidates + Missed.
type Synthetic struct {
	Candidates []Candidate
	Missed     []Candidate
}

// topics are the labels of synthetic candidates: short phrases a retrieval engineer would query.
var topics = []string{
	"chunk overlap tuning", "BM25 saturation k1", "dense retrieval recall",
	"cross-encoder reranking", "query expansion", "nDCG gain choice",
	"judgment pooling", "hybrid search fusion", "tokenizer limits",
	"embedding drift", "stopword handling", "passage segmentation",
	"reciprocal rank fusion", "relevance thresholds", "qrels coverage",
	"index sharding", "latency budgets", "context window size",
	"duplicate passages", "metadata filters", "vector quantization",
	"prompt grounding", "citation accuracy", "long-tail queries",
	"field boosting", "stemming rules", "cold-start corpus",
	"answer extraction", "freshness ranking", "click models",
	"score calibration", "negative sampling", "semantic caching",
	"multilingual queries", "table retrieval", "synonym lists",
	"query rewriting", "document expansion", "ranking ties",
	"evaluation depth",
}

// NewSynthetic generates a ranking of n candidates from seed. quality in [0, 1] is how closely the
// first-stage score follows the grade; the reranker follows it more closely, with quality
// (1+quality)/2. The same (seed, n, quality) always gives the same ranking, on every platform
// and Go version (the generator is a SplitMix64 stream of its own).
//
// Each candidate draws a grade (0 with probability 0.55, 1: 0.20, 2: 0.15, 3: 0.10) and two
// uniform noises u, v in [0, 1); with x = grade/3
//
//	first score  = 5 + 15·(quality·x + (1−quality)·u), rounded to 2 decimals
//	rerank score = q'·x + (1−q')·v, q' = (1+quality)/2, rounded to 4 decimals
//
// The candidates are sorted by first score descending (equal rounded scores are then lowered by
// 0.01 so the first-stage order is strict and agrees with trec_eval's ordering) and named d01, d02,
// ... in that order; reranker scores are made distinct by steps of 0.0001. Then max(1, round(0.15·n))
// missed items follow with grades 1..3 drawn uniformly, named after the candidates. Labels come
// from a fixed list of topic phrases, drawn without repetition (with a " #2" suffix once the list
// is exhausted). n = 0 gives an empty Synthetic. NewSynthetic panics when n < 0 or quality is
// outside [0, 1].
func NewSynthetic(seed int64, n int, quality float64) Synthetic {
	if n < 0 {
		panic(fmt.Sprintf("lab: NewSynthetic: n = %d is negative", n))
	}
	if !(quality >= 0 && quality <= 1) {
		panic(fmt.Sprintf("lab: NewSynthetic: quality %v is outside [0, 1]", quality))
	}
	if n == 0 {
		return Synthetic{}
	}
	r := splitMix{state: uint64(seed)}
	missed := max(1, int(math.Round(0.15*float64(n))))
	labels := drawLabels(&r, n+missed)
	rq := (1 + quality) / 2

	type gen struct {
		c     Candidate
		index int
	}
	gens := make([]gen, n)
	for i := range gens {
		g := drawGrade(&r)
		x := float64(g) / MaxGrade
		u, v := r.float(), r.float()
		gens[i] = gen{c: Candidate{
			Label:       labels[i],
			Grade:       g,
			FirstScore:  round(5+15*(quality*x+(1-quality)*u), 2),
			RerankScore: round(rq*x+(1-rq)*v, 4),
		}, index: i}
	}
	slices.SortStableFunc(gens, func(a, b gen) int {
		return cmp.Or(cmp.Compare(b.c.FirstScore, a.c.FirstScore), cmp.Compare(a.index, b.index))
	})
	width := max(2, len(fmt.Sprint(n+missed)))
	cands := make([]Candidate, n)
	used := map[float64]bool{}
	for i, g := range gens {
		c := g.c
		if i > 0 && c.FirstScore >= cands[i-1].FirstScore {
			c.FirstScore = round(cands[i-1].FirstScore-0.01, 2)
		}
		for used[c.RerankScore] {
			c.RerankScore = round(c.RerankScore-0.0001, 4)
		}
		used[c.RerankScore] = true
		c.Doc = fmt.Sprintf("d%0*d", width, i+1)
		cands[i] = c
	}
	miss := make([]Candidate, missed)
	for i := range miss {
		miss[i] = Candidate{
			Doc:   fmt.Sprintf("d%0*d", width, n+i+1),
			Label: labels[n+i],
			Grade: 1 + r.intn(MaxGrade),
		}
	}
	return Synthetic{Candidates: cands, Missed: miss}
}

// drawGrade draws a grade: 0 with probability 0.55, 1: 0.20, 2: 0.15, 3: 0.10.
func drawGrade(r *splitMix) int {
	u := r.float()
	switch {
	case u < 0.55:
		return 0
	case u < 0.75:
		return 1
	case u < 0.90:
		return 2
	}
	return 3
}

// drawLabels returns m labels: a seeded shuffle of topics, repeated with a " #2", " #3" ...
// suffix when m exceeds the list.
func drawLabels(r *splitMix, m int) []string {
	out := make([]string, 0, m)
	for round := 1; len(out) < m; round++ {
		perm := slices.Clone(topics)
		for i := len(perm) - 1; i > 0; i-- {
			j := r.intn(i + 1)
			perm[i], perm[j] = perm[j], perm[i]
		}
		for _, t := range perm {
			if len(out) == m {
				break
			}
			if round > 1 {
				t = fmt.Sprintf("%s #%d", t, round)
			}
			out = append(out, t)
		}
	}
	return out
}

// round rounds x to the given number of decimals.
func round(x float64, decimals int) float64 {
	p := math.Pow(10, float64(decimals))
	return math.Round(x*p) / p
}

// splitMix is the SplitMix64 generator (Steele, Lea, Flood 2014): a fixed, documented stream so
// the synthetic rankings never change with the Go version.
type splitMix struct{ state uint64 }

func (r *splitMix) next() uint64 {
	r.state += 0x9e3779b97f4a7c15
	z := r.state
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// float returns a uniform float64 in [0, 1) from the top 53 bits.
func (r *splitMix) float() float64 { return float64(r.next()>>11) / (1 << 53) }

// intn returns a uniform int in [0, n) (n > 0), by rejection so there is no modulo bias.
func (r *splitMix) intn(n int) int {
	bound := uint64(n)
	limit := math.MaxUint64 - math.MaxUint64%bound
	for {
		x := r.next()
		if x < limit {
			return int(x % bound)
		}
	}
}
