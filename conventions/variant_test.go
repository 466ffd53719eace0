package conventions

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/ranklab/ranklab/eval"
)

func mustQrels(t *testing.T, s string) eval.Qrels {
	t.Helper()
	q, err := eval.ReadQrels(strings.NewReader(s), "qrels")
	if err != nil {
		t.Fatal(err)
	}
	return q
}

func mustRun(t *testing.T, s string) eval.Run {
	t.Helper()
	r, err := eval.ReadRun(strings.NewReader(s), "run")
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func close(a, b float64) bool { return math.Abs(a-b) <= 1e-12 || (math.IsNaN(a) && math.IsNaN(b)) }

// TestVariantFormulas checks each departure from trec_eval's formulas on one query, against
// the arithmetic that defines it.
func TestVariantFormulas(t *testing.T) {
	// q1 judges r1..r4 relevant (r2 grade 2) and x non-relevant; the run lists, in file order,
	// r1 (3), x (2), u (1.5, unjudged), r2 (1), and r3, r4 are not retrieved: R = 4.
	qrels := mustQrels(t, "q1 0 r1 1\nq1 0 r2 2\nq1 0 r3 1\nq1 0 r4 1\nq1 0 x 0\n")
	run := mustRun(t, "q1 Q0 r1 1 3 t\nq1 Q0 x 2 2 t\nq1 Q0 u 3 1.5 t\nq1 Q0 r2 4 1 t\n")
	d := newDataset(qrels, run)
	lg := math.Log2
	for _, tc := range []struct {
		name string
		v    variant
		want float64
	}{
		{"P@10 divides by k", variant{Measure: eval.P(10)}, 2.0 / 10},
		{"precision divides by the docs retrieved", variant{Measure: eval.P(10), PerRetrieved: true}, 2.0 / 4},
		{"R@3", variant{Measure: eval.Recall(3)}, 1.0 / 4},
		{"R_cap@3 divides by min(R, k)", variant{Measure: eval.Recall(3), CapRecall: true}, 1.0 / 3},
		{"RR@1", variant{Measure: eval.RRAt(1)}, 1},
		{"granular RR: mean 1/rank over relevant retrieved", variant{Measure: eval.RRAt(10), Granular: true}, (1.0/1 + 1.0/4) / 2},
		{"nDCG@2 linear", variant{Measure: eval.NDCG(2)}, 1 / (2 + 1/lg(3))},
		{"nDCG@4, binary gain, ideal over all R", variant{Measure: eval.NDCG(4), BinaryGain: true, IdealUncut: true},
			(1 + 1/lg(5)) / (1 + 1/lg(3) + 1/lg(4) + 1/lg(5))},
		{"nDCG@2, binary gain, ideal over all R", variant{Measure: eval.NDCG(2), BinaryGain: true, IdealUncut: true},
			1 / (1 + 1/lg(3) + 1/lg(4) + 1/lg(5))},
		{"AP@4", variant{Measure: eval.APAt(4)}, (1.0/1 + 2.0/4) / 4},
		{"Success@3", variant{Measure: eval.Success(3)}, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tc.v.value(d, "q1")
			if err != nil || !close(got, tc.want) {
				t.Errorf("got %v (%v), want %v", got, err, tc.want)
			}
		})
	}
}

// TestOrders checks each tool's order on one tie: "a" (relevant) and "b" tie at 1.0; "c" (score
// 1.00000001, relevant) ties with them only as float32.
func TestOrders(t *testing.T) {
	qrels := mustQrels(t, "q 0 a 1\nq 0 b 0\nq 0 c 0\n")
	// file order: b, a
	run := mustRun(t, "q Q0 b 1 1.0 t\nq Q0 a 2 1.0 t\n")
	d := newDataset(qrels, run)
	for _, tc := range []struct {
		o    docOrder
		want float64 // RR: a first gives 1, b first gives 1/2
	}{
		{scoreDocDesc, 0.5},   // "b" > "a"
		{scoreDocAsc, 1},      // "a" < "b"
		{scoreStable, 0.5},    // file order b, a
		{scoreQuicksort, 0.5}, // under 15 elements numba's sort is an insertion sort: stable
		{fileOrder, 0.5},
	} {
		got, _ := variant{Measure: eval.RR(), Order: tc.o}.value(d, "q")
		if got != tc.want {
			t.Errorf("%v: RR %v, want %v", tc.o, got, tc.want)
		}
	}
	// float32: a relevant doc at 1.00000001 ties with a non-relevant "b" at 1.0 and "b" > "a2"
	qrels = mustQrels(t, "q 0 a2 1\nq 0 b 0\n")
	run = mustRun(t, "q Q0 a2 1 1.00000001 t\nq Q0 b 2 1.0 t\n")
	d = newDataset(qrels, run)
	if got, _ := (variant{Measure: eval.RR()}).value(d, "q"); got != 1 {
		t.Errorf("float64: RR %v, want 1", got)
	}
	if got, _ := (variant{Measure: eval.RR(), Float32: true}).value(d, "q"); got != 0.5 {
		t.Errorf("float32: RR %v, want 1/2 (tie broken by doc ID descending)", got)
	}
}

func TestQuicksortArgsort(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for n := 0; n < 200; n++ {
		keys := make([]float64, n)
		for i := range keys {
			keys[i] = float64(r.IntN(4)) // many ties
		}
		idx := quicksortArgsort(keys)
		if len(idx) != n {
			t.Fatalf("n=%d: %d indices", n, len(idx))
		}
		seen := make([]bool, n)
		for i, j := range idx {
			if seen[j] {
				t.Fatalf("n=%d: index %d twice", n, j)
			}
			seen[j] = true
			if i > 0 && keys[idx[i-1]] > keys[j] {
				t.Fatalf("n=%d: not ascending at %d", n, i)
			}
		}
		if n < smallQuicksort {
			// an insertion sort: equal keys keep their positions' order
			want := make([]int, n)
			for i := range want {
				want[i] = i
			}
			slices.SortStableFunc(want, func(a, b int) int {
				switch {
				case keys[a] < keys[b]:
					return -1
				case keys[a] > keys[b]:
					return 1
				}
				return 0
			})
			if !slices.Equal(idx, want) {
				t.Fatalf("n=%d: %v, want the stable order %v", n, idx, want)
			}
		}
	}
}

// TestQuerySets checks which queries each convention averages and how it fails: q1 and q2 are
// ranked, q3 is judged but not ranked, q4 has no relevant doc, q9 is only in the run.
func TestQuerySets(t *testing.T) {
	qrels := mustQrels(t, "q1 0 a 1\nq2 0 a 1\nq3 0 a 1\nq4 0 a 0\n")
	run := mustRun(t, "q1 Q0 a 1 1 t\nq2 Q0 b 1 1 t\nq4 Q0 a 1 1 t\nq9 Q0 a 1 1 t\n")
	d := newDataset(qrels, run)
	p := eval.P(1)
	for _, tc := range []struct {
		name string
		v    variant
		mean float64
		n    int
		err  string
	}{
		{"every qrels query (-c)", variant{Measure: p}, 1.0 / 4, 4, ""},
		{"shared", variant{Measure: p, Queries: sharedQueries}, 1.0 / 3, 3, ""},
		{"strict stops on q3", variant{Measure: p, Queries: strictQrels}, 0, 0, `query "q3" has no ranking: stops (exit 4`},
		{"same queries", variant{Measure: p, Queries: sameQueries}, 0, 0, `query sets differ (query "q3" only in the qrels; query "q9" only in the run): AssertionError`},
		{"run-only fails", variant{Measure: p, RunOnlyFails: true, Raises: "KeyError"}, 0, 0, `query "q9" is in the run, not the qrels: KeyError`},
		{"no relevant: skipped", variant{Measure: p, NoRelevant: skipQuery}, 1.0 / 3, 3, ""},
		{"no relevant: fails", variant{Measure: p, NoRelevant: failQuery, Raises: "ValueError"}, 0, 0, `query "q4" has no relevant doc: ValueError`},
		{"nothing retrieved: skipped", variant{Measure: p, NoRetrieved: skipQuery}, 1.0 / 3, 3, ""},
		{"nothing retrieved: fails", variant{Measure: p, NoRetrieved: failQuery, Raises: "ValueError"}, 0, 0, `query "q3" retrieves nothing: ValueError`},
		{"rounded", variant{Measure: p, Queries: sharedQueries, Round: 5}, 0.33333, 3, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := tc.v.evaluate(d)
			if tc.err != "" {
				if o.err == nil || !strings.Contains(o.err.Error(), tc.err) {
					t.Fatalf("error %v, want one containing %q", o.err, tc.err)
				}
				return
			}
			if o.err != nil || !close(o.mean, tc.mean) || len(o.queries) != tc.n {
				t.Errorf("mean %v over %d (%v), want %v over %d", o.mean, len(o.queries), o.err, tc.mean, tc.n)
			}
		})
	}
}

// TestReferenceIsEval checks that the reference variant is eval's own evaluation (-c), query by
// query, on a run with ties, gaps and graded judgments.
func TestReferenceIsEval(t *testing.T) {
	qrels := mustQrels(t, "1 0 a 2\n1 0 b 0\n1 0 c 1\n2 0 d 1\n2 0 e -1\n3 0 f 1\n")
	run := mustRun(t, "1 Q0 b 1 2 t\n1 Q0 a 2 2 t\n1 Q0 x 3 1 t\n1 Q0 c 4 0.5 t\n2 Q0 e 1 3 t\n2 Q0 d 2 3 t\n9 Q0 a 1 1 t\n")
	d := newDataset(qrels, run)
	ms := []eval.Measure{eval.P(2), eval.Recall(2), eval.NDCG(2), eval.NDCG(0), eval.RR(), eval.RRAt(1), eval.AP(), eval.APAt(2), eval.Success(1)}
	res, err := eval.Options{AllQueries: true}.Evaluate(qrels, run, ms...)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range ms {
		v, _ := Conventions()[0].variant(m) // the reference
		o := v.evaluate(d)
		if !close(o.mean, res.Mean(m)) {
			t.Errorf("%s: mean %v, eval %v", m, o.mean, res.Mean(m))
		}
		for q, v := range res.PerQuery(m) {
			if !close(o.values[q], v) {
				t.Errorf("%s, %s: %v, eval %v", m, q, o.values[q], v)
			}
		}
	}
}
