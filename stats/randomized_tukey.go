package stats

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// RandomizedTukey computes the randomised Tukey HSD test (Carterette 2012; Sakai 2014) for every
// pair of m systems scored on the same n queries, systems[j][i] being system j's score on query
// i. Under the null hypothesis that the m systems are interchangeable, any assignment of a
// query's m scores to the systems is as likely as the observed one. Each of the B = permutations
// draws shuffles every query's scores across the systems independently (rand.NewPCG(seed,
// 0x9e3779b97f4a7c15), Fisher–Yates) and records the largest difference between two system
// means, max_j x̄*_·j − min_j x̄*_·j. For a pair (a, b):
//
//	c = #{draws whose largest mean difference ≥ |x̄_·a − x̄_·b|}   (ties within a relative 1e-12 count)
//	P = (c + 1) / (B + 1)
//
// Comparing every pair with the distribution of the *largest* difference is what controls the
// chance of any false alarm among all m(m−1)/2 pairs (as the studentized range does for the
// HSD), without assuming normal scores. Q, Low, High, MSE, DF and Critical are left 0 or NaN.
// It needs m ≥ 2 systems of the same length n ≥ 1 and permutations ≥ 1.
func RandomizedTukey(systems [][]float64, permutations int, seed uint64) (AllPairs, error) {
	n, err := checkSystems(systems, 1)
	if err != nil {
		return AllPairs{}, err
	}
	if permutations < 1 {
		return AllPairs{}, fmt.Errorf("stats: permutations must be at least 1, got %d", permutations)
	}
	m := len(systems)
	means := make([]float64, m)
	var scale float64
	rows := make([][]float64, n) // rows[i] is query i's m scores, shuffled in place
	for i := range rows {
		rows[i] = make([]float64, m)
		for j := range systems {
			rows[i][j] = systems[j][i]
			means[j] += systems[j][i] / float64(n)
			scale += math.Abs(systems[j][i]) / float64(n)
		}
	}
	r := AllPairs{Means: means}
	for a := range m {
		for b := a + 1; b < m; b++ {
			r.Pairs = append(r.Pairs, Pair{A: a, B: b, Diff: means[a] - means[b], Low: math.NaN(), High: math.NaN()})
		}
	}
	counts := make([]int, len(r.Pairs))
	rng := rand.New(rand.NewPCG(seed, pcgStream))
	sums := make([]float64, m)
	for range permutations {
		clear(sums)
		for _, row := range rows {
			for j := m - 1; j > 0; j-- {
				k := rng.IntN(j + 1)
				row[j], row[k] = row[k], row[j]
			}
			for j, v := range row {
				sums[j] += v
			}
		}
		lo, hi := sums[0], sums[0]
		for _, s := range sums[1:] {
			lo, hi = min(lo, s), max(hi, s)
		}
		largest := (hi - lo) / float64(n)
		for k, p := range r.Pairs {
			if largest >= math.Abs(p.Diff)-1e-12*scale {
				counts[k]++
			}
		}
	}
	for k := range r.Pairs {
		r.Pairs[k].P = float64(counts[k]+1) / float64(permutations+1)
	}
	return r, nil
}
