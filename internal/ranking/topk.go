package ranking

import "slices"

// Top returns the first k elements of xs in the order cmp defines, sorted (all of xs, sorted,
// when k <= 0 or k >= len(xs)). cmp must be a strict total order (no two elements equal), as
// trec_eval's order is for distinct IDs, so the result does not depend on the algorithm. xs is
// reordered. A selection step (quickselect with a median-of-three pivot) puts the first k in
// front before they alone are sorted, so a short top of a long list costs O(n + k log k).
func Top[T any](xs []T, k int, cmp func(a, b T) int) []T {
	if k <= 0 || k >= len(xs) {
		slices.SortFunc(xs, cmp)
		return xs
	}
	if k >= len(xs)/2 {
		slices.SortFunc(xs, cmp)
		return xs[:k:k]
	}
	selectFirst(xs, k, cmp)
	xs = xs[:k:k]
	slices.SortFunc(xs, cmp)
	return xs
}

// selectFirst reorders xs so that xs[:k] holds its k first elements (in any order), 0 < k < len(xs).
func selectFirst[T any](xs []T, k int, cmp func(a, b T) int) {
	lo, hi := 0, len(xs)-1
	for lo < hi {
		mid := lo + (hi-lo)/2
		if cmp(xs[mid], xs[lo]) < 0 {
			xs[mid], xs[lo] = xs[lo], xs[mid]
		}
		if cmp(xs[hi], xs[lo]) < 0 {
			xs[hi], xs[lo] = xs[lo], xs[hi]
		}
		if cmp(xs[hi], xs[mid]) < 0 {
			xs[hi], xs[mid] = xs[mid], xs[hi]
		}
		// Lomuto partition around the median, moved to hi.
		xs[mid], xs[hi] = xs[hi], xs[mid]
		p := lo
		for i := lo; i < hi; i++ {
			if cmp(xs[i], xs[hi]) < 0 {
				xs[p], xs[i] = xs[i], xs[p]
				p++
			}
		}
		xs[p], xs[hi] = xs[hi], xs[p]
		switch {
		case p == k-1 || p == k:
			return
		case p < k-1:
			lo = p + 1
		default:
			hi = p - 1
		}
	}
}
