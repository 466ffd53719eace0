package lab

import (
	"reflect"
	"testing"

	"github.com/ranklab/ranklab/eval"
)

func TestCollection(t *testing.T) {
	qrels, first, rr := Collection(12, 10, 5, DefaultQuality, DefaultRerankQuality, 1)
	if len(qrels) != 12 || len(first.Queries) != 12 || len(rr.Queries) != 12 {
		t.Fatalf("%d %d %d queries", len(qrels), len(first.Queries), len(rr.Queries))
	}
	for q, docs := range first.Queries {
		ranked := eval.Rank(docs)
		rer := eval.Rank(rr.Queries[q])
		// Below the rerank depth both rankings agree; the top 5 hold the same docs.
		top := map[string]bool{}
		for i := range 5 {
			top[ranked[i].Doc] = true
		}
		for i := range ranked {
			if i >= 5 && ranked[i].Doc != rer[i].Doc {
				t.Errorf("%s rank %d: %s vs %s", q, i+1, ranked[i].Doc, rer[i].Doc)
			}
			if i < 5 && !top[rer[i].Doc] {
				t.Errorf("%s: %s entered the reranked prefix", q, rer[i].Doc)
			}
		}
	}
	res, err := eval.Evaluate(qrels, rr, eval.Measure{Name: "NumQ"})
	if err != nil {
		t.Fatal(err)
	}
	if first.Tag != "first" || rr.Tag != "reranked" || res.All(eval.Measure{Name: "NumQ"}) != 12 || len(res.Missing)+len(res.Ignored) != 0 {
		t.Errorf("tags %q %q, %v queries evaluated, missing %q, ignored %q", first.Tag, rr.Tag, res.All(eval.Measure{Name: "NumQ"}), res.Missing, res.Ignored)
	}
}

// winsTiesLosses counts the queries where the reranked run scores above, equal to and below the
// first stage on measure m.
func winsTiesLosses(t *testing.T, qrels eval.Qrels, first, reranked eval.Run, m eval.Measure) (w, ti, l int) {
	t.Helper()
	a, err := eval.Evaluate(qrels, first, m)
	if err != nil {
		t.Fatal(err)
	}
	b, err := eval.Evaluate(qrels, reranked, m)
	if err != nil {
		t.Fatal(err)
	}
	for q, vb := range b.PerQuery(m) {
		switch va := a.PerQuery(m)[q]; {
		case vb > va:
			w++
		case vb < va:
			l++
		default:
			ti++
		}
	}
	return w, ti, l
}

// A perfect reranker of the whole top 10 can only raise nDCG@10 (it sorts the same 10 items by
// grade, the order that maximises DCG); a noise reranker loses on some queries; the default
// reranker helps some queries and hurts others (DefaultRerankQuality's doc: 22 wins, 8 losses).
func TestCollectionRerankQuality(t *testing.T) {
	m := eval.NDCG(10)
	cases := []struct {
		name   string
		rq     float64
		check  func(w, ti, l int) bool
		expect string
	}{
		{"perfect", 1, func(w, ti, l int) bool { return l == 0 && w > 0 }, "no loss"},
		{"noise", 0, func(w, ti, l int) bool { return l > 0 }, "some losses"},
		{"default", DefaultRerankQuality, func(w, ti, l int) bool { return w == 22 && ti == 0 && l == 8 }, "22/0/8 as documented"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			qrels, first, rr := Collection(30, 20, 10, DefaultQuality, c.rq, 1)
			if w, ti, l := winsTiesLosses(t, qrels, first, rr, m); !c.check(w, ti, l) {
				t.Errorf("reranker quality %v: %s wins/ties/losses %d/%d/%d, want %s", c.rq, m, w, ti, l, c.expect)
			}
		})
	}
	// The qrels and the first stage do not depend on the reranker quality.
	q0, f0, _ := Collection(5, 20, 10, DefaultQuality, 0, 3)
	q1, f1, _ := Collection(5, 20, 10, DefaultQuality, 1, 3)
	if !reflect.DeepEqual(q0, q1) || !reflect.DeepEqual(f0, f1) {
		t.Error("the reranker quality changed the qrels or the first stage")
	}
}
