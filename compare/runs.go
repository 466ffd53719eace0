package compare

import (
	"errors"
	"fmt"
	"github.com/ranklab/ranklab/eval"
	"sort"
)

// NamedRun is a run with the name a report shows for it (a file name, "BM25", "reranked").
type NamedRun struct {
	Name string // empty means the run's Tag, else "run N"
	Run  eval.Run
}

// Runs evaluates every run on qrels with eval.Evaluate and compares runs[1:] with runs[0], the
// baseline (see FromScores and the package doc for the query set and the statistics).
//
// The paired query set is the qrels queries that at least one run ranks, or every qrels query
// with opt.Eval.AllQueries. A run without a ranking for a query of the set is evaluated on it
// as trec_eval -c does (an empty ranking: 0 on every measure except counts such as num_rel), and
// the report names those queries. Queries of a run absent from the qrels are ignored and named.
func Runs(qrels eval.Qrels, runs []NamedRun, measures []eval.Measure, opt Options) (Report, error) {
	if len(runs) < 2 {
		return Report{}, fmt.Errorf("compare: need at least 2 runs (a baseline and one to compare), got %d", len(runs))
	}
	if len(measures) == 0 {
		return Report{}, errors.New("compare: no measures")
	}
	if len(qrels) == 0 {
		return Report{}, errors.New("compare: the qrels have no query")
	}
	names := make([]string, len(measures))
	for j, m := range measures {
		names[j] = m.String()
	}
	set := map[string]bool{}
	for q := range qrels {
		if opt.Eval.AllQueries {
			set[q] = true
			continue
		}
		for _, nr := range runs {
			if _, ok := nr.Run.Queries[q]; ok {
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
	for i, nr := range runs {
		name := nr.Name
		if name == "" {
			name = nr.Run.Tag
		}
		if name == "" {
			name = fmt.Sprintf("run %d", i+1)
		}
		res, err := evalOpt.Evaluate(qrels, nr.Run, measures...)
		if err != nil {
			return Report{}, fmt.Errorf("compare: run %q: %w", name, err)
		}
		s := Scores{Name: name, Ignored: res.Ignored}
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
	return FromScores(names, scores, universe, opt)
}
