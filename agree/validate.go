package agree

import (
	"fmt"
	"math"
	"slices"
	"sort"

	"github.com/ranklab/ranklab/eval"
)

// verdictSource is where Validate's verdict thresholds come from.
const verdictSource = "Voorhees 2001 (SIGIR, Evaluation by highly relevant documents): " +
	"rankings with Kendall's τ >= 0.9 are equivalent, below 0.8 they differ noticeably"

// QueryAgreement is how two judges agree on one query's pairs.
type QueryAgreement struct {
	Query        string
	Pairs        int
	Same         float64 // the share of pairs with the same grade
	RelevantA    int     // pairs A grades >= the threshold
	RelevantB    int     // pairs B grades >= the threshold
	BinaryAgreed float64 // the share of pairs both call relevant or both not
}

// Validation is what Validate finds: whether an automatic judge (B) can stand in for people (A),
// on the labels and on the ranking of systems (see the package doc's "Validation").
type Validation struct {
	Agreement                             // κ with intervals from a bootstrap over queries
	BaseRateA, BaseRateB float64          // the share of the common pairs each judge grades >= Threshold
	PerQuery             []QueryAgreement // by query (byte order)

	Systems  SystemRanking // the runs given, under A and under B
	TopRuns  int           // the top third of the runs under A (at least 2)
	TopTau   float64       // Kendall's τ-b among them (NaN with fewer than 2 runs)
	Verdict  string        // "equivalent", "noticeable" or "in between" (from Systems.Tau)
	Source   string        // where the verdict's thresholds come from
	Reranked string        // the adversarial run: Rerank's run reordered by B's grades
	// RankA and RankB are the adversarial run's places (1 = best) among the runs and itself under
	// A and under B, MeanA and MeanB its means; Lifted is RankB < RankA: the automatic judge puts
	// a system built on itself above its place under people.
	RankA, RankB int
	MeanA, MeanB float64
	Lifted       bool
}

// Validate compares the automatic judgments b with the human ones a: Judges (with the
// bootstrap over queries), the base rates and the agreement per query; Systems on runs, the
// top third's τ and the verdict; and the adversarial check of Clarke & Dietz (2024): the run
// named rerank (its Tag; "" for the first) with its top depth documents of each query reordered
// by b's grades (higher first; ties, and documents b does not grade, keep the run's order, the
// ungraded after the graded), evaluated with the others under both judges. It needs 2 runs.
func Validate(a, b eval.Qrels, runs []eval.Run, rerank string, depth int, opt Options) (Validation, error) {
	opt.ByQuery = true
	ag, err := Judges(a, b, opt)
	if err != nil {
		return Validation{}, err
	}
	sr, err := Systems(a, b, runs, opt)
	if err != nil {
		return Validation{}, err
	}
	if depth < 1 {
		return Validation{}, fmt.Errorf("agree: rerank depth %d: want 1 or more", depth)
	}
	v := Validation{Agreement: ag, Systems: sr, Source: verdictSource}
	relA, relB := 0, 0
	for i := 0; i < len(ag.Pairs); {
		j := i
		qa := QueryAgreement{Query: ag.Pairs[i].Query}
		same, bin := 0, 0
		for ; j < len(ag.Pairs) && ag.Pairs[j].Query == qa.Query; j++ {
			p := ag.Pairs[j]
			ra, rb := p.A >= ag.Threshold, p.B >= ag.Threshold
			qa.Pairs++
			if p.A == p.B {
				same++
			}
			if ra == rb {
				bin++
			}
			if ra {
				qa.RelevantA++
			}
			if rb {
				qa.RelevantB++
			}
		}
		qa.Same, qa.BinaryAgreed = float64(same)/float64(qa.Pairs), float64(bin)/float64(qa.Pairs)
		relA, relB = relA+qa.RelevantA, relB+qa.RelevantB
		v.PerQuery = append(v.PerQuery, qa)
		i = j
	}
	v.BaseRateA, v.BaseRateB = float64(relA)/float64(len(ag.Pairs)), float64(relB)/float64(len(ag.Pairs))

	// The top third under A, at least 2 runs.
	order := make([]int, len(sr.Runs))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(x, y int) bool { return sr.MeanA[order[x]] > sr.MeanA[order[y]] })
	v.TopRuns = max(2, (len(order)+2)/3)
	var ta, tb []float64
	for _, i := range order[:v.TopRuns] {
		ta, tb = append(ta, sr.MeanA[i]), append(tb, sr.MeanB[i])
	}
	v.TopTau = kendallTauB(ta, tb)
	switch {
	case sr.Tau >= 0.9:
		v.Verdict = "equivalent"
	case sr.Tau < 0.8:
		v.Verdict = "noticeable"
	case math.IsNaN(sr.Tau):
		v.Verdict = "undefined"
	default:
		v.Verdict = "in between"
	}

	base := -1
	for i, r := range runs {
		if (rerank == "" && i == 0) || (rerank != "" && r.Tag == rerank) {
			base = i
			break
		}
	}
	if base < 0 {
		return Validation{}, fmt.Errorf("agree: no run is tagged %q to rerank", rerank)
	}
	adv := rerankBy(runs[base], b, depth)
	v.Reranked = adv.Tag
	all, err := Systems(a, b, append(slices.Clip(runs), adv), opt)
	if err != nil {
		return Validation{}, err
	}
	last := len(all.Runs) - 1
	v.MeanA, v.MeanB = all.MeanA[last], all.MeanB[last]
	v.RankA, v.RankB = 1, 1
	for i := range last {
		if all.MeanA[i] > v.MeanA {
			v.RankA++
		}
		if all.MeanB[i] > v.MeanB {
			v.RankB++
		}
	}
	v.Lifted = v.RankB < v.RankA
	return v, nil
}

// rerankBy returns run with the top depth documents of each query (eval.Rank's order) reordered
// by the grades of judge: graded documents by grade, highest first, then the ungraded; ties keep
// the run's order. Scores are rewritten as depth+len(docs)−position so that eval.Rank reads the
// new order back; documents below depth keep their order after them.
func rerankBy(run eval.Run, judge eval.Qrels, depth int) eval.Run {
	name := run.Tag
	if name == "" {
		name = "run"
	}
	out := eval.Run{Tag: name + "+judge-rerank", Queries: make(map[string][]eval.ScoredDoc, len(run.Queries))}
	for q, docs := range run.Queries {
		ranked := eval.Rank(docs)
		k := min(depth, len(ranked))
		grade := func(d eval.ScoredDoc) int {
			if g, ok := judge[q][d.Doc]; ok && g >= 0 {
				return g
			}
			return -1
		}
		top := slices.Clone(ranked[:k])
		slices.SortStableFunc(top, func(x, y eval.ScoredDoc) int { return grade(y) - grade(x) })
		all := append(top, ranked[k:]...)
		re := make([]eval.ScoredDoc, len(all))
		for i, d := range all {
			d.Score = float64(len(all) - i)
			re[i] = d
		}
		out.Queries[q] = re
	}
	return out
}
