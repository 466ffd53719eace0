package stats

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// StudentizedRange is the distribution of the studentized range: the range of K independent
// standard normal variables divided by an independent sqrt(χ²_Nu / Nu) (the distribution of
// Tukey's q statistic; SciPy's scipy.stats.studentized_range(k, df)). Nu = +Inf gives the range
// of K standard normals itself. K must be at least 2 and Nu positive; other values panic.
//
// gonum has no studentized range, so it is integrated numerically (adaptive Gauss–Kronrod 7–15
// in both variables):
//
//	P(Q > q) = ∫₀^∞ f_ν(s) · G_K(q·s) ds
//	G_K(w)   = 1 − K ∫ φ(z) [Φ(z) − Φ(z − w)]^(K−1) dz        (the range of K normals exceeds w)
//	         = K ∫ φ(z) · b · Σ_{j=0}^{K−2} a^j (a − b)^(K−2−j) dz,   a = Φ(z), b = Φ(z − w)
//	f_ν(s)   = 2 (ν/2)^(ν/2) / Γ(ν/2) · s^(ν−1) e^(−ν s²/2)        (s = sqrt(χ²_ν/ν))
//
// The second form of G_K has no cancellation, so small upper-tail probabilities (p-values) keep
// their relative precision. The test checks Survival and the quantile against SciPy's
// studentized_range.sf and ppf.
type StudentizedRange struct {
	K  int     // number of means whose range is taken (≥ 2)
	Nu float64 // degrees of freedom of the variance estimate (> 0; +Inf for a known variance)
}

func (d StudentizedRange) check() {
	if d.K < 2 || !(d.Nu > 0) {
		panic(fmt.Sprintf("stats: StudentizedRange{K: %d, Nu: %v} needs K ≥ 2 and Nu > 0", d.K, d.Nu))
	}
}

// Survival returns P(Q > q), the p-value of an observed q.
func (d StudentizedRange) Survival(q float64) float64 {
	d.check()
	if math.IsNaN(q) {
		return math.NaN()
	}
	if q <= 0 {
		return 1
	}
	if math.IsInf(q, 1) {
		return 0
	}
	if math.IsInf(d.Nu, 1) {
		return clamp01(rangeSurvival(d.K, q))
	}
	nu := d.Nu
	logNorm := math.Log(2) + nu/2*math.Log(nu/2) - lgamma(nu/2)
	density := func(s float64) float64 {
		if s <= 0 {
			return 0
		}
		return math.Exp(logNorm + (nu-1)*math.Log(s) - nu*s*s/2)
	}
	// s covers all but 1e-15 of the chi distribution's mass at each end.
	chi := distuv.ChiSquared{K: nu}
	lo, hi := math.Sqrt(chi.Quantile(1e-15)/nu), math.Sqrt(chi.Quantile(1-1e-15)/nu)
	f := func(s float64) float64 { return density(s) * rangeSurvival(d.K, q*s) }
	return clamp01(integrate(f, lo, hi, 8, 1e-9))
}

// cdf returns P(Q ≤ q).
func (d StudentizedRange) cdf(q float64) float64 { return 1 - d.Survival(q) }

// quantile returns the q with P(Q ≤ q) = p (the critical value of Tukey's test at level p),
// found on Survival by the Illinois variant of regula falsi to a relative 1e-11 in q.
// p must be in (0, 1).
func (d StudentizedRange) quantile(p float64) float64 {
	d.check()
	if !(p > 0 && p < 1) {
		panic(fmt.Sprintf("stats: StudentizedRange quantile: p = %v is not in (0, 1)", p))
	}
	g := func(q float64) float64 { return d.Survival(q) - (1 - p) } // decreasing in q
	lo, hi := 0.0, 4.0
	glo, ghi := p, g(hi)
	for ghi > 0 {
		lo, glo = hi, ghi
		hi *= 2
		ghi = g(hi)
	}
	side := 0
	for range 200 {
		q := (lo*ghi - hi*glo) / (ghi - glo)
		if !(q > lo && q < hi) {
			q = (lo + hi) / 2
		}
		gq := g(q)
		switch {
		case gq == 0:
			return q
		case gq > 0:
			lo, glo = q, gq
			if side == 1 {
				ghi /= 2
			}
			side = 1
		default:
			hi, ghi = q, gq
			if side == -1 {
				glo /= 2
			}
			side = -1
		}
		if hi-lo <= 1e-11*hi {
			break
		}
	}
	return (lo + hi) / 2
}

// rangeSurvival is G_K(w): the probability that the range of k standard normals exceeds w.
func rangeSurvival(k int, w float64) float64 {
	if w <= 0 {
		return 1
	}
	f := func(z float64) float64 {
		a, b := normCDF(z), normCDF(z-w)
		c := a - b
		sum, ap := 1.0, 1.0
		for range k - 2 { // Σ_{j=0}^{n} a^j c^(n−j) = c·(the sum for n − 1) + a^n
			ap *= a
			sum = c*sum + ap
		}
		return math.Exp(-z*z/2) / math.Sqrt(2*math.Pi) * b * sum
	}
	// φ(z) < 1e-23 outside [−10, 10 + w]; the integrand peaks near z = w/2.
	return float64(k) * integrate(f, -10, 10+w, 6, 1e-10)
}

// normCDF is the standard normal distribution function Φ(z) = erfc(−z/√2)/2.
func normCDF(z float64) float64 { return math.Erfc(-z/math.Sqrt2) / 2 }

func lgamma(x float64) float64 {
	v, _ := math.Lgamma(x)
	return v
}

func clamp01(x float64) float64 { return math.Max(0, math.Min(1, x)) }

// Gauss–Kronrod 7–15 nodes and weights on [−1, 1] (the positive half; node 0 last).
var (
	gkNodes = [8]float64{0.991455371120812639206854697526329, 0.949107912342758524526189684047851,
		0.864864423359769072789712788640926, 0.741531185599394439863864773280788,
		0.586087235467691130294144845693013, 0.405845151377397166906606412076961,
		0.207784955007898467600689403773245, 0}
	gkWeights = [8]float64{0.022935322010529224963732008058970, 0.063092092629978553290700663189204,
		0.104790010322250183839876322541518, 0.140653259715525918745189590510238,
		0.169004726639267902826583426598550, 0.190350578064785409913256402421014,
		0.204432940075298892414161999234649, 0.209482141084727828012999174891714}
	gaussWeights = [4]float64{0.129484966168869693270611432679082, 0.279705391489276667901467771423780,
		0.381830050505118944950369775488975, 0.417959183673469387755102040816327}
)

// integrate integrates a non-negative f over [lo, hi] cut into pieces equal parts, each
// refined by adaptGK until the estimate's error is below rel times a first estimate of the
// whole integral, so small integrals (far tails) keep their relative precision.
func integrate(f func(float64) float64, lo, hi float64, pieces int, rel float64) float64 {
	first := 0.0
	for i := range pieces {
		a := lo + (hi-lo)*float64(i)/float64(pieces)
		b := lo + (hi-lo)*float64(i+1)/float64(pieces)
		first += math.Abs(adaptGK(f, a, b, math.Inf(1), 0))
	}
	if first == 0 {
		return 0
	}
	tol := rel * first / float64(pieces)
	sum := 0.0
	for i := range pieces {
		a := lo + (hi-lo)*float64(i)/float64(pieces)
		b := lo + (hi-lo)*float64(i+1)/float64(pieces)
		sum += adaptGK(f, a, b, tol, 40)
	}
	return sum
}

// adaptGK integrates f over [a, b] with adaptive Gauss–Kronrod 7–15, splitting an interval in
// two until the Kronrod and Gauss estimates agree within tol (absolute) or depth runs out.
func adaptGK(f func(float64) float64, a, b, tol float64, depth int) float64 {
	c, h := (a+b)/2, (b-a)/2
	var kron, gauss float64
	for i, x := range gkNodes {
		var fx float64
		if x == 0 {
			fx = f(c)
		} else {
			fx = f(c-h*x) + f(c+h*x)
		}
		kron += gkWeights[i] * fx
		if i%2 == 1 { // the Gauss nodes are the odd-indexed Kronrod nodes
			gauss += gaussWeights[i/2] * fx
		}
	}
	kron, gauss = kron*h, gauss*h
	if depth == 0 || math.Abs(kron-gauss) <= tol {
		return kron
	}
	return adaptGK(f, a, c, tol/2, depth-1) + adaptGK(f, c, b, tol/2, depth-1)
}
