package eval

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/ranklab/ranklab/internal/sharedtest"
)

func evalFixture() (Qrels, Run) {
	qrels := Qrels{
		"q1": {"a": 1, "b": 2, "c": 0},
		"q2": {"x": 1},
		"q3": {"y": 1}, // not in the run
	}
	run := Run{Tag: "t", Queries: map[string][]ScoredDoc{
		"q1": {{"c", 3}, {"a", 2}, {"b", 1}},
		"q2": {{"z", 1}, {"x", 1}}, // tie: z ranks above x
		"q9": {{"a", 1}},           // not in the qrels
	}}
	return qrels, run
}

func TestEvaluateQuerySets(t *testing.T) {
	qrels, run := evalFixture()
	ms := []Measure{P(2), RR(), Measure{Name: nameNumRet}, Measure{Name: nameNumRel}}
	t.Run("default: queries in both files", func(t *testing.T) {
		res, err := Evaluate(qrels, run, ms...)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(res.Queries, []string{"q1", "q2"}) || !slices.Equal(res.Missing, []string{"q3"}) || !slices.Equal(res.Ignored, []string{"q9"}) {
			t.Fatalf("queries %v missing %v ignored %v", res.Queries, res.Missing, res.Ignored)
		}
		want := [][]float64{{1.0 / 2, 1.0 / 2, 3, 2}, {1.0 / 2, 1.0 / 2, 2, 1}} // q2: x (relevant) at rank 2
		if !slices.EqualFunc(res.Values, want, slices.Equal) {
			t.Errorf("values %v, want %v", res.Values, want)
		}
		wantMeans := []float64{(1.0/2 + 1.0/2) / 2, (1.0/2 + 1.0/2) / 2, (3.0 + 2) / 2, (2.0 + 1) / 2}
		if !slices.Equal(res.Means, wantMeans) {
			t.Errorf("means %v, want %v", res.Means, wantMeans)
		}
		if got := res.All(Measure{Name: nameNumRet}); got != 3+2 {
			t.Errorf("All(NumRet) = %v, want the sum 5", got)
		}
		if got := res.All(P(2)); got != res.Means[0] {
			t.Errorf("All(P@2) = %v, want the mean %v", got, res.Means[0])
		}
	})
	t.Run("AllQueries: zeros for the missing", func(t *testing.T) {
		res, err := Options{AllQueries: true}.Evaluate(qrels, run, ms...)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(res.Queries, []string{"q1", "q2", "q3"}) || !slices.Equal(res.Missing, []string{"q3"}) {
			t.Fatalf("queries %v missing %v", res.Queries, res.Missing)
		}
		if want := []float64{0, 0, 0, 1}; !slices.Equal(res.Values[2], want) {
			t.Errorf("q3 values %v, want %v", res.Values[2], want)
		}
		if want := (1.0/2 + 1.0/2 + 0) / 3; res.Means[1] != want {
			t.Errorf("mean RR %v, want %v", res.Means[1], want)
		}
	})
}

func TestEvaluateOptions(t *testing.T) {
	qrels, run := evalFixture()
	t.Run("RelLevel", func(t *testing.T) {
		res, err := Options{RelLevel: 2}.Evaluate(qrels, run, P(3), RR(), P(3).WithRel(1), NDCG(3))
		if err != nil {
			t.Fatal(err)
		}
		lg := math.Log2
		ndcg := (1/lg(3) + 2/lg(4)) / (2/lg(2) + 1/lg(3))
		want := []float64{1.0 / 3, 1.0 / 3, 2.0 / 3, ndcg} // q1: only b (grade 2) relevant, at rank 3
		for j, w := range want {
			if math.Abs(res.Values[0][j]-w) > 1e-15 {
				t.Errorf("%v = %v, want %v", res.Measures[j], res.Values[0][j], w)
			}
		}
		base, _ := Evaluate(qrels, run, NDCG(3))
		if base.Values[0][0] != res.Values[0][3] {
			t.Errorf("nDCG changed with the relevance level: %v vs %v", base.Values[0][0], res.Values[0][3])
		}
	})
	t.Run("Depth", func(t *testing.T) {
		res, err := Options{Depth: 1}.Evaluate(qrels, run, Measure{Name: nameNumRet}, RR(), Recall(10))
		if err != nil {
			t.Fatal(err)
		}
		want := [][]float64{{1, 0, 0.0 / 2}, {1, 0, 0.0 / 1}}
		if !slices.EqualFunc(res.Values, want, slices.Equal) {
			t.Errorf("values %v, want %v", res.Values, want)
		}
	})
	t.Run("inputs unchanged", func(t *testing.T) {
		if run.Queries["q1"][0].Doc != "c" || run.Queries["q2"][0].Doc != "z" {
			t.Error("Evaluate reordered the run")
		}
	})
}

func TestEvaluateErrors(t *testing.T) {
	qrels, run := evalFixture()
	dup := Run{Queries: map[string][]ScoredDoc{"q1": {{"a", 1}, {"a", 2}}}}
	tests := []struct {
		name string
		err  func() error
		want string
	}{
		{"no measures", func() error { _, err := Evaluate(qrels, run); return err }, "no measures"},
		{"bad measure", func() error { _, err := Evaluate(qrels, run, Measure{Name: "P"}); return err }, "cutoff"},
		{"negative level", func() error { _, err := Options{RelLevel: -1}.Evaluate(qrels, run, RR()); return err }, "negative"},
		{"negative depth", func() error { _, err := Options{Depth: -1}.Evaluate(qrels, run, RR()); return err }, "negative"},
		{"no shared query", func() error {
			_, err := Evaluate(Qrels{"x": {"a": 1}}, run, RR())
			return err
		}, "no query"},
		{"duplicate doc", func() error { _, err := Evaluate(qrels, dup, RR()); return err }, `"a" at positions 1 and 2`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.err()
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want it to mention %q", err, tc.want)
			}
		})
	}
	_, err := Evaluate(qrels, dup, RR())
	if !errors.Is(err, ErrDuplicate) {
		t.Errorf("duplicate error %v does not unwrap to ErrDuplicate", err)
	}
}

func TestTrecFormatWrite(t *testing.T) {
	qrels, run := evalFixture()
	ms, _ := ParseMeasures("P.2", "num_q", "recip_rank", "num_ret", "RR@1")
	res, err := Evaluate(qrels, run, ms...)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := (TrecFormat{PerQuery: true}).Write(&buf, res); err != nil {
		t.Fatal(err)
	}
	want := "" +
		"num_ret               \tq1\t3\n" +
		"recip_rank            \tq1\t0.5000\n" +
		"P_2                   \tq1\t0.5000\n" +
		"RR@1                  \tq1\t0.0000\n" +
		"num_ret               \tq2\t2\n" +
		"recip_rank            \tq2\t0.5000\n" +
		"P_2                   \tq2\t0.5000\n" +
		"RR@1                  \tq2\t1.0000\n" + // RR@k ranks ties by doc ID ascending (msmarco): x, then z
		"num_q                 \tall\t2\n" +
		"num_ret               \tall\t5\n" +
		"recip_rank            \tall\t0.5000\n" +
		"P_2                   \tall\t0.5000\n" +
		"RR@1                  \tall\t0.5000\n"
	if buf.String() != want {
		t.Errorf("got\n%s", sharedtest.LineDiff(buf.String(), want))
	}
}

func ExampleEvaluate() {
	qrels := Qrels{"q1": {"d1": 2, "d2": 0, "d3": 1}}
	run := Run{Tag: "demo", Queries: map[string][]ScoredDoc{"q1": {{"d2", 0.9}, {"d1", 0.8}, {"d4", 0.7}}}}
	// nDCG@3 = (2/log2(3)) / (2/log2(2) + 1/log2(3)) = 0.4796
	res, _ := Evaluate(qrels, run, P(2), RR(), NDCG(3))
	for j, m := range res.Measures {
		fmt.Printf("%s %.4f\n", m, res.Means[j])
	}
	// Output:
	// P@2 0.5000
	// RR 0.5000
	// nDCG@3 0.4796
}
