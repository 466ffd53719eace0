package lab

import (
	"fmt"
	"github.com/ranklab/ranklab/eval"
)

// Collection builds a small test collection from the lab's synthetic generator: queries queries
// named s01, s02, …, each newSynthetic(seed+i, n, quality, rerankQuality) for i = 0, 1, …
// (quality is the first stage's, rerankQuality the reranker's, both in [0, 1]). It returns the
// qrels (every candidate's grade, 0 included, plus the judged items the first stage missed), the
// first-stage run (first-stage scores) and the reranked run (the first depth candidates
// reordered by RerankOrder, scored n, n-1, … by rank so the file order is the ranking).
// Runs are tagged "first" and "reranked". It panics on the arguments newSynthetic and
// RerankOrder panic on (n < 0, a quality outside [0, 1], depth outside 0..n).
//
//	qrels, first, reranked := lab.Collection(30, 20, 10, lab.DefaultQuality, lab.DefaultRerankQuality, 1)
func Collection(queries, n, depth int, quality, rerankQuality float64, seed int64) (qrels eval.Qrels, first, reranked eval.Run) {
	qrels = eval.Qrels{}
	first = eval.Run{Tag: "first", Queries: map[string][]eval.ScoredDoc{}}
	reranked = eval.Run{Tag: "reranked", Queries: map[string][]eval.ScoredDoc{}}
	width := len(fmt.Sprint(queries))
	if width < 2 {
		width = 2
	}
	for i := range queries {
		q := fmt.Sprintf("s%0*d", width, i+1)
		syn := newSynthetic(seed+int64(i), n, quality, rerankQuality)
		judged := map[string]int{}
		for _, c := range syn.Candidates {
			judged[c.Doc] = c.Grade
			first.Queries[q] = append(first.Queries[q], eval.ScoredDoc{Doc: c.Doc, Score: c.FirstScore})
		}
		for _, c := range syn.Missed {
			judged[c.Doc] = c.Grade
		}
		qrels[q] = judged
		for rank, k := range RerankOrder(syn.Candidates, depth) {
			reranked.Queries[q] = append(reranked.Queries[q], eval.ScoredDoc{Doc: syn.Candidates[k].Doc, Score: float64(n - rank)})
		}
	}
	return qrels, first, reranked
}
