package compare

import (
	"github.com/ranklab/ranklab/eval"
	"testing"

	"github.com/ranklab/ranklab/lab"
)

func TestSynthetic(t *testing.T) {
	qrels, first, rr := Synthetic(12, 10, 5, lab.DefaultQuality, 1)
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
	r, err := Runs(qrels, []NamedRun{{Run: first}, {Run: rr}}, []eval.Measure{eval.NDCG(5)}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Runs[0].Name != "first" || r.Runs[1].Name != "reranked" || len(r.Queries) != 12 || len(r.Notes) != 0 {
		t.Errorf("names %q %q, %d queries, notes %q", r.Runs[0].Name, r.Runs[1].Name, len(r.Queries), r.Notes)
	}
}
