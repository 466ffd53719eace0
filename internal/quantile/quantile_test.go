package quantile

import (
	"math"
	"testing"
)

// TestLinear: numpy.percentile(v, 100x) with its default method on v = [1, 2, 4, 8]:
// h = 3x, so x = 0.5 gives 2 + 0.5·(4 − 2) = 3, x = 0.9 gives 4 + 0.7·(8 − 4) = 6.8.
func TestLinear(t *testing.T) {
	v := []float64{1, 2, 4, 8}
	for _, c := range []struct{ x, want float64 }{{0, 1}, {0.5, 3}, {0.9, 4 + 0.7*4}, {1, 8}, {1.0 / 3, 2}} {
		if got := Linear(v, c.x); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("Linear(%v, %v) = %v, want %v", v, c.x, got, c.want)
		}
	}
	if got := Linear([]float64{5}, 0.975); got != 5 {
		t.Errorf("one value: %v", got)
	}
}

func TestLinearFive(t *testing.T) {
	x := []float64{10, 20, 30, 40, 50}
	// h = (5-1)·q: q = 0.1 -> h = 0.4 -> 10 + 0.4·10; q = 1 -> 50.
	for _, c := range []struct{ q, want float64 }{{0, 10}, {0.1, 10 + 0.4*10}, {0.5, 30}, {0.975, 40 + 0.9*10}, {1, 50}} {
		if got := Linear(x, c.q); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("Linear(%v) = %v, want %v", c.q, got, c.want)
		}
	}
}
