package eval

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Options are the evaluation settings of trec_eval's flags. The zero value is trec_eval 10.0's
// default, except for the query set (see Evaluate).
type Options struct {
	// RelLevel is the minimum grade counted as relevant (trec_eval's -l); 0 means 1. A measure's
	// own rel= wins over it. nDCG and the gain measures ignore it.
	RelLevel int
	// Depth keeps only the first Depth docs of each ranking (trec_eval's -M); 0 keeps all.
	Depth int
	// AllQueries evaluates every qrels query (trec_eval's -c): one without a ranking as
	// trec_eval 10.0 does (a ranking of one unjudged doc, then num_ret, unj, default utility,
	// rbp_resid and relstring reset to 0): every measure 0 but NumRel, yaap and utility.
	AllQueries bool
	// JudgedOnly drops the retrieved docs not judged (trec_eval's -J).
	JudgedOnly bool
	// NumDocs is the number of docs in the collection, used by utility only (trec_eval's -N).
	NumDocs int
	// TrecEval9 applies trec_eval 9.0.8's rules (pytrec_eval's): float32 scores, IPrec's
	// trunc(x·R + 0.9), and with AllQueries queries without a ranking counted 0 in the means.
	TrecEval9 bool
	// DropSelf drops the doc whose ID is the query's before anything else, as BEIR's
	// ignore_identical_ids=True (ArguAna, beir#187); the qrels are left as they are.
	DropSelf bool
}

// dropSelf returns docs without the doc whose ID is q (a new slice; docs is not modified).
func dropSelf(q string, docs []ScoredDoc) []ScoredDoc {
	i := slices.IndexFunc(docs, func(d ScoredDoc) bool { return d.Doc == q })
	if i < 0 {
		return docs
	}
	return slices.Delete(slices.Clone(docs), i, i+1)
}

// Evaluate computes measures for each query in both qrels and run, as trec_eval does (see
// the package doc): docs ranked by Rank, graded by the qrels (Unjudged when not listed), means
// over the queries in byte order. It returns an error for an invalid measure or option, a doc
// listed twice for one query, or no query to evaluate (ErrNoQueries). Its inputs are not
// modified.
func Evaluate(qrels Qrels, run Run, measures ...Measure) (Result, error) {
	return Options{}.Evaluate(qrels, run, measures...)
}

// Evaluate is Evaluate with the options o (trec_eval's -l, -M, -c, -J, -N, and 9.0.8's rules).
func (opt Options) Evaluate(qrels Qrels, run Run, measures ...Measure) (Result, error) {
	ev, err := newEvaluator(measures, opt, inQrels)
	if err != nil {
		return Result{}, err
	}
	res, err := ev.assemble(qrels, querySet(run.Queries), func(q string) (row, error) {
		docs := run.Queries[q]
		if err := checkDuplicates(q, docs); err != nil {
			return row{}, err
		}
		if opt.DropSelf {
			docs = dropSelf(q, docs)
		}
		return ev.rankAndCompute(docs, qrels[q]), nil
	})
	if err != nil {
		return Result{}, err
	}
	res.Tag = run.Tag
	return res, nil
}

// evaluator holds the compiled measures of one evaluation.
type evaluator struct {
	opt      Options
	measures []Measure
	cs       []*compiled
	needAsc  bool // a Judged or RR@k measure: rank ties by doc ID ascending too (float64 scores)
	needF64  bool // an nDCG(dcg=exp-log2)@k under TrecEval9: rank by float64 scores too
	texts    []int
}

// row is one query's values.
type row struct {
	vals  []float64
	texts []string // the relstring values, in the order of evaluator.texts
	buf   []int    // the space of the list of grades, for reuse
}

// newEvaluator checks the options and compiles the measures for input kind in.
func newEvaluator(measures []Measure, opt Options, in inputKind) (*evaluator, error) {
	if len(measures) == 0 {
		return nil, errors.New("evaluate: no measures")
	}
	switch {
	case opt.RelLevel < 0:
		return nil, errors.New("evaluate: relevance level " + strconv.Itoa(opt.RelLevel) + " is negative")
	case opt.Depth < 0:
		return nil, errors.New("evaluate: depth " + strconv.Itoa(opt.Depth) + " is negative")
	case opt.NumDocs < 0:
		return nil, errors.New("evaluate: number of docs " + strconv.Itoa(opt.NumDocs) + " is negative")
	}
	ev := &evaluator{opt: opt, measures: slices.Clone(measures)}
	for j, m := range measures {
		c, err := compileMeasure(m, opt)
		if err != nil {
			return nil, fmt.Errorf("evaluate: %v", err)
		}
		if c.fam.input != in && c.fam.input != inAny {
			return nil, fmt.Errorf("evaluate: measure %s needs %s", m, map[inputKind]string{
				inQrels: "qrels (Evaluate)", inPrefs: "preferences (evaluatePrefs)", inJG: "qrels with judgment groups (evaluateJG)"}[c.fam.input])
		}
		ev.cs = append(ev.cs, c)
		if m.Name == nameJudged || (m.Name == nameRR && m.Cutoff > 0) {
			ev.needAsc = true
		}
		if m.Name == nameNDCG && m.Exp && opt.TrecEval9 {
			ev.needF64 = true
		}
		if m.Name == nameRelString {
			ev.texts = append(ev.texts, j)
		}
	}
	return ev, nil
}

// rankAndCompute ranks one query's docs and computes its row.
func (ev *evaluator) rankAndCompute(docs []ScoredDoc, judged map[string]int) row {
	ranked := ev.grades(rankDocs(docs, ev.opt.TrecEval9, false), judged)
	var asc, f64 []int
	if ev.needAsc {
		asc = ev.grades(rankDocs(docs, false, true), judged)
	}
	if ev.needF64 {
		f64 = ev.grades(rankDocs(docs, false, false), judged)
	}
	return ev.compute(ranked, asc, f64, judgedGrades(judged), false, nil)
}

// grades returns the grades of the ranked docs, cut to the depth.
func (ev *evaluator) grades(ranked []ScoredDoc, judged map[string]int) []int {
	if ev.opt.Depth > 0 && len(ranked) > ev.opt.Depth {
		ranked = ranked[:ev.opt.Depth]
	}
	return gradesOf(ranked, judged)
}

// judgedGrades lists the grades of a query's judged docs.
func judgedGrades(judged map[string]int) []int {
	out := make([]int, 0, len(judged))
	for _, g := range judged {
		out = append(out, g)
	}
	return out
}

// compute evaluates every measure on one query; bogus marks trec_eval -c's stand-in ranking of
// a query without one (see Options.AllQueries). asc and f64, when not nil, are the query's
// grades ranked by float64 scores with ties by doc ID ascending (ir_measures' Judged and
// msmarco's RR@k) and descending (gdeval's nDCG(dcg=exp-log2)@k under TrecEval9). buf may hold
// the space of the query's list of grades, given back in row.buf.
func (ev *evaluator) compute(ranked, asc, f64, judged []int, bogus bool, buf []int) row {
	q := newQuery(ranked, judged, ev.opt.JudgedOnly, buf)
	if asc != nil {
		q.asc = newQuery(asc, nil, ev.opt.JudgedOnly, nil).rl
	}
	if f64 != nil {
		q.f64 = newQuery(f64, nil, ev.opt.JudgedOnly, nil).rl
	}
	r := row{vals: make([]float64, len(ev.cs)), buf: q.rl}
	for j, c := range ev.cs {
		if c.fam.value != nil {
			r.vals[j] = c.fam.value(q, c)
		}
		if bogus && bogusReset(c.m) {
			r.vals[j] = 0
		}
	}
	for _, j := range ev.texts {
		s := relString(q, ev.cs[j])
		if bogus && bogusReset(ev.cs[j].m) {
			s = ""
		}
		r.texts = append(r.texts, s)
	}
	return r
}

// bogusReset reports whether trec_eval 10.0 resets m to 0 for a query evaluated on its stand-in
// ranking: the values named exactly num_ret, utility, rbp_resid, relstring, and unj_*.
func bogusReset(m Measure) bool {
	name, ok := m.TrecName()
	if !ok {
		return false
	}
	switch name {
	case "num_ret", "utility", "rbp_resid", "relstring":
		return true
	}
	return strings.HasPrefix(name, "unj")
}

// bogusDoc is the doc of trec_eval 10.0's stand-in ranking for a query without one.
const bogusDoc = "ceci_nest_pas_un_docno"

// assemble builds a Result: it picks the evaluated queries (see Evaluate), takes each one's
// values from rowFor, evaluates a qrels query without a ranking on trec_eval's stand-in
// ranking, and aggregates.
func (ev *evaluator) assemble(qrels Qrels, runQueries map[string]bool, rowFor func(q string) (row, error)) (Result, error) {
	opt := ev.opt
	res := Result{Measures: ev.measures}
	for q := range qrels {
		inRun := runQueries[q]
		if inRun || (opt.AllQueries && !opt.TrecEval9) {
			res.Queries = append(res.Queries, q)
		}
		if !inRun {
			res.Missing = append(res.Missing, q)
		}
	}
	for q := range runQueries {
		if _, ok := qrels[q]; !ok {
			res.Ignored = append(res.Ignored, q)
		}
	}
	slices.Sort(res.Queries)
	slices.Sort(res.Missing)
	slices.Sort(res.Ignored)
	if len(res.Queries) == 0 {
		return Result{}, fmt.Errorf("evaluate: %w: no query is in both the qrels (%d queries) and the run (%d queries)", ErrNoQueries, len(qrels), len(runQueries))
	}
	rows := make([]row, len(res.Queries))
	for i, q := range res.Queries {
		if !runQueries[q] {
			judged := qrels[q]
			stand := []ScoredDoc{{Doc: bogusDoc, Score: 1}}
			ranked := ev.grades(stand, judged)
			var asc, f64 []int
			if ev.needAsc {
				asc = ranked
			}
			if ev.needF64 {
				f64 = ranked
			}
			rows[i] = ev.compute(ranked, asc, f64, judgedGrades(judged), true, nil)
			continue
		}
		r, err := rowFor(q)
		if err != nil {
			return Result{}, err
		}
		rows[i] = r
	}
	res.Values = make([][]float64, len(rows))
	for i, r := range rows {
		res.Values[i] = r.vals
	}
	if len(ev.texts) > 0 {
		res.Text = make([][]string, len(rows))
		for i, r := range rows {
			res.Text[i] = make([]string, len(ev.cs))
			for k, j := range ev.texts {
				res.Text[i][j] = r.texts[k]
			}
		}
	}
	n := len(res.Queries)
	if opt.AllQueries && opt.TrecEval9 {
		n = len(qrels)
	}
	ev.aggregate(&res, n, qrels)
	return res, nil
}

// aggregate fills Means and Summary over n queries (n > len(Queries) only under 9.0.8's -c,
// where the missing queries count 0).
func (ev *evaluator) aggregate(res *Result, n int, qrels Qrels) {
	res.N = n
	res.Means = make([]float64, len(ev.cs))
	res.Summary = make([]float64, len(ev.cs))
	for j, c := range ev.cs {
		res.Means[j], res.Summary[j] = aggregateColumn(res.Values, j, c.fam.agg, n, len(res.Queries))
		if c.m.Name == nameNumRel && c.m.Rel == 0 && ev.opt.AllQueries && qrels != nil {
			res.Summary[j] = float64(positiveJudgments(qrels))
		}
	}
}

// positiveJudgments counts the judgments with a grade > 0 in the whole qrels.
func positiveJudgments(qrels Qrels) int {
	n := 0
	for _, docs := range qrels {
		for _, g := range docs {
			if g > 0 {
				n++
			}
		}
	}
	return n
}

// checkDuplicates refuses a query whose docs list one doc twice (trec_eval refuses it too).
func checkDuplicates(q string, docs []ScoredDoc) error {
	seen := make(map[string]int, len(docs))
	for i, d := range docs {
		if prev, dup := seen[d.Doc]; dup {
			return fmt.Errorf("evaluate: query %s: %w: %s at positions %d and %d", quoteString(q), ErrDuplicate, quoteString(d.Doc), prev+1, i+1)
		}
		seen[d.Doc] = i
	}
	return nil
}

// Compute evaluates m on one query with the default options: ranked holds the grades of the
// ranked docs in order (Unjudged for a doc the qrels do not list), judged those of every judged
// doc of the query. It panics on an invalid measure and on those that need more than grades
// (preferences, judgment groups); relstring and runid give 0.
func (m Measure) Compute(ranked, judged []int) float64 {
	c, err := compileMeasure(m, Options{})
	if err != nil {
		panic(fmt.Sprintf("eval: Compute on invalid measure %#v: %v", m, err))
	}
	if c.fam.value == nil || c.fam.input != inQrels && c.fam.input != inAny {
		panic(fmt.Sprintf("eval: Compute on %s, which needs more than grades", m))
	}
	return c.fam.value(newQuery(ranked, judged, false, nil), c)
}

// assembleSets builds a Result for relevance information other than qrels (preferences,
// judgment groups): relQueries are its queries; rowFor evaluates one query on its run docs (on
// trec_eval's stand-in ranking for a query without docs, with AllQueries).
func (ev *evaluator) assembleSets(relQueries map[string]bool, run Run, rowFor func(q string, docs []ScoredDoc) (row, error)) (Result, error) {
	opt := ev.opt
	res := Result{Measures: ev.measures, Tag: run.Tag}
	for q := range relQueries {
		_, inRun := run.Queries[q]
		if inRun || (opt.AllQueries && !opt.TrecEval9) {
			res.Queries = append(res.Queries, q)
		}
		if !inRun {
			res.Missing = append(res.Missing, q)
		}
	}
	for q := range run.Queries {
		if !relQueries[q] {
			res.Ignored = append(res.Ignored, q)
		}
	}
	slices.Sort(res.Queries)
	slices.Sort(res.Missing)
	slices.Sort(res.Ignored)
	if len(res.Queries) == 0 {
		return Result{}, fmt.Errorf("evaluate: %w: no query is in both the relevance information (%d queries) and the run (%d queries)", ErrNoQueries, len(relQueries), len(run.Queries))
	}
	res.Values = make([][]float64, len(res.Queries))
	for i, q := range res.Queries {
		docs, ok := run.Queries[q]
		if !ok {
			docs = []ScoredDoc{{Doc: bogusDoc, Score: 1}}
		} else if err := checkDuplicates(q, docs); err != nil {
			return Result{}, err
		} else if opt.DropSelf {
			docs = dropSelf(q, docs)
		}
		r, err := rowFor(q, docs)
		if err != nil {
			return Result{}, err
		}
		res.Values[i] = r.vals
	}
	n := len(res.Queries)
	if opt.AllQueries && opt.TrecEval9 {
		n = len(relQueries)
	}
	ev.aggregate(&res, n, nil)
	return res, nil
}
