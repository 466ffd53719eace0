// Package quantile holds the one quantile rule of ranklab's bootstrap intervals (package stats'
// for a mean difference, package agree's for κ and τ).
package quantile

import "math"

// Linear returns the x-quantile of sorted values (ascending, at least one), interpolated linearly
// between order statistics, numpy's default ("linear"):
//
//	q = v_⌊h⌋ + (h − ⌊h⌋)(v_⌊h⌋+1 − v_⌊h⌋),   h = (n − 1)x
func Linear(sorted []float64, x float64) float64 {
	h := float64(len(sorted)-1) * x
	i := int(math.Floor(h))
	if i >= len(sorted)-1 {
		return sorted[len(sorted)-1]
	}
	return sorted[i] + (h-float64(i))*(sorted[i+1]-sorted[i])
}
