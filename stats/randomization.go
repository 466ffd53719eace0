package stats

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// pcgStream is the second PCG seed word: RandomizationTest and BootstrapCI draw from
// rand.NewPCG(seed, pcgStream).
const pcgStream = 0x9e3779b97f4a7c15

// Defaults used by run comparison (package compare and `ranklab compare`).
const (
	DefaultPermutations = 10000 // sign-flip permutations of the randomization test
	DefaultResamples    = 10000 // bootstrap resamples
	DefaultSeed         = 42    // seed of both
	DefaultLevel        = 0.95  // confidence level of the bootstrap interval
)

// RandomizationTest computes the two-sided paired randomization (sign-flip permutation) test of
// the mean difference a - b. Under the null hypothesis each difference d_i = a_i - b_i is as
// likely to be +d_i as -d_i; each of the N = permutations draws flips every sign independently
// with probability 1/2, and
//
//	c = #{draws with |Σ s_i d_i| ≥ |Σ d_i|}   (ties within a relative 1e-12 count)
//	p = (c + 1) / (N + 1)
//
// The random signs come from rand.NewPCG(seed, 0x9e3779b97f4a7c15), so a seed fixes the result. The exact
// p-value is the same count over all 2^n sign assignments divided by 2^n; the estimate's standard
// error is about sqrt(p(1-p)/N). All-zero differences give p = 1, as does n = 1.
func RandomizationTest(a, b []float64, permutations int, seed uint64) (p float64, err error) {
	d, err := differences(a, b)
	if err != nil {
		return 0, err
	}
	if permutations < 1 {
		return 0, fmt.Errorf("stats: permutations must be at least 1, got %d", permutations)
	}
	var observed, scale float64
	for _, v := range d {
		observed += v
		scale += math.Abs(v)
	}
	observed = math.Abs(observed)
	threshold := observed - 1e-12*scale
	r := rand.New(rand.NewPCG(seed, pcgStream))
	count := 0
	for range permutations {
		var sum float64
		var bits uint64
		for i, v := range d {
			if i%64 == 0 {
				bits = r.Uint64()
			}
			if bits&1 == 1 {
				sum -= v
			} else {
				sum += v
			}
			bits >>= 1
		}
		if math.Abs(sum) >= threshold {
			count++
		}
	}
	return float64(count+1) / float64(permutations+1), nil
}
