package charts

import (
	"strings"
	"testing"

	"github.com/ranklab/ranklab/eval"
)

const hostile = `<script>alert("x")</script>'"><img src=x onerror=alert(1)>&amp;`

func lookRuns() []eval.Run {
	return []eval.Run{
		{Tag: "A<b>", Queries: map[string][]eval.ScoredDoc{"q<1>": {{Doc: "d1", Score: 3}, {Doc: "d3", Score: 2}, {Doc: "d5", Score: 1}}}},
		{Tag: "B", Queries: map[string][]eval.ScoredDoc{"q<1>": {{Doc: "d2", Score: 3}, {Doc: "d1", Score: 2}}}},
	}
}

func TestLookAtQuery(t *testing.T) {
	qrels := eval.Qrels{"q<1>": {"d1": 2, "d2": 1, "d3": 0, "d4": 1}}
	docs := map[string]DocText{
		"d1": {Title: hostile, Text: hostile + " " + strings.Repeat("long ", 100)},
		"d2": {Title: "Second", Text: "plain"},
		"d4": {Title: "Never found", Text: "nobody ranks it"},
	}
	out := LookAtQuery(QueryLook{Query: "q<1>", Text: hostile, Qrels: qrels, Runs: lookRuns(), Docs: docs, Depth: 2, Measure: eval.P(2)})
	for _, bad := range []string{"<script", "<img", `"x"`, "A<b>", "q<1>"} {
		if strings.Contains(out, bad) {
			t.Errorf("unescaped %q in the output", bad)
		}
	}
	for _, want := range []string{
		"&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;&#39;&#34;&gt;&lt;img src=x onerror=alert(1)&gt;&amp;amp;",
		"query q&lt;1&gt;",
		"4 judged, 3 relevant (grade &gt;= 1)",
		// P@2: A d1 (2) d3 (0) = 1/2; B d2 (1) d1 (2) = 1; difference +0.5.
		"A&lt;b&gt; P@2 = <b>0.5000</b> · B P@2 = <b>1.0000</b> (B − A&lt;b&gt;: +0.5000)",
		// A misses d2 (B has it first) and d4 (nobody); B misses d4.
		"A&lt;b&gt; misses 2 of 3 relevant in its top 2",
		"<li>grade 1 · A&lt;b&gt;: –, B: 1 · <code>d2</code> <b>Second</b>",
		"<li>grade 1 · A&lt;b&gt;: –, B: – · <code>d4</code> <b>Never found</b>",
		"B misses 1 of 3 relevant in its top 2",
		"…</span>", // the long text is cut
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q", want)
		}
	}
	// Rank 1 is d1 for A and d2 for B; d3 (grade 0) is at A's rank 2, d5 (rank 3) is past the depth.
	if i1, i2 := strings.Index(out, "<code>d1</code>"), strings.Index(out, "<code>d2</code>"); i1 < 0 || i2 < 0 || i1 > i2 {
		t.Error("d1 is not before d2 in the first row")
	}
	if strings.Contains(out, "<code>d5</code>") {
		t.Error("d5 (rank 3) shown at depth 2")
	}
	// A query the qrels do not judge says so.
	if out := LookAtQuery(QueryLook{Query: "q<1>", Runs: lookRuns()}); !strings.Contains(out, "do not judge this query") || !strings.Contains(out, "nDCG@10 = <b>n/a</b>") {
		t.Errorf("unjudged query:\n%s", out)
	}
}

func TestDifferingQueries(t *testing.T) {
	qrels := eval.Qrels{"q1": {"a": 1}, "q2": {"a": 1}, "q<3>": {"a": 1}}
	run := func(ranks map[string]int) eval.Run {
		r := eval.Run{Queries: map[string][]eval.ScoredDoc{}}
		for q, k := range ranks {
			for i := 1; i <= k; i++ {
				doc := "x" + string(rune('0'+i))
				if i == k {
					doc = "a"
				}
				r.Queries[q] = append(r.Queries[q], eval.ScoredDoc{Doc: doc, Score: float64(10 - i)})
			}
		}
		return r
	}
	// RR: A finds a at ranks 1, 2, 4; B at 1, 1, 1: differences 0, 1/2, 3/4.
	ra, _ := eval.Evaluate(qrels, run(map[string]int{"q1": 1, "q2": 2, "q<3>": 4}), eval.RR())
	rb, _ := eval.Evaluate(qrels, run(map[string]int{"q1": 1, "q2": 1, "q<3>": 1}), eval.RR())
	out := DifferingQueries(ra, rb, eval.RR(), "A", "B<i>", map[string]string{"q<3>": hostile}, 2)
	if strings.Contains(out, "<script") || strings.Contains(out, "<i>") {
		t.Error("unescaped data")
	}
	i3, i2 := strings.Index(out, "q&lt;3&gt;"), strings.Index(out, ">q2<")
	if i3 < 0 || i2 < 0 || i3 > i2 || strings.Contains(out, ">q1<") {
		t.Errorf("order or cut wrong:\n%s", out)
	}
	for _, want := range []string{"The 2 of 3 queries where A and B&lt;i&gt; differ most on RR", "+0.7500", "+0.5000", "0.2500"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if out := DifferingQueries(ra, rb, eval.P(5), "A", "B", nil, 0); !strings.Contains(out, "was not evaluated") {
		t.Errorf("missing measure: %s", out)
	}
}
