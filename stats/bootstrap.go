package stats

import (
	"fmt"
	"math/rand/v2"
	"sort"

	"github.com/ranklab/ranklab/internal/quantile"
)

// BootstrapCI computes the percentile bootstrap confidence interval of the mean difference
// mean(a - b). Each of the B = resamples draws n query indices uniformly with replacement (from
// rand.NewPCG(seed, 0x9e3779b97f4a7c15)) and records the mean of their differences m_1..m_B; sorted, the
// bounds are the quantiles α/2 and 1-α/2 of them (α = 1 - level), interpolated linearly between
// order statistics as numpy's default percentile does:
//
//	q(x) = m_(⌊h⌋) + (h - ⌊h⌋)(m_(⌊h⌋+1) - m_(⌊h⌋)),  h = (B - 1)·x   (0-based order statistics)
//
// level must be in (0, 1). All-zero differences give [0, 0]; n = 1 gives [d_1, d_1].
func BootstrapCI(a, b []float64, resamples int, level float64, seed uint64) (lo, hi float64, err error) {
	d, err := differences(a, b)
	if err != nil {
		return 0, 0, err
	}
	if resamples < 1 {
		return 0, 0, fmt.Errorf("stats: resamples must be at least 1, got %d", resamples)
	}
	if !(level > 0 && level < 1) {
		return 0, 0, fmt.Errorf("stats: confidence level must be in (0, 1), got %v", level)
	}
	r := rand.New(rand.NewPCG(seed, pcgStream))
	n := len(d)
	means := make([]float64, resamples)
	for k := range means {
		var sum float64
		for range n {
			sum += d[r.IntN(n)]
		}
		means[k] = sum / float64(n)
	}
	sort.Float64s(means)
	alpha := 1 - level
	return quantile.Linear(means, alpha/2), quantile.Linear(means, 1-alpha/2), nil
}
