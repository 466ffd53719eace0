package stats

import (
	"math"
	"strings"
	"testing"
)

func TestBootstrapCI(t *testing.T) {
	t.Run("two queries", func(t *testing.T) {
		// d = (0, 1): a resample's mean is 0 (prob 1/4), 1/2 (1/2) or 1 (1/4). With 10000
		// resamples the 2.5% and 97.5% quantiles fall inside the outer groups: [0, 1].
		lo, hi, err := BootstrapCI([]float64{1, 1}, []float64{1, 0}, 10000, 0.95, DefaultSeed)
		if err != nil || lo != 0 || hi != 1 {
			t.Errorf("[%v, %v], %v; want [0, 1]", lo, hi, err)
		}
		// At 40% the bounds are the 30% and 70% quantiles: inside the middle group, 1/2.
		lo, hi, _ = BootstrapCI([]float64{1, 1}, []float64{1, 0}, 10000, 0.40, DefaultSeed)
		if lo != 0.5 || hi != 0.5 {
			t.Errorf("40%%: [%v, %v]; want [0.5, 0.5]", lo, hi)
		}
	})
	t.Run("identical runs", func(t *testing.T) {
		lo, hi, err := BootstrapCI([]float64{0.2, 0.4, 0.9}, []float64{0.2, 0.4, 0.9}, 1000, 0.95, 1)
		if err != nil || lo != 0 || hi != 0 {
			t.Errorf("[%v, %v], %v; want [0, 0]", lo, hi, err)
		}
	})
	t.Run("single query", func(t *testing.T) {
		lo, hi, err := BootstrapCI([]float64{0.75}, []float64{0.5}, 1000, 0.95, 1)
		if err != nil || lo != 0.25 || hi != 0.25 {
			t.Errorf("[%v, %v], %v; want [0.25, 0.25]", lo, hi, err)
		}
	})
	t.Run("normal approximation", func(t *testing.T) {
		// 40 differences alternating 0 and 1: mean 1/2, sd of the resampled mean ≈
		// sqrt(1/4 / 40); the 95% interval is about 1/2 ± 1.96·that.
		a := make([]float64, 40)
		b := make([]float64, 40)
		for i := range a {
			a[i] = float64(i % 2)
		}
		lo, hi, err := BootstrapCI(a, b, 20000, 0.95, DefaultSeed)
		if err != nil {
			t.Fatal(err)
		}
		half := 1.96 * math.Sqrt(0.25/40)
		if math.Abs(lo-(0.5-half)) > 0.03 || math.Abs(hi-(0.5+half)) > 0.03 {
			t.Errorf("[%v, %v], want about [%v, %v]", lo, hi, 0.5-half, 0.5+half)
		}
	})
	t.Run("errors", func(t *testing.T) {
		for _, tc := range []struct {
			name  string
			a, b  []float64
			B     int
			level float64
			want  string
		}{
			{"level 1", []float64{1}, []float64{0}, 10, 1, "confidence level must be in (0, 1), got 1"},
			{"level NaN", []float64{1}, []float64{0}, 10, math.NaN(), "confidence level"},
			{"no resamples", []float64{1}, []float64{0}, 0, 0.9, "resamples must be at least 1"},
			{"mismatched", []float64{1, 2}, []float64{0}, 10, 0.9, "differ in length"},
		} {
			if _, _, err := BootstrapCI(tc.a, tc.b, tc.B, tc.level, 1); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%s: err = %v, want %q", tc.name, err, tc.want)
			}
		}
	})
}
