package eval

import (
	"fmt"
	"slices"
	"strings"
)

// Result holds an evaluation: one row a query, one column a measure. Look values up by measure:
//
//	res.Mean(eval.NDCG(10))         // the mean over the evaluated queries
//	res.PerQuery(eval.NDCG(10))     // query ID → value
//	res.Value("q1", eval.NDCG(10))  // one query
//
// The fields hold the same values by position (Values[i][j] is query Queries[i], measure
// Measures[j]) for code that walks the whole table.
type Result struct {
	Measures []Measure
	Queries  []string    // evaluated query IDs in byte order
	Values   [][]float64 // Values[i][j]: query i, measure j
	Means    []float64   // arithmetic mean of each measure over Queries (for counts too; see All)
	Missing  []string    // qrels queries with no ranking in the run, byte order (evaluated as empty only with AllQueries)
	Ignored  []string    // run queries absent from the qrels, byte order (never evaluated)
}

// column returns the index of m in r.Measures; it panics naming the evaluated measures when m
// was not evaluated (a caller bug, like an index out of range).
func (r Result) column(m Measure) int {
	if j := slices.Index(r.Measures, m); j >= 0 {
		return j
	}
	names := make([]string, len(r.Measures))
	for j, e := range r.Measures {
		names[j] = e.String()
	}
	panic(fmt.Sprintf("eval: measure %s was not evaluated (evaluated: %s)", m, strings.Join(names, ", ")))
}

// Mean returns the mean of m over the evaluated queries (summed in byte order of the query IDs).
// It panics when m was not evaluated.
func (r Result) Mean(m Measure) float64 { return r.Means[r.column(m)] }

// PerQuery returns each evaluated query's value of m, as a new map. It panics when m was not
// evaluated.
func (r Result) PerQuery(m Measure) map[string]float64 {
	j := r.column(m)
	out := make(map[string]float64, len(r.Queries))
	for i, q := range r.Queries {
		out[q] = r.Values[i][j]
	}
	return out
}

// Column returns the values of m in the order of r.Queries, as a new slice (the form paired
// tests take). It panics when m was not evaluated.
func (r Result) Column(m Measure) []float64 {
	j := r.column(m)
	out := make([]float64, len(r.Queries))
	for i := range r.Queries {
		out[i] = r.Values[i][j]
	}
	return out
}

// Value returns query's value of m; ok is false when query was not evaluated. It panics when m
// was not evaluated.
func (r Result) Value(query string, m Measure) (v float64, ok bool) {
	j := r.column(m)
	i, found := slices.BinarySearch(r.Queries, query)
	if !found {
		return 0, false
	}
	return r.Values[i][j], true
}

// All returns trec_eval's "all" value of m: the sum over the queries for a count (NumQ, NumRet,
// NumRel, NumRelRet), the mean otherwise. It panics when m was not evaluated.
func (r Result) All(m Measure) float64 { return r.all(r.column(m)) }

func (r Result) all(j int) float64 {
	if !r.Measures[j].IsCount() {
		return r.Means[j]
	}
	sum := 0.0
	for i := range r.Queries {
		sum += r.Values[i][j]
	}
	return sum
}
