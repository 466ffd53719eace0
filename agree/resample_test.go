package agree

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"
)

// The κ of a resample from its cell counts (O(cells + labels)) is kappaOf's (O(labels²)).
func TestResampleKappas(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 1))
	for c := range 500 {
		size := 1 + r.IntN(30)
		m := make([][]int, size)
		for i := range m {
			m[i] = make([]int, size)
			for j := range m[i] {
				if r.IntN(3) == 0 {
					m[i][j] = r.IntN(50)
				}
			}
		}
		if c%50 == 0 { // one cell: every κ undefined
			for i := range m {
				clear(m[i])
			}
			m[0][0] = 3
		}
		cut := r.IntN(size + 1)
		rs := newResampler(m, cut)
		if len(rs.cells) == 0 {
			continue
		}
		counts := make([]int64, len(rs.cells))
		for k, cl := range rs.cells {
			counts[k] = cl.n
		}
		bm := [][]int{{0, 0}, {0, 0}}
		for i := range m {
			for j := range m[i] {
				bm[b2i(i >= cut)][b2i(j >= cut)] += m[i][j]
			}
		}
		want := [4]float64{kappaOf(bm, weightNone), kappaOf(m, weightNone), kappaOf(m, weightLinear), kappaOf(m, weightQuadratic)}
		got := rs.kappas(counts)
		for k := range want {
			if math.IsNaN(got[k]) != math.IsNaN(want[k]) || math.Abs(got[k]-want[k]) > 1e-12 {
				t.Fatalf("case %d κ %d: %v, kappaOf %v\n%v", c, k, got[k], want[k], m)
			}
		}
	}
}

// The multinomial draw has the moments of n draws with replacement: cell c's count has mean
// n·p_c and variance n·p_c·(1 − p_c), two cells covariance −n·p_c·p_d.
func TestMultinomialDraw(t *testing.T) {
	rs := &resampler{cells: []cell{{0, 0, 5}, {0, 1, 30}, {1, 0, 1}, {1, 1, 64}}}
	const n, draws = 100, 40000
	binomial := distuv.Binomial{Src: rand.NewPCG(3, 4)}
	counts := make([]int64, len(rs.cells))
	var sum, sq [4]float64
	var cross float64 // cells 1 and 3
	for range draws {
		rs.multinomial(counts, n, &binomial)
		total := int64(0)
		for c, k := range counts {
			sum[c] += float64(k)
			sq[c] += float64(k) * float64(k)
			total += k
		}
		if total != n {
			t.Fatalf("a resample of %d pairs, want %d", total, n)
		}
		cross += float64(counts[1]) * float64(counts[3])
	}
	for c, cl := range rs.cells {
		p := float64(cl.n) / n
		mean, variance := sum[c]/draws, sq[c]/draws-(sum[c]/draws)*(sum[c]/draws)
		wantVar := n * p * (1 - p)
		if se := math.Sqrt(wantVar / draws); math.Abs(mean-n*p) > 5*se+1e-9 {
			t.Errorf("cell %d: mean %v, want %v (± %v)", c, mean, n*p, 5*se)
		}
		if math.Abs(variance-wantVar) > 0.05*wantVar+1e-9 {
			t.Errorf("cell %d: variance %v, want %v", c, variance, wantVar)
		}
	}
	cov := cross/draws - (sum[1]/draws)*(sum[3]/draws)
	if want := -n * 0.30 * 0.64; math.Abs(cov-want) > 0.05*math.Abs(want) {
		t.Errorf("covariance of cells 1 and 3: %v, want %v", cov, want)
	}
}

// Both ways of drawing give the same intervals, up to the bootstrap's own noise.
func TestBootstrapDrawsAgree(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	a, b := make([]int, 3000), make([]int, 3000)
	for i := range a {
		a[i] = r.IntN(4)
		b[i] = a[i]
		if r.Float64() < 0.4 {
			b[i] = r.IntN(4)
		}
	}
	labels := labelsOf(a, b)
	opt := Options{Resamples: 4000, Level: 0.95, Seed: 9}
	var pairs, multi [4]Kappa
	pairs[0], pairs[1], pairs[2], pairs[3] = bootstrapWith(a, b, labels, 1, opt, drawPairs)
	multi[0], multi[1], multi[2], multi[3] = bootstrapWith(a, b, labels, 1, opt, drawMultinomial)
	for k := range pairs {
		p, m := pairs[k], multi[k]
		if p.Value != m.Value || math.Abs(p.Low-m.Low) > 0.006 || math.Abs(p.High-m.High) > 0.006 {
			t.Errorf("κ %d: pair by pair %+v, multinomial %+v", k, p, m)
		}
	}
}

func benchmarkJudges(b *testing.B, n, grades int) {
	r := rand.New(rand.NewPCG(1, 2))
	x, y := make([]int, n), make([]int, n)
	for i := range x {
		x[i] = r.IntN(grades)
		y[i] = min(grades-1, max(0, x[i]+r.IntN(21)-10))
	}
	labels := labelsOf(x, y)
	b.ResetTimer()
	for range b.N {
		bootstrapKappas(x, y, labels, 1, Options{Resamples: 2000, Level: 0.95})
	}
}

func BenchmarkJudges(b *testing.B) {
	for _, c := range []struct{ n, grades int }{{1_000_000, 4}, {20_000, 2000}} {
		b.Run(fmt.Sprintf("pairs=%d/grades=%d", c.n, c.grades), func(b *testing.B) { benchmarkJudges(b, c.n, c.grades) })
	}
}
