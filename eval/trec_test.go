package eval

import (
	"bytes"
	"fmt"
	"math"
	"strings"
	"testing"
)

// The decisions that follow trec_eval 10.0 (and 9.0.8 under TrecEval9), with expected values
// from readable arithmetic.

func TestRelString(t *testing.T) {
	qrels := Qrels{"q": {"a": 0, "b": 2, "c": 12, "d": -1}}
	run := Run{Queries: map[string][]ScoredDoc{"q": {{"a", 6}, {"b", 5}, {"x", 4}, {"c", 3}, {"d", 2}, {"y", 1}}}}
	for _, tc := range []struct {
		m    Measure
		want string
	}{{Measure{Name: nameRelString}, "02->.-"}, {Measure{Name: nameRelString, Param: "3"}, "02-"}, {Measure{Name: nameRelString, Param: "2.9"}, "02"}, {Measure{Name: nameRelString, Param: "-1"}, ""}} {
		res, err := Evaluate(qrels, run, tc.m)
		if err != nil {
			t.Fatal(err)
		}
		if got, ok := res.relString("q", tc.m); !ok || got != tc.want {
			t.Errorf("%s = %q, want %q (0-9 grades, > above 9, - not judged, . negative)", tc.m, got, tc.want)
		}
	}
}

// TestAllQueriesStandIn: with -c, trec_eval 10.0 evaluates a query without a ranking on one
// doc the qrels do not hold, then resets num_ret, unj, and the default utility, rbp_resid and
// relstring; yaap and the parameterised utility keep their values. 9.0.8 (TrecEval9) leaves the
// query out but divides the means by every qrels query.
func TestAllQueriesStandIn(t *testing.T) {
	qrels := Qrels{"q1": {"a": 1}, "q2": {"b": 1, "c": 1, "d": 0}}
	run := Run{Queries: map[string][]ScoredDoc{"q1": {{"a", 1}}}}
	ms := []Measure{Measure{Name: nameNumRet}, Measure{Name: nameNumRel}, AP(), Measure{Name: nameYAAP}, Measure{Name: nameUtility}, Measure{Name: nameUtility, Param: "2,-1,-1,0"}, Measure{Name: nameUnj, Cutoff: 5}, Measure{Name: nameRBPResid}, Measure{Name: nameRBPResid, Param: "p=0.5"}, Measure{Name: nameRelString}, Measure{Name: nameRelString, Param: "5"}, Measure{Name: nameGMAP}, IPrec(0)}
	res, err := Options{AllQueries: true}.Evaluate(qrels, run, ms...)
	if err != nil {
		t.Fatal(err)
	}
	want := map[Measure]float64{
		Measure{Name: nameNumRet}: 0, Measure{Name: nameNumRel}: 2, AP(): 0, Measure{Name: nameYAAP}: math.Log(1.0 / (1 + 2)),
		Measure{Name: nameUtility}: 0, Measure{Name: nameUtility, Param: "2,-1,-1,0"}: 2*0 - 1*(1-0) - 1*(2-0),
		Measure{Name: nameUnj, Cutoff: 5}: 0, Measure{Name: nameRBPResid}: 0, Measure{Name: nameRBPResid, Param: "p=0.5"}: 0.5 + (1-0.5)*1, Measure{Name: nameGMAP}: math.Log(gmFloor), IPrec(0): 0,
	}
	for m, w := range want {
		if got, _ := res.Value("q2", m); math.Abs(got-w) > 1e-12 {
			t.Errorf("q2 %s = %v, want %v", m, got, w)
		}
	}
	if s, _ := res.relString("q2", Measure{Name: nameRelString}); s != "" {
		t.Errorf("relstring = %q, want '' (reset)", s)
	}
	if s, _ := res.relString("q2", Measure{Name: nameRelString, Param: "5"}); s != "-" {
		t.Errorf("relstring_5 = %q, want '-' (not reset: not named exactly relstring)", s)
	}
	if got := res.All(Measure{Name: nameGMAP}); math.Abs(got-math.Exp((math.Log(1)+math.Log(gmFloor))/2)) > 1e-12 {
		t.Errorf("gm_map = %v, want the geometric mean of 1 and 0.00001", got)
	}
	if got := res.All(Measure{Name: nameNumRel}); got != 3 {
		t.Errorf("num_rel all = %v, want 3 (grades > 0 in the whole qrels)", got)
	}
	v9, err := Options{AllQueries: true, TrecEval9: true}.Evaluate(qrels, run, AP(), Measure{Name: nameGMAP}, Measure{Name: nameNumQ})
	if err != nil {
		t.Fatal(err)
	}
	if len(v9.Queries) != 1 || v9.Mean(AP()) != 1.0/2 || v9.All(Measure{Name: nameNumQ}) != 2 ||
		math.Abs(v9.Mean(Measure{Name: nameGMAP})-math.Exp((0+math.Log(gmFloor))/2)) > 1e-12 {
		t.Errorf("9.0.8 -c: queries %v, map %v, gm_map %v, num_q %v; want q1 only, 1/2, exp(log(0.00001)/2), 2",
			v9.Queries, v9.Mean(AP()), v9.Mean(Measure{Name: nameGMAP}), v9.All(Measure{Name: nameNumQ}))
	}
}

// TestTrecEval9Float32: trec_eval 9.0.8 (pytrec_eval) keeps scores as float32, so 16777217 and
// 16777216 tie (and then rank by doc ID descending); 10.0 compares doubles.
func TestTrecEval9Float32(t *testing.T) {
	qrels := Qrels{"q": {"a": 1}}
	run := Run{Queries: map[string][]ScoredDoc{"q": {{"a", 16777217}, {"b", 16777216}}}}
	v10, _ := Evaluate(qrels, run, AP())
	v9, _ := Options{TrecEval9: true}.Evaluate(qrels, run, AP())
	if v10.Mean(AP()) != 1 || v9.Mean(AP()) != 1.0/2 {
		t.Errorf("map: 10.0 %v (want 1), 9.0.8 %v (want 1/2: b ties and ranks first)", v10.Mean(AP()), v9.Mean(AP()))
	}
	// iprec_at_recall: R = 3, x = 0.4: round(1.2) = 1 in 10.0, trunc(1.2+0.9) = 2 in 9.0.8.
	qrels = Qrels{"q": {"a": 1, "b": 1, "c": 1}}
	run = Run{Queries: map[string][]ScoredDoc{"q": {{"a", 4}, {"x", 3}, {"b", 2}}}}
	v10, _ = Evaluate(qrels, run, IPrec(0.4))
	v9, _ = Options{TrecEval9: true}.Evaluate(qrels, run, IPrec(0.4))
	if v10.Mean(IPrec(0.4)) != 1 || v9.Mean(IPrec(0.4)) != 2.0/3 {
		t.Errorf("IPrec@0.4: 10.0 %v (want 1/1), 9.0.8 %v (want 2/3)", v10.Mean(IPrec(0.4)), v9.Mean(IPrec(0.4)))
	}
}

func TestHugeGrade(t *testing.T) {
	qrels := Qrels{"q": {"a": 2000000000, "b": 1}}
	run := Run{Queries: map[string][]ScoredDoc{"q": {{"b", 2}, {"a", 1}}}}
	ms, _ := ParseMeasures("ndcg", "G", "Rndcg", "rbp", "ndcg.1=5", "ndcg_cut.2")
	res, err := Evaluate(qrels, run, ms...)
	if err != nil {
		t.Fatal(err)
	}
	want := (1/math.Log2(2) + 2e9/math.Log2(3)) / (2e9/math.Log2(2) + 1/math.Log2(3))
	if got := res.Mean(NDCG(0)); math.Abs(got-want) > 1e-12 {
		t.Errorf("ndcg = %v, want %v", got, want)
	}
}

func TestStandardize(t *testing.T) {
	qrels := Qrels{"q1": {"a": 1}, "q2": {"a": 1}}
	run := Run{Queries: map[string][]ScoredDoc{"q1": {{"a", 1}}, "q2": {{"b", 1}, {"a", 0}}}}
	res, _ := Evaluate(qrels, run, AP(), Measure{Name: nameNumRet}, Measure{Name: nameNumQ})
	z := zScores{"q1": {"map": {Mean: 0.5, StdDev: 0.25}, "num_ret": {Mean: 1, StdDev: 0}}}
	got := res.standardize(z)
	if v, _ := got.Value("q1", AP()); v != (1-0.5)/0.25 {
		t.Errorf("q1 map Z = %v, want (1-0.5)/0.25", v)
	}
	if v, _ := got.Value("q1", Measure{Name: nameNumRet}); v != 0 {
		t.Errorf("q1 num_ret Z = %v, want 0 (stddev 0 and the value is the mean)", v)
	}
	if v, _ := got.Value("q2", AP()); v != -1000000 {
		t.Errorf("q2 map Z = %v, want -1000000 (no line for q2)", v)
	}
	if got.All(Measure{Name: nameNumQ}) != 2 || got.All(AP()) != (2-1000000)/2.0 {
		t.Errorf("all: num_q %v, map %v", got.All(Measure{Name: nameNumQ}), got.All(AP()))
	}
	var b bytes.Buffer
	TrecFormat{Z: true}.Write(&b, got)
	if !strings.Contains(b.String(), "Z"+fmtName("num_ret")+"\tall\t-1000000.0000\n") {
		t.Errorf("Z output:\n%s", b.String())
	}
}

func TestTrecFormatNonFinite(t *testing.T) {
	r := Result{Measures: []Measure{IPrec(0), Measure{Name: nameNumRet}, Measure{Name: nameRunID}}, Queries: []string{"q"}, Values: [][]float64{{math.NaN(), 3, 0}},
		Means: []float64{math.NaN(), 3, 0}, Summary: []float64{math.Inf(1), 3, 0}, Tag: "tag"}
	var b bytes.Buffer
	TrecFormat{PerQuery: true}.Write(&b, r)
	// trec_eval's order: runid, num_ret, then iprec_at_recall; "%-22s" names.
	want := fmtName("num_ret") + "\tq\t3\n" + fmtName("iprec_at_recall_0.00") + "\tq\t  -nan\n" +
		fmtName("runid") + "\tall\ttag\n" + fmtName("num_ret") + "\tall\t3\n" + fmtName("iprec_at_recall_0.00") + "\tall\t   inf\n"
	if b.String() != want {
		t.Errorf("got\n%q\nwant\n%q", b.String(), want)
	}
}

// fmtName pads a name to 22 characters as "%-22s" does.
func fmtName(s string) string { return s + strings.Repeat(" ", max(0, 22-len(s))) }

// TestInputsNotModified: evaluating (in memory, with preferences, with judgment groups) leaves
// its inputs as they were.
func TestInputsNotModified(t *testing.T) {
	qrels := Qrels{"q1": {"a": 2, "b": 0, "c": -1}, "q2": {"d": 1}}
	run := Run{Tag: "t", Queries: map[string][]ScoredDoc{"q1": {{"c", 1}, {"a", 1}, {"x", 3}}, "q3": {{"a", 1}}}}
	prefs := prefsByQuery{"q1": {{JG: "1", JSG: "1", Doc: "a", Level: 2}, {JG: "1", JSG: "1", Doc: "c", Level: 0}}}
	jg := qrelsJG{"q1": {"g1": {"a": 1}, "g2": {"c": 1}}}
	before := fmt.Sprint(qrels, run, prefs, jg)
	ms, _ := ParseMeasures("all_trec", "Judged@2", "ndcg.1=3")
	for _, opt := range []Options{{}, {AllQueries: true, JudgedOnly: true, Depth: 2}, {TrecEval9: true, AllQueries: true}} {
		if _, err := opt.Evaluate(qrels, run, ms...); err != nil {
			t.Fatal(err)
		}
		pm, _ := ParseMeasures("all_prefs")
		opt.evaluatePrefs(prefs, run, pm...)
		jm, _ := ParseMeasures("qrels_jg")
		opt.evaluateJG(jg, run, jm...)
	}
	if after := fmt.Sprint(qrels, run, prefs, jg); after != before {
		t.Errorf("inputs changed:\n%s\nwant\n%s", after, before)
	}
}
