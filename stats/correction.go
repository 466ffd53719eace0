package stats

import (
	"math"
	"sort"
)

// Bonferroni returns the Bonferroni-adjusted p-values of m comparisons, in the input order:
//
//	p'_i = min(1, m · p_i)
//
// A comparison is significant at family-wise error rate α when p'_i ≤ α. p is not modified.
func Bonferroni(p []float64) []float64 {
	m := float64(len(p))
	adj := make([]float64, len(p))
	for i, v := range p {
		adj[i] = math.Min(1, m*v)
	}
	return adj
}

// Holm returns Holm's step-down adjusted p-values (Holm–Bonferroni) of m comparisons, in the
// input order. With p_(1) ≤ … ≤ p_(m) the sorted p-values (ties keep input order),
//
//	p'_(j) = min(1, max_{k ≤ j} (m - k + 1) · p_(k))
//
// A comparison is significant at family-wise error rate α when p'_i ≤ α; Holm rejects every
// hypothesis Bonferroni rejects, and possibly more. p is not modified.
func Holm(p []float64) []float64 {
	m := len(p)
	order := make([]int, m)
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(x, y int) bool { return p[order[x]] < p[order[y]] })
	adj := make([]float64, m)
	running := 0.0
	for k, i := range order {
		v := math.Min(1, float64(m-k)*p[i])
		running = math.Max(running, v)
		adj[i] = running
	}
	return adj
}
