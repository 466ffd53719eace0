package embed

import (
	"math"
	"testing"
)

func TestMeanPool(t *testing.T) {
	// two texts, 3 token slots, dim 2; the second text has one padding slot whose (large)
	// vector must not count
	hidden := []float32{
		1, 0, 3, 0, 2, 3, // text 0: tokens (1,0) (3,0) (2,3)
		0, 4, 0, 2, 100, 100, // text 1: tokens (0,4) (0,2), then padding
	}
	mask := []int64{1, 1, 1, 1, 1, 0}
	got := meanPool(hidden, mask, 2, 3, 2)
	// text 0: mean (2, 1), norm √5; text 1: mean (0, 3), norm 3
	want := [][]float64{{2 / math.Sqrt(5), 1 / math.Sqrt(5)}, {0, 1}}
	for b := range want {
		for i := range want[b] {
			if math.Abs(float64(got[b][i])-want[b][i]) > 1e-7 {
				t.Errorf("text %d dim %d: got %v, want %v", b, i, got[b][i], want[b][i])
			}
		}
	}
	if d := Dot(got[0], got[1]); math.Abs(d-1/math.Sqrt(5)) > 1e-7 {
		t.Errorf("Dot = %v, want 1/√5", d)
	}
	empty := meanPool([]float32{5, 5}, []int64{0}, 1, 1, 2)
	if empty[0][0] != 0 || empty[0][1] != 0 {
		t.Errorf("a text without tokens: got %v, want the zero vector", empty[0])
	}
}
