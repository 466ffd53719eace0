package agree_test

import (
	"fmt"

	"github.com/ranklab/ranklab/agree"
	"github.com/ranklab/ranklab/eval"
)

func ExampleJudges() {
	human := eval.Qrels{"q1": {"a": 2, "b": 1, "c": 0, "d": 0}, "q2": {"e": 2, "f": 0}}
	llm := eval.Qrels{"q1": {"a": 2, "b": 2, "c": 0, "d": 1}, "q2": {"e": 2, "f": 0}}
	ag, err := agree.Judges(human, llm, agree.Options{Resamples: 1000})
	if err != nil {
		panic(err)
	}
	fmt.Println(len(ag.Pairs), "pairs, confusion", ag.Confusion)
	// Binary: p_o = 5/6, p_e = (3·2 + 3·4)/36 = 1/2: κ = 2/3. Quadratic: Σ w·O = 2,
	// Σ w·r_i·c_j / n = 62/6: κ = 1 − 12/62 = 0.8065.
	fmt.Printf("binary κ %.4f, quadratic κ %.4f\n", ag.Binary.Value, ag.Quadratic.Value)
	// Output:
	// 6 pairs, confusion [[2 1 0] [0 0 1] [0 0 2]]
	// binary κ 0.6667, quadratic κ 0.8065
}
