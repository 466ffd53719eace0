package stats

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/integrate/quad"
	"gonum.org/v1/gonum/mathext"
	"gonum.org/v1/gonum/stat/distuv"
)

// Topic set size design (Sakai 2016, "Topic set size design", Information Retrieval Journal
// 19(3)): before building a test collection or running an experiment, choose how many queries
// (topics) n it needs so that a difference that matters is detected with a given probability.
// Three designs, each with its power or width function and the smallest n that meets it:
//
//   - paired t-test (PowerPairedT, TopicsPairedT): two systems; the true mean difference diff,
//     the standard deviation sd of the per-query differences;
//   - ANOVA over m systems with queries as blocks (TopicsANOVA): the smallest
//     difference between the best and the worst system that matters, diff, and the residual
//     standard deviation sd;
//   - confidence interval (TopicsCI): the expected width of the interval of the mean difference.
//
// Power is computed exactly from the noncentral t and F distributions (the same as SciPy's
// scipy.stats.nct and scipy.stats.ncf and statsmodels' power classes), not from the normal
// approximation of Sakai's Excel tools, so n can differ from those tools by one.

// checkDesign validates the common parameters of the design functions.
func checkDesign(diff, sd, alpha float64) error {
	switch {
	case !(sd > 0) || math.IsInf(sd, 0):
		return fmt.Errorf("stats: standard deviation %v must be positive and finite", sd)
	case math.IsNaN(diff) || math.IsInf(diff, 0):
		return fmt.Errorf("stats: difference %v must be finite", diff)
	case !(alpha > 0 && alpha < 1):
		return fmt.Errorf("stats: significance level %v must be in (0, 1)", alpha)
	}
	return nil
}

// PowerPairedT computes the power of the two-sided paired t-test at level alpha with n pairs,
// when the true mean difference is diff and the per-query differences have standard deviation sd:
//
//	df = n − 1,  c = t_{1−α/2, df},  δ = diff/sd · √n   (noncentrality)
//	power = P(|T'| ≥ c),  T' = (Z + δ) / √(V/df),  Z ~ N(0, 1),  V ~ χ²_df
//	      = E_V[ Φ(δ − c·√(V/df)) + Φ(−δ − c·√(V/df)) ]
//
// The expectation over V is integrated numerically (Gauss–Legendre over s = √V, whose chi
// density has no singularity, between its 1e−15 and 1 − 1e−15 quantiles). diff = 0 gives alpha.
// n < 2, sd ≤ 0 or alpha outside (0, 1) is an error.
func PowerPairedT(n int, diff, sd, alpha float64) (float64, error) {
	if err := checkDesign(diff, sd, alpha); err != nil {
		return 0, err
	}
	if n < 2 {
		return 0, fmt.Errorf("stats: the paired t-test needs at least 2 pairs, got %d", n)
	}
	df := float64(n - 1)
	c := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: df}.Quantile(1 - alpha/2)
	delta := math.Abs(diff) / sd * math.Sqrt(float64(n))
	if delta == 0 {
		return alpha, nil
	}
	return chiExpectation(df, func(w float64) float64 {
		return normalCDF(delta-c*w) + normalCDF(-delta-c*w)
	}), nil
}

// chiExpectation computes E[f(√(V/df))] for V ~ χ²_df by Gauss–Legendre quadrature over
// s = √V, whose density s^(df−1)·e^(−s²/2) / (2^(df/2−1)·Γ(df/2)) is smooth on [0, ∞).
func chiExpectation(df float64, f func(w float64) float64) float64 {
	chi2 := distuv.ChiSquared{K: df}
	lo, hi := math.Sqrt(chi2.Quantile(1e-15)), math.Sqrt(chi2.Quantile(1-1e-15))
	lg, _ := math.Lgamma(df / 2)
	logNorm := (df/2-1)*math.Ln2 + lg
	density := func(s float64) float64 {
		if s <= 0 {
			if df == 1 {
				return math.Exp(-logNorm)
			}
			return 0
		}
		return math.Exp((df-1)*math.Log(s) - s*s/2 - logNorm)
	}
	return quad.Fixed(func(s float64) float64 { return density(s) * f(s/math.Sqrt(df)) }, lo, hi, 400, quad.Legendre{}, 0)
}

// normalCDF is Φ, the standard normal distribution function.
func normalCDF(x float64) float64 { return 0.5 * math.Erfc(-x/math.Sqrt2) }

// TopicsPairedT returns the smallest number of queries n ≥ 2 at which the two-sided paired
// t-test at level alpha detects a true mean difference diff with probability at least power,
// when the per-query differences have standard deviation sd (PowerPairedT(n, ...) ≥ power).
// diff = 0 or power outside (alpha, 1) is an error.
func TopicsPairedT(diff, sd, alpha, power float64) (int, error) {
	if err := checkPower(diff, sd, alpha, power); err != nil {
		return 0, err
	}
	return smallestN(2, func(n int) float64 { p, _ := PowerPairedT(n, diff, sd, alpha); return p }, power)
}

// checkPower validates the parameters of a topic set size computation.
func checkPower(diff, sd, alpha, power float64) error {
	if err := checkDesign(diff, sd, alpha); err != nil {
		return err
	}
	if diff == 0 {
		return fmt.Errorf("stats: a difference of 0 cannot be detected: choose the smallest difference that matters")
	}
	if !(power > alpha && power < 1) {
		return fmt.Errorf("stats: power %v must be in (alpha = %v, 1)", power, alpha)
	}
	return nil
}

// maxTopics bounds the search of the Topics functions.
const maxTopics = 10_000_000

// smallestN returns the smallest n ≥ from with power(n) ≥ want, power increasing in n:
// doubling, then bisection.
func smallestN(from int, power func(int) float64, want float64) (int, error) {
	lo, hi := from, from
	for power(hi) < want {
		lo = hi + 1
		hi *= 2
		if hi > maxTopics {
			return 0, fmt.Errorf("stats: more than %d queries would be needed", maxTopics)
		}
	}
	for lo < hi {
		mid := lo + (hi-lo)/2
		if power(mid) >= want {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return hi, nil
}

// powerANOVA computes the power of the F test of "all m systems are equal" in a two-way ANOVA
// without replication (queries as blocks, the paired design of IR experiments) at level alpha
// with n queries, when the best and the worst system differ by diff and the others lie halfway
// between (the least favourable configuration for a given diff, as in Sakai's ANOVA-based design),
// and sd is the residual standard deviation:
//
//	φ1 = m − 1,  φ2 = (m − 1)(n − 1),  λ = n · diff² / (2 sd²)
//	power = P(F' ≥ F_{1−α; φ1, φ2}),  F' noncentral F(φ1, φ2, λ)
//	P(F' ≤ x) = Σ_j e^(−λ/2) (λ/2)^j / j! · I_{φ1 x / (φ1 x + φ2)}(φ1/2 + j, φ2/2)
//
// For m = 2 this is the paired t-test: F = t², and the differences' standard deviation is
// √2·sd. Sakai's tool uses the one-way ANOVA's φ2 = m(n − 1) instead; blocks cost m − 1 degrees
// of freedom and remove the queries' own variance from sd. m < 2, n < 2, sd ≤ 0 or alpha
// outside (0, 1) is an error.
func powerANOVA(m, n int, diff, sd, alpha float64) (float64, error) {
	if err := checkDesign(diff, sd, alpha); err != nil {
		return 0, err
	}
	if m < 2 || n < 2 {
		return 0, fmt.Errorf("stats: ANOVA needs at least 2 systems and 2 queries, got %d and %d", m, n)
	}
	d1, d2 := float64(m-1), float64((m-1)*(n-1))
	lambda := float64(n) * diff * diff / (2 * sd * sd)
	crit := distuv.F{D1: d1, D2: d2}.Quantile(1 - alpha)
	return 1 - noncentralFCDF(crit, d1, d2, lambda), nil
}

// noncentralFCDF is P(F' ≤ x) for F' noncentral F(d1, d2, λ): the Poisson(λ/2) mixture of
// regularized incomplete beta functions, summed over j within 40 + 15·√(λ/2) of the Poisson
// mode (the weight left outside is below 1e−40).
func noncentralFCDF(x, d1, d2, lambda float64) float64 {
	y := d1 * x / (d1*x + d2)
	h := lambda / 2
	if h == 0 {
		return mathext.RegIncBeta(d1/2, d2/2, y)
	}
	mode, spread := int(h), 40+int(15*math.Sqrt(h))
	sum := 0.0
	for j := max(0, mode-spread); j <= mode+spread; j++ {
		lg, _ := math.Lgamma(float64(j) + 1)
		w := math.Exp(-h + float64(j)*math.Log(h) - lg)
		sum += w * mathext.RegIncBeta(d1/2+float64(j), d2/2, y)
	}
	return sum
}

// TopicsANOVA returns the smallest number of queries n ≥ 2 at which the power of the
// ANOVA, powerANOVA(m, n, diff, sd, alpha), reaches power.
func TopicsANOVA(m int, diff, sd, alpha, power float64) (int, error) {
	if err := checkPower(diff, sd, alpha, power); err != nil {
		return 0, err
	}
	if m < 2 {
		return 0, fmt.Errorf("stats: ANOVA needs at least 2 systems, got %d", m)
	}
	return smallestN(2, func(n int) float64 { p, _ := powerANOVA(m, n, diff, sd, alpha); return p }, power)
}

// ExpectedCIWidth computes the expected width of the level confidence interval of a mean
// difference over n queries whose per-query differences have standard deviation sd:
//
//	width = 2 · t_{(1+level)/2, n−1} · E[s] / √n,   E[s] = sd · √(2/(n−1)) · Γ(n/2) / Γ((n−1)/2)
//
// (E[s] < sd: the sample standard deviation is biased low). n < 2 or level outside (0, 1) is
// an error.
func ExpectedCIWidth(n int, sd, level float64) (float64, error) {
	if err := checkDesign(0, sd, 1-level); err != nil {
		return 0, err
	}
	if n < 2 {
		return 0, fmt.Errorf("stats: a confidence interval needs at least 2 pairs, got %d", n)
	}
	df := float64(n - 1)
	t := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: df}.Quantile((1 + level) / 2)
	la, _ := math.Lgamma(float64(n) / 2)
	lb, _ := math.Lgamma(df / 2)
	es := sd * math.Sqrt(2/df) * math.Exp(la-lb)
	return 2 * t * es / math.Sqrt(float64(n)), nil
}

// TopicsCI returns the smallest number of queries n ≥ 2 whose expected interval width
// (ExpectedCIWidth) is at most width (Sakai's CI-based design).
func TopicsCI(width, sd, level float64) (int, error) {
	if !(width > 0) || math.IsInf(width, 0) {
		return 0, fmt.Errorf("stats: interval width %v must be positive and finite", width)
	}
	if _, err := ExpectedCIWidth(2, sd, level); err != nil {
		return 0, err
	}
	return smallestN(2, func(n int) float64 { w, _ := ExpectedCIWidth(n, sd, level); return -w }, -width)
}
