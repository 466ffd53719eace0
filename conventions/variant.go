package conventions

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/ranklab/ranklab/eval"
	"github.com/ranklab/ranklab/internal/measurename"
)

// querySet is which queries a tool averages over, and when it refuses to.
type querySet int

const (
	// allQrels: every qrels query; one the run has no ranking for is scored as an empty ranking
	// (trec_eval -c; ir_measures fills such queries with the measure's default, 0).
	allQrels querySet = iota
	// sharedQueries: the queries in both the qrels and the run (pytrec_eval returns values for those
	// only, and the caller averages them; trec_eval 9.0.8 without -c).
	sharedQueries
	// strictQrels: every qrels query must have a ranking, else the tool stops (trec_eval 10.0
	// without -c: "result qid 'q7' not found in qrels", exit 4); otherwise as allQrels.
	strictQrels
	// sameQueries: the qrels and the run must hold exactly the same queries, else the tool stops
	// (ranx's evaluate without make_comparable: AssertionError); otherwise as allQrels.
	sameQueries
)

// emptyRule is what a tool does with a query it cannot score: no relevant doc, or nothing retrieved.
type emptyRule int

const (
	scoreZero emptyRule = iota // the query scores 0 and counts in the mean
	skipQuery                  // the query scores NaN and the mean leaves it out (ragas: numpy nanmean)
	failQuery                  // the tool raises an error (LlamaIndex: ValueError; BEIR R_cap: ZeroDivisionError)
)

// variant is one tool's rules for one measure: how it orders and cuts the docs, the formula it
// applies, and how it averages. The zero value with Measure set is ranklab's reference: trec_eval
// 10.0's order and formulas averaged over every qrels query (trec_eval -c).
type variant struct {
	Name    string       // the tool's own name for the measure: "ndcg_cut_10", "mrr@10", "MRR@10"
	Measure eval.Measure // the measure the formula starts from (P, R, RR, AP, nDCG, Success) with its cutoff

	// Ranking.
	Order    docOrder // how the docs are ordered before the cut at k
	Float32  bool     // scores are rounded to float32 first (trec_eval 9.0.8 inside pytrec_eval)
	DropSelf bool     // a doc whose ID equals the query ID is removed (BEIR's ignore_identical_ids)

	// Formula, where it departs from eval.Measure.Compute.
	UncutRR      bool // RR looks at the whole ranking, not the top k (trec_eval's recip_rank)
	CapRecall    bool // recall divides by min(R, k), not R (BEIR's R_cap@k)
	PerRetrieved bool // precision divides by the docs in the top k, not k (ragas, LlamaIndex)
	IdealUncut   bool // nDCG's ideal DCG sums R positions, not min(R, k) (LlamaIndex's NDCG)
	BinaryGain   bool // nDCG's gain is 1 for every relevant doc, not its grade (LlamaIndex's NDCG)
	Granular     bool // RR averages 1/rank over every relevant doc in the top k (LlamaIndex's granular MRR)

	// Averaging.
	Queries      querySet
	RunOnlyFails bool      // a run query absent from the qrels makes the tool fail (BEIR's custom metrics: KeyError)
	NoRelevant   emptyRule // a query without a relevant doc
	NoRetrieved  emptyRule // a query with nothing retrieved (no ranking, or everything dropped)
	Round        int       // the mean is rounded to this many decimals (BEIR: 5); 0 = not rounded
	Raises       string    // what the tool raises when it fails (NoRelevant/NoRetrieved = failQuery, RunOnlyFails)
}

// outcome is a variant evaluated on a dataset.
type outcome struct {
	values  map[string]float64 // per scored query; NaN when the query is left out (skipQuery)
	queries []string           // the queries the mean is over, byte order
	mean    float64
	err     error // the tool stops: nothing else is set
}

// dataset is one qrels/run pair with the query sets every variant needs, and each query's
// grades in every order asked for so far (a table asks for the same few orders many times).
type dataset struct {
	qrels   eval.Qrels
	run     eval.Run
	qrelsQ  []string // qrels queries, byte order
	missing []string // qrels queries without a ranking
	ignored []string // run queries absent from the qrels
	graded  map[rankKey]map[string][]int
}

// rankKey is what decides a query's ranked grades.
type rankKey struct {
	order    docOrder
	float32  bool
	dropSelf bool
}

func newDataset(qrels eval.Qrels, run eval.Run) *dataset {
	d := &dataset{qrels: qrels, run: run, graded: map[rankKey]map[string][]int{}}
	for q := range qrels {
		d.qrelsQ = append(d.qrelsQ, q)
		if _, ok := run.Queries[q]; !ok {
			d.missing = append(d.missing, q)
		}
	}
	for q := range run.Queries {
		if _, ok := qrels[q]; !ok {
			d.ignored = append(d.ignored, q)
		}
	}
	slices.Sort(d.qrelsQ)
	slices.Sort(d.missing)
	slices.Sort(d.ignored)
	return d
}

// level is the minimum relevant grade of m (1 unless rel= is given).
func level(m eval.Measure) int {
	if m.Rel > 0 {
		return m.Rel
	}
	return 1
}

// ranking returns query q's docs as the variant orders them (dropped doc removed), nil when the
// run has no ranking for q.
func (v variant) ranking(d *dataset, q string) []eval.ScoredDoc {
	docs, ok := d.run.Queries[q]
	if !ok {
		return nil
	}
	if v.DropSelf {
		docs = slices.DeleteFunc(slices.Clone(docs), func(sd eval.ScoredDoc) bool { return sd.Doc == q })
	}
	return arrange(docs, v.Order, v.Float32)
}

// grades returns the grades of query q's docs in the variant's order (cached per order).
func (v variant) grades(d *dataset, q string) []int {
	k := rankKey{v.Order, v.Float32, v.DropSelf}
	byQuery := d.graded[k]
	if byQuery == nil {
		byQuery = map[string][]int{}
		d.graded[k] = byQuery
	}
	g, ok := byQuery[q]
	if !ok {
		g = d.qrels.Grades(q, v.ranking(d, q))
		byQuery[q] = g
	}
	return g
}

// value scores query q. It returns NaN for a query left out (skipQuery) and an error naming the
// query and what the tool raises when the tool refuses it (failQuery).
func (v variant) value(d *dataset, q string) (float64, error) {
	grades := v.grades(d, q)
	judged := d.qrels.Judged(q)
	m := v.Measure
	L := level(m)
	R := 0
	for _, g := range judged {
		if g >= L {
			R++
		}
	}
	if R == 0 {
		switch v.NoRelevant {
		case skipQuery:
			return math.NaN(), nil
		case failQuery:
			return 0, fmt.Errorf("query %q has no relevant doc: %s", q, v.Raises)
		}
	}
	if len(grades) == 0 {
		switch v.NoRetrieved {
		case skipQuery:
			return math.NaN(), nil
		case failQuery:
			return 0, fmt.Errorf("query %q retrieves nothing: %s", q, v.Raises)
		}
	}
	k := m.Cutoff
	top := grades
	if k > 0 && len(top) > k {
		top = top[:k]
	}
	relIn := func(gs []int) int {
		c := 0
		for _, g := range gs {
			if g >= L {
				c++
			}
		}
		return c
	}
	switch m.Name {
	case measurename.P:
		if v.PerRetrieved {
			if len(top) == 0 {
				return 0, nil
			}
			return float64(relIn(top)) / float64(len(top)), nil
		}
	case measurename.R:
		if v.CapRecall {
			if R == 0 {
				return 0, nil
			}
			return float64(relIn(top)) / float64(min(R, k)), nil
		}
	case measurename.RR:
		switch {
		case v.Granular:
			sum, n := 0.0, 0
			for i, g := range top {
				if g >= L {
					sum += 1 / float64(i+1)
					n++
				}
			}
			if n == 0 {
				return 0, nil
			}
			return sum / float64(n), nil
		case v.UncutRR:
			return eval.RR().WithRel(m.Rel).Compute(grades, judged), nil
		}
	case measurename.NDCG:
		if v.IdealUncut || v.BinaryGain {
			return ndcgVariant(top, judged, k, L, v.IdealUncut, v.BinaryGain, m.Exp), nil
		}
	}
	return m.Compute(grades, judged), nil
}

// ndcgVariant computes nDCG with the departures of LlamaIndex's NDCG: with binary gain every
// doc of grade >= L gains 1 (else the grade, or 2^grade-1 with exp); with idealUncut the ideal
// DCG sums all R relevant positions instead of the first min(R, k):
//
//	DCG  = Σ_{i<len(top)} gain(top[i]) / log2(i+2)
//	IDCG = Σ_{i<n} gain(ideal[i]) / log2(i+2),  n = R (idealUncut) or min(R, k)
func ndcgVariant(top, judged []int, k, L int, idealUncut, binary, exp bool) float64 {
	gain := func(g int) float64 {
		switch {
		case binary && g >= L:
			return 1
		case binary || g <= 0:
			return 0
		case exp:
			return math.Exp2(float64(g)) - 1
		}
		return float64(g)
	}
	dcg := 0.0
	for i, g := range top {
		dcg += gain(g) / math.Log2(float64(i+2))
	}
	var ideal []int
	for _, g := range judged {
		if gain(g) > 0 {
			ideal = append(ideal, g)
		}
	}
	slices.Sort(ideal)
	slices.Reverse(ideal)
	if !idealUncut && k > 0 && len(ideal) > k {
		ideal = ideal[:k]
	}
	idcg := 0.0
	for i, g := range ideal {
		idcg += gain(g) / math.Log2(float64(i+2))
	}
	if idcg == 0 {
		return 0
	}
	return dcg / idcg
}

// evaluate scores every query the variant scores and averages them.
func (v variant) evaluate(d *dataset) outcome {
	switch v.Queries {
	case strictQrels:
		if len(d.missing) > 0 {
			return outcome{err: fmt.Errorf("%s %s no ranking: stops (exit 4, \"result qid ... not found in qrels\") unless -c", quoteIDs(d.missing), has(len(d.missing)))}
		}
	case sameQueries:
		if len(d.missing) > 0 || len(d.ignored) > 0 {
			return outcome{err: fmt.Errorf("query sets differ (%s): AssertionError unless make_comparable=True", setDifference(d))}
		}
	}
	if v.RunOnlyFails && len(d.ignored) > 0 {
		return outcome{err: fmt.Errorf("%s %s in the run, not the qrels: %s", quoteIDs(d.ignored), is(len(d.ignored)), v.Raises)}
	}
	var queries []string
	switch v.Queries {
	case sharedQueries:
		for _, q := range d.qrelsQ {
			if _, ok := d.run.Queries[q]; ok {
				queries = append(queries, q)
			}
		}
	default:
		queries = d.qrelsQ
	}
	o := outcome{values: make(map[string]float64, len(queries))}
	sum := 0.0
	for _, q := range queries {
		x, err := v.value(d, q)
		if err != nil {
			return outcome{err: err}
		}
		o.values[q] = x
		if math.IsNaN(x) {
			continue
		}
		o.queries = append(o.queries, q)
		sum += x
	}
	if len(o.queries) == 0 {
		return outcome{err: errors.New("no query to average")}
	}
	o.mean = sum / float64(len(o.queries))
	if v.Round > 0 {
		o.mean = roundTo(o.mean, v.Round)
	}
	return o
}

// roundTo rounds x to n decimals as Python's round(x, n) does for values that are not exact
// decimal halves: to the nearest n-decimal number.
func roundTo(x float64, n int) float64 {
	r, err := strconv.ParseFloat(strconv.FormatFloat(x, 'f', n, 64), 64)
	if err != nil {
		panic(err)
	}
	return r
}

// quoteIDs names up to 3 query IDs: "q7", "q7 and q9", "3 queries (q7, q9, q12)", "12 queries
// (q1, q2, q3, ...)".
func quoteIDs(ids []string) string {
	switch len(ids) {
	case 0:
		return "no query"
	case 1:
		return "query " + strconv.Quote(ids[0])
	}
	shown := ids
	if len(shown) > 3 {
		shown = shown[:3]
	}
	s := ""
	for i, id := range shown {
		if i > 0 {
			s += ", "
		}
		s += strconv.Quote(id)
	}
	if len(ids) > 3 {
		s += ", ..."
	}
	return fmt.Sprintf("%d queries (%s)", len(ids), s)
}

func has(n int) string {
	if n == 1 {
		return "has"
	}
	return "have"
}

func is(n int) string {
	if n == 1 {
		return "is"
	}
	return "are"
}

// setDifference describes the queries on one side only.
func setDifference(d *dataset) string {
	var parts []string
	if len(d.missing) > 0 {
		parts = append(parts, quoteIDs(d.missing)+" only in the qrels")
	}
	if len(d.ignored) > 0 {
		parts = append(parts, quoteIDs(d.ignored)+" only in the run")
	}
	if len(parts) == 2 {
		return parts[0] + "; " + parts[1]
	}
	return parts[0]
}
