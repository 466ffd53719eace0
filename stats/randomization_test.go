package stats

import (
	"math"
	"strings"
	"testing"
)

// exactSignFlipP enumerates all 2^n sign assignments of d and returns the share whose |sum|
// reaches the observed |sum|: the exact two-sided randomization p-value.
func exactSignFlipP(d []float64) float64 {
	observed := 0.0
	for _, v := range d {
		observed += v
	}
	observed = math.Abs(observed)
	n := len(d)
	hits := 0
	for mask := 0; mask < 1<<n; mask++ {
		sum := 0.0
		for i, v := range d {
			if mask&(1<<i) != 0 {
				sum -= v
			} else {
				sum += v
			}
		}
		if math.Abs(sum) >= observed-1e-12 {
			hits++
		}
	}
	return float64(hits) / float64(int(1)<<n)
}

func TestRandomizationMatchesExactEnumeration(t *testing.T) {
	tests := []struct {
		name string
		a, b []float64
	}{
		// n = 11, differences with ties (0.1 three times, 0 twice).
		{"eleven queries with ties",
			[]float64{0.5, 0.6, 0.3, 0.9, 0.4, 0.7, 0.2, 0.5, 0.8, 0.6, 0.35},
			[]float64{0.4, 0.5, 0.3, 0.6, 0.5, 0.6, 0.2, 0.45, 0.5, 0.7, 0.3}},
		// n = 12, a clear improvement: small exact p.
		{"twelve queries, clear gain",
			[]float64{0.9, 0.8, 0.7, 0.9, 0.6, 0.8, 0.7, 0.5, 0.9, 0.6, 0.8, 0.75},
			[]float64{0.5, 0.6, 0.4, 0.7, 0.6, 0.5, 0.3, 0.55, 0.6, 0.5, 0.4, 0.7}},
		// n = 10, every difference the same sign: exact p = 2/2^10.
		{"ten positive differences",
			[]float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10},
			[]float64{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}},
	}
	const N = 20000
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d := make([]float64, len(tc.a))
			for i := range d {
				d[i] = tc.a[i] - tc.b[i]
			}
			exact := exactSignFlipP(d)
			// Monte Carlo standard error of a share estimated from N draws, plus the (c+1)/(N+1)
			// estimator's shift of at most 1/(N+1).
			se := math.Sqrt(exact * (1 - exact) / N)
			for _, seed := range []uint64{1, 42, 2024} {
				p, err := RandomizationTest(tc.a, tc.b, N, seed)
				if err != nil {
					t.Fatal(err)
				}
				if math.Abs(p-exact) > 4*se+1.0/(N+1) {
					t.Errorf("seed %d: p = %.5f, exact %.5f (2^%d flips), |diff| %.5f > 4·SE %.5f + 1/(N+1)",
						seed, p, exact, len(d), math.Abs(p-exact), 4*se)
				}
				t.Logf("seed %d: p = %.5f, exact = %.5f, |diff| = %.5f, SE = %.5f", seed, p, exact, math.Abs(p-exact), se)
			}
		})
	}
	// The all-same-sign case has a known exact value: only all + and all - reach |sum| = 10.
	d := []float64{1, 1, 1, 1, 1, 1, 1, 1, 1, 1}
	if got, want := exactSignFlipP(d), 2.0/1024; got != want {
		t.Errorf("enumeration check: %v, want %v", got, want)
	}
}

func TestRandomizationEdges(t *testing.T) {
	tests := []struct {
		name    string
		a, b    []float64
		perms   int
		p       float64
		wantErr string
	}{
		{name: "identical runs", a: []float64{0.3, 0.7, 1}, b: []float64{0.3, 0.7, 1}, perms: 999, p: 1},
		{name: "single query", a: []float64{1}, b: []float64{0}, perms: 999, p: 1},
		{name: "mismatched", a: []float64{1, 2}, b: []float64{1}, perms: 10, wantErr: "differ in length: 2 and 1"},
		{name: "zero permutations", a: []float64{1, 2}, b: []float64{0, 1}, perms: 0, wantErr: "permutations must be at least 1"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, err := RandomizationTest(tc.a, tc.b, tc.perms, DefaultSeed)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err = %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil || p != tc.p {
				t.Errorf("p = %v, %v; want %v", p, err, tc.p)
			}
		})
	}
}

func TestRandomizationSeed(t *testing.T) {
	a := []float64{0.5, 0.6, 0.3, 0.9, 0.4, 0.7, 0.2, 0.5}
	b := []float64{0.4, 0.5, 0.3, 0.6, 0.5, 0.6, 0.2, 0.45}
	p1, _ := RandomizationTest(a, b, 999, 7)
	p2, _ := RandomizationTest(a, b, 999, 7)
	if p1 != p2 {
		t.Errorf("same seed, different p: %v %v", p1, p2)
	}
	// p is (c+1)/(N+1): a multiple of 1/1000 here.
	if c := p1 * 1000; math.Abs(c-math.Round(c)) > 1e-9 {
		t.Errorf("p = %v is not (c+1)/1000", p1)
	}
}

// Over 64 queries the sign bits of one draw come from one 64-bit word, then the next word:
// check n = 70 works and a large shift is detected.
func TestRandomizationManyQueries(t *testing.T) {
	a := make([]float64, 70)
	b := make([]float64, 70)
	for i := range a {
		a[i] = 0.5 + 0.01*float64(i%7)
		b[i] = 0.4 + 0.01*float64(i%5)
	}
	p, err := RandomizationTest(a, b, 999, 3)
	if err != nil {
		t.Fatal(err)
	}
	if p != 1.0/1000 {
		t.Errorf("p = %v, want the minimum 1/1000 for a shift in every query", p)
	}
}
