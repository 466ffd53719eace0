package stats

import (
	"fmt"
	"math"
)

// A Pair is one pair of systems (A < B, indices into the systems given) in an all-pairs
// comparison of m systems.
type Pair struct {
	A, B int
	Diff float64 // mean(A) − mean(B)
	// Q is Tukey's statistic |Diff| / SE (HSD only; 0 for the randomised test).
	Q float64
	// P is the p-value adjusted for all m(m−1)/2 pairs: compare it with α directly.
	P float64
	// Low and High bound Diff by the simultaneous interval of the HSD (all pairs cover their
	// true differences together at the chosen level); NaN for the randomised test.
	Low, High float64
}

// AllPairs is the result of an all-pairs comparison of m systems over the same n queries.
type AllPairs struct {
	Means []float64 // per system, in the order given
	Pairs []Pair    // (0,1), (0,2), …, (0,m−1), (1,2), …, (m−2,m−1)
	// HSD only (0 for the randomised test):
	MSE      float64 // the error mean square the statistic divides by
	DF       float64 // its degrees of freedom
	Critical float64 // q_{level; m, DF}, the studentized range quantile of the intervals
}

// Pair returns the pair of systems a and b (in either order), its Diff, Low and High oriented
// as mean(a) − mean(b). It panics when a or b is out of range or a == b.
func (r AllPairs) Pair(a, b int) Pair {
	m := len(r.Means)
	if a == b || a < 0 || b < 0 || a >= m || b >= m {
		panic(fmt.Sprintf("stats: AllPairs.Pair(%d, %d) with %d systems", a, b, m))
	}
	lo, hi := min(a, b), max(a, b)
	p := r.Pairs[lo*m-lo*(lo+1)/2+hi-lo-1]
	if a > b {
		p.A, p.B, p.Diff, p.Low, p.High = a, b, -p.Diff, -p.High, -p.Low
	}
	return p
}

// TukeyHSD computes Tukey's honestly significant difference test for every pair of m systems
// scored on the same n queries, systems[j][i] being system j's score on query i. Queries are
// blocks (every system runs on every query), so the error is the residual of the two-way
// analysis of variance without replication (as in Carterette 2012 and Sakai 2014):
//
//	e_ij = x_ij − x̄_i· − x̄_·j + x̄_··      (i a query, j a system)
//	MSE  = Σ e_ij² / ((n − 1)(m − 1)),    DF = (n − 1)(m − 1),    SE = sqrt(MSE / n)
//	q    = |x̄_·a − x̄_·b| / SE,            P = P(Q_{m, DF} > q)   (StudentizedRange)
//	interval: x̄_·a − x̄_·b ± q_{level; m, DF} · SE
//
// With m = 2 it is the paired t-test (q = √2·|t|, the same p). It needs m ≥ 2 systems of the
// same length n ≥ 2 and finite scores; level must be in (0, 1). A zero MSE (every difference
// between systems the same on every query) gives q = +Inf and P = 0 for a non-zero difference,
// P = 1 for a zero one, and intervals of zero width.
func TukeyHSD(systems [][]float64, level float64) (AllPairs, error) {
	n, err := checkSystems(systems, 2)
	if err != nil {
		return AllPairs{}, err
	}
	if !(level > 0 && level < 1) {
		return AllPairs{}, fmt.Errorf("stats: confidence level must be in (0, 1), got %v", level)
	}
	m := len(systems)
	means := make([]float64, m)
	rows := make([]float64, n)
	var grand float64
	for j, s := range systems {
		for i, v := range s {
			means[j] += v / float64(n)
			rows[i] += v / float64(m)
			grand += v / float64(n*m)
		}
	}
	var ss float64
	for j, s := range systems {
		for i, v := range s {
			e := v - rows[i] - means[j] + grand
			ss += e * e
		}
	}
	df := float64((n - 1) * (m - 1))
	mse := ss / df
	se := math.Sqrt(mse / float64(n))
	return tukeyPairs(means, func(int, int) float64 { return se }, mse, df, level), nil
}

// TukeyHSDOneWay is Tukey's HSD for m independent groups (no blocking; the group sizes may
// differ), as SciPy's scipy.stats.tukey_hsd and ranx's compare(..., stat_test="tukey")
// compute it:
//
//	MSE = Σ_j (n_j − 1) s_j² / (N − m),   DF = N − m,   SE_ab = sqrt(MSE/2 · (1/n_a + 1/n_b))
//
// then q, P and the intervals as in TukeyHSD. For runs scored on the same queries TukeyHSD is
// the right test: this one leaves the queries' differences in the error, so it is far less
// powerful. It needs m ≥ 2 groups, each of at least one finite value, and N > m.
func TukeyHSDOneWay(groups [][]float64, level float64) (AllPairs, error) {
	m := len(groups)
	if m < 2 {
		return AllPairs{}, fmt.Errorf("stats: need at least 2 groups, got %d", m)
	}
	if !(level > 0 && level < 1) {
		return AllPairs{}, fmt.Errorf("stats: confidence level must be in (0, 1), got %v", level)
	}
	means := make([]float64, m)
	sizes := make([]float64, m)
	var ss, total float64
	for j, g := range groups {
		if len(g) == 0 {
			return AllPairs{}, fmt.Errorf("stats: group %d is empty", j)
		}
		for i, v := range g {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return AllPairs{}, fmt.Errorf("stats: group %d, value %d is %v", j, i, v)
			}
			means[j] += v
		}
		sizes[j] = float64(len(g))
		means[j] /= sizes[j]
		for _, v := range g {
			ss += (v - means[j]) * (v - means[j])
		}
		total += sizes[j]
	}
	df := total - float64(m)
	if df < 1 {
		return AllPairs{}, fmt.Errorf("stats: %v values in %d groups leave no degree of freedom for the error", total, m)
	}
	mse := ss / df
	se := func(a, b int) float64 { return math.Sqrt(mse / 2 * (1/sizes[a] + 1/sizes[b])) }
	return tukeyPairs(means, se, mse, df, level), nil
}

// tukeyPairs fills the pairs of an HSD from the means and each pair's standard error.
func tukeyPairs(means []float64, se func(a, b int) float64, mse, df, level float64) AllPairs {
	m := len(means)
	dist := StudentizedRange{K: m, Nu: df}
	crit := dist.quantile(level)
	r := AllPairs{Means: means, MSE: mse, DF: df, Critical: crit}
	for a := range m {
		for b := a + 1; b < m; b++ {
			d, s := means[a]-means[b], se(a, b)
			p := Pair{A: a, B: b, Diff: d, Low: d - crit*s, High: d + crit*s}
			switch {
			case s > 0:
				p.Q = math.Abs(d) / s
				p.P = dist.Survival(p.Q)
			case d != 0:
				p.Q, p.P = math.Inf(1), 0
			default:
				p.P = 1
			}
			r.Pairs = append(r.Pairs, p)
		}
	}
	return r
}

// checkSystems checks that there are at least 2 systems of the same length n ≥ minN with finite
// scores, and returns n.
func checkSystems(systems [][]float64, minN int) (int, error) {
	if len(systems) < 2 {
		return 0, fmt.Errorf("stats: need at least 2 systems, got %d", len(systems))
	}
	n := len(systems[0])
	for j, s := range systems {
		if len(s) != n {
			return 0, fmt.Errorf("stats: system %d has %d scores, system 0 has %d (one score per query for every system)", j, len(s), n)
		}
		for i, v := range s {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return 0, fmt.Errorf("stats: system %d, query %d: score is %v", j, i, v)
			}
		}
	}
	if n < minN {
		return 0, fmt.Errorf("stats: need at least %d queries, got %d", minN, n)
	}
	return n, nil
}
