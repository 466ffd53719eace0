package compare

import "math"

// standardize returns the scores of m systems on n queries (systems[j][i]: system j, query i)
// standardised per query over the systems, as Webber, Moffat & Zobel (2008) standardise a
// topic's scores, then mapped into (0, 1) by the standard normal distribution function:
//
//	z_ij = (x_ij − μ_i) / σ_i,   μ_i, σ_i = mean and sample standard deviation (n − 1 in the
//	                              denominator: here m − 1) of query i's m scores
//	s_ij = Φ(z_ij)
//
// so a query on which every system scores high counts no more than one on which every system
// scores low: each query contributes by how the systems rank on it and how far apart they are,
// in units of that query's spread. A query on which all m systems score the same (σ_i = 0)
// gives every system 0.5. Webber et al. take μ_i and σ_i from a fixed set of reference systems;
// this function takes them from the systems given (the usual choice when no reference set
// exists), so adding a system changes every standardised score. The inputs are not modified;
// rows of unequal length panic.
func standardize(systems [][]float64) [][]float64 {
	m := len(systems)
	out := make([][]float64, m)
	if m == 0 {
		return out
	}
	n := len(systems[0])
	for j, s := range systems {
		if len(s) != n {
			panic("compare: standardize: systems of unequal length")
		}
		out[j] = make([]float64, n)
	}
	for i := range n {
		var mu float64
		for j := range systems {
			mu += systems[j][i] / float64(m)
		}
		var ss float64
		for j := range systems {
			ss += (systems[j][i] - mu) * (systems[j][i] - mu)
		}
		sd := 0.0
		if m > 1 {
			sd = math.Sqrt(ss / float64(m-1))
		}
		for j := range systems {
			if sd == 0 {
				out[j][i] = 0.5
				continue
			}
			z := (systems[j][i] - mu) / sd
			out[j][i] = math.Erfc(-z/math.Sqrt2) / 2 // Φ(z)
		}
	}
	return out
}
