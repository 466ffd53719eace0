package agree

import (
	"math"
	"testing"

	"github.com/ranklab/ranklab/eval"
)

func near(a, b float64) bool {
	return (math.IsNaN(a) && math.IsNaN(b)) || math.Abs(a-b) <= 1e-12
}

func TestCohenKappa(t *testing.T) {
	tests := []struct {
		name   string
		a, b   []int
		labels []int
		w      weighting
		want   float64
	}{
		// O = [[2 0] [1 1]]: p_o = 3/4; rows (2, 2), cols (3, 1): p_e = (2·3 + 2·1)/16 = 1/2.
		{"binary", []int{1, 1, 0, 0}, []int{1, 0, 0, 0}, nil, weightNone, (3.0/4 - 1.0/2) / (1 - 1.0/2)},
		// a = 0 1 2 2, b = 0 2 2 1: O has (0,0) (1,2) (2,2) (2,1); rows (1, 1, 2), cols (1, 1, 2), n = 4.
		// Σ w·r_i·c_j: unweighted 3 + 3 + 4 = 10, linear 5 + 3 + 6 = 14, quadratic 9 + 3 + 10 = 22;
		// Σ w·O: 2, 2, 2.
		{"unweighted", []int{0, 1, 2, 2}, []int{0, 2, 2, 1}, nil, weightNone, 1 - 2/(10.0/4)},
		{"linear", []int{0, 1, 2, 2}, []int{0, 2, 2, 1}, nil, weightLinear, 1 - 2/(14.0/4)},
		{"quadratic", []int{0, 1, 2, 2}, []int{0, 2, 2, 1}, nil, weightQuadratic, 1 - 2/(22.0/4)},
		// Perfect agreement; perfect disagreement on two categories: κ = −1.
		{"perfect", []int{0, 1, 2}, []int{0, 1, 2}, nil, weightQuadratic, 1},
		{"opposite", []int{0, 1}, []int{1, 0}, nil, weightNone, -1},
		// One category only: Σ w·E = 0, undefined.
		{"one category", []int{1, 1}, []int{1, 1}, nil, weightNone, math.NaN()},
		// Labels move the distances: a = 0 1 3, b = 1 3 0 over positions of (0 1 3) or (0 1 2 3).
		// rows = cols = (1, 1, 1) over the used labels, n = 3, so E = r·c/3 = 1/3 in every used cell.
		// positions (0 1 2): linear Σ w·O = |0-1| + |1-2| + |2-0| = 4; Σ w·E = (2+2+4)/3 (pairs 0-1, 1-2, 0-2 both ways).
		{"labels seen", []int{0, 1, 3}, []int{1, 3, 0}, nil, weightLinear, 1 - 4/(8.0/3)},
		// positions (0 1 3): Σ w·O = 1 + 2 + 3 = 6; Σ w·E = 2·(1 + 2 + 3)/3 = 4.
		{"labels full scale", []int{0, 1, 3}, []int{1, 3, 0}, []int{0, 1, 2, 3}, weightLinear, 1 - 6.0/4},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := cohenKappa(tc.a, tc.b, tc.labels, tc.w); !near(got, tc.want) {
				t.Errorf("κ = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestJudges(t *testing.T) {
	// Both judged q1 a..d and q2 e; A alone q2 f; B alone q3 g; -1 is "not judged" (h).
	a := eval.Qrels{"q1": {"a": 1, "b": 1, "c": 0, "d": 0, "h": -1}, "q2": {"e": 2, "f": 0}}
	b := eval.Qrels{"q1": {"a": 1, "b": 0, "c": 0, "d": 0, "h": 1}, "q2": {"e": 2}, "q3": {"g": 1}}
	ag, err := Judges(a, b, Options{Seed: 1, Resamples: 500})
	if err != nil {
		t.Fatal(err)
	}
	if len(ag.Pairs) != 5 || ag.OnlyA != 1 || ag.OnlyB != 2 {
		t.Errorf("pairs %d, only A %d, only B %d; want 5, 1, 2", len(ag.Pairs), ag.OnlyA, ag.OnlyB)
	}
	// Grades A 1 1 0 0 2, B 1 0 0 0 2 over labels 0 1 2: O = [[2 0 0] [1 1 0] [0 0 1]].
	want := [][]int{{2, 0, 0}, {1, 1, 0}, {0, 0, 1}}
	for i := range want {
		for j := range want[i] {
			if ag.Confusion[i][j] != want[i][j] {
				t.Fatalf("confusion %v, want %v", ag.Confusion, want)
			}
		}
	}
	// Count looks the same cells up by grade: A 1 and B 0 on one pair (b), A 0 and B 0 on two.
	for _, c := range []struct{ a, b, want int }{{1, 0, 1}, {0, 0, 2}, {2, 2, 1}, {0, 1, 0}, {3, 0, 0}, {-1, 1, 0}} {
		if got := ag.Count(c.a, c.b); got != c.want {
			t.Errorf("Count(%d, %d) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
	// Binary (grade >= 1): A 1 1 0 0 1, B 1 0 0 0 1: O = [[2 0] [1 2]]; p_o = 4/5;
	// rows (2, 3), cols (3, 2): p_e = (2·3 + 3·2)/25 = 12/25.
	if wantK := (4.0/5 - 12.0/25) / (1 - 12.0/25); !near(ag.Binary.Value, wantK) {
		t.Errorf("binary κ %v, want %v", ag.Binary.Value, wantK)
	}
	if ag.Observed != 4.0/5 {
		t.Errorf("observed %v, want 0.8", ag.Observed)
	}
	for _, k := range []Kappa{ag.Binary, ag.Unweighted, ag.Linear, ag.Quadratic} {
		if !(k.Low <= k.Value && k.Value <= k.High) {
			t.Errorf("%v: %v not in [%v, %v]", k.Weights, k.Value, k.Low, k.High)
		}
	}
	// The same seed gives the same interval; another seed another one.
	again, _ := Judges(a, b, Options{Seed: 1, Resamples: 500})
	other, _ := Judges(a, b, Options{Seed: 2, Resamples: 500})
	if again.Quadratic != ag.Quadratic || other.Quadratic == ag.Quadratic {
		t.Errorf("seeded intervals: %+v %+v %+v", ag.Quadratic, again.Quadratic, other.Quadratic)
	}
	// Threshold 2: only grade 2 is relevant: A 0 0 0 0 1, B 0 0 0 0 1: κ = 1.
	ag2, _ := Judges(a, b, Options{Threshold: 2, Resamples: 10})
	if ag2.Binary.Value != 1 {
		t.Errorf("threshold 2: κ %v, want 1", ag2.Binary.Value)
	}
	if _, err := Judges(a, b, Options{Labels: []int{0, 1}}); err == nil {
		t.Error("labels without grade 2 accepted")
	}
	if _, err := Judges(eval.Qrels{"q": {"x": 1}}, eval.Qrels{"q": {"y": 1}}, Options{}); err == nil {
		t.Error("no common pair accepted")
	}
}

func TestBootstrapPerfect(t *testing.T) {
	// Perfect agreement over two categories: every resample with both categories gives 1; those
	// with one category only are undefined and left out.
	a := eval.Qrels{"q": {}}
	b := eval.Qrels{"q": {}}
	for i := range 40 {
		d := string(rune('A' + i))
		a["q"][d], b["q"][d] = i%2, i%2
	}
	ag, err := Judges(a, b, Options{Resamples: 300})
	if err != nil {
		t.Fatal(err)
	}
	if ag.Binary.Value != 1 || ag.Binary.Low != 1 || ag.Binary.High != 1 {
		t.Errorf("perfect: %+v", ag.Binary)
	}
}

func TestKendallTauB(t *testing.T) {
	tests := []struct {
		name string
		x, y []float64
		want float64
	}{
		// (0,1) and (0,2) concordant, (1,2) discordant: (2 − 1)/3.
		{"one swap", []float64{1, 2, 3}, []float64{1, 3, 2}, 1.0 / 3},
		// (0,1) tied in x only; P = 2, Q = 0: 2/√((2 + 1)·2).
		{"tie in x", []float64{1, 1, 2}, []float64{1, 2, 3}, 2 / math.Sqrt(6)},
		{"reversed", []float64{1, 2, 3, 4}, []float64{4, 3, 2, 1}, -1},
		{"constant", []float64{1, 1}, []float64{1, 2}, math.NaN()},
	}
	for _, tc := range tests {
		if got := kendallTauB(tc.x, tc.y); !near(got, tc.want) {
			t.Errorf("%s: τ_b = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestTauAP(t *testing.T) {
	truth := []float64{4, 3, 2, 1} // items 0 1 2 3, best first
	tests := []struct {
		name string
		est  []float64
		want float64
	}{
		{"same order", []float64{4, 3, 2, 1}, 1},
		{"reversed", []float64{1, 2, 3, 4}, -1},
		// est order 1 0 2 3: C(2) = 0 (item 0 under item 1, which truth puts lower), C(3) = 2,
		// C(4) = 3: 2/3 · (0/1 + 2/2 + 3/3) − 1 = 1/3 (Kendall's τ is 2/3).
		{"top swapped", []float64{3, 4, 2, 1}, 2.0/3*(0.0/1+2.0/2+3.0/3) - 1},
		// est order 0 1 3 2: C(2) = 1, C(3) = 2, C(4) = 2 (items 0 and 1 above 2; 3 is not):
		// 2/3 · (1 + 1 + 2/3) − 1 = 7/9: the same single swap costs less at the bottom.
		{"bottom swapped", []float64{4, 3, 1, 2}, 2.0/3*(1.0/1+2.0/2+2.0/3) - 1},
	}
	for _, tc := range tests {
		if got := tauAP(truth, tc.est); !near(got, tc.want) {
			t.Errorf("%s: τ_AP = %v, want %v", tc.name, got, tc.want)
		}
	}
	if !math.IsNaN(tauAP([]float64{1}, []float64{1})) {
		t.Error("one item: want NaN")
	}
}

// TestTauAPTies: ties follow Urbano & Marrero (2017), τ_AP,b's term with truth as the reference
// (ircor's tauAP_b.ties): the items est ties form a group; each item is compared with the items
// est puts strictly above its group (C over their number, p), the top group is not scored, and
// τ_AP = 2/(items scored) · Σ C/p − 1. A pair tied under truth is not concordant.
func TestTauAPTies(t *testing.T) {
	tests := []struct {
		name       string
		truth, est []float64
		want       float64
	}{
		// Two judges giving the same qrels: the same means, ties included, are full agreement.
		{"identical, two tied", []float64{0.5, 0.3, 0.3}, []float64{0.5, 0.3, 0.3}, 1},
		{"identical, tied at the top", []float64{0.5, 0.5, 0.3}, []float64{0.5, 0.5, 0.3}, 1},
		// Every run tied under est: no item is below another, nothing to score (τ-b is undefined too).
		{"identical, all tied", []float64{0.4, 0.4}, []float64{0.4, 0.4}, math.NaN()},
		// est ties items 1 and 2 below item 0, which truth puts above both: each has C/p = 1/1.
		// truth orders 1 above 2, est does not: that is no swap. 2/2 · (1 + 1) − 1 = 1.
		{"est ties what truth orders", []float64{3, 2, 1}, []float64{3, 1, 1}, 1},
		// est puts item 2 (truth's last) in the top group with item 0: items 1 (p = 2: 0 is above
		// under truth, 2 is not) and 3 (p = 3: 0, 1, 2 all above under truth): 2/2 · (1/2 + 3/3) − 1.
		{"est ties across", []float64{4, 3, 2, 1}, []float64{4, 3, 4, 1}, 2.0/2*(1.0/2+3.0/3) - 1},
		// truth ties items 1 and 2, est orders them: item 1 (p = 1): item 0 above under truth, 1/1;
		// item 2 (p = 2): item 0 above, item 1 tied under truth (not concordant): 1/2. 2/2 · 3/2 − 1.
		{"truth ties what est orders", []float64{0.5, 0.3, 0.3}, []float64{0.5, 0.4, 0.3}, 2.0/2*(1+1.0/2) - 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := tauAP(tc.truth, tc.est); !near(got, tc.want) {
				t.Errorf("τ_AP = %v, want %v", got, tc.want)
			}
		})
	}
}

// Two identical runs judged by identical judges: the system ranking cannot be a reversal.
func TestSystemsIdenticalJudges(t *testing.T) {
	run := func(tag string) eval.Run {
		return eval.Run{Tag: tag, Queries: map[string][]eval.ScoredDoc{"q1": {{Doc: "d1", Score: 1}}}}
	}
	q := eval.Qrels{"q1": {"d1": 1, "d2": 0}}
	sr, err := Systems(q, q, []eval.Run{run("x"), run("y"), run("z")}, Options{Measure: eval.P(1)})
	if err != nil {
		t.Fatal(err)
	}
	if !math.IsNaN(sr.Tau) || !math.IsNaN(sr.TauAP) {
		t.Errorf("three tied runs, identical judges: τ-b %v, τ_AP %v; want both undefined", sr.Tau, sr.TauAP)
	}
	other := run("w")
	other.Queries["q1"][0].Doc = "d2"
	sr, err = Systems(q, q, []eval.Run{run("x"), run("y"), other}, Options{Measure: eval.P(1)})
	if err != nil {
		t.Fatal(err)
	}
	if sr.Tau != 1 || sr.TauAP != 1 {
		t.Errorf("identical judges, two runs tied: τ-b %v, τ_AP %v; want 1 and 1", sr.Tau, sr.TauAP)
	}
}

func TestSystems(t *testing.T) {
	first := func(doc string) eval.Run {
		return eval.Run{Tag: doc, Queries: map[string][]eval.ScoredDoc{
			"q1": {{Doc: doc, Score: 1}}, "q2": {{Doc: doc, Score: 1}}}}
	}
	runs := []eval.Run{first("d1"), first("d2"), first("d3")}
	for i, name := range []string{"X", "Y", "Z"} {
		runs[i].Tag = name
	}
	// P@1. Under A d1 is relevant to both queries, d2 to q1: X 1, Y 1/2, Z 0.
	// Under B d2 is relevant to both, d1 to q1: X 1/2, Y 1, Z 0. q3 is judged by A only: left out.
	a := eval.Qrels{"q1": {"d1": 1, "d2": 1, "d3": 0}, "q2": {"d1": 1, "d3": 0}, "q3": {"d1": 1}}
	b := eval.Qrels{"q1": {"d1": 1, "d2": 1}, "q2": {"d2": 1, "d1": 0}}
	sr, err := Systems(a, b, runs, Options{Measure: eval.P(1)})
	if err != nil {
		t.Fatal(err)
	}
	if len(sr.Queries) != 2 || sr.MeanA[0] != 1 || sr.MeanA[1] != 0.5 || sr.MeanB[0] != 0.5 || sr.MeanB[1] != 1 || sr.MeanA[2] != 0 {
		t.Fatalf("queries %v means A %v B %v", sr.Queries, sr.MeanA, sr.MeanB)
	}
	// X–Y discordant, X–Z and Y–Z concordant: τ = (2 − 1)/3. B's order Y X Z: C(2) = 0
	// (Y is below X under A), C(3) = 2: τ_AP = 2/2 · (0 + 2/2) − 1 = 0.
	if !near(sr.Tau, 1.0/3) || !near(sr.TauAP, 0) {
		t.Errorf("τ %v τ_AP %v, want 1/3 and 0", sr.Tau, sr.TauAP)
	}
	swaps := sr.Swaps()
	if len(swaps) != 1 || swaps[0].RunX != "X" || swaps[0].RunY != "Y" || swaps[0].DiffA != 0.5 || swaps[0].DiffB != -0.5 {
		t.Errorf("swaps %+v", swaps)
	}
	// Two queries: no difference is significant, so no swap is.
	if swaps[0].SignificantAny {
		t.Errorf("a swap significant on 2 queries: %+v", swaps[0])
	}
	if _, err := Systems(a, b, runs[:1], Options{}); err == nil {
		t.Error("one run accepted")
	}
}

// TestTauAPWeightsTheTop: the same single swap costs more at the top than at the bottom; Kendall's
// τ cannot tell (τ = 1 − 2·1/6 = 2/3 for both; τ_AP = 2/3·(0 + 1 + 1) − 1 = 1/3 with the top two
// swapped, 2/3·(1 + 1 + 1/2) − 1 = 7/9 with the bottom two).
func TestTauAPWeightsTheTop(t *testing.T) {
	truth := []float64{4, 3, 2, 1}
	top, bottom := []float64{3, 4, 2, 1}, []float64{4, 3, 1, 2}
	if a, b := kendallTauB(truth, top), kendallTauB(truth, bottom); !near(a, 2.0/3) || !near(b, 2.0/3) {
		t.Errorf("τ %v %v, want 2/3 and 2/3", a, b)
	}
	if a, b := tauAP(truth, top), tauAP(truth, bottom); !near(a, 1.0/3) || !near(b, 7.0/9) {
		t.Errorf("τ_AP %v %v, want 1/3 and 7/9", a, b)
	}
}
