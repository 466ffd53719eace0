package ppi

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// Interval is an estimate of a mean with its confidence interval.
type Interval struct {
	Mean      float64
	Low, High float64
	Level     float64 // the interval's nominal coverage
	Lambda    float64 // the weight of the automatic labels (CLT: 0)
}

// Mean is the PPI++ estimate of the mean of y over the population the unlabeled predictions
// cover, with λ tuned (see the package doc). y and yhat are paired by index (the queries people
// judged); it panics when their lengths differ, when y or unlabeled is empty, or when level is
// not in (0, 1).
func Mean(y, yhat, unlabeled []float64, level float64) Interval {
	check(y, yhat, unlabeled, level)
	n, N := float64(len(y)), float64(len(unlabeled))
	my, mh := mean(y), mean(yhat)
	cov := 0.0
	for i := range y {
		cov += (y[i] - my) * (yhat[i] - mh)
	}
	cov /= n
	// The variance of the predictions, labeled and unlabeled together (ddof 1).
	all := append(append(make([]float64, 0, len(yhat)+len(unlabeled)), yhat...), unlabeled...)
	ma := mean(all)
	v := 0.0
	for _, x := range all {
		v += (x - ma) * (x - ma)
	}
	v /= float64(len(all) - 1)
	lambda := 0.0
	if v > 0 {
		lambda = math.Max(0, math.Min(1, cov/((1+n/N)*v)))
	}
	return meanLambda(y, yhat, unlabeled, level, lambda)
}

// meanLambda is the prediction-powered estimate with the weight lambda on the automatic labels:
// 1 is the original PPI, 0 the classical mean of y (see the package doc). It panics as Mean does.
func meanLambda(y, yhat, unlabeled []float64, level, lambda float64) Interval {
	check(y, yhat, unlabeled, level)
	imputed := make([]float64, len(unlabeled))
	for i, x := range unlabeled {
		imputed[i] = lambda * x
	}
	rect := make([]float64, len(y))
	for i := range y {
		rect[i] = y[i] - lambda*yhat[i]
	}
	mi, vi := meanVar(imputed)
	mr, vr := meanVar(rect)
	est := mi + mr
	se := math.Sqrt(vi/float64(len(imputed)) + vr/float64(len(rect)))
	z := zOf(level)
	return Interval{Mean: est, Low: est - z*se, High: est + z*se, Level: level, Lambda: lambda}
}

// CLT is the normal interval of the mean of x: mean ± z·√(var/n), var dividing by n (numpy's
// std, as ppi_py's classical interval). It panics when x is empty or level is not in (0, 1).
func CLT(x []float64, level float64) Interval {
	if len(x) == 0 {
		panic("ppi: no value")
	}
	checkLevel(level)
	m, v := meanVar(x)
	h := zOf(level) * math.Sqrt(v/float64(len(x)))
	return Interval{Mean: m, Low: m - h, High: m + h, Level: level}
}

func check(y, yhat, unlabeled []float64, level float64) {
	if len(y) != len(yhat) {
		panic(fmt.Sprintf("ppi: %d human values against %d automatic ones", len(y), len(yhat)))
	}
	if len(y) == 0 || len(unlabeled) == 0 {
		panic(fmt.Sprintf("ppi: %d human values, %d unlabeled: want at least 1 of each", len(y), len(unlabeled)))
	}
	checkLevel(level)
}

func checkLevel(level float64) {
	if !(level > 0 && level < 1) {
		panic(fmt.Sprintf("ppi: level %v not in (0, 1)", level))
	}
}

// zOf is the standard normal's (1 + level)/2 quantile.
func zOf(level float64) float64 { return distuv.UnitNormal.Quantile((1 + level) / 2) }

func mean(x []float64) float64 {
	s := 0.0
	for _, v := range x {
		s += v
	}
	return s / float64(len(x))
}

// meanVar returns the mean of x and its variance dividing by n.
func meanVar(x []float64) (m, v float64) {
	m = mean(x)
	for _, e := range x {
		v += (e - m) * (e - m)
	}
	return m, v / float64(len(x))
}
