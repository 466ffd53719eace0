package pool

import (
	"math"
	"slices"
	"testing"

	"github.com/ranklab/ranklab/eval"
)

var truth = eval.Qrels{
	"q1": {"a": 2, "c": 1, "z": 1},
	"q2": {"b": 1},
}

func simRun(tag string, ranked map[string][]string) eval.Run {
	r := eval.Run{Tag: tag, Queries: map[string][]eval.ScoredDoc{}}
	for q, docs := range ranked {
		for i, d := range docs {
			r.Queries[q] = append(r.Queries[q], eval.ScoredDoc{Doc: d, Score: float64(len(docs) - i)})
		}
	}
	return r
}

func TestJudge(t *testing.T) {
	a := simRun("a", map[string][]string{"q1": {"a", "b", "c"}, "q2": {"x", "b"}})
	b := simRun("b", map[string][]string{"q1": {"d", "a"}})
	got := Judge(truth, 2, a, b)
	// q1: a's top 2 (a, b) and b's (d, a): a keeps 2, b and d are judged 0; c (rank 3) and z
	// (never retrieved) are unjudged. q2: x judged 0, b keeps 1.
	want := eval.Qrels{"q1": {"a": 2, "b": 0, "d": 0}, "q2": {"x": 0, "b": 1}}
	if len(got) != len(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	for q := range want {
		if len(got[q]) != len(want[q]) {
			t.Errorf("%s: got %v, want %v", q, got[q], want[q])
		}
		for d, g := range want[q] {
			if v, ok := got[q][d]; !ok || v != g {
				t.Errorf("%s %s: got %d (%v), want %d", q, d, v, ok, g)
			}
		}
	}
	if truth["q1"]["b"] != 0 || len(truth["q1"]) != 3 {
		t.Error("truth modified")
	}
}

func TestSample(t *testing.T) {
	pooled := eval.Qrels{"q1": {"a": 2, "b": 0, "d": 0}, "q2": {"x": 0, "b": 1}}
	for _, tc := range []struct {
		share float64
		judge bool // every document keeps its grade (share 1) or none does (share 0)
	}{{1, true}, {0, false}} {
		s := Sample(pooled, tc.share, 7)
		for q, docs := range pooled {
			for d, g := range docs {
				want := -1
				if tc.judge {
					want = g
				}
				if s[q][d] != want {
					t.Errorf("share %v: %s %s = %d, want %d", tc.share, q, d, s[q][d], want)
				}
			}
		}
	}
	// One seed, one sample: the same draw twice, and every grade either kept or −1.
	a, b := Sample(pooled, 0.5, 3), Sample(pooled, 0.5, 3)
	for q, docs := range a {
		for d, g := range docs {
			if b[q][d] != g || (g != -1 && g != pooled[q][d]) {
				t.Errorf("%s %s: %d then %d (pooled %d)", q, d, g, b[q][d], pooled[q][d])
			}
		}
	}
}

func TestWithRelevantAndMeanOver(t *testing.T) {
	q := eval.Qrels{"q3": {"a": 0, "b": -1}, "q2": {"b": 1}, "q1": {"a": 0, "c": 2}}
	if got := WithRelevant(q); !slices.Equal(got, []string{"q1", "q2"}) {
		t.Errorf("WithRelevant = %v, want [q1 q2]", got)
	}
	res := eval.Result{Measures: []eval.Measure{eval.AP()}, Queries: []string{"q1", "q2"}, Values: [][]float64{{0.5}, {0.25}}}
	// q9 is not evaluated: it counts 0. (0.5 + 0.25 + 0) / 3.
	if got, want := MeanOver(res, eval.AP(), []string{"q1", "q2", "q9"}), (0.5+0.25+0)/3; got != want {
		t.Errorf("MeanOver = %v, want %v", got, want)
	}
	if !math.IsNaN(MeanOver(res, eval.AP(), nil)) {
		t.Error("MeanOver of no query: want NaN")
	}
}
