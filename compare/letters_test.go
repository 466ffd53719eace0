package compare

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/ranklab/ranklab/stats"
)

func TestStandardize(t *testing.T) {
	// Query 0: 0.2, 0.4, 0.6 → mean 0.4, sd 0.2 → z −1, 0, 1. Query 1: all 0.5 → 0.5 each.
	got := standardize([][]float64{{0.2, 0.5}, {0.4, 0.5}, {0.6, 0.5}})
	phi := func(z float64) float64 { return 0.5 * math.Erfc(-z/math.Sqrt2) }
	want := [][]float64{{phi(-1), 0.5}, {0.5, 0.5}, {phi(1), 0.5}}
	for j := range want {
		for i := range want[j] {
			if math.Abs(got[j][i]-want[j][i]) > 1e-12 {
				t.Errorf("system %d query %d: %v, want %v", j, i, got[j][i], want[j][i])
			}
		}
	}
}

func TestCompactLettersByHand(t *testing.T) {
	means := []float64{0.3, 0.5, 0.4} // best first: 1, 2, 0
	pairs := []stats.Pair{{A: 0, B: 1, P: 0.01}, {A: 0, B: 2, P: 0.2}, {A: 1, B: 2, P: 0.3}}
	got := compactLetters(means, pairs, 0.05)
	if want := []string{"b", "a", "ab"}; strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("letters %v, want %v", got, want)
	}
}

// For random significance patterns, two systems share a letter exactly when their pair is
// not significant: the definition of a letter display, checked on every pair.
func TestCompactLettersProperty(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for trial := range 300 {
		m := 2 + rng.IntN(7)
		means := make([]float64, m)
		for j := range means {
			means[j] = rng.Float64()
		}
		var pairs []stats.Pair
		for a := range m {
			for b := a + 1; b < m; b++ {
				pairs = append(pairs, stats.Pair{A: a, B: b, P: rng.Float64() * 0.2})
			}
		}
		letters := compactLetters(means, pairs, 0.05)
		for _, p := range pairs {
			share := strings.ContainsAny(letters[p.A], letters[p.B])
			if share == (p.P <= 0.05) {
				t.Fatalf("trial %d: systems %d (%q) and %d (%q), p %.3f: share a letter = %v", trial, p.A, letters[p.A], p.B, letters[p.B], p.P, share)
			}
		}
	}
}
