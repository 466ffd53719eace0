package compare_test

import (
	"fmt"

	"github.com/ranklab/ranklab/compare"
	"github.com/ranklab/ranklab/eval"
)

func ExampleOptions_FromResults() {
	queries := []string{"q1", "q2", "q3", "q4", "q5"}
	ndcg := []eval.Measure{eval.NDCG(10)}
	first := eval.Result{Tag: "first stage", Measures: ndcg, Queries: queries,
		Values: [][]float64{{0.6}, {0.65}, {0.5}, {0.6}, {0.55}}}
	reranked := eval.Result{Tag: "reranked", Measures: ndcg, Queries: queries,
		Values: [][]float64{{0.9}, {0.7}, {0.8}, {0.6}, {0.75}}}
	r, err := compare.Options{}.FromResults(first, reranked)
	if err != nil {
		fmt.Println(err)
		return
	}
	c, err := r.Comparison("reranked", eval.NDCG(10))
	if err != nil {
		fmt.Println(err)
		return
	}
	// d = (0.3, 0.05, 0.3, 0, 0.2): mean 0.17, 4 wins and 1 tie. SciPy's
	// ttest_rel(reranked, first) gives t = 2.7221786146864804, p = 0.05286781735336241.
	fmt.Printf("baseline %s: %.2f -> %.2f (%+.2f), W/T/L %d/%d/%d\n", r.Baseline(), c.Baseline, c.Mean, c.Diff, c.Wins, c.Ties, c.Losses)
	fmt.Printf("t = %.4f, p = %.4f, significant: %v\n", c.T, c.PT, c.SignificantT(0.05))
	// Output:
	// baseline first stage: 0.58 -> 0.75 (+0.17), W/T/L 4/1/0
	// t = 2.7222, p = 0.0529, significant: false
}

func ExampleReport_Comparison() {
	queries := []string{"q1", "q2", "q3"}
	ms := []eval.Measure{eval.NDCG(10), eval.P(5)}
	r, err := compare.Options{}.FromResults(
		eval.Result{Tag: "bm25", Measures: ms, Queries: queries, Values: [][]float64{{0.5, 0.4}, {0.25, 0.2}, {1, 0.6}}},
		eval.Result{Tag: "reranked", Measures: ms, Queries: queries, Values: [][]float64{{0.75, 0.6}, {0.5, 0.2}, {1, 0.8}}},
	)
	if err != nil {
		fmt.Println(err)
		return
	}
	// A comparison is looked up by run and measure; d = (0.25, 0.25, 0).
	c, _ := r.Comparison("reranked", eval.NDCG(10))
	fmt.Printf("%s: %+.4f, W/T/L %d/%d/%d\n", c.Measure, c.Diff, c.Wins, c.Ties, c.Losses)
	fmt.Println(r.Column("reranked", eval.P(5)))
	// A measure the report does not hold is an error, not a panic.
	_, err = r.Comparison("reranked", eval.NDCG(20))
	fmt.Println(err)
	// Output:
	// nDCG@10: +0.1667, W/T/L 2/1/0
	// [0.6 0.2 0.8] <nil>
	// compare: the report has no measure nDCG@20 (measures: nDCG@10, P@5)
}
