package fusion

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/ranklab/ranklab/eval"
)

func run(tag string, queries map[string][]eval.ScoredDoc) eval.Run {
	return eval.Run{Tag: tag, Queries: queries}
}

// A ranks a, b, c (scores 3, 2, 1); B ranks b, d (scores 10, 5).
var (
	runA = run("A", map[string][]eval.ScoredDoc{"q1": {{Doc: "c", Score: 1}, {Doc: "a", Score: 3}, {Doc: "b", Score: 2}}, "q2": {{Doc: "x", Score: 4}}})
	runB = run("B", map[string][]eval.ScoredDoc{"q1": {{Doc: "b", Score: 10}, {Doc: "d", Score: 5}}})
)

// one is a variable, so that expected sums below are float64 additions done in the order written
// (Go would fold constant expressions exactly).
var one = 1.0

func TestFuse(t *testing.T) {
	sd := math.Sqrt(2.0 / 3) // population sd of A's q1 scores 3, 2, 1
	tests := []struct {
		name string
		opt  Options
		want []eval.ScoredDoc // q1, in trec_eval's order
	}{
		{"rrf", Options{}, []eval.ScoredDoc{{Doc: "b", Score: one/62 + one/61}, {Doc: "a", Score: 1.0 / 61}, {Doc: "d", Score: 1.0 / 62}, {Doc: "c", Score: 1.0 / 63}}},
		{"rrf k=1", Options{K: 1}, []eval.ScoredDoc{{Doc: "b", Score: one/3 + one/2}, {Doc: "a", Score: 1.0 / 2}, {Doc: "d", Score: 1.0 / 3}, {Doc: "c", Score: 1.0 / 4}}},
		{"rrf weighted", Options{Weights: []float64{2, 1}}, []eval.ScoredDoc{{Doc: "b", Score: 2*one/62 + one/61}, {Doc: "a", Score: 2.0 / 61}, {Doc: "c", Score: 2.0 / 63}, {Doc: "d", Score: 1.0 / 62}}},
		// min-max: A gives a 1, b 0.5, c 0; B gives b 1, d 0. Ties at 0: d before c (doc ID descending).
		{"combsum minmax", Options{Method: CombSUM, Norm: MinMax}, []eval.ScoredDoc{{Doc: "b", Score: 0.5 + 1}, {Doc: "a", Score: 1}, {Doc: "d", Score: 0}, {Doc: "c", Score: 0}}},
		{"combmnz minmax", Options{Method: CombMNZ, Norm: MinMax}, []eval.ScoredDoc{{Doc: "b", Score: 2 * (0.5 + 1)}, {Doc: "a", Score: 1}, {Doc: "d", Score: 0}, {Doc: "c", Score: 0}}},
		{"wsum minmax", Options{Method: CombSUM, Norm: MinMax, Weights: []float64{0.25, 2}}, []eval.ScoredDoc{{Doc: "b", Score: 0.25*0.5 + 2*1}, {Doc: "a", Score: 0.25}, {Doc: "d", Score: 0}, {Doc: "c", Score: 0}}},
		// z-score: A (mean 2) gives a 1/sd, b 0, c −1/sd; B (mean 7.5, sd 2.5) gives b 1, d −1.
		{"combsum zscore", Options{Method: CombSUM, Norm: ZScore}, []eval.ScoredDoc{{Doc: "a", Score: 1 / sd}, {Doc: "b", Score: 0 + 1}, {Doc: "d", Score: -1}, {Doc: "c", Score: -1 / sd}}},
		// rank: A gives 1, 2/3, 1/3; B gives 1, 1/2.
		{"combsum rank", Options{Method: CombSUM, Norm: Rank}, []eval.ScoredDoc{{Doc: "b", Score: (1 - one/3) + 1}, {Doc: "a", Score: 1}, {Doc: "d", Score: 1 - one/2}, {Doc: "c", Score: 1 - 2*one/3}}},
		{"combsum none", Options{Method: CombSUM}, []eval.ScoredDoc{{Doc: "b", Score: 12}, {Doc: "d", Score: 5}, {Doc: "a", Score: 3}, {Doc: "c", Score: 1}}},
		// Depth 1: A keeps a, B keeps b, each 1/61: tied, so b (doc ID descending) first.
		{"rrf depth 1", Options{Depth: 1}, []eval.ScoredDoc{{Doc: "b", Score: 1.0 / 61}, {Doc: "a", Score: 1.0 / 61}}},
		{"rrf top 2", Options{Top: 2}, []eval.ScoredDoc{{Doc: "b", Score: one/62 + one/61}, {Doc: "a", Score: 1.0 / 61}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Fuse([]eval.Run{runA, runB}, tc.opt)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got.Queries["q1"], tc.want) {
				t.Errorf("q1 = %v, want %v", got.Queries["q1"], tc.want)
			}
			if len(got.Queries) != 2 || got.Tag != "fused" {
				t.Errorf("queries %d, tag %q; want q1 and q2 (from A alone), fused", len(got.Queries), got.Tag)
			}
		})
	}
}

// TestFuseTies: input ties are ranked by doc ID descending before RRF; output ties likewise.
func TestFuseTies(t *testing.T) {
	a := run("a", map[string][]eval.ScoredDoc{"q": {{Doc: "p", Score: 1}, {Doc: "r", Score: 1}}}) // trec_eval ranks r, then p
	b := run("b", map[string][]eval.ScoredDoc{"q": {{Doc: "z", Score: 2}, {Doc: "w", Score: 1}}})
	got, err := Fuse([]eval.Run{a, b}, Options{Tag: "t"})
	if err != nil {
		t.Fatal(err)
	}
	want := []eval.ScoredDoc{{Doc: "z", Score: 1.0 / 61}, {Doc: "r", Score: 1.0 / 61}, {Doc: "w", Score: 1.0 / 62}, {Doc: "p", Score: 1.0 / 62}}
	if !slices.Equal(got.Queries["q"], want) || got.Tag != "t" {
		t.Errorf("fused = %v, want %v", got.Queries["q"], want)
	}
	// A query whose scores are all equal normalises to 0 (ranx's 1e-9 floor), for one doc too.
	one := run("o", map[string][]eval.ScoredDoc{"q": {{Doc: "s", Score: 7}}})
	got, _ = Fuse([]eval.Run{one, a}, Options{Method: CombMNZ, Norm: MinMax})
	if want := []eval.ScoredDoc{{Doc: "s", Score: 0}, {Doc: "r", Score: 0}, {Doc: "p", Score: 0}}; !slices.Equal(got.Queries["q"], want) {
		t.Errorf("flat scores: %v, want %v", got.Queries["q"], want)
	}
}

func TestFuseDoesNotModify(t *testing.T) {
	before := slices.Clone(runA.Queries["q1"])
	if _, err := Fuse([]eval.Run{runA, runB}, Options{Method: CombSUM, Norm: ZScore}); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(runA.Queries["q1"], before) {
		t.Error("Fuse modified its input")
	}
}

func TestFuseErrors(t *testing.T) {
	nan := run("n", map[string][]eval.ScoredDoc{"q": {{Doc: "a", Score: math.NaN()}}})
	dup := run("d", map[string][]eval.ScoredDoc{"q": {{Doc: "a", Score: 1}, {Doc: "a", Score: 2}}})
	tests := []struct {
		name string
		runs []eval.Run
		opt  Options
		want string
	}{
		{"one run", []eval.Run{runA}, Options{}, "need at least 2 runs"},
		{"norm with rrf", []eval.Run{runA, runB}, Options{Norm: MinMax}, "rrf uses ranks only"},
		{"negative k", []eval.Run{runA, runB}, Options{K: -1}, "k = -1"},
		{"weights", []eval.Run{runA, runB}, Options{Weights: []float64{1}}, "1 weights for 2 runs"},
		{"nan weight", []eval.Run{runA, runB}, Options{Weights: []float64{1, math.NaN()}}, "weight 2 is NaN"},
		{"depth", []eval.Run{runA, runB}, Options{Depth: -1}, "depth -1"},
		{"method", []eval.Run{runA, runB}, Options{Method: 9}, "invalid Method(9)"},
		{"nan score", []eval.Run{runA, nan}, Options{}, `run 2, query "q": document "a": score NaN is not finite`},
		{"duplicate", []eval.Run{dup, runA}, Options{}, `run 1, query "q": document "a" listed twice`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Fuse(tc.runs, tc.opt)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want it to contain %q", err, tc.want)
			}
		})
	}
}
