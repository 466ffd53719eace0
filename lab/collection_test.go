package lab

import (
	"github.com/ranklab/ranklab/eval"
	"testing"
)

func TestCollection(t *testing.T) {
	qrels, first, rr := Collection(12, 10, 5, DefaultQuality, 1)
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
	res, err := eval.Evaluate(qrels, rr, eval.NumQ())
	if err != nil {
		t.Fatal(err)
	}
	if first.Tag != "first" || rr.Tag != "reranked" || res.All(eval.NumQ()) != 12 || len(res.Missing)+len(res.Ignored) != 0 {
		t.Errorf("tags %q %q, %v queries evaluated, missing %q, ignored %q", first.Tag, rr.Tag, res.All(eval.NumQ()), res.Missing, res.Ignored)
	}
}
