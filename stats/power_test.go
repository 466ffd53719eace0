package stats

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"testing"

	"github.com/ranklab/ranklab/internal/sharedtest"
)

// designCase is one case of testdata/power_ref.json, written by SciPy (testdata/gen_power.py).
type designCase struct {
	M, N                                 int
	Diff, SD, Alpha, Power, Level, Width float64
}

// readPowerRef reads one list of cases of testdata/power_ref.json.
func readPowerRef(t *testing.T, key string) []designCase {
	t.Helper()
	raw, err := os.ReadFile("testdata/power_ref.json")
	if err != nil {
		t.Fatal(err)
	}
	var all map[string]json.RawMessage
	if err := json.Unmarshal(raw, &all); err != nil {
		t.Fatal(err)
	}
	var cases []designCase
	if err := json.Unmarshal(all[key], &cases); err != nil {
		t.Fatalf("%s: %v", key, err)
	}
	if len(cases) < 4 {
		t.Fatalf("power_ref.json %s: only %d cases", key, len(cases))
	}
	return cases
}

func TestPowerPairedTSciPy(t *testing.T) {
	for _, c := range readPowerRef(t, "power_t") {
		t.Run(fmt.Sprintf("n=%d diff=%v sd=%v alpha=%v", c.N, c.Diff, c.SD, c.Alpha), func(t *testing.T) {
			got, err := PowerPairedT(c.N, c.Diff, c.SD, c.Alpha)
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(got-c.Power) > 1e-9 {
				t.Errorf("power %.12f, SciPy %.12f", got, c.Power)
			}
		})
	}
}

func TestTopicsPairedTSciPy(t *testing.T) {
	for _, c := range readPowerRef(t, "topics_t") {
		t.Run(fmt.Sprintf("diff=%v sd=%v alpha=%v power=%v", c.Diff, c.SD, c.Alpha, c.Power), func(t *testing.T) {
			got, err := TopicsPairedT(c.Diff, c.SD, c.Alpha, c.Power)
			if err != nil || got != c.N {
				t.Errorf("TopicsPairedT = %d, %v; SciPy %d", got, err, c.N)
			}
		})
	}
}

func TestPowerANOVASciPy(t *testing.T) {
	for _, c := range readPowerRef(t, "power_anova") {
		t.Run(fmt.Sprintf("m=%d n=%d diff=%v sd=%v alpha=%v", c.M, c.N, c.Diff, c.SD, c.Alpha), func(t *testing.T) {
			got, err := powerANOVA(c.M, c.N, c.Diff, c.SD, c.Alpha)
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(got-c.Power) > 1e-9 {
				t.Errorf("power %.12f, SciPy %.12f", got, c.Power)
			}
		})
	}
}

func TestTopicsANOVASciPy(t *testing.T) {
	for _, c := range readPowerRef(t, "topics_anova") {
		t.Run(fmt.Sprintf("m=%d diff=%v sd=%v alpha=%v power=%v", c.M, c.Diff, c.SD, c.Alpha, c.Power), func(t *testing.T) {
			got, err := TopicsANOVA(c.M, c.Diff, c.SD, c.Alpha, c.Power)
			if err != nil || got != c.N {
				t.Errorf("TopicsANOVA = %d, %v; SciPy %d", got, err, c.N)
			}
		})
	}
}

func TestCIWidthSciPy(t *testing.T) {
	for _, c := range readPowerRef(t, "ci_width") {
		got, err := ExpectedCIWidth(c.N, c.SD, c.Level)
		if err != nil || math.Abs(got-c.Width) > 1e-12 {
			t.Errorf("ExpectedCIWidth(%d, %v, %v) = %.15f, %v; SciPy %.15f", c.N, c.SD, c.Level, got, err, c.Width)
		}
	}
	for _, c := range readPowerRef(t, "topics_ci") {
		got, err := TopicsCI(c.Width, c.SD, c.Level)
		if err != nil || got != c.N {
			t.Errorf("TopicsCI(%v, %v, %v) = %d, %v; SciPy %d", c.Width, c.SD, c.Level, got, err, c.N)
		}
	}
}

// TestPowerByHand checks the design functions against arithmetic a reader can follow.
func TestPowerByHand(t *testing.T) {
	near := func(name string, got, want, tol float64) {
		t.Helper()
		if math.Abs(got-want) > tol {
			t.Errorf("%s = %.10f, want %.10f (±%g)", name, got, want, tol)
		}
	}
	// No difference: the test rejects with probability alpha, whatever n.
	p, _ := PowerPairedT(17, 0, 0.3, 0.05)
	near("power at diff 0", p, 0.05, 0)
	// Large n: the t-test becomes the z-test, power = Φ(δ − 1.959964) + Φ(−δ − 1.959964),
	// δ = 0.02/0.1·√2000 = 8.944: Φ(6.984) ≈ 1 − 1.4e−12.
	p, _ = PowerPairedT(2000, 0.02, 0.1, 0.05)
	z := 1.959963984540054
	delta := 0.02 / 0.1 * math.Sqrt(2000)
	near("power at n=2000", p, normalCDF(delta-z)+normalCDF(-delta-z), 1e-9)
	// δ = 1.959964 + 0.841621 (the 80% quantile) at n = 10000 gives power 0.8 under the normal
	// approximation; with df = 9999 the t-test's power is within 1e−4 of it.
	n := 10000
	d := (z + 0.8416212335729143) / math.Sqrt(float64(n)) * 0.1
	p, _ = PowerPairedT(n, d, 0.1, 0.05)
	near("power 0.8 by the normal approximation", p, 0.8, 1e-4)
	// The sign of the difference does not matter (two-sided).
	a, _ := PowerPairedT(12, 0.1, 0.2, 0.1)
	b, _ := PowerPairedT(12, -0.1, 0.2, 0.1)
	near("power of -diff", b, a, 0)
	// Two systems: the ANOVA's F = t², and the differences' sd is √2 · the residual sd.
	for _, n := range []int{2, 5, 30, 300} {
		f, _ := powerANOVA(2, n, 0.05, 0.1, 0.05)
		tt, _ := PowerPairedT(n, 0.05, 0.1*math.Sqrt2, 0.05)
		near(fmt.Sprintf("ANOVA(m=2, n=%d) vs paired t", n), f, tt, 1e-8)
	}
	// The interval: E[s] for n = 2 is sd·√(2/1)·Γ(1)/Γ(1/2) = sd·√(2/π), t_{0.975,1} = 12.7062.
	w, _ := ExpectedCIWidth(2, 1, 0.95)
	near("CI width n=2", w, 2*12.706204736174703*math.Sqrt(2/math.Pi)/math.Sqrt2, 1e-9)
	// Power and width are monotone in n, so the sizes returned are the first that meet the target.
	for _, c := range []struct{ diff, sd float64 }{{0.05, 0.1}, {0.02, 0.15}} {
		n, _ := TopicsPairedT(c.diff, c.sd, 0.05, 0.8)
		at, _ := PowerPairedT(n, c.diff, c.sd, 0.05)
		below, _ := PowerPairedT(n-1, c.diff, c.sd, 0.05)
		if !(at >= 0.8 && below < 0.8) {
			t.Errorf("TopicsPairedT(%v, %v) = %d: power %v there, %v at n−1", c.diff, c.sd, n, at, below)
		}
	}
}

func TestPowerErrors(t *testing.T) {
	errs := []struct {
		name string
		err  error
	}{
		{"n = 1", sharedtest.Err(PowerPairedT(1, 0.1, 0.1, 0.05))},
		{"sd = 0", sharedtest.Err(PowerPairedT(10, 0.1, 0, 0.05))},
		{"alpha = 1", sharedtest.Err(PowerPairedT(10, 0.1, 0.1, 1))},
		{"diff NaN", sharedtest.Err(PowerPairedT(10, math.NaN(), 0.1, 0.05))},
		{"topics at diff 0", sharedtest.Err(TopicsPairedT(0, 0.1, 0.05, 0.8))},
		{"power below alpha", sharedtest.Err(TopicsPairedT(0.1, 0.1, 0.05, 0.01))},
		{"power 1", sharedtest.Err(TopicsPairedT(0.1, 0.1, 0.05, 1))},
		{"one system", sharedtest.Err(powerANOVA(1, 10, 0.1, 0.1, 0.05))},
		{"ANOVA n = 1", sharedtest.Err(powerANOVA(3, 1, 0.1, 0.1, 0.05))},
		{"width 0", sharedtest.Err(TopicsCI(0, 0.1, 0.95))},
		{"level 1", sharedtest.Err(ExpectedCIWidth(10, 0.1, 1))},
		{"too many queries", sharedtest.Err(TopicsPairedT(1e-9, 1, 0.05, 0.8))},
	}
	for _, e := range errs {
		if e.err == nil {
			t.Errorf("%s: no error", e.name)
		}
	}
}
