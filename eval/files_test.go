package eval

import (
	"errors"
	"testing"

	"github.com/ranklab/ranklab/internal/sharedtest"
)

// TestEvaluateFiles checks the file entry point: each relevance format, -Z and -D, with
// expected values worked out by hand.
func TestEvaluateFiles(t *testing.T) {
	dir := t.TempDir()
	qrels := sharedtest.WriteFile(t, dir, "qrels", "q1 0 a 1\nq1 0 b 0\nq2 0 c 2\n")
	jg := sharedtest.WriteFile(t, dir, "jg", "q1 g1 a 1\nq1 g2 b 1\n")
	prefs := sharedtest.WriteFile(t, dir, "prefs", "q1 g1 s a 2\nq1 g1 s b 1\n")
	run := sharedtest.WriteFile(t, dir, "run", "q1 Q0 b 1 2 r\nq1 Q0 a 2 1 r\nq2 Q0 c 1 1 r\n")
	swapped := sharedtest.WriteFile(t, dir, "swapped", "q1 Q0 a 1 2 r\nq1 Q0 b 2 1 r\n")
	z := sharedtest.WriteFile(t, dir, "z", "q1 P_1 0.5 0.25\nq2 P_1 1 0.5\n")
	p1 := P(1)
	get := func(f Files, ms ...Measure) Result {
		t.Helper()
		res, err := Options{}.EvaluateFiles(f, ms...)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	t.Run("qrels", func(t *testing.T) {
		// q1: b (grade 0) then a: P@1 = 0; q2: c relevant: P@1 = 1.
		if got := get(Files{Rel: qrels, Run: run}, p1).Mean(p1); got != 0.5 {
			t.Errorf("P@1 = %v, want (0 + 1) / 2", got)
		}
	})
	t.Run("zscores", func(t *testing.T) {
		res := get(Files{Rel: qrels, Run: run, ZScores: z}, p1)
		// q1: (0 − 0.5) / 0.25 = −2; q2: (1 − 1) / 0.5 = 0.
		if v1, _ := res.Value("q1", p1); v1 != -2 {
			t.Errorf("q1 Z = %v, want (0 - 0.5) / 0.25", v1)
		}
		if got := res.Mean(p1); got != -1 {
			t.Errorf("mean Z = %v, want (-2 + 0) / 2", got)
		}
	})
	t.Run("query", func(t *testing.T) {
		res := get(Files{Rel: qrels, Run: run, Query: "q2"}, p1)
		if len(res.Queries) != 1 || res.Mean(p1) != 1 {
			t.Errorf("queries %v, mean %v; want q2 alone with P@1 = 1", res.Queries, res.Mean(p1))
		}
		for _, format := range []string{"qrels", "qrels_jg"} {
			rel := map[string]string{"qrels": qrels, "qrels_jg": jg}[format]
			_, err := Options{}.EvaluateFiles(Files{Rel: rel, RelFormat: format, Run: run, Query: "q9"}, Measure{Name: nameNumQ})
			if !errors.Is(err, ErrNoQueries) {
				t.Errorf("%s: a query in neither file: %v, want ErrNoQueries", format, err)
			}
		}
	})
	t.Run("qrels_jg", func(t *testing.T) {
		// Group g1 judges a (rank 2) relevant: AP 1/2; g2 judges b (rank 1): AP 1. Mean over G = 2.
		m := Measure{Name: nameMAPAvgJG}
		if got := get(Files{Rel: jg, RelFormat: "qrels_jg", Run: run}, m).Mean(m); got != (0.5+1)/2 {
			t.Errorf("map_avgjg = %v, want (1/2 + 1) / 2", got)
		}
	})
	t.Run("prefs", func(t *testing.T) {
		// One preference a > b: the run ranks b above a (none fulfilled), the other a above b.
		m := Measure{Name: "prefs_simp"}
		if got := get(Files{Rel: prefs, RelFormat: "prefs", Run: run}, m).Mean(m); got != 0.0/1 {
			t.Errorf("prefs_simp = %v, want 0 / 1", got)
		}
		if got := get(Files{Rel: prefs, RelFormat: "prefs", Run: swapped}, m).Mean(m); got != 1.0/1 {
			t.Errorf("prefs_simp, a above b = %v, want 1 / 1", got)
		}
	})
	t.Run("errors", func(t *testing.T) {
		if _, err := (Options{}).EvaluateFiles(Files{Rel: qrels, RelFormat: "trec", Run: run}, p1); err == nil {
			t.Error("unknown format accepted")
		}
		var pe *ParseError
		if _, err := (Options{}).EvaluateFiles(Files{Rel: qrels, Run: run, ZScores: qrels}, p1); !errors.As(err, &pe) {
			t.Errorf("a Z-score file of 4 fields with a bad number: %v, want a *ParseError", err)
		}
	})
}
