package agree

import (
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/ranklab/ranklab/internal/sharedtest"
)

// TestPeers compares cohenKappa with scikit-learn's cohen_kappa_score (weights None, 'linear',
// 'quadratic'; labels seen or the whole scale 0..4) and kendallTauB with SciPy's kendalltau
// (default: τ-b) on generated cases: correlated judges, ties, one-category and constant inputs.
// It skips without the peers' environment (sharedtest.PeersPython) and fails with RANKLAB_PEERS=1.
func TestPeers(t *testing.T) {
	py := sharedtest.PeersPython(t, "the comparison with scikit-learn and SciPy")
	if err := exec.Command(py, "-c", "import sklearn, scipy").Run(); err != nil {
		// A peers environment made before scripts/peers.sh pinned scikit-learn.
		if os.Getenv("RANKLAB_PEERS") == "1" {
			t.Fatalf("%s lacks scikit-learn or SciPy (%v): run bash scripts/peers.sh", py, err)
		}
		t.Skipf("%s lacks scikit-learn or SciPy: bash scripts/peers.sh installs them", py)
	}
	type kappaCase struct {
		A       []int   `json:"a"`
		B       []int   `json:"b"`
		Labels  []int   `json:"labels"`
		Weights *string `json:"weights"`
	}
	type tauCase struct {
		X []float64 `json:"x"`
		Y []float64 `json:"y"`
	}
	var in struct {
		Kappa []kappaCase `json:"kappa"`
		Tau   []tauCase   `json:"tau"`
	}
	r := rand.New(rand.NewPCG(24, 1))
	linear, quadratic := "linear", "quadratic"
	weights := []*string{nil, &linear, &quadratic}
	ws := []weighting{weightNone, weightLinear, weightQuadratic}
	for c := range 200 {
		n := 1 + r.IntN(60)
		m := 2 + r.IntN(4) // grades 0..m-1
		if c%10 == 0 {
			m = 1 // one category: κ undefined
		}
		noise := r.Float64()
		a, b := make([]int, n), make([]int, n)
		for i := range n {
			a[i] = r.IntN(m)
			b[i] = a[i]
			if r.Float64() < noise {
				b[i] = r.IntN(m)
			}
		}
		var labels []int
		if c%4 == 3 {
			labels = []int{0, 1, 2, 3, 4}
		}
		for _, w := range weights {
			in.Kappa = append(in.Kappa, kappaCase{a, b, labels, w})
		}
	}
	for range 150 {
		n := 2 + r.IntN(25)
		x, y := make([]float64, n), make([]float64, n)
		levels := 1 + r.IntN(8) // few levels: many ties
		for i := range n {
			x[i] = float64(r.IntN(levels)) / 4
			y[i] = x[i] + r.NormFloat64()*0.3
			if r.IntN(2) == 0 {
				y[i] = math.Round(y[i]*2) / 2
			}
		}
		in.Tau = append(in.Tau, tauCase{x, y})
	}
	var out struct {
		Kappa    []*float64        `json:"kappa"`
		Tau      []*float64        `json:"tau"`
		Versions map[string]string `json:"versions"`
	}
	sharedtest.RunPython(t, py, filepath.Join("testdata", "peers.py"), in, &out)
	if len(out.Kappa) != len(in.Kappa) || len(out.Tau) != len(in.Tau) {
		t.Fatalf("peers returned %d κ and %d τ for %d and %d cases", len(out.Kappa), len(out.Tau), len(in.Kappa), len(in.Tau))
	}
	value := func(p *float64) float64 {
		if p == nil {
			return math.NaN()
		}
		return *p
	}
	maxDiff, nans := 0.0, 0
	for i, c := range in.Kappa {
		got, want := cohenKappa(c.A, c.B, c.Labels, ws[i%3]), value(out.Kappa[i])
		if math.IsNaN(got) != math.IsNaN(want) || (!math.IsNaN(got) && math.Abs(got-want) > 1e-12) {
			t.Errorf("κ case %d (%v, labels %v): %v, scikit-learn %v\na %v\nb %v", i, ws[i%3], c.Labels, got, want, c.A, c.B)
		}
		if math.IsNaN(want) {
			nans++
		} else {
			maxDiff = math.Max(maxDiff, math.Abs(got-want))
		}
	}
	t.Logf("κ: %d cases against scikit-learn %s (%d undefined in both), max |difference| %.3g", len(in.Kappa), out.Versions["scikit-learn"], nans, maxDiff)
	maxDiff, nans = 0, 0
	for i, c := range in.Tau {
		got, want := kendallTauB(c.X, c.Y), value(out.Tau[i])
		if math.IsNaN(got) != math.IsNaN(want) || (!math.IsNaN(got) && math.Abs(got-want) > 1e-12) {
			t.Errorf("τ case %d: %v, SciPy %v\nx %v\ny %v", i, got, want, c.X, c.Y)
		}
		if math.IsNaN(want) {
			nans++
		} else {
			maxDiff = math.Max(maxDiff, math.Abs(got-want))
		}
	}
	t.Logf("τ-b: %d cases against SciPy %s (%d undefined in both), max |difference| %.3g", len(in.Tau), out.Versions["scipy"], nans, maxDiff)
}
