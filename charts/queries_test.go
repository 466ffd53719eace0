package charts

import (
	"fmt"
	"github.com/ranklab/ranklab/eval"
	"html"
	"strings"
	"testing"
)

const hostileQuery = `"'&<img/src='x'/onerror='alert(4)'>`

// results are two hand-made evaluations of P@5 and num_ret: A on q1, q2, hostile; B on q2,
// hostile, q4.
func results(t *testing.T) (a, b eval.Result) {
	t.Helper()
	ms, err := eval.ParseMeasures("P@5", "num_ret")
	if err != nil {
		t.Fatal(err)
	}
	a = eval.Result{Measures: ms, Queries: []string{hostileQuery, "q1", "q2"},
		Values: [][]float64{{0.4, 5}, {0.2, 5}, {0.6, 3}}, Means: []float64{(0.4 + 0.2 + 0.6) / 3, 13.0 / 3},
		Missing: []string{"<m>"}, Ignored: []string{"i&1"}}
	b = eval.Result{Measures: ms, Queries: []string{hostileQuery, "q2", "q4"},
		Values: [][]float64{{0.8, 5}, {0.6, 5}, {1, 5}}, Means: []float64{0.8, 5}}
	return a, b
}

func TestQueryTable(t *testing.T) {
	a, _ := results(t)
	tab := QueryTable(a)
	if strings.Contains(tab, "<img") || strings.Contains(tab, "<script") || strings.Contains(tab, "<m>") {
		t.Fatal("table carries raw markup from IDs")
	}
	for _, want := range []string{
		">P@5<", ">NumRet<",
		">" + html.EscapeString(hostileQuery) + "<",
		fmt.Sprintf(">%.4f<", (0.4+0.2+0.6)/3), // the mean of P@5
		">13<",                                 // num_ret: trec_eval's "all" is the sum, 5+5+3
		">0.6000<", ">3<",
		"1 qrels queries without a ranking in the run (missing): &lt;m&gt;",
		"1 run queries absent from the qrels (ignored): i&amp;1",
		fmt.Sprintf(">%d queries, %d measures</caption>", len(a.Queries), len(a.Measures)),
	} {
		if !strings.Contains(tab, want) {
			t.Errorf("table lacks %q", want)
		}
	}
	one := a
	one.Measures = a.Measures[:1]
	if cap := QueryTable(one); !strings.Contains(cap, ", 1 measure</caption>") {
		t.Errorf("one measure: caption is not singular: %.300s", cap)
	}
	// Rows: header, all, then the queries in the result's order.
	if i, j := strings.Index(tab, ">q1<"), strings.Index(tab, ">q2<"); i < 0 || j < i {
		t.Error("query rows out of order")
	}
}

func TestQueryDistribution(t *testing.T) {
	a, _ := results(t)
	frag := QueryDistribution(a, eval.P(5))
	opt := safeOption(t, frag)
	cats := opt["xAxis"].([]any)[0].(map[string]any)["data"].([]any)
	// Sorted best first: q2 0.6, hostile 0.4, q1 0.2.
	if fmt.Sprint(cats) != fmt.Sprint([]any{"q2", hostileQuery, "q1"}) {
		t.Errorf("categories %v", cats)
	}
	s := opt["series"].([]any)[0].(map[string]any)
	var vals []float64
	for _, d := range s["data"].([]any) {
		vals = append(vals, d.(map[string]any)["value"].(float64))
	}
	if fmt.Sprint(vals) != fmt.Sprint([]float64{0.6, 0.4, 0.2}) {
		t.Errorf("values %v", vals)
	}
	tip := s["data"].([]any)[1].(map[string]any)["tooltip"].(map[string]any)["formatter"].(string)
	if tip != "query "+html.EscapeString(hostileQuery)+": P@5 = 0.4000" {
		t.Errorf("tooltip %q", tip)
	}
	mean := s["markLine"].(map[string]any)["data"].([]any)[0].(map[string]any)["yAxis"]
	if mean != (0.4+0.2+0.6)/3 {
		t.Errorf("mean line at %v", mean)
	}
	if box := QueryDistribution(a, eval.P(10)); !strings.Contains(box, "P@10 was not evaluated (evaluated: P@5, NumRet)") {
		t.Errorf("measure not evaluated: want an error box, got %s", box)
	}
	if box := QueryDistribution(eval.Result{Measures: a.Measures}, eval.P(5)); !strings.Contains(box, "no evaluated queries") {
		t.Errorf("empty result: %s", box)
	}
}

func TestQueryDiff(t *testing.T) {
	a, b := results(t)
	frag := QueryDiff(a, b, eval.P(5), "<A>", "B&")
	checkSafeScript(t, frag)
	if strings.Contains(frag, "<A>") {
		t.Error("run name not escaped")
	}
	_, _, _, opt := scriptArgs(t, frag)
	// Common queries: hostile (0.8 − 0.4 = +0.4) and q2 (0.6 − 0.6 = 0, a tie).
	cats := opt["xAxis"].([]any)[0].(map[string]any)["data"].([]any)
	if fmt.Sprint(cats) != fmt.Sprint([]any{hostileQuery, "q2"}) {
		t.Errorf("categories %v", cats)
	}
	better := seriesByName(opt, "B& better")[0]["data"].([]any)
	if v := better[0].(map[string]any)["value"].(float64); v != 0.8-0.4 {
		t.Errorf("difference %v, want %v", v, 0.8-0.4)
	}
	if v := better[1].(map[string]any)["value"]; v != "-" {
		t.Errorf("q2 in the B-better series: %v", v)
	}
	if ties := seriesByName(opt, "tie")[0]["data"].([]any); len(ties) != 1 {
		t.Errorf("%d tie markers, want 1", len(ties))
	}
	sub := opt["title"].(map[string]any)["subtext"].(string)
	want := fmt.Sprintf("2 queries: B& better on 1, <A> better on 0, 1 ties; mean difference %+.4f (left out: 1 queries only in <A>, 1 only in B&)", (0.8-0.4+0)/2)
	if sub != want {
		t.Errorf("subtitle\n%q\nwant\n%q", sub, want)
	}
	other, _ := eval.ParseMeasures("P@10", "num_ret")
	c := b
	c.Measures = other
	if box := QueryDiff(a, c, eval.P(5), "a", "c"); !strings.Contains(box, "QueryDiff (c): P@5 was not evaluated (evaluated: P@10, NumRet)") {
		t.Errorf("measure missing from one result: %s", box)
	}
	d := b
	d.Queries = []string{"x", "y", "z"}
	if box := QueryDiff(a, d, eval.P(5), "a", "d"); !strings.Contains(box, "no evaluated query in common") {
		t.Errorf("no common query: %s", box)
	}
}
