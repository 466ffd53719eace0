package eval

import "math"

// The gain-based measures: trec_eval's gain table (gain_init.c) and the measures that walk it
// (G, dcg, ideal_dcg, ndcg, ndcg_rel, Rndcg, rbp), ndcg_cut, and nDCG with exponential gain.

// gainPair is one entry of a gain table parameter: grade level has gain.
type gainPair struct {
	level int
	gain  float64
}

// gainEntry is one row of a query's gain table.
type gainEntry struct {
	level int
	gain  float64
	count int // judged docs of the query at this level
}

// gainTable is a query's gain table, sorted as trec_eval sorts it.
type gainTable []gainEntry

// newGainTable builds trec_eval's table for query q and the pairs: first the pairs in order
// (each level's count goes to its first pair), then every level 0..max judged level the pairs
// do not name, with gain = level; then the rows are sorted by increasing gain, two gains
// comparing equal when their difference truncates to 0 (trec_eval's qsort comparator; glibc's
// stable merge sort, reproduced by msortGains). Levels without a judged doc only matter to
// that sort when a gain table is given, so without one (or beyond denseLevels) only the judged
// levels get rows: a grade of 10^9 does not make a table of 10^9 rows.
func newGainTable(q *query, pairs []gainPair) gainTable {
	top := q.maxLevel()
	dense := len(pairs) > 0 && top < denseLevels
	t := make(gainTable, 0, len(pairs)+len(q.levels))
	for _, p := range pairs {
		t = append(t, gainEntry{level: p.level, gain: p.gain})
	}
	add := func(lv, count int) {
		for j := range pairs {
			if t[j].level == lv {
				t[j].count = count
				return
			}
		}
		t = append(t, gainEntry{level: lv, gain: float64(lv), count: count})
	}
	if dense {
		li := 0
		for lv := 0; lv <= top; lv++ {
			count := 0
			if li < len(q.levels) && q.levels[li].level == lv {
				count = q.levels[li].count
				li++
			}
			add(lv, count)
		}
	} else {
		for _, l := range q.levels {
			add(l.level, l.count)
		}
	}
	msortGains(t, make(gainTable, len(t)))
	return t
}

// denseLevels bounds the levels a gain table lists without judgments.
const denseLevels = 1 << 16

// msortGains sorts t as glibc's qsort (a top-down stable merge sort) does with trec_eval's
// comparator (int)(a.gain - b.gain): the left element is taken while the comparison is <= 0.
func msortGains(t, tmp gainTable) {
	if len(t) <= 1 {
		return
	}
	n1 := len(t) / 2
	msortGains(t[:n1], tmp)
	msortGains(t[n1:], tmp)
	a, b := t[:n1], t[n1:]
	out := tmp[:0]
	for len(a) > 0 && len(b) > 0 {
		if int64(a[0].gain-b[0].gain) <= 0 {
			out = append(out, a[0])
			a = a[1:]
		} else {
			out = append(out, b[0])
			b = b[1:]
		}
	}
	out = append(out, a...)
	copy(t, out)
}

// gain returns the gain of the first row with level (in sorted order), else 0.
func (t gainTable) gain(level int) float64 {
	for _, e := range t {
		if e.level == level {
			return e.gain
		}
	}
	return 0
}

// ideal walks the ideal ranking: the judged docs, highest gain row first.
type ideal struct {
	t   gainTable
	cur int
	at  int
	g   float64
}

func newIdeal(t gainTable) *ideal {
	it := &ideal{t: t, cur: len(t) - 1}
	if it.cur >= 0 {
		it.g = t[it.cur].gain
	}
	return it
}

// next moves to the next ideal doc and returns its gain (0 once the rows are exhausted).
func (it *ideal) next() float64 {
	it.at++
	for it.cur >= 0 && it.at > it.t[it.cur].count {
		it.at = 1
		it.cur--
		if it.cur >= 0 {
			it.g = it.t[it.cur].gain
		} else {
			it.g = 0
		}
	}
	return it.g
}

func valueG(q *query, c *compiled) float64 {
	t := newGainTable(q, c.pairs)
	it := newIdeal(t)
	sumR, sumI, sumC, g := 0.0, 0.0, 0.0, 0.0
	const minCost = 1.0
	i, n := 0, len(q.rl)
	for ; i < n && it.g > 0; i++ {
		rg := t.gain(q.rl[i])
		sumR += rg
		ig := it.next()
		if ig > 0 {
			sumI += ig
		}
		if ig >= minCost {
			sumC += ig
		} else {
			sumC += minCost
		}
		if rg != 0 {
			g += rg / math.Log2(2+sumC-sumR)
		}
	}
	for ; i < n; i++ {
		rg := t.gain(q.rl[i])
		sumR += rg
		sumC += minCost
		if rg != 0 {
			g += rg / math.Log2(2+sumC-sumR)
		}
	}
	for it.g > 0 {
		if ig := it.next(); ig > 0 {
			sumI += ig
		}
	}
	if sumI > 0 {
		return g / sumI
	}
	return 0
}

// dcgs returns trec_eval's dcg and ideal_dcg of q with the gain table of pairs.
func dcgs(q *query, pairs []gainPair) (dcg, idcg float64) {
	t := newGainTable(q, pairs)
	it := newIdeal(t)
	i, n := 0, len(q.rl)
	for ; i < n && it.g > 0; i++ {
		if rg := t.gain(q.rl[i]); rg != 0 {
			dcg += rg / math.Log2(float64(i+2))
		}
		if ig := it.next(); ig > 0 {
			idcg += ig / math.Log2(float64(i+2))
		}
	}
	for ; i < n; i++ {
		if rg := t.gain(q.rl[i]); rg != 0 {
			dcg += rg / math.Log2(float64(i+2))
		}
	}
	for ; it.g > 0; i++ {
		if ig := it.next(); ig > 0 {
			idcg += ig / math.Log2(float64(i+2))
		}
	}
	return dcg, idcg
}

func valueDCG(q *query, c *compiled) float64 { d, _ := dcgs(q, c.pairs); return d }

func valueIdealDCG(q *query, c *compiled) float64 { _, i := dcgs(q, c.pairs); return i }

func valueNDCGTrec(q *query, c *compiled) float64 {
	d, i := dcgs(q, c.pairs)
	if i > 0 {
		return d / i
	}
	return 0
}

func valueNDCGRel(q *query, c *compiled) float64 {
	t := newGainTable(q, c.pairs)
	it := newIdeal(t)
	dcg, idcg, sum := 0.0, 0.0, 0.0
	nr, nrr := 0, 0
	i, n := 0, len(q.rl)
	for ; i < n && it.g > 0; i++ {
		rg := t.gain(q.rl[i])
		if rg != 0 {
			dcg += rg / math.Log2(float64(i+2))
		}
		if ig := it.next(); ig > 0 {
			nr++
			idcg += ig / math.Log2(float64(i+2))
		}
		if rg > 0 {
			sum += dcg / idcg
			nrr++
		}
	}
	for ; i < n; i++ {
		rg := t.gain(q.rl[i])
		if rg != 0 {
			dcg += rg / math.Log2(float64(i+2))
		}
		if rg > 0 {
			sum += dcg / idcg
			nrr++
		}
	}
	for ; it.g > 0; i++ {
		if ig := it.next(); ig > 0 {
			nr++
			idcg += ig / math.Log2(float64(i+2))
		}
	}
	sum += float64(nr-nrr) * dcg / idcg
	if sum > 0 {
		return sum / float64(nr)
	}
	return 0
}

func valueRNDCG(q *query, c *compiled) float64 {
	t := newGainTable(q, c.pairs)
	if q.numRel(c.L) == 0 {
		return 0
	}
	it := newIdeal(t)
	old := it.g
	dcg, idcg, sum := 0.0, 0.0, 0.0
	changes := 0
	// step takes the ideal gain ig of the next rank: a change of the ideal gain closes a segment,
	// whose nDCG so far is summed.
	step := func(ig float64) {
		if old != ig {
			if idcg > 0 {
				sum += dcg / idcg
				changes++
			}
			old = ig
		}
	}
	i, n := 0, len(q.rl)
	for ; i < n && it.g > 0; i++ {
		rg := t.gain(q.rl[i])
		ig := it.next()
		step(ig)
		if rg != 0 {
			dcg += rg / math.Log2(float64(i+2))
		}
		if ig > 0 {
			idcg += ig / math.Log2(float64(i+2))
		}
	}
	if i < n {
		for ; i < n; i++ {
			if rg := t.gain(q.rl[i]); rg != 0 {
				dcg += rg / math.Log2(float64(i+2))
			}
		}
		if idcg > 0 {
			sum += dcg / idcg
			changes++
		}
	}
	for ; it.g > 0; i++ {
		ig := it.next()
		step(ig)
		if ig > 0 {
			idcg += ig / math.Log2(float64(i+2))
		}
	}
	return sum / float64(changes)
}

// valueNDCGCut is trec_eval's ndcg_cut_k (linear gain of positive grades, ideal over every
// judged doc with a positive grade) and, with Exp, the same with gain 2^g-1.
func valueNDCGCut(q *query, c *compiled) float64 {
	gain := func(g int) float64 {
		if c.exp {
			return math.Exp2(float64(g)) - 1
		}
		return float64(g)
	}
	top := q.rl
	if c.exp && q.f64 != nil {
		top = q.f64 // gdeval's order (float64 scores) under TrecEval9
	}
	if c.k > 0 && c.k < len(top) {
		top = top[:c.k]
	}
	dcg := 0.0
	for i, g := range top {
		if g > 0 {
			dcg += gain(g) / math.Log2(float64(i+2))
		}
	}
	idcg, i := 0.0, 0
	for j := len(q.levels) - 1; j >= 0; j-- {
		l := q.levels[j]
		if l.level <= 0 {
			break
		}
		for range l.count {
			if c.k > 0 && i >= c.k {
				break
			}
			idcg += gain(l.level) / math.Log2(float64(i+2))
			i++
		}
	}
	if idcg > 0 {
		return dcg / idcg
	}
	return 0
}

func valueRBP(q *query, c *compiled) float64 {
	p := c.x
	if c.rel {
		// Binary RBP (ir_measures' RBP(rel=N)): gain 1 for a grade >= N.
		sum, w := 0.0, 1.0
		for _, g := range q.rl {
			if g >= 0 && g >= c.L {
				sum += w
			}
			w *= p
		}
		return (1 - p) * sum
	}
	t := newGainTable(q, c.pairs)
	// trec_eval 10.0 starts min and max uninitialised; its reference output is that of 0, 0.
	lo, hi := 0.0, 0.0
	for _, e := range t {
		lo, hi = min(lo, e.gain), max(hi, e.gain)
	}
	if lo < 0 || hi > 1 {
		for j := range t {
			t[j].gain = (t[j].gain - lo) / (hi - lo)
		}
	}
	sum, w := 0.0, 1.0
	for _, g := range q.rl {
		if gn := t.gain(g); gn != 0 {
			sum += gn * w
		}
		w *= p
	}
	return (1 - p) * sum
}

// errMaxGrade is the top of ERR's grade scale: gdeval's MAX_JUDGMENT (ir_measures' ERR@k).
const errMaxGrade = 4

// valueERR is expected reciprocal rank (Chapelle et al. 2009) at cutoff k, as gdeval computes
// it: the chance R(g) = (2^g − 1) / 2^G that the user stops at a doc of grade g > 0 (G = 4, or
// the query's largest judged grade when that is larger), and
//
//	ERR@k = Σ_{i<=min(k,n)} R(g(i)) / i · Π_{j<i} (1 − R(g(j)))
func valueERR(q *query, c *compiled) float64 {
	top := errMaxGrade
	if n := len(q.levels); n > 0 {
		top = max(top, q.levels[n-1].level)
	}
	scale := math.Exp2(float64(top))
	sum, reach := 0.0, 1.0
	for i, g := range q.rl[:min(c.k, len(q.rl))] {
		if g <= 0 {
			continue
		}
		r := (math.Exp2(float64(g)) - 1) / scale
		sum += r * reach / float64(i+1)
		reach *= 1 - r
	}
	return sum
}
