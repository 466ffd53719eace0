package ppi

import (
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/ranklab/ranklab/internal/sharedtest"
)

func TestCLT(t *testing.T) {
	// mean 2, var (1 + 0 + 1)/3 = 2/3, z(0.90) = 1.644854: 2 ± 1.644854·√(2/9).
	iv := CLT([]float64{1, 2, 3}, 0.9)
	h := 1.6448536269514722 * math.Sqrt(2.0/9)
	if math.Abs(iv.Mean-2) > 1e-15 || math.Abs(iv.Low-(2-h)) > 1e-12 || math.Abs(iv.High-(2+h)) > 1e-12 || iv.Lambda != 0 {
		t.Errorf("CLT = %+v, want 2 ± %v", iv, h)
	}
}

func TestMeanLambdaOne(t *testing.T) {
	// λ = 1: θ̂ = mean(unlabeled) + mean(y − yhat) = 1/2 + 1/4 = 0.75;
	// se = √(var(unlabeled)/6 + var(y − yhat)/4) = √(0.25/6 + 0.1875/4) = 0.29756;
	// the 95% interval is 0.75 ± 1.95996 · 0.29756.
	iv := meanLambda([]float64{1, 0, 1, 1}, []float64{1, 0, 0, 1}, []float64{1, 1, 0, 0, 1, 0}, 0.95, 1)
	h := 1.959963984540054 * math.Sqrt(0.25/6+0.1875/4)
	if math.Abs(iv.Mean-0.75) > 1e-15 || math.Abs(iv.Low-(0.75-h)) > 1e-12 || math.Abs(iv.High-(0.75+h)) > 1e-12 {
		t.Errorf("λ = 1: %+v, want 0.75 ± %v", iv, h)
	}
}

func TestMeanLambdaZeroIsClassical(t *testing.T) {
	y, yhat := []float64{0.2, 0.9, 0.4, 0.6}, []float64{0.5, 0.5, 0.1, 0.9}
	a, b := meanLambda(y, yhat, []float64{0.3, 0.7}, 0.95, 0), CLT(y, 0.95)
	if math.Abs(a.Low-b.Low) > 1e-15 || math.Abs(a.High-b.High) > 1e-15 {
		t.Errorf("λ = 0: %+v, classical %+v", a, b)
	}
}

func TestMeanPanics(t *testing.T) {
	for name, f := range map[string]func(){
		"lengths": func() { Mean([]float64{1}, []float64{1, 2}, []float64{1}, 0.95) },
		"empty":   func() { Mean(nil, nil, []float64{1}, 0.95) },
		"level":   func() { CLT([]float64{1}, 1) },
		"sample":  func() { Simulate([]float64{1, 2}, []float64{1, 2}, 3, 10, 0.95, 1) },
	} {
		t.Run(name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Error("no panic")
				}
			}()
			f()
		})
	}
}

// TestSimulateCoverage: on a population where the judge is biased (+0.1) and noisy, the PPI
// interval covers the true mean at about its level and the naive one (the judge's values alone)
// almost never; the human-only interval covers too but is wider than PPI's.
func TestSimulateCoverage(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	truth, auto := make([]float64, 300), make([]float64, 300)
	for i := range truth {
		truth[i] = r.Float64()
		auto[i] = truth[i] + 0.1 + 0.1*r.NormFloat64()
	}
	s := Simulate(truth, auto, 60, 2000, 0.9, 7)
	// 2000 draws: a coverage of 0.9 is measured within ±0.02 (3 standard errors, √(0.09/2000)).
	if math.Abs(s.PPI.Covered-0.9) > 0.02 || math.Abs(s.HumanOnly.Covered-0.9) > 0.03 {
		t.Errorf("coverage PPI %.3f, human only %.3f: want 0.9", s.PPI.Covered, s.HumanOnly.Covered)
	}
	if s.Naive.Covered > 0.1 {
		t.Errorf("naive coverage %.3f: a +0.1 bias should leave the truth out", s.Naive.Covered)
	}
	if !(s.PPI.Width < s.HumanOnly.Width) || !(s.EquivalentQueries > 60) {
		t.Errorf("widths PPI %.4f, human only %.4f, equivalent queries %.1f", s.PPI.Width, s.HumanOnly.Width, s.EquivalentQueries)
	}
	t.Logf("%+v", s)
}

// TestPeers compares Mean, meanLambda and CLT with ppi_py's ppi_mean_ci, ppi_mean_pointestimate
// and classical_mean_ci on generated cases. It skips without the peers' environment
// (sharedtest.PeersPython) and fails with RANKLAB_PEERS=1.
func TestPeers(t *testing.T) {
	py := sharedtest.PeersPython(t, "the comparison with ppi_py")
	if err := exec.Command(py, "-c", "import ppi_py").Run(); err != nil {
		// A peers environment made before scripts/peers.sh pinned ppi-python.
		if os.Getenv("RANKLAB_PEERS") == "1" {
			t.Fatalf("%s lacks ppi_py (%v): run bash scripts/peers.sh", py, err)
		}
		t.Skipf("%s lacks ppi_py: bash scripts/peers.sh installs it", py)
	}
	type pcase struct {
		Y         []float64 `json:"y"`
		Yhat      []float64 `json:"yhat"`
		Unlabeled []float64 `json:"unlabeled"`
		Alpha     float64   `json:"alpha"`
		Lam       *float64  `json:"lam"`
	}
	type ccase struct {
		X     []float64 `json:"x"`
		Alpha float64   `json:"alpha"`
	}
	var in struct {
		Cases     []pcase `json:"cases"`
		Classical []ccase `json:"classical"`
	}
	r := rand.New(rand.NewPCG(35, 1))
	one, zero, half := 1.0, 0.0, 0.5
	lams := []*float64{nil, &one, &zero, &half}
	for c := range 200 {
		n, N := 2+r.IntN(40), 1+r.IntN(300)
		bias, noise := r.NormFloat64()*0.2, r.Float64()*0.5
		gen := func(k int) ([]float64, []float64) {
			y, h := make([]float64, k), make([]float64, k)
			for i := range k {
				y[i] = r.Float64()
				if c%5 == 0 {
					y[i] = math.Round(y[i]) // binary values, as P@1
				}
				h[i] = y[i] + bias + noise*r.NormFloat64()
				if c%7 == 0 {
					h[i] = 0.3 // a constant judge: λ tuned to 0
				}
			}
			return y, h
		}
		y, yhat := gen(n)
		_, unl := gen(N)
		alpha := []float64{0.05, 0.1, 0.2}[c%3]
		in.Cases = append(in.Cases, pcase{y, yhat, unl, alpha, lams[c%4]})
		in.Classical = append(in.Classical, ccase{y, alpha})
	}
	var out struct {
		PPI       [][3]float64      `json:"ppi"`
		Classical [][2]float64      `json:"classical"`
		Versions  map[string]string `json:"versions"`
	}
	sharedtest.RunPython(t, py, filepath.Join("testdata", "peers.py"), in, &out)
	if len(out.PPI) != len(in.Cases) || len(out.Classical) != len(in.Classical) {
		t.Fatalf("ppi_py returned %d and %d results for %d and %d cases", len(out.PPI), len(out.Classical), len(in.Cases), len(in.Classical))
	}
	maxDiff := 0.0
	for i, c := range in.Cases {
		var iv Interval
		if c.Lam == nil {
			iv = Mean(c.Y, c.Yhat, c.Unlabeled, 1-c.Alpha)
		} else {
			iv = meanLambda(c.Y, c.Yhat, c.Unlabeled, 1-c.Alpha, *c.Lam)
		}
		for k, v := range []float64{iv.Mean, iv.Low, iv.High} {
			d := math.Abs(v - out.PPI[i][k])
			maxDiff = math.Max(maxDiff, d)
			if d > 1e-9 {
				t.Errorf("case %d (λ %v): %+v, ppi_py %v", i, c.Lam, iv, out.PPI[i])
				break
			}
		}
	}
	for i, c := range in.Classical {
		iv := CLT(c.X, 1-c.Alpha)
		for k, v := range []float64{iv.Low, iv.High} {
			d := math.Abs(v - out.Classical[i][k])
			maxDiff = math.Max(maxDiff, d)
			if d > 1e-9 {
				t.Errorf("classical case %d: %+v, ppi_py %v", i, iv, out.Classical[i])
				break
			}
		}
	}
	t.Logf("%d PPI and %d classical intervals against ppi_py %s, max |difference| %.3g", len(in.Cases), len(in.Classical), out.Versions["ppi-python"], maxDiff)
}
