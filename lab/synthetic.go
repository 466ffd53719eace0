package lab

import (
	"cmp"
	"fmt"
	"math"
	"slices"
)

// MaxGrade is the top of the lab's grade scale: synthetic judgments are 0 (not relevant) to 3.
const MaxGrade = 3

// DefaultQuality is the first-stage quality State.Outcome asks newSynthetic for.
const DefaultQuality = 0.4

// DefaultRerankQuality is the reranker quality of DefaultState (50 in State.RerankQuality, a
// percentage): half grade, half noise. It helps on average and hurts some queries: over the 30
// queries of Collection(30, 20, 10, DefaultQuality, DefaultRerankQuality, 1), reranking the top 10
// raises nDCG@10 on 22 queries and lowers it on 8.
const DefaultRerankQuality = 0.5

// A Candidate is one item of a synthetic ranking: a doc ID, a short label, its graded
// judgment (0..MaxGrade) and the scores of the first stage and of the reranker.
type Candidate struct {
	Doc, Label  string
	Grade       int
	FirstScore  float64
	RerankScore float64
}

// Synthetic is a seeded ranking with its judgments. Query is the text the ranking answers (empty
// for a hand-built ranking); Candidates is the first-stage ranking in rank order (first-stage
// scores strictly descending); Missed holds items the qrels judge that the candidate list did not
// retrieve (their scores are 0), so recall stays below 1 even at k = N. The judged set of the
// query is Candidates + Missed.
//
// In a seeded ranking the query is a broad question and each label a topic phrase, a passage
// that may help answer it; the grades are drawn at random, not derived from the texts, so the
// texts only name what the numbers stand for.
type Synthetic struct {
	Query      string
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

// queries are the seeded rankings' query texts: broad questions of a RAG engineer, to which every
// topic phrase of the labels could contribute something.
var queries = []string{
	"how do I evaluate the retriever of my RAG system?",
	"why does my RAG answer miss facts that are in the corpus?",
	"what should I tune first in a retrieval pipeline?",
	"is a reranker worth its latency?",
	"how do I make retrieval robust to real user queries?",
	"which retrieval settings should an evaluation report?",
	"how do I debug poor retrieval in production?",
	"what makes a passage useful context for an answer?",
}

// newSynthetic generates a ranking of n candidates from seed. quality in [0, 1] is how closely the
// first-stage score follows the grade; rerankQuality in [0, 1] is how closely the reranker score
// does: 0 is pure noise (reranking shuffles the prefix at random), 1 orders by grade (equal
// grades keep their first-stage order). The same (seed, n, quality, rerankQuality) always gives
// the same ranking, on every platform and Go version (the generator is a SplitMix64 stream of its
// own), and rerankQuality changes the reranker scores only: the grades, the first stage, the
// labels, the missed items and the query are the same for every rerankQuality.
//
// Each candidate draws a grade (0 with probability 0.55, 1: 0.20, 2: 0.15, 3: 0.10) and two
// uniform noises u, v in [0, 1); with x = grade/3
//
//	first score  = 5 + 15·(quality·x + (1−quality)·u),   rounded to 2 decimals
//	rerank score = rerankQuality·x + (1−rerankQuality)·v, rounded to 4 decimals
//
// So (before rounding) a reranker of quality r < 1 puts a candidate of grade g' below one of
// grade g > g' unless the lower one's noise exceeds the other's by more than r/(1−r)·(g−g')/3.
// Grades one step apart swap with probability (1 − c)²/2, c = r/(3(1−r)) (when c < 1): 2/9 at
// r = 0.5, against 49/162 ≈ 0.30 for the first stage at quality 0.4 (c = 2/9). The noise is
// uniform, so bounded: c reaches 1 at r = 3/4 (grades two steps apart already at r = 3/5), and
// every r in [0.75, 1] sorts the prefix by grade exactly; r then changes only the order within a
// grade, which no measure sees (the reranker saturates at 75 of State.RerankQuality). The model is
// kept as it is so that links and CSV files written earlier give the same rankings.
//
// The candidates are sorted by first score descending (equal rounded scores are then lowered by
// 0.01 so the first-stage order is strict and agrees with trec_eval's ordering) and named d01, d02,
// ... in that order; reranker scores are made distinct by steps of 0.0001 (a later candidate in
// first-stage order is lowered). Then max(1, round(0.15·n)) missed items follow with grades 1..3
// drawn uniformly, named after the candidates. Labels come from a fixed list of topic phrases,
// drawn without repetition (with a " #2" suffix once the list is exhausted); the query is drawn
// last from a fixed list of broad questions (see Synthetic.Query). n = 0 gives an empty
// Synthetic. newSynthetic panics when n < 0 or a quality is outside [0, 1].
func newSynthetic(seed int64, n int, quality, rerankQuality float64) Synthetic {
	if n < 0 {
		panic(fmt.Sprintf("lab: newSynthetic: n = %d is negative", n))
	}
	if !(quality >= 0 && quality <= 1) {
		panic(fmt.Sprintf("lab: newSynthetic: quality %v is outside [0, 1]", quality))
	}
	if !(rerankQuality >= 0 && rerankQuality <= 1) {
		panic(fmt.Sprintf("lab: newSynthetic: reranker quality %v is outside [0, 1]", rerankQuality))
	}
	if n == 0 {
		return Synthetic{}
	}
	r := splitMix{state: uint64(seed)}
	missed := max(1, int(math.Round(0.15*float64(n))))
	labels := drawLabels(&r, n+missed)
	rq := rerankQuality

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
	// Drawn last, so the query leaves every earlier draw (and the default ranking) as it was.
	query := queries[r.intn(len(queries))]
	return Synthetic{Query: query, Candidates: cands, Missed: miss}
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
