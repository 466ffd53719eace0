package charts

import (
	"strings"
	"testing"

	"github.com/ranklab/ranklab/conventions"
	"github.com/ranklab/ranklab/eval"
)

func TestTieBands(t *testing.T) {
	qrels := eval.Qrels{"<q1>": {"a": 1}, "q2": {"x": 1}}
	run := eval.Run{Queries: map[string][]eval.ScoredDoc{
		"<q1>": {{Doc: "a", Score: 1}, {Doc: "b", Score: 1}},
		"q2":   {{Doc: "x", Score: 2}, {Doc: "y", Score: 1}},
	}}
	r, err := conventions.Ties(qrels, run, eval.Options{}, eval.RR(), eval.P(2))
	if err != nil {
		t.Fatal(err)
	}
	h := TieBands(r, eval.RR(), 0)
	if !strings.Contains(h, `class="ranklab-chart"`) || strings.Contains(h, "<q1>") || !strings.Contains(h, `\u003cq1\u003e`) {
		t.Errorf("chart missing or query ID not escaped:\n%s", h)
	}
	if !strings.Contains(h, "RR: the tie band of the 1 tie-sensitive query") {
		t.Errorf("title: %s", h)
	}
	if h := TieBands(r, eval.P(2), 0); !strings.Contains(h, "No query's P@2 depends on the order of tied docs (2 queries)") {
		t.Errorf("no sensitive query: %s", h)
	}
	if h := TieBands(r, eval.NDCG(10), 0); !strings.Contains(h, "not in the tie report") {
		t.Errorf("missing measure: %s", h)
	}
}
