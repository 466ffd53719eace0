package eval

import (
	"fmt"
	"slices"
	"strings"
)

// Result holds an evaluation: one row a query, one column a measure. Look values up by measure
// (res.Mean(eval.NDCG(10)), res.PerQuery, res.Value); the fields hold them by position.
type Result struct {
	Measures []Measure
	Queries  []string    // evaluated query IDs in byte order
	Values   [][]float64 // Values[i][j]: query i, measure j (gm_map, gm_bpref: the log)
	// Means holds each measure's mean over the queries (divided by N; the geometric mean for
	// gm_map and gm_bpref). Summary holds trec_eval's "all" value: the mean, but the sum for
	// counts, the number of queries for NumQ and with -c the judgments > 0 for NumRel.
	Means   []float64
	Summary []float64
	N       int        // the number of queries the means divide by (len(Queries), except under 9.0.8's -c)
	Missing []string   // qrels queries with no ranking in the run, byte order (evaluated only with AllQueries)
	Ignored []string   // run queries absent from the qrels, byte order (never evaluated)
	Tag     string     // the run's tag (Run.Tag, its last line's): trec_eval's runid
	Text    [][]string // Text[i][j]: query i's relstring for measure j; nil without one
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

// Mean returns the mean of m over the queries (Means). It panics when m was not evaluated.
func (r Result) Mean(m Measure) float64 { return r.Means[r.column(m)] }

// PerQuery returns each query's value of m, as a new map. It panics when m was not evaluated.
func (r Result) PerQuery(m Measure) map[string]float64 {
	j := r.column(m)
	out := make(map[string]float64, len(r.Queries))
	for i, q := range r.Queries {
		out[q] = r.Values[i][j]
	}
	return out
}

// Column returns the values of m in the order of r.Queries, as a new slice. It panics when m
// was not evaluated.
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

// All returns trec_eval's "all" value of m (Summary; from Values and Means for a Result built
// by hand). It panics when m was not evaluated.
func (r Result) All(m Measure) float64 {
	j := r.column(m)
	if j < len(r.Summary) {
		return r.Summary[j]
	}
	if !m.IsCount() {
		return r.Means[j]
	}
	sum := 0.0
	for i := range r.Queries {
		sum += r.Values[i][j]
	}
	return sum
}

// relString returns query's relstring for m (a relstring measure); ok is false when query was
// not evaluated. It panics when m was not evaluated.
func (r Result) relString(query string, m Measure) (s string, ok bool) {
	j := r.column(m)
	i, found := slices.BinarySearch(r.Queries, query)
	if !found || r.Text == nil {
		return "", false
	}
	return r.Text[i][j], true
}
