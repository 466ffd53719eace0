package compare_test

import (
	"fmt"

	"github.com/ranklab/ranklab/compare"
	"github.com/ranklab/ranklab/eval"
)

// Three runs on six queries: every pair by Tukey's HSD and the randomised Tukey test.
func ExampleAllPairsScores() {
	queries := []string{"q1", "q2", "q3", "q4", "q5", "q6"}
	scores := [][]float64{
		{0.61, 0.42, 0.90, 0.35, 0.70, 0.55}, // bm25
		{0.58, 0.40, 0.88, 0.30, 0.69, 0.50}, // qld
		{0.75, 0.52, 0.97, 0.49, 0.80, 0.66}, // reranked
	}
	r, err := compare.AllPairsScores(eval.NDCG(10), []string{"bm25", "qld", "reranked"}, queries, scores, compare.AllPairsOptions{Permutations: 1000})
	if err != nil {
		panic(err)
	}
	hsd, rnd := r.Pair("reranked", "bm25")
	fmt.Printf("reranked − bm25 %+.4f: HSD p %.1e, randomised p %.4f\n", hsd.Diff, hsd.P, rnd.P)
	fmt.Println("letters (HSD):", r.LettersHSD)
	// Output:
	// reranked − bm25 +0.1100: HSD p 8.4e-06, randomised p 0.0180
	// letters (HSD): [b b a]
}
