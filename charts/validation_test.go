package charts

import (
	"strings"
	"testing"

	"github.com/ranklab/ranklab/agree"
	"github.com/ranklab/ranklab/eval"
)

// TestValidationEscapes: run names, query IDs and judge names that are markup come out as text.
func TestValidationEscapes(t *testing.T) {
	q1, d1 := `</script><script>alert(1)</script>`, `<img src=x onerror=alert(2)>`
	a := eval.Qrels{q1: {d1: 2, "b": 0}, "q2": {"c": 1}}
	b := eval.Qrels{q1: {d1: 1, "b": 0}, "q2": {"c": 0}}
	runs := []eval.Run{
		{Tag: `<b onmouseover=alert(3)>x</b>`, Queries: map[string][]eval.ScoredDoc{q1: {{Doc: d1, Score: 2}, {Doc: "b", Score: 1}}, "q2": {{Doc: "c", Score: 1}}}},
		{Tag: "plain", Queries: map[string][]eval.ScoredDoc{q1: {{Doc: "b", Score: 2}, {Doc: d1, Score: 1}}, "q2": {{Doc: "c", Score: 1}}}},
	}
	v, err := agree.Validate(a, b, runs, "", 10, agree.Options{Resamples: 50})
	if err != nil {
		t.Fatal(err)
	}
	out := strings.Join(Validation(v, `people<i>`, `llm"&'`), "\n")
	for _, raw := range []string{q1, d1, `<b onmouseover`, `people<i>`, `<script>alert`, `<img src=x`} {
		if strings.Contains(out, raw) {
			t.Errorf("%q appears unescaped", raw)
		}
	}
	for _, want := range []string{"&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;", "Verdict:", "Adversarial check", "&lt;b onmouseover=alert(3)&gt;x&lt;/b&gt;+judge-rerank",
		"The verdict is on the ranking of the runs only: 2 runs (one pair swapped moves τ by 2.000)"} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q", want)
		}
	}
}
