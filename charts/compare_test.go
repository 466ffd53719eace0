package charts

import (
	"math"
	"strings"
	"testing"

	"github.com/ranklab/ranklab/compare"
	"github.com/ranklab/ranklab/eval"
)

// sampleReport is a 3-run, 2-measure report with hostile run names: "rr" gains 0.30..0.36 on
// every query, "other" moves by −0.01, 0 or +0.01 and lacks q12.
func sampleReport(t *testing.T) compare.Report {
	t.Helper()
	qs := []string{"q01", "q02", "q03", "q04", "q05", "q06", "q07", "q08", "q09", "q10", "q11", "q12"}
	ms := []compare.Measure{eval.NDCG(10), eval.P(5)}
	base := compare.Scores{Name: "first <stage> & co", Measures: ms, Queries: qs}
	rr := compare.Scores{Name: `rerank|_{50}$ "x"`, Measures: ms, Queries: qs}
	other := compare.Scores{Name: "</td><script>alert(1)</script>", Measures: ms, Queries: qs[:11]}
	for k := range qs {
		b := 0.05 * float64(k%5)
		base.Values = append(base.Values, []float64{b, b / 2})
		gain := 0.3 + 0.02*float64(k%4)
		rr.Values = append(rr.Values, []float64{b + gain, b/2 + gain})
		if k < 11 {
			other.Values = append(other.Values, []float64{b + 0.01*float64(k%3-1), b / 2})
		}
	}
	r, err := compare.Options{}.FromScores(base, rr, other)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestCompareTable(t *testing.T) {
	h := CompareTable(sampleReport(t))
	for _, bad := range []string{"<script", "<stage>", "& co", `"x"`} {
		if strings.Contains(h, bad) {
			t.Errorf("HTML contains unescaped %q", bad)
		}
	}
	for _, want := range []string{"&lt;/td&gt;&lt;script&gt;", ">first &lt;stage&gt; &amp; co (baseline)<", "*†<", "scored 0: q12",
		"Means (baseline: first &lt;stage&gt; &amp; co)", "12 queries, 3 runs"} {
		if !strings.Contains(h, want) {
			t.Errorf("HTML lacks %q", want)
		}
	}
	if strings.Count(h, "<table") != 2 {
		t.Errorf("want the means table and the comparisons table")
	}
}

func TestCompareDiff(t *testing.T) {
	r := sampleReport(t)
	frag, err := CompareDiff(r, "</td><script>alert(1)</script>", eval.NDCG(10))
	if err != nil {
		t.Fatal(err)
	}
	opt := safeOption(t, frag)
	// "other" − base on nDCG@10 is 0.01·(k%3 − 1) for k = 0..10 (q01..q11), and q12 is scored 0
	// against a baseline of 0.05·(11%5) = 0.05, so −0.05. Descending, ties by query ID:
	// +0.01: q03 q06 q09; 0: q02 q05 q08 q11; −0.01: q01 q04 q07 q10; −0.05: q12.
	cats := opt["xAxis"].([]any)[0].(map[string]any)["data"].([]any)
	var got []string
	for _, c := range cats {
		got = append(got, c.(string))
	}
	if strings.Join(got, ",") != "q03,q06,q09,q02,q05,q08,q11,q01,q04,q07,q10,q12" {
		t.Errorf("sorted queries %v", got)
	}
	// Each query is in exactly one of the three series (the others hold "-").
	counts := map[string]int{}
	for _, name := range []string{"</td><script>alert(1)</script> better", "first <stage> & co better", "tie"} {
		for _, d := range seriesByName(opt, name)[0]["data"].([]any) {
			if d.(map[string]any)["value"] != "-" {
				counts[name]++
			}
		}
	}
	if counts["tie"] != 4 || counts["first <stage> & co better"] != 5 || counts["</td><script>alert(1)</script> better"] != 3 {
		t.Errorf("per-series counts %v", counts)
	}
	c, err := r.Comparison("</td><script>alert(1)</script>", eval.NDCG(10))
	if err != nil {
		t.Fatal(err)
	}
	var mean float64
	for _, s := range opt["series"].([]any) {
		if ml, ok := s.(map[string]any)["markLine"].(map[string]any); ok {
			mean = ml["data"].([]any)[0].(map[string]any)["yAxis"].(float64)
		}
	}
	if mean != c.Diff || math.Abs(c.Diff-(3*0.01-4*0.01-0.05)/12) > 1e-12 {
		t.Errorf("mean line at %v, diff %v", mean, c.Diff)
	}
}

func TestCompareMeans(t *testing.T) {
	r := sampleReport(t)
	frag, err := CompareMeans(r, eval.NDCG(10))
	if err != nil {
		t.Fatal(err)
	}
	opt := safeOption(t, frag)
	// The baseline, the reranked run (significant: every query gains) and "other" (not).
	for name, run := range map[string]int{"baseline": 0, "significantly above": 1, "no significant difference": 2} {
		ss := seriesByName(opt, name)
		if len(ss) != 2 {
			t.Fatalf("%s: %d series (want the points and their error bars)", name, len(ss))
		}
		v := ss[0]["data"].([]any)[run].(map[string]any)["value"]
		if e, err := r.Mean(r.Runs[run].Name, eval.NDCG(10)); err != nil || v != e.Mean {
			t.Errorf("%s: point %v, want the mean %v (%v)", name, v, e.Mean, err)
		}
	}
	if len(seriesByName(opt, "significantly below")) != 0 {
		t.Error("an empty group is drawn")
	}
	// Zoomed to the intervals, which reach down to 0 here (the baseline's values start at 0):
	// the axis starts at 0 or below and the subtitle has nothing to confess.
	if y := yAxis(t, opt); y["min"].(float64) > 0 || strings.Contains(opt["title"].(map[string]any)["subtext"].(string), "truncated") {
		t.Errorf("axis from %v, subtitle %q", y["min"], opt["title"].(map[string]any)["subtext"])
	}
}

// TestCompareUnknownMeasure: a measure or run the report lacks is an error naming what it has.
func TestCompareUnknownMeasure(t *testing.T) {
	r := sampleReport(t)
	if _, err := CompareMeans(r, eval.AP()); err == nil || !strings.Contains(err.Error(), "no measure AP (measures: nDCG@10, P@5)") {
		t.Errorf("CompareMeans: err = %v", err)
	}
	if _, err := CompareDiff(r, "nope", eval.NDCG(10)); err == nil || !strings.Contains(err.Error(), `no run "nope"`) {
		t.Errorf("CompareDiff: err = %v", err)
	}
}
