package ppi_test

import (
	"fmt"

	"github.com/ranklab/ranklab/ppi"
)

func ExampleMean() {
	// Four queries judged by people (y) and by the judge (yhat); the judge alone on six more.
	y, yhat := []float64{1, 0, 1, 1}, []float64{1, 0, 0, 1}
	unlabeled := []float64{1, 1, 0, 0, 1, 0}
	// λ = cov(y, yhat) / ((1 + 4/6) · var(all 10 predictions)) = 0.125 / (5/3 · 2.5/9) = 0.27;
	// θ̂ = λ·mean(unlabeled) + mean(y − λ·yhat) = 0.27·0.5 + (0.75 − 0.27·0.5) = 0.75.
	iv := ppi.Mean(y, yhat, unlabeled, 0.95)
	fmt.Printf("λ %.2f: %.4f [%.4f, %.4f]\n", iv.Lambda, iv.Mean, iv.Low, iv.High)
	// Output:
	// λ 0.27: 0.7500 [0.3700, 1.1300]
}
