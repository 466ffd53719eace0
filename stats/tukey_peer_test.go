package stats

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/ranklab/ranklab/internal/sharedtest"
)

// peerScores draws m systems of n scores in [0, 1] with a shared per-query level (queries differ
// more than systems do, as in retrieval) and a per-system shift.
func peerScores(m, n int, seed uint64) [][]float64 {
	rng := rand.New(rand.NewPCG(seed, 3))
	level := make([]float64, n)
	for i := range level {
		level[i] = rng.Float64()
	}
	x := make([][]float64, m)
	for j := range x {
		for i := range n {
			v := 0.7*level[i] + 0.02*float64(j) + 0.25*rng.Float64()
			x[j] = append(x[j], math.Round(v*1e4)/1e4)
		}
	}
	return x
}

type tukeyPeerIn struct {
	Dist    [][3]any       `json:"dist"`
	PPF     [][3]any       `json:"ppf"`
	OneWay  []tukeyPeerSet `json:"oneway"`
	Blocked []tukeyPeerSet `json:"blocked"`
}

type tukeyPeerSet struct {
	Groups  [][]float64 `json:"groups,omitempty"`
	Systems [][]float64 `json:"systems,omitempty"`
	Level   float64     `json:"level"`
}

type tukeyPeerMatrices struct {
	P    [][]float64 `json:"pvalue"`
	Diff [][]float64 `json:"diff"`
	Low  [][]float64 `json:"low"`
	High [][]float64 `json:"high"`
	MSE  float64     `json:"mse"`
	DF   float64     `json:"df"`
	Crit float64     `json:"critical"`
}

type tukeyPeerOut struct {
	SciPy   string              `json:"scipy"`
	Dist    []float64           `json:"dist"`
	PPF     []float64           `json:"ppf"`
	OneWay  []tukeyPeerMatrices `json:"oneway"`
	Blocked []tukeyPeerMatrices `json:"blocked"`
}

// closeRel reports whether got is within rel of want, relative to max(|want|, floor).
// Probabilities are compared with rel 1e-6 and floor 1e-7: below 1e-7 both SciPy's and this
// package's numerical integration keep about 1e-13 absolute precision, not relative (an
// independent quad at relative 1e-12 gives sf(12; 20, 60) = 1.36205123e-9, SciPy
// 1.36205025e-9, this package 1.36205108e-9).
func closeRel(got, want, rel, floor float64) bool {
	return math.Abs(got-want) <= rel*math.Max(math.Abs(want), floor)
}

// TestTukeyAgainstSciPy runs SciPy (the peers' Python, testdata/tukey_peer.py) on the same inputs:
// the studentized range's survival function and quantile, scipy.stats.tukey_hsd for independent
// groups (TukeyHSDOneWay: p-values, differences, intervals) and the blocked HSD written from its
// definition with SciPy's studentized range (TukeyHSD). It skips without the peers' environment
// and fails instead with RANKLAB_PEERS=1.
func TestTukeyAgainstSciPy(t *testing.T) {
	py := sharedtest.PeersPython(t, "the Tukey comparison with SciPy")
	in := tukeyPeerIn{
		Dist: [][3]any{{3.5, 3, 20}, {1.0, 2, 5}, {4.0, 5, 10}, {6.0, 11, 2990}, {10.0, 3, 1}, {0.5, 10, 3},
			{3.0, 4, "inf"}, {8.0, 5, 100}, {2.2, 2, 29}, {5.5, 6, 145}, {0.01, 3, 12}, {12.0, 20, 60}},
		PPF: [][3]any{{0.95, 3, 20}, {0.95, 11, 2990}, {0.99, 5, 10}, {0.5, 2, 4}, {0.9, 6, "inf"}},
	}
	// Unequal group sizes, then equal ones; the blocked cases use the same matrices as systems.
	in.OneWay = append(in.OneWay, tukeyPeerSet{Groups: [][]float64{{24.5, 23.5, 26.4, 27.1, 29.9}, {28.4, 34.2, 29.5, 32.2, 30.1}, {26.1, 28.3, 24.3, 26.2, 27.8}}, Level: 0.95})
	in.OneWay = append(in.OneWay, tukeyPeerSet{Groups: [][]float64{{1, 2, 3.5}, {2, 4, 5, 6.5, 3}, {0.5, 1}, {7, 8, 6, 9}}, Level: 0.99})
	for _, c := range []struct {
		m, n int
		seed uint64
	}{{2, 30, 1}, {3, 25, 2}, {5, 50, 3}, {8, 40, 4}} {
		x := peerScores(c.m, c.n, c.seed)
		in.OneWay = append(in.OneWay, tukeyPeerSet{Groups: x, Level: 0.95})
		in.Blocked = append(in.Blocked, tukeyPeerSet{Systems: x, Level: 0.95})
	}
	var out tukeyPeerOut
	sharedtest.RunPython(t, py, "testdata/tukey_peer.py", in, &out)
	t.Logf("SciPy %s", out.SciPy)

	df := func(v any) float64 {
		switch v := v.(type) {
		case int:
			return float64(v)
		case float64:
			return v
		}
		return math.Inf(1) // "inf"
	}
	for i, c := range in.Dist {
		d := StudentizedRange{K: c[1].(int), Nu: df(c[2])}
		if got := d.Survival(df(c[0])); !closeRel(got, out.Dist[i], 1e-6, 1e-7) {
			t.Errorf("studentized range sf(%v; k=%v, df=%v) = %.15g, SciPy %.15g", c[0], c[1], c[2], got, out.Dist[i])
		}
	}
	for i, c := range in.PPF {
		d := StudentizedRange{K: c[1].(int), Nu: df(c[2])}
		if got := d.quantile(df(c[0])); !closeRel(got, out.PPF[i], 1e-8, 1) {
			t.Errorf("studentized range ppf(%v; k=%v, df=%v) = %.15g, SciPy %.15g", c[0], c[1], c[2], got, out.PPF[i])
		}
	}
	check := func(name string, r AllPairs, want tukeyPeerMatrices) {
		t.Helper()
		for _, p := range r.Pairs {
			a, b := p.A, p.B
			if !closeRel(p.Diff, want.Diff[a][b], 1e-12, 1) {
				t.Errorf("%s pair (%d,%d): diff %.15g, SciPy %.15g", name, a, b, p.Diff, want.Diff[a][b])
			}
			if !closeRel(p.P, want.P[a][b], 1e-6, 1e-7) {
				t.Errorf("%s pair (%d,%d): p %.15g, SciPy %.15g", name, a, b, p.P, want.P[a][b])
			}
			if !closeRel(p.Low, want.Low[a][b], 1e-8, 1) || !closeRel(p.High, want.High[a][b], 1e-8, 1) {
				t.Errorf("%s pair (%d,%d): interval [%.12g, %.12g], SciPy [%.12g, %.12g]", name, a, b, p.Low, p.High, want.Low[a][b], want.High[a][b])
			}
		}
	}
	for i, c := range in.OneWay {
		r, err := TukeyHSDOneWay(c.Groups, c.Level)
		if err != nil {
			t.Fatal(err)
		}
		check("one-way case "+string(rune('0'+i)), r, out.OneWay[i])
	}
	for i, c := range in.Blocked {
		r, err := TukeyHSD(c.Systems, c.Level)
		if err != nil {
			t.Fatal(err)
		}
		w := out.Blocked[i]
		if !closeRel(r.MSE, w.MSE, 1e-10, 0) || r.DF != w.DF || !closeRel(r.Critical, w.Crit, 1e-8, 1) {
			t.Errorf("blocked case %d: MSE %.15g df %v critical %.12g, SciPy %.15g %v %.12g", i, r.MSE, r.DF, r.Critical, w.MSE, w.DF, w.Crit)
		}
		check("blocked case "+string(rune('0'+i)), r, w)
	}
}
