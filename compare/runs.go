package compare

import (
	"errors"
	"fmt"
	"sort"

	"github.com/ranklab/ranklab/eval"
)

// Runs evaluates every run on qrels with eval.Evaluate and compares runs[1:] with runs[0], the
// baseline, with the default Options (see Options.Runs):
//
//	r, err := compare.Runs(qrels, []eval.Measure{eval.NDCG(10)}, firstStage, reranked)
//	c, err := r.Comparison(reranked.Tag, eval.NDCG(10))
func Runs(qrels eval.Qrels, ms []eval.Measure, runs ...eval.Run) (Report, error) {
	return Options{}.Runs(qrels, ms, runs...)
}

// Runs evaluates every run on qrels with opt.Eval and compares runs[1:] with runs[0], the
// baseline (see the package doc for the statistics). A run is named by its Tag ("run N" when
// it has none); two runs with one name are an error, so set Tag to tell them apart.
//
// The paired query set is the qrels queries that at least one run ranks, or every qrels query
// with opt.Eval.AllQueries. A run without a ranking for a query of the set is evaluated on it
// as trec_eval -c does (an empty ranking: 0 on every measure except counts such as num_rel), and
// the report names those queries. Queries of a run absent from the qrels are ignored and named.
func (opt Options) Runs(qrels eval.Qrels, ms []eval.Measure, runs ...eval.Run) (Report, error) {
	if len(runs) < 2 {
		return Report{}, fmt.Errorf("compare: need at least 2 runs (a baseline and one to compare), got %d", len(runs))
	}
	if len(ms) == 0 {
		return Report{}, errors.New("compare: no measures")
	}
	if len(qrels) == 0 {
		return Report{}, errors.New("compare: the qrels have no query")
	}
	set := map[string]bool{}
	for q := range qrels {
		if opt.Eval.AllQueries {
			set[q] = true
			continue
		}
		for _, run := range runs {
			if _, ok := run.Queries[q]; ok {
				set[q] = true
				break
			}
		}
	}
	if len(set) == 0 {
		return Report{}, fmt.Errorf("compare: no run ranks any of the %d qrels queries (are the query IDs the same?)", len(qrels))
	}
	universe := make([]string, 0, len(set))
	for q := range set {
		universe = append(universe, q)
	}
	sort.Strings(universe)

	evalOpt := opt.Eval
	evalOpt.AllQueries = true // every qrels query gets its value under trec_eval's -c rule
	scores := make([]Scores, len(runs))
	for i, run := range runs {
		name := runName(run.Tag, i)
		res, err := evalOpt.Evaluate(qrels, run, ms...)
		if err != nil {
			return Report{}, fmt.Errorf("compare: run %q: %w", name, err)
		}
		s := resultScores(res, name)
		s.Queries, s.Values, s.Missing = nil, nil, nil
		for k, q := range res.Queries {
			if set[q] {
				s.Queries = append(s.Queries, q)
				s.Values = append(s.Values, res.Values[k])
			}
		}
		for _, q := range res.Missing {
			if set[q] {
				s.Missing = append(s.Missing, q)
			}
		}
		scores[i] = s
	}
	return compareScores(scores, universe, opt)
}

// FromResults compares results the caller already has (eval.Evaluate's, on the same qrels and
// measures) with results[0], the baseline; a result is named by its Tag ("run N" when it has
// none). The paired query set is the union of the results' queries; a result without a query
// of the set, or with it in Missing, scores 0 on it (trec_eval -c) and the report names it.
// opt.Eval is not used.
func (opt Options) FromResults(results ...eval.Result) (Report, error) {
	scores := make([]Scores, len(results))
	for i, res := range results {
		scores[i] = resultScores(res, runName(res.Tag, i))
	}
	if len(scores) < 2 {
		return Report{}, fmt.Errorf("compare: need at least 2 runs (a baseline and one to compare), got %d", len(scores))
	}
	return compareScores(scores, nil, opt)
}

// FromScores compares per-query values computed elsewhere (rag.BudgetResult's, a simulation's)
// with runs[0], the baseline. Every run needs the same Measures and its own Name. The paired
// query set is the union of the runs' queries; a run without a value for a query of the set
// scores 0 on it (trec_eval -c) and the report names it. opt.Eval is not used.
func (opt Options) FromScores(runs ...Scores) (Report, error) {
	return compareScores(runs, nil, opt)
}

// resultScores is res as the Scores of a run named name.
func resultScores(res eval.Result, name string) Scores {
	ms := make([]Measure, len(res.Measures))
	for j, m := range res.Measures {
		ms[j] = m
	}
	return Scores{Name: name, Measures: ms, Queries: res.Queries, Values: res.Values, Missing: res.Missing, Ignored: res.Ignored}
}

// runName is tag, or "run N" (N = i+1) when the run has no tag.
func runName(tag string, i int) string {
	if tag == "" {
		return fmt.Sprintf("run %d", i+1)
	}
	return tag
}
