package retrieval

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
			got := topK(slices.Clone(xs), k, order)
			w := want
			if k > 0 && k < n {
				w = want[:k]
			}
			if !slices.Equal(got, w) {
				t.Fatalf("n=%d k=%d: topK = %v, want %v", n, k, got, w)
			}
		}
	}
}

// TestChunksTokenCut checks Searcher.chunks' growing selection against a full sort and a cut
// by hand, on random unit lengths (long chunks ranked first make the first selection too short).
func TestChunksTokenCut(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for trial := range 200 {
		n := 1 + r.IntN(300)
		s := &Searcher{unitID: make([]string, n), window: make([][2]int32, n)}
		scores := make([]float64, n)
		var matched []int32
		for u := range n {
			s.unitID[u] = ChunkID("d", u)
			length := 1 + r.IntN(40)
			if trial%2 == 0 && u%5 == 0 {
				length = 1 // a few short chunks pull the average down
			}
			s.window[u] = [2]int32{0, int32(length)}
			s.indexed += length
			scores[u] = float64(r.IntN(20)) // many ties, broken by chunk ID
			if r.IntN(4) > 0 {
				matched = append(matched, int32(u))
			}
		}
		all := slices.Clone(matched)
		slices.SortFunc(all, func(a, b int32) int { return compareDocs(scores[a], s.unitID[a], scores[b], s.unitID[b]) })
		for _, tokens := range []int{1, 10, 50, 400, 100000} {
			for _, k := range []int{0, 3, 1000} {
				var want []string
				used := 0
				for i, u := range all {
					if (k > 0 && i >= k) || used > tokens {
						break
					}
					want = append(want, s.unitID[u])
					used += int(s.window[u][1])
				}
				var got []string
				for _, d := range s.chunks(scores, matched, k, tokens) {
					got = append(got, d.Doc)
				}
				if !slices.Equal(got, want) {
					t.Fatalf("trial %d, tokens %d, k %d: %v, want %v", trial, tokens, k, got, want)
				}
			}
		}
	}
}
