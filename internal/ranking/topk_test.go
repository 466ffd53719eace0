package ranking

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestTopK checks the selection against a full sort on random lists with many equal keys (a
// tie broken by the index, as doc IDs break score ties).
func TestTopK(t *testing.T) {
	type item struct{ score, id int }
	order := func(a, b item) int {
		if c := cmp.Compare(b.score, a.score); c != 0 {
			return c
		}
		return cmp.Compare(b.id, a.id)
	}
	r := rand.New(rand.NewPCG(1, 2))
	for trial := range 500 {
		n := r.IntN(200)
		xs := make([]item, n)
		for i := range xs {
			xs[i] = item{r.IntN(1 + trial%7), i}
		}
		want := slices.Clone(xs)
		slices.SortFunc(want, order)
		for _, k := range []int{0, 1, 2, n / 3, n/2 - 1, n - 1, n, n + 5} {
			got := Top(slices.Clone(xs), k, order)
			w := want
			if k > 0 && k < n {
				w = want[:k]
			}
			if !slices.Equal(got, w) {
				t.Fatalf("n=%d k=%d: Top = %v, want %v", n, k, got, w)
			}
		}
	}
}
