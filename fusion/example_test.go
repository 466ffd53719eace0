package fusion_test

import (
	"fmt"

	"github.com/ranklab/ranklab/eval"
	"github.com/ranklab/ranklab/fusion"
)

func ExampleFuse() {
	bm25 := eval.Run{Tag: "bm25", Queries: map[string][]eval.ScoredDoc{"q1": {{Doc: "a", Score: 12.1}, {Doc: "b", Score: 9.4}}}}
	dense := eval.Run{Tag: "dense", Queries: map[string][]eval.ScoredDoc{"q1": {{Doc: "b", Score: 0.82}, {Doc: "c", Score: 0.80}}}}
	fused, _ := fusion.Fuse([]eval.Run{bm25, dense}, fusion.Options{}) // RRF, k = 60
	for _, d := range fused.Queries["q1"] {
		fmt.Printf("%s %.6f\n", d.Doc, d.Score)
	}
	// Output:
	// b 0.032522
	// a 0.016393
	// c 0.016129
}
