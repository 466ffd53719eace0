package eval

import "strings"

// The counts, the measures of the retrieved set, and the measures of judged and unjudged docs.

func valueNumQ(q *query, c *compiled) float64   { return 1 }
func valueNumRet(q *query, c *compiled) float64 { return float64(len(q.rl)) }
func valueNumRel(q *query, c *compiled) float64 { return float64(q.numRel(c.L)) }
func valueNumRelRet(q *query, c *compiled) float64 {
	return float64(q.numRelRet(c.L))
}
func valueRunID(q *query, c *compiled) float64 { return 0 }

func valueNumNonrelJudgedRet(q *query, c *compiled) float64 {
	return float64(len(q.rl) - q.nonpool - q.unjudged - q.numRelRet(c.L))
}

func valueSetP(q *query, c *compiled) float64 {
	n, nrr := len(q.rl), q.numRelRet(c.L)
	if n == 0 {
		return 0
	}
	if c.relative {
		R := q.numRel(c.L)
		if R == 0 {
			return 0
		}
		return float64(nrr) / float64(min(n, R))
	}
	return float64(nrr) / float64(n)
}

func valueSetR(q *query, c *compiled) float64 {
	R := q.numRel(c.L)
	if R == 0 {
		return 0
	}
	return float64(q.numRelRet(c.L)) / float64(R)
}

func valueSetAP(q *query, c *compiled) float64 {
	n, R, nrr := len(q.rl), q.numRel(c.L), q.numRelRet(c.L)
	if n == 0 || R == 0 {
		return 0
	}
	return float64(nrr) * float64(nrr) / (float64(n) * float64(R))
}

func valueSetF(q *query, c *compiled) float64 {
	nrr := q.numRelRet(c.L)
	if nrr == 0 {
		return 0
	}
	P := float64(nrr) / float64(len(q.rl))
	R := float64(nrr) / float64(q.numRel(c.L))
	x := c.x
	return (x + 1) * P * R / (x*P + R)
}

func valueUtility(q *query, c *compiled) float64 {
	n, R, nrr := float64(len(q.rl)), float64(q.numRel(c.L)), float64(q.numRelRet(c.L))
	a := c.xs
	return a[0]*nrr + a[1]*(n-nrr) + a[2]*(R-nrr) + a[3]*(float64(c.numDocs)+nrr-n-R)
}

func valueUnj(q *query, c *compiled) float64 {
	top := q.rl
	if c.k < len(top) {
		top = top[:c.k]
	}
	u := 0
	for _, g := range top {
		if g < 0 {
			u++
		}
	}
	return float64(u) / float64(c.k)
}

func valueJudged(q *query, c *compiled) float64 {
	rl := q.asc
	if rl == nil {
		rl = q.rl
	}
	if c.k > 0 && c.k < len(rl) {
		rl = rl[:c.k]
	}
	if len(rl) == 0 {
		return 0
	}
	j := 0
	for _, g := range rl {
		if g != codeNotInQrels {
			j++
		}
	}
	return float64(j) / float64(len(rl))
}

func valueRBPResid(q *query, c *compiled) float64 {
	p := c.x
	u, sum, w := 0, 0.0, 1.0
	for _, g := range q.rl {
		if g < 0 {
			u++
			sum += w
		}
		w *= p
	}
	if u == 0 {
		return 0
	}
	return w + (1-p)*sum
}

// relString is trec_eval's relstring of the first min(length, n) docs.
func relString(q *query, c *compiled) string {
	n := len(q.rl)
	if c.x < float64(n) {
		n = max(int(c.x), 0) // trec_eval's (long) cast truncates toward 0
	}
	var b strings.Builder
	for _, g := range q.rl[:n] {
		switch {
		case g > 9:
			b.WriteByte('>')
		case g >= 0:
			b.WriteByte(byte('0' + g))
		case g == codeNotInQrels:
			b.WriteByte('-')
		case g == codeUnjudged:
			b.WriteByte('.')
		default:
			b.WriteByte('<')
		}
	}
	return b.String()
}
