package eval

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"testing"
)

func TestResultLookup(t *testing.T) {
	qrels, run := evalFixture()
	res, err := Evaluate(qrels, run, P(2), RR(), Measure{Name: nameNumRet})
	if err != nil {
		t.Fatal(err)
	}
	// q1 ranks c(0) a(1) b(2): P@2 = 1/2, RR = 1/2. q2 ranks z(unjudged) x(1): P@2 = 1/2, RR = 1/2.
	if got, want := res.Mean(P(2)), (1.0/2+1.0/2)/2; got != want {
		t.Errorf("Mean(P@2) = %v, want %v", got, want)
	}
	if got, want := res.PerQuery(RR()), map[string]float64{"q1": 1.0 / 2, "q2": 1.0 / 2}; !maps.Equal(got, want) {
		t.Errorf("PerQuery(RR) = %v, want %v", got, want)
	}
	if got, want := res.Column(Measure{Name: nameNumRet}), []float64{3, 2}; !slices.Equal(got, want) {
		t.Errorf("Column(NumRet) = %v, want %v", got, want)
	}
	if got := res.All(Measure{Name: nameNumRet}); got != 3+2 {
		t.Errorf("All(NumRet) = %v, want the sum 5", got)
	}
	if v, ok := res.Value("q2", P(2)); !ok || v != 1.0/2 {
		t.Errorf("Value(q2, P@2) = %v, %v; want 0.5, true", v, ok)
	}
	if _, ok := res.Value("q3", P(2)); ok {
		t.Errorf("Value(q3) found a query that was not evaluated")
	}
	t.Run("a measure not evaluated panics naming the evaluated ones", func(t *testing.T) {
		defer func() {
			msg, _ := recover().(string)
			if !strings.Contains(msg, "nDCG@10 was not evaluated (evaluated: P@2, RR, NumRet)") {
				t.Errorf("panic %q", msg)
			}
		}()
		res.Mean(NDCG(10))
	})
	t.Run("the result's maps and slices are copies", func(t *testing.T) {
		res.PerQuery(P(2))["q1"] = 7
		res.Column(P(2))[0] = 7
		if res.Values[0][0] != 1.0/2 {
			t.Errorf("a lookup changed the result: %v", res.Values[0][0])
		}
	})
}

// TestResultJSON: a Result (with relstring texts) round-trips through encoding/json.
func TestResultJSON(t *testing.T) {
	qrels := Qrels{"q": {"a": 1}}
	run := Run{Queries: map[string][]ScoredDoc{"q": {{"a", 1}, {"b", 0}}}}
	res, err := Evaluate(qrels, run, AP(), Measure{Name: nameRelString}, Measure{Name: nameNumRet})
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	var back Result
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if s, _ := back.relString("q", Measure{Name: nameRelString}); s != "1-" || back.All(Measure{Name: nameNumRet}) != 2 || back.Mean(AP()) != 1 {
		t.Errorf("round trip: %+v", back)
	}
}
