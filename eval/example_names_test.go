package eval_test

import (
	"fmt"

	"github.com/ranklab/ranklab/eval"
)

func ExampleParseMeasures() {
	ms, _ := eval.ParseMeasures("iprec_at_recall..1,.5", "ndcg_cut.10", "utility.2,-1,0,0", "Judged@10", "rbp")
	for _, m := range ms {
		name, ok := m.TrecName()
		if !ok {
			name = "(no trec_eval name)"
		}
		fmt.Printf("%-18s %s\n", m, name)
	}
	// Output:
	// IPrec@0.1          iprec_at_recall_0.10
	// IPrec@0.5          iprec_at_recall_0.50
	// nDCG@10            ndcg_cut_10
	// utility.2,-1,0,0   utility_2,-1,0,0
	// Judged@10          (no trec_eval name)
	// rbp                rbp
}
