package stats

import (
	"math"
	"testing"
)

func TestCohensD(t *testing.T) {
	// d = (1, 2, 3): mean 2, sd 1.
	got, err := CohensD([]float64{2, 4, 6}, []float64{1, 2, 3})
	if err != nil || got != 2.0/1.0 {
		t.Errorf("CohensD = %v, %v; want 2", got, err)
	}
	if got, _ := CohensD([]float64{1, 1}, []float64{1, 1}); got != 0 {
		t.Errorf("identical: %v, want 0", got)
	}
	if _, err := CohensD([]float64{1}, []float64{0}); err == nil {
		t.Error("single pair: no error")
	}
}

func TestCohensDavByHand(t *testing.T) {
	cases := []struct {
		name string
		a, b []float64
		want float64
	}{
		// d = (1, 2, 3), mean 2; sd(a) of (2, 4, 6) = 2, sd(b) of (1, 2, 3) = 1: 2 / ((2+1)/2).
		{"scaled", []float64{2, 4, 6}, []float64{1, 2, 3}, 2 / ((2.0 + 1.0) / 2)},
		// b = a − 0.1 exactly shifted: d_z is infinite (sd(d) = 0), d_av = 0.1 / sd(a);
		// sd of (0.2, 0.4, 0.6) = 0.2.
		{"pure shift", []float64{0.3, 0.5, 0.7}, []float64{0.2, 0.4, 0.6}, 0.1 / 0.2},
		{"identical", []float64{1, 2}, []float64{1, 2}, 0},
		// both constant, a above b: +Inf (as d_z with equal non-zero differences).
		{"constant samples", []float64{1, 1, 1}, []float64{0, 0, 0}, math.Inf(1)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := CohensDav(c.a, c.b)
			if err != nil {
				t.Fatal(err)
			}
			if !(got == c.want || math.Abs(got-c.want) <= 1e-12*math.Abs(c.want)) {
				t.Errorf("CohensDav = %.17g, want %.17g", got, c.want)
			}
			// Swapping the runs negates it.
			if sw, _ := CohensDav(c.b, c.a); sw != -got && !(got == 0 && sw == 0) {
				t.Errorf("swapped: %v, want %v", sw, -got)
			}
		})
	}
	for _, bad := range [][2][]float64{{{1}, {0}}, {{1, 2}, {1}}, {{1, math.NaN()}, {0, 0}}} {
		if _, err := CohensDav(bad[0], bad[1]); err == nil {
			t.Errorf("CohensDav(%v, %v): no error", bad[0], bad[1])
		}
	}
}

// TestEffectSizesSciPy checks d_z and d_av against SciPy (testdata/gen_effect.py), and the
// relation that makes d_z unfit for Cohen's benchmarks: on strongly correlated runs d_z is many
// times d_av.
func TestEffectSizesSciPy(t *testing.T) {
	ref := readSciPyRef(t, "testdata/effect_ref.json")
	correlated := 0
	for _, c := range ref.Cases {
		t.Run(c.Name, func(t *testing.T) {
			dz, err := CohensD(c.A, c.B)
			if err != nil {
				t.Fatal(err)
			}
			dav, err := CohensDav(c.A, c.B)
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(dz-c.DZ) > 1e-12*math.Max(1, math.Abs(c.DZ)) {
				t.Errorf("d_z = %.17g, SciPy %.17g", dz, c.DZ)
			}
			if math.Abs(dav-c.DAv) > 1e-12*math.Max(1, math.Abs(c.DAv)) {
				t.Errorf("d_av = %.17g, SciPy %.17g", dav, c.DAv)
			}
			if c.R != nil && *c.R > 0.95 {
				correlated++
				if math.Abs(dz) < 5*math.Abs(dav) {
					t.Errorf("r = %.3f: d_z %.3f is not far above d_av %.3f", *c.R, dz, dav)
				}
			}
		})
	}
	if correlated == 0 {
		t.Error("no strongly correlated case: the d_z/d_av relation is not exercised")
	}
	t.Logf("SciPy %s, %d cases", ref.SciPy, len(ref.Cases))
}
