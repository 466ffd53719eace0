package eval

import (
	"io"
	"slices"

	"github.com/ranklab/ranklab/internal/scan"
)

// qrelsJG holds qrels with judgment groups (trec_eval's -R qrels_jg): query ID → judgment group
// → doc ID → grade. Each group is a separate set of judgments of the query.
type qrelsJG map[string]map[string]map[string]int

// parseQrelsJG reads qrels whose second field names a judgment group:
//
//	query-id judgment-group doc-id grade
//
// Comments, byte-order mark and errors are as for ReadQrels; a doc judged twice in one group of
// a query is an error (ErrDuplicate).
func parseQrelsJG(r io.Reader, name string) (qrelsJG, error) {
	q := qrelsJG{}
	err := readRecords(r, name, 4, "4 (query-id judgment-group doc-id grade)", "no judgment", func(f [][]byte, line int) error {
		g, ok := scan.Grade(f[3])
		if !ok {
			return parseErr(name, line, ErrGrade, "%s", quoteField(f[3]))
		}
		docs := inner(inner(q, string(f[0])), string(f[1]))
		if _, dup := docs[string(f[2])]; dup {
			return parseErr(name, line, ErrDuplicate, "%s judged twice in group %s of query %s", quoteField(f[2]), quoteField(f[1]), quoteField(f[0]))
		}
		docs[string(f[2])] = g
		return nil
	})
	if err != nil {
		return nil, err
	}
	return q, nil
}

// evaluateJG computes the judgment-group measures of trec_eval -R qrels_jg (and runid, num_q)
// for each query of jg: the run's ranking (as Evaluate ranks it) is judged by each group of the
// query separately, and
//
//	map_avgjg             = Σ_groups AP / G
//	P_avgjg@k             = Σ_groups P@k / G           (Measure{Name: "P_avgjg", Cutoff: k})
//	Rprec_mult_avgjg at x = Σ_groups Rprec_mult(x) / G  (Param x)
//
// with G the number of groups of the query (the sum itself when G = 1). Queries: as Evaluate.
func (opt Options) evaluateJG(jg qrelsJG, run Run, measures ...Measure) (Result, error) {
	ev, err := newEvaluator(measures, opt, inJG)
	if err != nil {
		return Result{}, err
	}
	names := func(m map[string]map[string]int) []string {
		var out []string
		for g := range m {
			out = append(out, g)
		}
		slices.Sort(out) // trec_eval sums the groups in byte order
		return out
	}
	rowFor := func(q string, docs []ScoredDoc) (row, error) {
		groups := jg[q]
		ranked := rankDocs(docs, opt.TrecEval9, false)
		var qs []*query
		for _, g := range names(groups) {
			grades := ev.grades(ranked, groups[g])
			qs = append(qs, newQuery(grades, judgedGrades(groups[g]), opt.JudgedOnly, nil))
		}
		r := row{vals: make([]float64, len(ev.cs))}
		for j, c := range ev.cs {
			sum := 0.0
			for _, gq := range qs {
				switch c.m.Name {
				case nameMAPAvgJG:
					sum += ap(gq, 0, c.L)
				case namePAvgJG:
					sum += valueP(gq, c)
				case nameRprecMultAvgJG:
					sum += rprecMult(gq.rl, gq.numRel(c.L), c.L, c.x)
				}
			}
			if len(qs) > 1 {
				sum /= float64(len(qs))
			}
			switch c.m.Name {
			case nameNumQ:
				sum = 1
			case nameRunID:
				sum = 0
			}
			r.vals[j] = sum
		}
		return r, nil
	}
	return ev.assembleSets(querySet(jg), run, rowFor)
}
