package rag

import (
	"math"
	"slices"
	"testing"

	"github.com/ranklab/ranklab/compare"
	"github.com/ranklab/ranklab/eval"
)

func TestContext(t *testing.T) {
	// q1's ranking: d1#1 (10 tokens), d2#0 (10), d1#0 (10), d2#1 (7).
	tests := []struct {
		budget int
		ids    []string
		used   int
	}{
		{9, nil, 0}, // the first chunk does not fit: an empty context
		{10, []string{"d1#1"}, 10},
		{25, []string{"d1#1", "d2#0"}, 20},
		{36, []string{"d1#1", "d2#0", "d1#0"}, 30}, // d2#1 (7) would make 37
		{37, []string{"d1#1", "d2#0", "d1#0", "d2#1"}, 37},
		{1000, []string{"d1#1", "d2#0", "d1#0", "d2#1"}, 37},
	}
	for _, tc := range tests {
		ids, used, err := Context(testRun.Queries["q1"], testMap, tc.budget)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(ids, tc.ids) || used != tc.used {
			t.Errorf("Context(B=%d) = %v, %d; want %v, %d", tc.budget, ids, used, tc.ids, tc.used)
		}
	}
}

func TestContextStopsAndDedups(t *testing.T) {
	m := ChunkMap{"a": {"x", 0, 10}, "b": {"y", 0, 20}, "c": {"z", 0, 5}, "a2": {"x", 0, 10}}
	// b does not fit after a (10 + 20 > 25): the context stops there, c is not taken although
	// it would fit.
	ids, used, _ := Context([]eval.ScoredDoc{{Doc: "a", Score: 3}, {Doc: "b", Score: 2}, {Doc: "c", Score: 1}}, m, 25)
	if !slices.Equal(ids, []string{"a"}) || used != 10 {
		t.Errorf("stop at the first chunk that does not fit: %v, %d", ids, used)
	}
	// a2 covers a's span exactly: dropped at no cost, so c still fits.
	ids, used, _ = Context([]eval.ScoredDoc{{Doc: "a", Score: 3}, {Doc: "a2", Score: 2}, {Doc: "c", Score: 1}}, m, 15)
	if !slices.Equal(ids, []string{"a", "c"}) || used != 15 {
		t.Errorf("duplicate span: %v, %d; want [a c], 15", ids, used)
	}
}

func TestBudgetMeasureNames(t *testing.T) {
	for _, m := range []BudgetMeasure{recallAt(512), NDCGAt(1), successAt(4096)} {
		back, err := parseBudgetMeasure(m.String())
		if err != nil || back != m {
			t.Errorf("ParseBudgetMeasure(%q) = %v, %v", m, back, err)
		}
	}
	if NDCGAt(512).String() != "nDCG@512tok" {
		t.Errorf("String = %q", NDCGAt(512))
	}
	for _, bad := range []string{"nDCG@512", "nDCG@tok", "P@5tok", "R@0tok", "R@-1tok", "R@05tok", "nDCG", "SpanR@5tok"} {
		if _, err := parseBudgetMeasure(bad); err == nil {
			t.Errorf("ParseBudgetMeasure(%q): want an error", bad)
		}
	}
}

func TestEvaluateBudgets(t *testing.T) {
	// q1: d2 grade 1, d3 grade 2 (never retrieved); q2: d1; q3 is not in the run.
	qrels := eval.Qrels{"q1": {"d2": 1, "d3": 2}, "q2": {"d1": 1}, "q3": {"d1": 1}}
	ms := []BudgetMeasure{NDCGAt(9), recallAt(9), successAt(9), NDCGAt(25), recallAt(25), successAt(25)}
	res, err := EvaluateBudgets(qrels, testRun, testMap, eval.Options{}, ms...)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(res.Queries, []string{"q1", "q2", "q3"}) || !slices.Equal(res.Missing, []string{"q3"}) {
		t.Fatalf("queries %v, missing %v", res.Queries, res.Missing)
	}
	// B = 25: q1's context holds d1 then d2. IDCG over all judged grades: 2/log2(2) + 1/log2(3).
	// B = 9: q1's first chunk (10 tokens) does not fit; q2's d1#1 (10 tokens) neither.
	idcg := 2/math.Log2(2) + 1/math.Log2(3)
	want := map[string][]float64{
		"q1": {0, 0, 0, (1 / math.Log2(3)) / idcg, 1.0 / 2, 1},
		"q2": {0, 0, 0, 1, 1, 1},
		"q3": {0, 0, 0, 0, 0, 0},
	}
	for i, q := range res.Queries {
		for j, m := range ms {
			if math.Abs(res.Values[i][j]-want[q][j]) > 1e-15 {
				t.Errorf("%s %s = %v, want %v", q, m, res.Values[i][j], want[q][j])
			}
		}
	}
	if got, w := res.Mean(recallAt(25)), (0.5+1+0)/3; math.Abs(got-w) > 1e-15 {
		t.Errorf("mean R@25tok = %v, want %v", got, w)
	}
	if res.Values[1][res.column(successAt(25))] != 1 || res.Values[1][res.column(NDCGAt(25))] != 1 {
		t.Error("lookups disagree with Values")
	}
	for _, bad := range [][]BudgetMeasure{nil, {{Name: "P", Tokens: 5}}, {recallAt(0)}} {
		if _, err := EvaluateBudgets(qrels, testRun, testMap, eval.Options{}, bad...); err == nil {
			t.Errorf("EvaluateBudgets(%v): want an error", bad)
		}
	}
	if _, err := EvaluateBudgets(qrels, testRun, testMap, eval.Options{Depth: 5}, recallAt(5)); err == nil {
		t.Error("Depth with a budget: want an error")
	}
}

// TestBudgetWholeDocuments: a whole-document "chunk run" (one chunk per document, its full
// length) is cut by the budget the same way: a 300-token document never fits 256 tokens.
func TestBudgetWholeDocuments(t *testing.T) {
	m := ChunkMap{"a": {"a", 0, 300}, "b": {"b", 0, 120}}
	run := eval.Run{Queries: map[string][]eval.ScoredDoc{"q": {{Doc: "a", Score: 2}, {Doc: "b", Score: 1}}}}
	qrels := eval.Qrels{"q": {"b": 1}}
	res, err := EvaluateBudgets(qrels, run, m, eval.Options{}, successAt(256), successAt(420))
	if err != nil {
		t.Fatal(err)
	}
	if res.Mean(successAt(256)) != 0 || res.Mean(successAt(420)) != 1 {
		t.Errorf("Success@256tok %v, @420tok %v; want 0, 1", res.Mean(successAt(256)), res.Mean(successAt(420)))
	}
}

// scores is r as package compare reads it, as package study hands it over.
func scores(r BudgetResult) compare.Scores {
	ms := make([]compare.Measure, len(r.Measures))
	for j, m := range r.Measures {
		ms[j] = m
	}
	return compare.Scores{Name: r.Tag, Measures: ms, Queries: r.Queries, Values: r.Values, Missing: r.Missing, Ignored: r.Ignored}
}

// TestBudgetScoresCompare: two budgets' results, as compare reads them, are compared and looked
// up by budget measure (a BudgetMeasure is a compare.Measure); the difference is the one of
// TestEvaluateBudgets' values.
func TestBudgetScoresCompare(t *testing.T) {
	qrels := eval.Qrels{"q1": {"d2": 1, "d3": 2}, "q2": {"d1": 1}, "q3": {"d1": 1}}
	small, err := EvaluateBudgets(qrels, testRun, testMap, eval.Options{}, recallAt(25))
	if err != nil {
		t.Fatal(err)
	}
	other := small
	other.Tag = "copy"
	// The second run: q3 found too (R@25tok 1 instead of 0), so the difference is (0 + 0 + 1) / 3.
	other.Values = [][]float64{{small.Values[0][0]}, {small.Values[1][0]}, {1}}
	if small.Tag != testRun.Tag {
		t.Errorf("tag %q, want the run's %q", small.Tag, testRun.Tag)
	}
	r, err := compare.Options{Permutations: 100, Resamples: 100}.FromScores(scores(small), scores(other))
	if err != nil {
		t.Fatal(err)
	}
	c, err := r.Comparison("copy", recallAt(25))
	if err != nil || math.Abs(c.Diff-1.0/3) > 1e-15 {
		t.Errorf("Δ R@25tok = %v (%v), want 1/3", c.Diff, err)
	}
	if _, err := r.Comparison("copy", NDCGAt(25)); err == nil {
		t.Error("a budget measure not evaluated: want an error")
	}
}

// TestTruncate: a document longer than the budget ends a fits-whole context empty, while a
// truncating context (as RAG systems build one) takes its first B tokens (issue 34: whole
// documents gave Success@512tok 0.08 because one long document ended every context).
func TestTruncate(t *testing.T) {
	m := ChunkMap{"long#0": {Doc: "long", Start: 0, End: 900}, "short#0": {Doc: "short", Start: 0, End: 100}}
	run := eval.Run{Queries: map[string][]eval.ScoredDoc{"q": {{Doc: "long#0", Score: 2}, {Doc: "short#0", Score: 1}}}}
	qrels := eval.Qrels{"q": {"long": 1, "short": 1}}
	whole, trunc := successAt(512), BudgetMeasure{Name: nameSuccess, Tokens: 512, Truncate: true}
	res, err := EvaluateBudgets(qrels, run, m, eval.Options{}, whole, trunc, BudgetMeasure{Name: nameR, Tokens: 512, Truncate: true})
	if err != nil {
		t.Fatal(err)
	}
	// Fits whole: long (900 > 512) ends the context empty: 0. Truncated: long's first 512
	// tokens, which end the context: Success 1, R = 1/2 (short never gets in).
	if got := res.Values[0]; got[0] != 0 || got[1] != 1 || got[2] != 0.5 {
		t.Errorf("Success whole, Success trunc, R trunc = %v, want [0 1 0.5]", got)
	}
	if s := trunc.String(); s != "Success(trunc)@512tok" {
		t.Errorf("String %q", s)
	}
	if back, err := parseBudgetMeasure(trunc.String()); err != nil || back != trunc {
		t.Errorf("parse back: %+v, %v", back, err)
	}
}
