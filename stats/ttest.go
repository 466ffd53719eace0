package stats

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
)

// differences returns d[i] = a[i] - b[i] after checking the pairing and the values.
func differences(a, b []float64) ([]float64, error) {
	if len(a) != len(b) {
		return nil, fmt.Errorf("stats: paired samples differ in length: %d and %d", len(a), len(b))
	}
	if len(a) == 0 {
		return nil, errors.New("stats: no pairs")
	}
	d := make([]float64, len(a))
	for i := range a {
		if math.IsNaN(a[i]) || math.IsInf(a[i], 0) {
			return nil, fmt.Errorf("stats: a[%d] = %v is not a finite number", i, a[i])
		}
		if math.IsNaN(b[i]) || math.IsInf(b[i], 0) {
			return nil, fmt.Errorf("stats: b[%d] = %v is not a finite number", i, b[i])
		}
		d[i] = a[i] - b[i]
	}
	return d, nil
}

// allZero reports whether every element of d is exactly 0.
func allZero(d []float64) bool {
	for _, v := range d {
		if v != 0 {
			return false
		}
	}
	return true
}

// PairedTTest computes Student's paired t-test of the mean difference a - b, two-sided:
//
//	d_i = a_i - b_i,  t = mean(d) / (sd(d) / sqrt(n)),  df = n - 1
//	p = 2 · P(T_df ≥ |t|) = I_{df/(df+t²)}(df/2, 1/2)
//
// with mean and sd (n-1 denominator) from gonum's stat.MeanStdDev and T_df gonum's
// distuv.StudentsT. It
// equals SciPy's scipy.stats.ttest_rel(a, b). All-zero differences give t = 0, p = 1; equal
// non-zero differences give t = ±Inf, p = 0. n < 2 is an error.
func PairedTTest(a, b []float64) (t, p float64, err error) {
	d, err := differences(a, b)
	if err != nil {
		return 0, 0, err
	}
	if len(d) < 2 {
		return 0, 0, fmt.Errorf("stats: the paired t-test needs at least 2 pairs, got %d", len(d))
	}
	if allZero(d) {
		return 0, 1, nil
	}
	mean, sd := stat.MeanStdDev(d, nil) // n ≥ 2 here
	n := float64(len(d))
	if sd == 0 {
		return math.Copysign(math.Inf(1), mean), 0, nil
	}
	t = mean / (sd / math.Sqrt(n))
	dist := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: n - 1}
	p = 2 * dist.Survival(math.Abs(t))
	return t, math.Min(p, 1), nil
}
