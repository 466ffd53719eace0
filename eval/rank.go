package eval

import (
	"slices"
	"strings"
)

// Rank returns the docs in trec_eval's ranking order, as a new slice: score descending, ties
// by doc ID descending in byte order ("d9" before "d10" before "c").
func Rank(docs []ScoredDoc) []ScoredDoc { return rankDocs(docs, false, false) }

// rankDocs ranks docs by score descending; with float32 the scores are compared after rounding
// to float32 (trec_eval 9.0.8); ties go by doc ID descending, or ascending with asc (ir_measures'
// order, used by Judged).
func rankDocs(docs []ScoredDoc, float32s, asc bool) []ScoredDoc {
	out := slices.Clone(docs)
	slices.SortFunc(out, func(a, b ScoredDoc) int { return compareDocs(a.Score, b.Score, a.Doc, b.Doc, float32s, asc) })
	return out
}

// compareDocs orders doc a before doc b (-1) when a ranks higher.
func compareDocs(sa, sb float64, da, db string, float32s, asc bool) int {
	if float32s {
		sa, sb = float64(float32(sa)), float64(float32(sb))
	}
	switch {
	case sa > sb:
		return -1
	case sa < sb:
		return 1
	}
	if asc {
		return strings.Compare(da, db)
	}
	return strings.Compare(db, da)
}

// Grades returns the grade of each ranked doc for query qid, in order: the qrels grade, or
// Unjudged when the qrels do not list the doc.
func (q Qrels) Grades(qid string, ranked []ScoredDoc) []int { return gradesOf(ranked, q[qid]) }

// gradesOf returns the grade in judged of each ranked doc, Unjudged for a doc judged does not list.
func gradesOf(ranked []ScoredDoc, judged map[string]int) []int {
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

// Judged returns the grades of every judged doc of query qid, in no particular order.
func (q Qrels) Judged(qid string) []int {
	judged := q[qid]
	if len(judged) == 0 {
		return nil
	}
	return judgedGrades(judged)
}
