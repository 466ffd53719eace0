package ppi_test

import (
	"fmt"

	"github.com/ranklab/ranklab/ppi"
)

func ExampleMeanLambda() {
	// Four queries judged by people (y) and by the judge (yhat); the judge on six queries.
	y, yhat := []float64{1, 0, 1, 1}, []float64{1, 0, 0, 1}
	unlabeled := []float64{1, 1, 0, 0, 1, 0}
	// λ = 1: θ̂ = mean(unlabeled) + mean(y − yhat) = 1/2 + 1/4 = 0.75;
	// se = √(var(unlabeled)/6 + var(y − yhat)/4) = √(0.25/6 + 0.1875/4) = 0.29756;
	// the 95% interval is 0.75 ± 1.95996 · 0.29756 = 0.75 ± 0.58320.
	iv := ppi.MeanLambda(y, yhat, unlabeled, 0.95, 1)
	fmt.Printf("%.4f [%.4f, %.4f]\n", iv.Mean, iv.Low, iv.High)
	// PPI++: λ = cov(y, yhat) / ((1 + 4/6) · var(all 10 predictions)) = 0.125 / (5/3 · 2.5/9) = 0.27.
	iv = ppi.Mean(y, yhat, unlabeled, 0.95)
	fmt.Printf("λ %.2f: %.4f [%.4f, %.4f]\n", iv.Lambda, iv.Mean, iv.Low, iv.High)
	// Output:
	// 0.7500 [0.1668, 1.3332]
	// λ 0.27: 0.7500 [0.3700, 1.1300]
}
