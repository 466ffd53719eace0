package eval

import (
	"bufio"
	"fmt"
	"io"
	"slices"
)

// Options are the evaluation settings of trec_eval's common flags.
type Options struct {
	// RelLevel is the minimum grade counted as relevant (trec_eval's -l); 0 means 1. A measure's
	// own rel= wins over it. nDCG ignores it (it uses the grades as gains).
	RelLevel int
	// Depth keeps only the first Depth docs of each ranking (trec_eval's -M); 0 keeps all.
	Depth int
	// AllQueries evaluates every qrels query (trec_eval's -c): a query without a ranking in the
	// run is evaluated as an empty ranking (it scores 0, except NumRel).
	AllQueries bool
}

// Evaluate computes measures for each query of run judged in qrels with the default options
// (Options{}), as trec_eval does:
//
//   - each query's docs are ranked by Rank (score descending, doc ID descending), then cut to
//     opt.Depth when it is positive;
//   - a ranked doc takes its grade from the qrels, or Unjudged;
//   - the evaluated queries are those in both the qrels and the run (reported in Queries), or
//     every qrels query with opt.AllQueries; qrels queries without a ranking are listed in
//     Missing, run queries absent from the qrels in Ignored;
//   - Means[j] is the sum of Values[i][j] over the queries in byte order, divided by their number.
//
// It returns an error for an invalid measure, a negative RelLevel or Depth, a doc listed twice
// for one query of the run, or when no query is left to evaluate. Its inputs are not modified.
func Evaluate(qrels Qrels, run Run, measures ...Measure) (Result, error) {
	return Options{}.Evaluate(qrels, run, measures...)
}

// Evaluate is Evaluate with the options o (trec_eval's -l, -M, -c).
func (opt Options) Evaluate(qrels Qrels, run Run, measures ...Measure) (Result, error) {
	resolved, err := checkEvaluate(measures, opt)
	if err != nil {
		return Result{}, err
	}
	runQueries := make(map[string]bool, len(run.Queries))
	for q := range run.Queries {
		runQueries[q] = true
	}
	return assemble(qrels, runQueries, measures, resolved, opt, func(q string) ([]float64, error) {
		docs := run.Queries[q]
		if err := checkDuplicates(q, docs); err != nil {
			return nil, err
		}
		ranked := Rank(docs)
		if opt.Depth > 0 && len(ranked) > opt.Depth {
			ranked = ranked[:opt.Depth]
		}
		return computeRow(resolved, qrels.Grades(q, ranked), qrels.Judged(q)), nil
	})
}

// assemble builds a Result: it picks the evaluated queries (see Evaluate), takes each one's
// values from row, evaluates a qrels query without a ranking as an empty ranking, and averages.
func assemble(qrels Qrels, runQueries map[string]bool, measures, resolved []Measure, opt Options, row func(q string) ([]float64, error)) (Result, error) {
	res := Result{Measures: slices.Clone(measures)}
	for q := range qrels {
		if runQueries[q] || opt.AllQueries {
			res.Queries = append(res.Queries, q)
		}
		if !runQueries[q] {
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
		return Result{}, fmt.Errorf("evaluate: no query is in both the qrels (%d queries) and the run (%d queries)", len(qrels), len(runQueries))
	}
	res.Values = make([][]float64, len(res.Queries))
	for i, q := range res.Queries {
		if !runQueries[q] {
			res.Values[i] = computeRow(resolved, []int{}, qrels.Judged(q))
			continue
		}
		v, err := row(q)
		if err != nil {
			return Result{}, err
		}
		res.Values[i] = v
	}
	res.Means = means(res.Values, len(resolved))
	return res, nil
}

// computeRow evaluates every measure on one query.
func computeRow(measures []Measure, ranked, judged []int) []float64 {
	row := make([]float64, len(measures))
	for j, m := range measures {
		row[j] = m.Compute(ranked, judged)
	}
	return row
}

// resolveMeasures validates measures and gives the ones that use a relevance level without
// their own rel= the evaluation's level.
func resolveMeasures(measures []Measure, relLevel int) ([]Measure, error) {
	out := make([]Measure, len(measures))
	for j, m := range measures {
		if err := m.Validate(); err != nil {
			return nil, fmt.Errorf("evaluate: %v", err)
		}
		if m.Rel == 0 && m.usesRel() && relLevel > 0 {
			m.Rel = relLevel
		}
		out[j] = m
	}
	return out, nil
}

// means returns the column means of values, summing in row order.
func means(values [][]float64, n int) []float64 {
	out := make([]float64, n)
	if len(values) == 0 {
		return out
	}
	for _, row := range values {
		for j, v := range row {
			out[j] += v
		}
	}
	for j := range out {
		out[j] /= float64(len(values))
	}
	return out
}

// checkDuplicates refuses a query whose docs list one doc twice (trec_eval refuses it too).
func checkDuplicates(q string, docs []ScoredDoc) error {
	seen := make(map[string]int, len(docs))
	for i, d := range docs {
		if prev, dup := seen[d.Doc]; dup {
			return fmt.Errorf("evaluate: query %q: %w: %q at positions %d and %d", q, ErrDuplicate, d.Doc, prev+1, i+1)
		}
		seen[d.Doc] = i
	}
	return nil
}

// WriteTrecEval writes r as trec_eval prints it: with perQuery (trec_eval's -q) each query's
// lines first (queries in byte order), then the "all" lines; each line is
//
//	fmt.Sprintf("%-22s\t%s\t%.*f", name, query, digits, value)
//
// (digits 4 gives trec_eval's "%6.4f"), measures in trec_eval's order (TrecOrder) under their
// trec_eval names (P_5, ndcg_cut_10), measures trec_eval lacks under their ir_measures name.
// Counts print as integers; NumQ prints only on the "all" line, as in trec_eval.
func WriteTrecEval(w io.Writer, r Result, perQuery bool, digits int) error {
	order := TrecOrder(r.Measures)
	cols := make([]int, len(order))
	names := make([]string, len(order))
	for k, m := range order {
		cols[k] = slices.Index(r.Measures, m)
		if n, ok := m.TrecName(); ok {
			names[k] = n
		} else {
			names[k] = m.String()
		}
	}
	bw := bufio.NewWriter(w)
	line := func(name, q string, m Measure, v float64) {
		if m.IsCount() {
			fmt.Fprintf(bw, "%-22s\t%s\t%d\n", name, q, int64(v))
		} else {
			fmt.Fprintf(bw, "%-22s\t%s\t%6.*f\n", name, q, digits, v)
		}
	}
	if perQuery {
		for i, q := range r.Queries {
			for k, m := range order {
				if m.Name == NameNumQ {
					continue
				}
				line(names[k], q, m, r.Values[i][cols[k]])
			}
		}
	}
	for k, m := range order {
		line(names[k], "all", m, r.all(cols[k]))
	}
	return bw.Flush()
}
