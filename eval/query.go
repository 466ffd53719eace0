package eval

import (
	"math"
	"slices"
)

// Unjudged is the grade of a retrieved doc the qrels do not list (never relevant, no gain).
const Unjudged = math.MinInt32

// The codes trec_eval gives retrieved docs without a usable grade.
const (
	codeNotInQrels = -1 // not listed in the qrels (trec_eval's RELVALUE_NONPOOL)
	codeUnjudged   = -2 // listed with a negative grade: in the pool, unjudged (RELVALUE_UNJUDGED)
)

// levelCount is the number of judged docs of a query with one grade >= 0.
type levelCount struct{ level, count int }

// query is one query as the measures see it (trec_eval's RES_RELS): the ranked list of grades
// and the counts of the judged grades.
type query struct {
	rl       []int        // rank order: grade >= 0, codeNotInQrels or codeUnjudged
	levels   []levelCount // judged grades >= 0 with their counts, ascending, counts > 0
	nonpool  int          // #codeNotInQrels in rl
	unjudged int          // #codeUnjudged in rl
	asc      []int        // float64 scores, ties by doc ID ascending (for Judged and RR@k), or nil
	f64      []int        // float64 scores, ties descending (for exp-log2 nDCG@k under TrecEval9), or nil
}

// code maps a grade as Compute and Qrels.Grades give it (Unjudged for a doc not in the qrels)
// to trec_eval's code.
func code(g int) int {
	switch {
	case g == Unjudged:
		return codeNotInQrels
	case g < 0:
		return codeUnjudged
	}
	return g
}

// newQuery builds a query from the ranked grades and the grades of every judged doc. With
// judgedOnly (trec_eval's -J) docs that are not in the qrels or have a negative grade are
// dropped from the ranking. ranked is not modified; rl may reuse buf.
func newQuery(ranked, judged []int, judgedOnly bool, buf []int) *query {
	if cap(buf) < len(ranked) {
		buf = make([]int, 0, len(ranked))
	}
	q := &query{rl: buf[:0]}
	for _, g := range ranked {
		c := code(g)
		if judgedOnly && c < 0 {
			continue
		}
		switch c {
		case codeNotInQrels:
			q.nonpool++
		case codeUnjudged:
			q.unjudged++
		}
		q.rl = append(q.rl, c)
	}
	q.levels = judgedLevels(judged)
	return q
}

// judgedLevels counts the judged grades >= 0: grades below 16 (nearly all) in an array, others
// by binary search.
func judgedLevels(judged []int) []levelCount {
	var small [16]int
	var out []levelCount
	for _, g := range judged {
		switch {
		case g < 0:
		case g < len(small):
			small[g]++
		default:
			i, found := slices.BinarySearchFunc(out, g, func(l levelCount, g int) int { return l.level - g })
			if found {
				out[i].count++
			} else {
				out = slices.Insert(out, i, levelCount{g, 1})
			}
		}
	}
	var low []levelCount
	for g, n := range small {
		if n > 0 {
			low = append(low, levelCount{g, n})
		}
	}
	return append(low, out...)
}

// numRel returns R at level L: the number of judged docs with grade >= L (and >= 0).
func (q *query) numRel(L int) int {
	n := 0
	for _, l := range q.levels {
		if l.level >= L {
			n += l.count
		}
	}
	return n
}

// numNonrel returns the number of judged docs with 0 <= grade < L.
func (q *query) numNonrel(L int) int {
	n := 0
	for _, l := range q.levels {
		if l.level < L {
			n += l.count
		}
	}
	return n
}

// numRelRet returns RR_n at level L: the retrieved docs with a grade >= max(L, 0).
func (q *query) numRelRet(L int) int {
	n := 0
	for _, g := range q.rl {
		if g >= 0 && g >= L {
			n++
		}
	}
	return n
}

// relIn counts the docs with rl >= L among the first k (all when k <= 0 or k > n).
func (q *query) relIn(k, L int) int {
	top := q.rl
	if k > 0 && k < len(top) {
		top = top[:k]
	}
	n := 0
	for _, g := range top {
		if g >= L {
			n++
		}
	}
	return n
}

// maxLevel returns the largest judged grade >= 0 with a doc, or -1.
func (q *query) maxLevel() int {
	if len(q.levels) == 0 {
		return -1
	}
	return q.levels[len(q.levels)-1].level
}
