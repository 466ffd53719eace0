package stats_test

import (
	"fmt"

	"github.com/ranklab/ranklab/stats"
)

func ExamplePairedTTest() {
	reranked := []float64{0.9, 0.7, 0.8, 0.6, 0.75}
	first := []float64{0.6, 0.65, 0.5, 0.6, 0.55}
	t, p, err := stats.PairedTTest(reranked, first)
	if err != nil {
		fmt.Println(err)
		return
	}
	// SciPy: ttest_rel(reranked, first) = (2.7221786146864804, 0.05286781735336241).
	fmt.Printf("t = %.3f, p = %.4f\n", t, p)

	_, _, err = stats.PairedTTest([]float64{0.9}, []float64{0.6})
	fmt.Println(err)
	// Output:
	// t = 2.722, p = 0.0529
	// stats: the paired t-test needs at least 2 pairs, got 1
}

func ExamplePairedTTest_identical() {
	run := []float64{0.5, 0.25, 1}
	t, p, _ := stats.PairedTTest(run, run)
	fmt.Println(t, p)
	// Output:
	// 0 1
}

func ExampleRandomizationTest() {
	a := []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
	b := []float64{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}
	// Every difference is +1: only 2 of the 2^10 sign assignments reach |sum| = 10, exact
	// p = 2/1024 ≈ 0.002; the estimate (c+1)/(N+1) with N = 9999 lands near it.
	p, _ := stats.RandomizationTest(a, b, 9999, stats.DefaultSeed)
	fmt.Printf("p ≈ %.3f\n", p)
	// Output:
	// p ≈ 0.002
}

func ExampleHolm() {
	p := []float64{0.03, 0.01, 0.04, 0.02}
	fmt.Printf("%.2f\n", stats.Holm(p))
	fmt.Printf("%.2f\n", stats.Bonferroni(p))
	// Output:
	// [0.06 0.04 0.06 0.06]
	// [0.12 0.04 0.16 0.08]
}

func ExampleBootstrapCI() {
	a := []float64{0.9, 0.7, 0.8, 0.6, 0.75}
	b := []float64{0.6, 0.65, 0.5, 0.6, 0.55}
	lo, hi, _ := stats.BootstrapCI(a, b, stats.DefaultResamples, 0.95, stats.DefaultSeed)
	// The mean difference is (0.3 + 0.05 + 0.3 + 0 + 0.2) / 5 = 0.17; the interval around it
	// stays above 0.
	fmt.Println(lo > 0 && lo < 0.17 && hi > 0.17)
	// Output:
	// true
}

func ExampleTopicsPairedT() {
	// Two systems whose per-query differences have standard deviation 0.1: how many queries
	// does the paired t-test (α = 0.05) need to detect a true mean difference of 0.05 with
	// probability 0.8? d_z = 0.05/0.1 = 0.5, the textbook "medium" paired effect: 34 queries.
	n, _ := stats.TopicsPairedT(0.05, 0.1, 0.05, 0.8)
	p, _ := stats.PowerPairedT(n, 0.05, 0.1, 0.05)
	fmt.Printf("%d queries, power %.3f\n", n, p)
	// Output:
	// 34 queries, power 0.808
}
