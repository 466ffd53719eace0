package stats

import (
	"math"
	"testing"
)

func TestHolmByHand(t *testing.T) {
	// m = 4 comparisons. Sorted: 0.01 (#1), 0.02 (#3), 0.03 (#0), 0.04 (#2).
	//   step 1: 4·0.01 = 0.04
	//   step 2: 3·0.02 = 0.06
	//   step 3: 2·0.03 = 0.06   (max with 0.06 -> 0.06)
	//   step 4: 1·0.04 = 0.04   (max with 0.06 -> 0.06)
	p := []float64{0.03, 0.01, 0.04, 0.02}
	want := []float64{2 * 0.03, 4 * 0.01, 3 * 0.02, 3 * 0.02}
	got := Holm(p)
	for i := range want {
		if math.Abs(got[i]-want[i]) > 1e-15 {
			t.Errorf("Holm[%d] = %v, want %v", i, got[i], want[i])
		}
	}
	if p[0] != 0.03 || p[1] != 0.01 {
		t.Error("input modified")
	}
}

func TestHolmCases(t *testing.T) {
	tests := []struct {
		name    string
		p, want []float64
	}{
		{"empty", []float64{}, []float64{}},
		{"single", []float64{0.03}, []float64{0.03}},
		// 3·0.01; 2·0.6 = 1.2 capped at 1; 1·0.7 -> max 1.
		{"capped at 1", []float64{0.01, 0.6, 0.7}, []float64{3 * 0.01, 1, 1}},
		// Ties: 3·0.02, 2·0.02 -> max keeps 3·0.02 for both; then 1·0.5.
		{"ties", []float64{0.02, 0.5, 0.02}, []float64{3 * 0.02, 0.5, 3 * 0.02}},
		// Step-down lets the third through at α = 0.05 where Bonferroni (3·0.04) would not.
		{"holm beats bonferroni", []float64{0.001, 0.04, 0.012}, []float64{3 * 0.001, 0.04, 2 * 0.012}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := Holm(tc.p)
			if len(got) != len(tc.want) {
				t.Fatalf("len %d, want %d", len(got), len(tc.want))
			}
			for i := range got {
				if math.Abs(got[i]-tc.want[i]) > 1e-15 {
					t.Errorf("[%d] = %v, want %v", i, got[i], tc.want[i])
				}
			}
		})
	}
}

func TestBonferroni(t *testing.T) {
	got := Bonferroni([]float64{0.01, 0.4, 0.02})
	want := []float64{3 * 0.01, 1, 3 * 0.02}
	for i := range want {
		if math.Abs(got[i]-want[i]) > 1e-15 {
			t.Errorf("[%d] = %v, want %v", i, got[i], want[i])
		}
	}
	// Holm is never larger than Bonferroni.
	p := []float64{0.001, 0.04, 0.012, 0.2, 0.03}
	h, b := Holm(p), Bonferroni(p)
	for i := range p {
		if h[i] > b[i] {
			t.Errorf("Holm[%d] = %v > Bonferroni %v", i, h[i], b[i])
		}
	}
}
