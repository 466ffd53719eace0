package compare_test

import (
	"fmt"

	"github.com/ranklab/ranklab/compare"
)

func ExampleFromScores() {
	queries := []string{"q1", "q2", "q3", "q4", "q5"}
	first := compare.Scores{Name: "first stage", Queries: queries,
		Values: [][]float64{{0.6}, {0.65}, {0.5}, {0.6}, {0.55}}}
	reranked := compare.Scores{Name: "reranked", Queries: queries,
		Values: [][]float64{{0.9}, {0.7}, {0.8}, {0.6}, {0.75}}}
	r, err := compare.FromScores([]string{"nDCG@10"}, []compare.Scores{first, reranked}, nil, compare.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	c := r.Comparison("reranked", "nDCG@10")
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
	r, err := compare.FromScores([]string{"nDCG@10", "P@5"}, []compare.Scores{
		{Name: "bm25", Queries: queries, Values: [][]float64{{0.5, 0.4}, {0.25, 0.2}, {1, 0.6}}},
		{Name: "reranked", Queries: queries, Values: [][]float64{{0.75, 0.6}, {0.5, 0.2}, {1, 0.8}}},
	}, nil, compare.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	// A measure is found by the name it was given or by what it means: trec_eval's ndcg_cut.10
	// is nDCG@10. d = (0.25, 0.25, 0).
	c := r.Comparison("reranked", "ndcg_cut.10")
	fmt.Printf("%s: %+.4f, W/T/L %d/%d/%d\n", r.Measures[c.Measure], c.Diff, c.Wins, c.Ties, c.Losses)
	fmt.Println(r.Column("reranked", "P@5"))
	// Output:
	// nDCG@10: +0.1667, W/T/L 2/1/0
	// [0.6 0.2 0.8]
}
