package conventions_test

import (
	"fmt"
	"strings"

	"github.com/ranklab/ranklab/conventions"
	"github.com/ranklab/ranklab/eval"
)

// Three judged queries, q3 without a ranking; in q1 the relevant doc "a" ties with "b".
func ExampleCompare() {
	qrels, _ := eval.ReadQrels(strings.NewReader("q1 0 a 1\nq2 0 c 1\nq3 0 d 1\n"), "qrels")
	run, _ := eval.ReadRun(strings.NewReader("q1 Q0 a 1 1 t\nq1 Q0 b 2 1 t\nq2 Q0 c 1 2 t\n"), "run")
	table, _ := conventions.Compare(qrels, run, eval.RRAt(1))
	for _, name := range []string{conventions.Reference, "trec_eval 10.0 -c", "pytrec_eval 0.5.11 (trec_eval 9.0.8)", "ir_measures 0.4.3"} {
		c, _ := table.Cell(name, eval.RRAt(1))
		fmt.Printf("%s: %.4f\n", name, c.Value)
		for _, r := range c.Reasons {
			fmt.Println("  " + r)
		}
	}
	// Output:
	// ranklab (trec_eval 10.0 -c): 0.6667
	// trec_eval 10.0 -c: 0.5000
	//   ties broken by doc ID descending, not ascending: changes 1 query (query "q1": tie at rank 1)
	// pytrec_eval 0.5.11 (trec_eval 9.0.8): 0.7500
	//   query "q3" has no ranking: left out, averaged over 2 queries, not 3
	//   ties broken by doc ID descending, not ascending: changes 1 query (query "q1": tie at rank 1)
	// ir_measures 0.4.3: 0.6667
}

// Four docs tie at the top, one of them relevant: every rank is as likely for it.
func ExampleRankingBand() {
	docs := []eval.ScoredDoc{{Doc: "d1", Score: 2}, {Doc: "d2", Score: 2}, {Doc: "d3", Score: 2}, {Doc: "d4", Score: 2}}
	b := conventions.RankingBand(docs, map[string]int{"d3": 1}, eval.RR())
	fmt.Printf("trec_eval %.4f, worst %.4f, best %.4f, expected %.4f = (1 + 1/2 + 1/3 + 1/4)/4\n", b.Trec, b.Worst, b.Best, b.Expected)
	// Output:
	// trec_eval 0.5000, worst 0.2500, best 1.0000, expected 0.5208 = (1 + 1/2 + 1/3 + 1/4)/4
}
