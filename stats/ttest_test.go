package stats

import (
	"encoding/json"
	"math"
	"os"
	"strings"
	"testing"
)

// sciPyRef is a reference file written by SciPy (testdata/gen_*.py): paired samples A and B and
// what SciPy computed for them; each file fills the fields of its own test.
type sciPyRef struct {
	SciPy string `json:"scipy"`
	Cases []struct {
		Name string    `json:"name"`
		A    []float64 `json:"a"`
		B    []float64 `json:"b"`
		T    float64   `json:"t"`
		P    float64   `json:"p"`
		DF   int       `json:"df"`
		DZ   float64   `json:"d_z"`
		DAv  float64   `json:"d_av"`
		R    *float64  `json:"r"`
	} `json:"cases"`
}

// readSciPyRef reads a reference file, which must hold at least 5 cases.
func readSciPyRef(t *testing.T, path string) sciPyRef {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var ref sciPyRef
	if err := json.Unmarshal(raw, &ref); err != nil {
		t.Fatal(err)
	}
	if len(ref.Cases) < 5 {
		t.Fatalf("%s: only %d reference cases", path, len(ref.Cases))
	}
	return ref
}

// TestPairedTTestSciPy checks t and p against scipy.stats.ttest_rel (testdata/gen_ttest.py).
func TestPairedTTestSciPy(t *testing.T) {
	ref := readSciPyRef(t, "testdata/ttest_ref.json")
	var maxT, maxP float64
	for _, c := range ref.Cases {
		t.Run(c.Name, func(t *testing.T) {
			gotT, gotP, err := PairedTTest(c.A, c.B)
			if err != nil {
				t.Fatal(err)
			}
			dt := math.Abs(gotT - c.T)
			dp := math.Abs(gotP - c.P)
			maxT, maxP = math.Max(maxT, dt), math.Max(maxP, dp)
			if dt > 1e-9 {
				t.Errorf("t = %.17g, SciPy %.17g (diff %.3g)", gotT, c.T, dt)
			}
			if dp > 1e-9 {
				t.Errorf("p = %.17g, SciPy %.17g (diff %.3g)", gotP, c.P, dp)
			}
			if c.P < 1e-6 && math.Abs(gotP-c.P) > 1e-9*c.P {
				t.Errorf("tiny p = %.17g, SciPy %.17g: relative diff above 1e-9", gotP, c.P)
			}
		})
	}
	t.Logf("SciPy %s, %d cases: max |t - t_scipy| = %.3g, max |p - p_scipy| = %.3g", ref.SciPy, len(ref.Cases), maxT, maxP)
}

func TestPairedTTestByHand(t *testing.T) {
	// d = (1, 2, 3): mean 2, sd 1, t = 2 / (1/sqrt(3)) = 2·sqrt(3), df 2.
	// For df = 2 the t distribution has the closed form P(|T| ≥ t) = 1 - t / sqrt(2 + t²).
	a := []float64{2, 4, 6}
	b := []float64{1, 2, 3}
	gotT, gotP, err := PairedTTest(a, b)
	if err != nil {
		t.Fatal(err)
	}
	wantT := 2 * math.Sqrt(3)
	wantP := 1 - wantT/math.Sqrt(2+wantT*wantT)
	if math.Abs(gotT-wantT) > 1e-12 || math.Abs(gotP-wantP) > 1e-12 {
		t.Errorf("got t=%v p=%v, want t=%v p=%v", gotT, gotP, wantT, wantP)
	}
	// Swapping the runs negates t and keeps p.
	swT, swP, _ := PairedTTest(b, a)
	if swT != -gotT || swP != gotP {
		t.Errorf("swapped: t=%v p=%v, want t=%v p=%v", swT, swP, -gotT, gotP)
	}
}

func TestPairedTTestEdges(t *testing.T) {
	tests := []struct {
		name    string
		a, b    []float64
		t, p    float64
		wantErr string
	}{
		{name: "identical runs", a: []float64{0.5, 0.25, 1, 0}, b: []float64{0.5, 0.25, 1, 0}, t: 0, p: 1},
		{name: "equal positive differences", a: []float64{1, 2, 3}, b: []float64{0.5, 1.5, 2.5}, t: math.Inf(1), p: 0},
		{name: "equal negative differences", a: []float64{0, 1}, b: []float64{1, 2}, t: math.Inf(-1), p: 0},
		{name: "single query", a: []float64{1}, b: []float64{0}, wantErr: "at least 2 pairs, got 1"},
		{name: "no queries", a: nil, b: nil, wantErr: "no pairs"},
		{name: "mismatched lengths", a: []float64{1, 2, 3}, b: []float64{1, 2}, wantErr: "differ in length: 3 and 2"},
		{name: "NaN", a: []float64{1, math.NaN()}, b: []float64{1, 2}, wantErr: "a[1] = NaN"},
		{name: "Inf", a: []float64{1, 2}, b: []float64{math.Inf(1), 2}, wantErr: "b[0] = +Inf"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a0 := append([]float64(nil), tc.a...)
			gotT, gotP, err := PairedTTest(tc.a, tc.b)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err = %v, want it to contain %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if gotT != tc.t || gotP != tc.p {
				t.Errorf("t=%v p=%v, want t=%v p=%v", gotT, gotP, tc.t, tc.p)
			}
			for i := range a0 {
				if a0[i] != tc.a[i] {
					t.Fatalf("input modified")
				}
			}
		})
	}
}

// FuzzPairedTTest checks invariants on arbitrary finite samples: p in [0, 1], swapping the runs
// negates t and keeps p, and randomization and bootstrap accept the same input.
func FuzzPairedTTest(f *testing.F) {
	f.Add(0.1, 0.2, 0.3, 0.5, 0.1, 0.9)
	f.Add(1.0, 1.0, 1.0, 1.0, 1.0, 1.0)
	f.Add(0.0, 1.0, 0.0, 1.0, 0.0, 0.0)
	f.Fuzz(func(t *testing.T, a1, a2, a3, b1, b2, b3 float64) {
		a := []float64{a1, a2, a3}
		b := []float64{b1, b2, b3}
		for _, v := range append(a[:3:3], b...) {
			if math.IsNaN(v) || math.IsInf(v, 0) || math.Abs(v) > 1e6 {
				t.Skip()
			}
		}
		tt, p, err := PairedTTest(a, b)
		if err != nil {
			t.Fatal(err)
		}
		if !(p >= 0 && p <= 1) {
			t.Fatalf("p = %v", p)
		}
		tt2, p2, _ := PairedTTest(b, a)
		if !(tt2 == -tt || (math.IsNaN(tt) && math.IsNaN(tt2))) || math.Abs(p2-p) > 1e-12 {
			t.Fatalf("swap: t %v/%v p %v/%v", tt, tt2, p, p2)
		}
		rp, err := RandomizationTest(a, b, 50, 1)
		if err != nil || rp <= 0 || rp > 1 {
			t.Fatalf("randomization p = %v, %v", rp, err)
		}
		lo, hi, err := BootstrapCI(a, b, 50, 0.9, 1)
		if err != nil || lo > hi {
			t.Fatalf("bootstrap [%v, %v], %v", lo, hi, err)
		}
	})
}
