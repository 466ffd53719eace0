package eval

import "math"

// The measures of relevant docs in rank order (formulas on their constructors in measure.go).

func valueP(q *query, c *compiled) float64 {
	return float64(q.relIn(c.k, c.L)) / float64(c.k)
}

func valueRecall(q *query, c *compiled) float64 {
	R := q.numRel(c.L)
	if R == 0 {
		return 0
	}
	return float64(q.relIn(c.k, c.L)) / float64(R)
}

func valueRelativeP(q *query, c *compiled) float64 {
	R := q.numRel(c.L)
	if R == 0 {
		return 0
	}
	return float64(q.relIn(c.k, c.L)) / float64(min(c.k, R))
}

func valueSuccess(q *query, c *compiled) float64 {
	if q.relIn(c.k, c.L) > 0 {
		return 1
	}
	return 0
}

func valueRR(q *query, c *compiled) float64 {
	top := q.rl
	if c.k > 0 && q.asc != nil {
		top = q.asc // RR@k: the msmarco order ir_measures computes it in
	}
	if c.k > 0 && c.k < len(top) {
		top = top[:c.k]
	}
	for i, g := range top {
		if g >= c.L {
			return 1 / float64(i+1)
		}
	}
	return 0
}

// ap is average precision over the first k docs (all when k = 0).
func ap(q *query, k, L int) float64 {
	R := q.numRel(L)
	top := q.rl
	if k > 0 && k < len(top) {
		top = top[:k]
	}
	sum, seen := 0.0, 0
	for i, g := range top {
		if g >= L {
			seen++
			sum += float64(seen) / float64(i+1)
		}
	}
	if seen == 0 || R == 0 {
		return 0
	}
	return sum / float64(R)
}

func valueAP(q *query, c *compiled) float64 { return ap(q, c.k, c.L) }

// gmFloor is the floor trec_eval puts under a value before taking its log for a geometric mean.
const gmFloor = 0.00001

func valueGMAP(q *query, c *compiled) float64 { return math.Log(max(ap(q, 0, c.L), gmFloor)) }

func valueRprec(q *query, c *compiled) float64 {
	R := q.numRel(c.L)
	m := min(len(q.rl), R)
	if m == 0 {
		return 0
	}
	return float64(q.relIn(m, c.L)) / float64(R)
}

// bpref follows trec_eval: NP and UJ docs are skipped; N counts the judged grades in [0, L).
func bpref(q *query, L int) float64 {
	R, N := q.numRel(L), q.numNonrel(L)
	nonrel, sum := 0, 0.0
	for _, g := range q.rl {
		switch {
		case g == codeNotInQrels || g == codeUnjudged:
			continue
		case g >= 0 && g < L:
			nonrel++
		default:
			if nonrel > 0 {
				sum += 1 - float64(min(nonrel, R))/float64(min(N, R))
			} else {
				sum++
			}
		}
	}
	if R > 0 {
		return sum / float64(R)
	}
	return sum
}

func valueBpref(q *query, c *compiled) float64 { return bpref(q, c.L) }

func valueGMBpref(q *query, c *compiled) float64 { return math.Log(max(bpref(q, c.L), gmFloor)) }

func valueInfAP(q *query, c *compiled) float64 {
	nonrel, rel, unj := 0, 0, 0
	s := 0.0
	for j, g := range q.rl {
		switch {
		case g == codeNotInQrels:
			continue
		case g == codeUnjudged:
			unj++
			continue
		case g >= 0 && g < c.L:
			nonrel++
		default:
			rel++
			if j == 0 {
				s += 1
			} else {
				fj := float64(j)
				s += 1/(fj+1) + (fj/(fj+1))*(float64(rel-1+nonrel+unj)/fj)*
					((float64(rel-1)+gmFloor)/(float64(rel-1+nonrel)+2*gmFloor))
			}
		}
	}
	if R := q.numRel(c.L); R > 0 {
		return s / float64(R)
	}
	return s
}

// recallCut converts a recall level into a number of relevant docs: round half away from
// zero (trec_eval 10.0's lround) or trec_eval 9's trunc(x·R + 0.9).
func recallCut(x float64, R int, v9 bool) int {
	if v9 {
		return int(x*float64(R) + 0.9)
	}
	return int(math.Round(x * float64(R)))
}

// iprec runs trec_eval's interpolated-precision pass for the cuts K (ascending in effect;
// walked from the last as trec_eval does) and calls set(j, value) for each cut reached.
// Cuts beyond RR_n, or skipped by the walk, are not set (they stay 0).
func iprec(q *query, L int, K []int, set func(j int, v float64)) {
	n := len(q.rl)
	nrr := q.numRelRet(L)
	cur := len(K) - 1
	for cur >= 0 && K[cur] > nrr {
		cur--
	}
	prec := float64(nrr) / float64(n) // NaN when n = 0, as in trec_eval
	ip := prec
	k := nrr
	for i := n; i > 0 && k > 0; i-- {
		prec = float64(k) / float64(i)
		if ip < prec {
			ip = prec
		}
		if q.rl[i-1] >= L {
			for cur >= 0 && k == K[cur] {
				set(cur, ip)
				cur--
			}
			k--
		}
	}
	for cur >= 0 {
		set(cur, ip)
		cur--
	}
}

func valueIPrec(q *query, c *compiled) float64 {
	v := 0.0
	iprec(q, c.L, []int{recallCut(c.x, q.numRel(c.L), c.v9)}, func(_ int, x float64) { v = x })
	return v
}

func value11ptAvg(q *query, c *compiled) float64 {
	R := q.numRel(c.L)
	K := make([]int, len(c.xs))
	for j, x := range c.xs {
		K[j] = recallCut(x, R, c.v9)
	}
	sum := 0.0
	iprec(q, c.L, K, func(_ int, v float64) { sum += v })
	return sum / float64(len(c.xs))
}

// rprecMult is precision at rank K = trunc(x·R + 0.9), for the docs of rl judged at level L.
func rprecMult(rl []int, R, L int, x float64) float64 {
	n := len(rl)
	K := int(x*float64(R) + 0.9)
	nrr := 0
	for _, g := range rl {
		if g >= 0 && g >= L {
			nrr++
		}
	}
	if K > n {
		return float64(nrr) / float64(K)
	}
	k := nrr
	for i := n; i > 0 && k > 0; i-- {
		if i == K {
			return float64(k) / float64(i)
		}
		if rl[i-1] >= L {
			k--
		}
	}
	return 0
}

func valueRprecMult(q *query, c *compiled) float64 {
	return rprecMult(q.rl, q.numRel(c.L), c.L, c.x)
}

func valueBinG(q *query, c *compiled) float64 {
	k, sum := 0, 0.0
	for i, g := range q.rl {
		if g >= c.L {
			k++
			sum += 1 / math.Log2(float64(3+i-k))
		}
	}
	if k == 0 {
		return 0
	}
	return sum / float64(q.numRel(c.L))
}

func valueYAAP(q *query, c *compiled) float64 {
	k, sum := 0, 0.0
	for i, g := range q.rl {
		if g >= c.L {
			k++
			sum += float64(k) / float64(i+1)
		}
	}
	return math.Log((1 + sum) / (1 + float64(q.numRel(c.L)) - sum))
}
