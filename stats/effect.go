package stats

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/stat"
)

// Two standardised effect sizes of a paired comparison. Both divide the mean difference
// mean(a − b) by a standard deviation (n−1 denominator); they differ in which one:
//
//	d_z  = mean(a − b) / sd(a − b)                 (CohensD)
//	d_av = mean(a − b) / ((sd(a) + sd(b)) / 2)     (CohensDav)
//
// With equal spreads sd(a) = sd(b) = s and correlation r between the paired scores,
// sd(a − b) = s·√(2(1 − r)), so d_z = d_av / √(2(1 − r)): the more the two runs agree query by
// query (r near 1, as two rankers of the same queries do), the larger d_z grows for the same
// difference. d_z measures how consistent the difference is (the paired t statistic is
// d_z·√n); d_av measures its size against the spread of the scores across queries, the scale on
// which Cohen's benchmarks 0.2/0.5/0.8 were set (for two independent groups), so only d_av
// may be read against them (Cumming 2012; Lakens 2013, "Calculating and reporting effect sizes
// to facilitate cumulative science", Frontiers in Psychology 4:863).

// CohensD computes the paired effect size Cohen's d_z: the mean difference in units of the
// standard deviation of the differences,
//
//	d_z = mean(a - b) / sd(a - b)   (sd with n-1 denominator)
//
// 0 when every difference is 0, ±Inf when the differences are equal and non-zero. n < 2 is an
// error (no standard deviation). d_z grows with the correlation of the paired scores, so Cohen's
// benchmarks for d do not apply to it; see CohensDav.
func CohensD(a, b []float64) (float64, error) {
	d, err := effectDiffs(a, b)
	if err != nil || allZero(d) {
		return 0, err
	}
	mean, sd := stat.MeanStdDev(d, nil) // n ≥ 2 here
	if sd == 0 {
		return math.Copysign(math.Inf(1), mean), nil
	}
	return mean / sd, nil
}

// CohensDav computes the paired effect size d_av: the mean difference in units of the average
// standard deviation of the two samples' scores,
//
//	d_av = mean(a − b) / ((sd(a) + sd(b)) / 2)   (sd with n−1 denominator)
//
// It does not depend on how strongly the paired scores correlate, so it stays comparable with
// a between-groups d (Cohen's 0.2/0.5/0.8). 0 when every difference is 0, ±Inf when both samples
// are constant and the mean difference is not 0. n < 2 is an error.
func CohensDav(a, b []float64) (float64, error) {
	d, err := effectDiffs(a, b)
	if err != nil || allZero(d) {
		return 0, err
	}
	mean := stat.Mean(d, nil)
	_, sa := stat.MeanStdDev(a, nil)
	_, sb := stat.MeanStdDev(b, nil)
	avg := (sa + sb) / 2
	if avg == 0 { // both samples constant, the difference not 0
		return math.Copysign(math.Inf(1), mean), nil
	}
	return mean / avg, nil
}

// effectDiffs returns the differences a − b that an effect size needs: checked pairs
// (differences), at least 2 of them (a standard deviation).
func effectDiffs(a, b []float64) ([]float64, error) {
	d, err := differences(a, b)
	if err == nil && len(d) < 2 {
		err = fmt.Errorf("stats: the effect size needs at least 2 pairs, got %d", len(d))
	}
	return d, err
}
