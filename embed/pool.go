package embed

import "math"

// meanPool turns a batch of token vectors into unit text vectors: hidden is row-major
// [batch, tokens, dim], mask [batch, tokens] (1 for a real token, 0 for padding). For text b
//
//	v_b = Σ_t mask[b,t] · hidden[b,t,:] / Σ_t mask[b,t]   (sums in float64)
//	e_b = v_b / ‖v_b‖₂
//
// A text without tokens, or whose mean is the zero vector, gets the zero vector.
func meanPool(hidden []float32, mask []int64, batch, tokens, dim int) [][]float32 {
	if len(hidden) != batch*tokens*dim || len(mask) != batch*tokens {
		panic("embed: meanPool: hidden must hold batch*tokens*dim values and mask batch*tokens")
	}
	out := make([][]float32, batch)
	sum := make([]float64, dim)
	for b := range batch {
		clear(sum)
		n := 0
		for t := range tokens {
			if mask[b*tokens+t] == 0 {
				continue
			}
			n++
			row := hidden[(b*tokens+t)*dim : (b*tokens+t+1)*dim]
			for i, x := range row {
				sum[i] += float64(x)
			}
		}
		out[b] = unit(sum, n)
	}
	return out
}

// unit returns sum/n scaled to unit length, as float32 (the zero vector when it has no length).
func unit(sum []float64, n int) []float32 {
	v := make([]float32, len(sum))
	if n == 0 {
		return v
	}
	var norm float64
	for _, x := range sum {
		norm += (x / float64(n)) * (x / float64(n))
	}
	norm = math.Sqrt(norm)
	if norm == 0 {
		return v
	}
	for i, x := range sum {
		v[i] = float32(x / float64(n) / norm)
	}
	return v
}

// Dot is the dot product of two vectors (the cosine of unit vectors), summed in float64.
func Dot(a, b []float32) float64 {
	if len(a) != len(b) {
		panic("embed: Dot of vectors of different lengths")
	}
	var s float64
	for i, x := range a {
		s += float64(x) * float64(b[i])
	}
	return s
}
