package lab_test

import (
	"fmt"

	"github.com/ranklab/ranklab/lab"
)

func ExampleState_Outcome() {
	o, err := lab.DefaultState().Outcome()
	if err != nil {
		panic(err)
	}
	fmt.Println(o.Query)
	for _, it := range o.Items[:6] {
		mark := " "
		if it.InsideK {
			mark = "*"
		}
		fmt.Printf("%s %2d (was %2d) %s grade %d\n", mark, it.Rank, it.FirstRank, it.Doc, it.Grade)
	}
	m := o.Metrics
	fmt.Printf("P@5 %.3f  R@5 %.3f  MRR@5 %.3f  nDCG@5 %.3f\n", m.Precision, m.Recall, m.MRR, m.NDCG)
	fmt.Println(o.Link)
	// Output:
	// how do I make retrieval robust to real user queries?
	// *  1 (was  3) d03 grade 3
	// *  2 (was  9) d09 grade 1
	// *  3 (was  4) d04 grade 0
	// *  4 (was 10) d10 grade 0
	// *  5 (was  2) d02 grade 1
	//    6 (was  5) d05 grade 0
	// P@5 0.600  R@5 0.375  MRR@5 1.000  nDCG@5 0.715
	// k=5&rerank=10&rerank_quality=50&grade=1&total=0&corpus=10000&chunk=512&overlap=128&seed=2278&n=20
}

func ExampleState_OutcomeFor() {
	// A hand-built first stage: b is relevant (grade 1), d is the best item (grade 3) at rank 4.
	syn := lab.Synthetic{Candidates: []lab.Candidate{
		{Doc: "a", Grade: 0, FirstScore: 4, RerankScore: 0.1},
		{Doc: "b", Grade: 1, FirstScore: 3, RerankScore: 0.5},
		{Doc: "c", Grade: 0, FirstScore: 2, RerankScore: 0.2},
		{Doc: "d", Grade: 3, FirstScore: 1, RerankScore: 0.9},
	}}
	s := lab.DefaultState()
	s.K, s.Rerank = 2, 4
	o, err := s.OutcomeFor(syn)
	if err != nil {
		panic(err)
	}
	fmt.Printf("first stage: P@2 %.2f nDCG@2 %.3f\n", o.FirstMetrics.Precision, o.FirstMetrics.NDCG)
	fmt.Printf("reranked:    P@2 %.2f nDCG@2 %.3f\n", o.Metrics.Precision, o.Metrics.NDCG)
	fmt.Println(o.Reading[4])
	// Output:
	// first stage: P@2 0.50 nDCG@2 0.083
	// reranked:    P@2 1.00 nDCG@2 1.000
	// Reranking reorders the first 4 candidates by the reranker score; the rest keep their first-stage order and nothing outside the list can enter. It moved d (grade 3, from rank 4) into the top 2 and a (grade 0, to rank 4) out of it. Against the first stage: precision@2 0.500 → 1.000, recall@2 0.500 → 1.000, nDCG@2 0.083 → 1.000, MRR@2 0.500 → 1.000.
}

func ExampleParseLink() {
	s, err := lab.ParseLink("k=10&grade=2")
	fmt.Println(s.K, s.MinGrade, s.Rerank, err)
	_, err = lab.ParseLink("k=10&depth=3")
	fmt.Println(err)
	_, err = lab.ParseLink("rerank=30")
	fmt.Println(err)
	// Output:
	// 10 2 10 <nil>
	// link: unknown key "depth" (keys: k, rerank, rerank_quality, grade, total, corpus, chunk, overlap, seed, n)
	// rerank: 30 must be in 0..20 (the list has 20 candidates)
}
