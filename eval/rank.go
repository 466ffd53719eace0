package eval

import (
	"math"
	"slices"
	"strings"
)

// Unjudged is the grade given to a retrieved doc that the qrels do not list. It is below every
// grade a qrels file can hold, so it is never relevant and has zero gain.
const Unjudged = math.MinInt32

// Rank returns the docs in trec_eval's ranking order, as a new slice: score descending (compared
// as float64), ties broken by doc ID descending in byte order ("d9" before "d10" before "c").
// The rank column of a run file plays no part. docs is not modified.
func Rank(docs []ScoredDoc) []ScoredDoc {
	out := slices.Clone(docs)
	slices.SortFunc(out, compareRanked)
	return out
}

// compareRanked orders a before b when a ranks higher in trec_eval's order.
func compareRanked(a, b ScoredDoc) int {
	switch {
	case a.Score > b.Score:
		return -1
	case a.Score < b.Score:
		return 1
	}
	return strings.Compare(b.Doc, a.Doc)
}

// Grades returns the grade of each ranked doc for query qid, in order: the qrels grade, or
// Unjudged when the qrels do not list the doc.
func (q Qrels) Grades(qid string, ranked []ScoredDoc) []int {
	judged := q[qid]
	out := make([]int, len(ranked))
	for i, d := range ranked {
		g, ok := judged[d.Doc]
		if !ok {
			g = Unjudged
		}
		out[i] = g
	}
	return out
}

// Judged returns the grades of every judged doc of query qid (retrieved or not), in no
// particular order; nil when the qrels do not hold the query.
func (q Qrels) Judged(qid string) []int {
	judged := q[qid]
	if len(judged) == 0 {
		return nil
	}
	out := make([]int, 0, len(judged))
	for _, g := range judged {
		out = append(out, g)
	}
	return out
}
