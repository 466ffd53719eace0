package conventions

import (
	"math"
	"slices"

	"github.com/ranklab/ranklab/eval"
	"github.com/ranklab/ranklab/internal/measurename"
)

// tieQuery is one query as the expectations see it: its tie groups in rank order, the number of
// ranks kept (the first depth of n), every judged grade, the measure, its level L and R.
type tieQuery struct {
	groups []tieGroup
	kept   int
	judged []int
	m      eval.Measure
	L, R   int
}

// expected returns m's exact expected value over every order of the docs within each tie group,
// each order equally likely (see Ties for the formulas). n is the number of ranked docs, judged
// holds every judged grade of the query, depth cuts the ranking (0: no cut).
func expected(groups []tieGroup, n int, judged []int, m eval.Measure, depth int) float64 {
	q := tieQuery{groups: groups, kept: n, judged: judged, m: m, L: max(m.Rel, 1)}
	if depth > 0 && depth < n {
		q.kept = depth
	}
	for _, g := range judged {
		if q.isRel(g) {
			q.R++
		}
	}
	f, ok := expectations[m.Name]
	if !ok {
		panic("conventions: expected: measure " + m.String())
	}
	return f(q)
}

// expectations are the expected value of each measure Ties computes (checkTieMeasure reads its
// keys).
var expectations = map[string]func(q tieQuery) float64{
	measurename.P: func(q tieQuery) float64 {
		return q.linear(q.limit(q.m.Cutoff), q.rel, one) / float64(q.m.Cutoff)
	},
	measurename.R: func(q tieQuery) float64 {
		return ratio(q.linear(q.limit(q.m.Cutoff), q.rel, one), q.R)
	},
	measurename.Rprec: func(q tieQuery) float64 {
		return ratio(q.linear(q.limit(q.R), q.rel, one), q.R)
	},
	// ir_measures' Judged@k: divided by min(k, n), 0 for an empty ranking.
	measurename.Judged: func(q tieQuery) float64 {
		judged := func(g int) float64 {
			if g != eval.Unjudged {
				return 1
			}
			return 0
		}
		return ratio(q.linear(q.limit(q.m.Cutoff), judged, one), q.limit(q.m.Cutoff))
	},
	measurename.NumRelRet: func(q tieQuery) float64 { return q.linear(q.kept, q.rel, one) },
	// No order changes the counts.
	measurename.NumQ:    func(q tieQuery) float64 { return q.m.Compute(make([]int, q.kept), q.judged) },
	measurename.NumRet:  func(q tieQuery) float64 { return q.m.Compute(make([]int, q.kept), q.judged) },
	measurename.NumRel:  func(q tieQuery) float64 { return q.m.Compute(make([]int, q.kept), q.judged) },
	measurename.NDCG:    expectedNDCG,
	measurename.Success: expectedFirstRelevant,
	measurename.RR:      expectedFirstRelevant,
	measurename.AP:      expectedAP,
	measurename.Bpref:   func(q tieQuery) float64 { return expectedBpref(q.groups, q.judged, q.L, q.kept) },
}

func one(int) float64 { return 1 }

// ratio is a / b, 0 when b is 0.
func ratio(a float64, b int) float64 {
	if b == 0 {
		return 0
	}
	return a / float64(b)
}

func (q tieQuery) isRel(g int) bool { return g >= q.L }

func (q tieQuery) rel(g int) float64 {
	if q.isRel(g) {
		return 1
	}
	return 0
}

// limit returns the number of ranks a cutoff k looks at (k = 0: all kept).
func (q tieQuery) limit(k int) int {
	if k > 0 && k < q.kept {
		return k
	}
	return q.kept
}

// linear returns Σ_{p < c} w(p) · E[f(grade at p)].
func (q tieQuery) linear(c int, f func(g int) float64, w func(p int) float64) float64 {
	sum := 0.0
	for _, gr := range q.groups {
		if gr.start >= c {
			break
		}
		mean := 0.0
		for _, g := range gr.grades {
			mean += f(g)
		}
		mean /= float64(len(gr.grades))
		if mean == 0 {
			continue
		}
		for p := gr.start; p < gr.start+len(gr.grades) && p < c; p++ {
			sum += w(p) * mean
		}
	}
	return sum
}

// expectedNDCG: the expected DCG over the ideal one (linear or exponential gain).
func expectedNDCG(q tieQuery) float64 {
	m := q.m
	gain := func(g int) float64 {
		switch {
		case g <= 0:
			return 0
		case m.Exp:
			return math.Exp2(float64(g)) - 1
		}
		return float64(g)
	}
	ideal := make([]float64, 0, len(q.judged))
	for _, g := range q.judged {
		if g > 0 {
			ideal = append(ideal, gain(g))
		}
	}
	slices.Sort(ideal)
	slices.Reverse(ideal)
	if m.Cutoff > 0 && len(ideal) > m.Cutoff {
		ideal = ideal[:m.Cutoff]
	}
	idcg := 0.0
	for i, x := range ideal {
		idcg += x / math.Log2(float64(i+2))
	}
	if idcg == 0 {
		return 0
	}
	return q.linear(q.limit(m.Cutoff), gain, func(p int) float64 { return 1 / math.Log2(float64(p+2)) }) / idcg
}

// expectedFirstRelevant: Success@k and RR@k depend only on the first tie group above the cut
// that holds a relevant doc.
func expectedFirstRelevant(q tieQuery) float64 {
	c := q.limit(q.m.Cutoff)
	var gr tieGroup
	r := 0
	for _, g := range q.groups {
		if g.start >= c {
			break
		}
		if r = count(g.grades, q.isRel); r > 0 {
			gr = g
			break
		}
	}
	if r == 0 {
		return 0
	}
	size := len(gr.grades)
	if q.m.Name == measurename.Success {
		in := min(c, gr.start+size) - gr.start // positions of the group above the cut
		return 1 - noneDrawn(size, r, in)
	}
	sum := 0.0
	p := float64(r) / float64(size) // P(first relevant at offset 0)
	for j := 0; j <= size-r && gr.start+j < c; j++ {
		sum += p / float64(gr.start+j+1)
		// P(j+1) = P(j) · (size−r−j)/(size−1−j): one more non-relevant doc first
		if size-1-j > 0 {
			p *= float64(size-r-j) / float64(size-1-j)
		}
	}
	return sum
}

// expectedAP: each relevant doc of a group at each offset t, with the group's other relevant
// docs above it in expectation.
func expectedAP(q tieQuery) float64 {
	if q.R == 0 {
		return 0
	}
	c := q.limit(q.m.Cutoff)
	sum, above := 0.0, 0
	for _, gr := range q.groups {
		if gr.start >= c {
			break
		}
		size := len(gr.grades)
		r := count(gr.grades, q.isRel)
		if r > 0 {
			for t := 0; t < size && gr.start+t < c; t++ {
				before := 0.0 // expected relevant docs of the group above offset t, given one at t
				if size > 1 {
					before = float64(t) * float64(r-1) / float64(size-1)
				}
				sum += float64(r) / float64(size) * (1 + float64(above) + before) / float64(gr.start+t+1)
			}
		}
		above += r
	}
	return sum / float64(q.R)
}

func count(gs []int, f func(int) bool) int {
	n := 0
	for _, g := range gs {
		if f(g) {
			n++
		}
	}
	return n
}

// noneDrawn is C(n−r, m)/C(n, m): the chance that m docs drawn from n, r of them relevant,
// hold no relevant doc.
func noneDrawn(n, r, m int) float64 {
	p := 1.0
	for i := 0; i < m; i++ {
		if n-r-i <= 0 {
			return 0
		}
		p *= float64(n-r-i) / float64(n-i)
	}
	return p
}

// expectedBpref follows eval's bpref: for each relevant doc retrieved, 1 − min(N_i, R)/min(N, R)
// with N_i the judged non-relevant docs (0 <= grade < L) above it, summed and divided by R.
// A relevant doc of a group sits at each offset t with probability 1/n; the judged non-relevant
// docs of the group above it are then hypergeometric: t drawn from the n−1 others, nn of which
// are judged non-relevant.
func expectedBpref(groups []tieGroup, judged []int, L, kept int) float64 {
	R, N := 0, 0
	for _, g := range judged {
		switch {
		case g >= L:
			R++
		case g >= 0:
			N++
		}
	}
	if R == 0 {
		return 0
	}
	denom := float64(min(N, R))
	sum, nonrelAbove := 0.0, 0
	for _, gr := range groups {
		if gr.start >= kept {
			break
		}
		size := len(gr.grades)
		r := count(gr.grades, func(g int) bool { return g >= L })
		nn := count(gr.grades, func(g int) bool { return g >= 0 && g < L })
		if r > 0 {
			perDoc := 0.0
			for t := 0; t < size && gr.start+t < kept; t++ {
				for x, px := range hypergeometric(size-1, nn, t) {
					term := 1.0
					if denom > 0 {
						term = 1 - float64(min(nonrelAbove+x, R))/denom
					}
					perDoc += px * term
				}
			}
			sum += float64(r) * perDoc / float64(size)
		}
		nonrelAbove += nn
	}
	return sum / float64(R)
}

// hypergeometric returns P(X = x) for x = 0..draws: x successes in draws taken without
// replacement from a population of pop holding succ successes.
func hypergeometric(pop, succ, draws int) []float64 {
	out := make([]float64, draws+1)
	lc := func(n, k int) float64 {
		if k < 0 || k > n {
			return math.Inf(-1)
		}
		a, _ := math.Lgamma(float64(n + 1))
		b, _ := math.Lgamma(float64(k + 1))
		c, _ := math.Lgamma(float64(n - k + 1))
		return a - b - c
	}
	total := lc(pop, draws)
	for x := 0; x <= draws; x++ {
		out[x] = math.Exp(lc(succ, x) + lc(pop-succ, draws-x) - total)
	}
	return out
}
