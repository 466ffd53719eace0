package pool_test

import (
	"fmt"
	"os"

	"github.com/ranklab/ranklab/eval"
	"github.com/ranklab/ranklab/pool"
)

func ExampleDepth() {
	bm25 := eval.Run{Tag: "bm25", Queries: map[string][]eval.ScoredDoc{"q1": {{Doc: "a", Score: 3}, {Doc: "b", Score: 2}, {Doc: "c", Score: 1}}}}
	dense := eval.Run{Tag: "dense", Queries: map[string][]eval.ScoredDoc{"q1": {{Doc: "b", Score: 0.9}, {Doc: "d", Score: 0.8}}}}
	runs := []eval.Run{bm25, dense}

	p := pool.Depth(runs, 2, nil)
	pool.Write(os.Stdout, p.Pairs)
	for _, c := range p.Runs {
		fmt.Printf("%s: top %d, unique %d, added %d\n", c.Run, c.Top, c.Unique, c.Added)
	}
	// Judged so far: a and b. Deeper, only the new pair c is asked.
	judged := eval.Qrels{"q1": {"a": 1, "b": 0, "d": 0}}
	fmt.Println(pool.Depth(runs, 3, judged).Pairs)
	// Move-to-front: a is relevant, so bm25 keeps the front; b (not relevant) was reached too:
	// dense takes over, its b is known, d is judged, back to bm25: c.
	fmt.Println(pool.MoveToFront(runs, 0, judged, 1).Pairs)
	// Output:
	// q1 0 a -1
	// q1 0 b -1
	// q1 0 d -1
	// bm25: top 2, unique 1, added 2
	// dense: top 2, unique 1, added 1
	// [{q1 c}]
	// [{q1 c}]
}
