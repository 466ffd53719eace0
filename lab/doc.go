// Package lab measures the ranking a retriever returns: it reads TREC qrels and runs, computes
// the measures trec_eval computes (with trec_eval's exact semantics), and models the
// interactive lab.
//
// The simplest use:
//
//	qrels, _ := lab.ReadQrelsFile("qrels.txt")
//	run, _ := lab.ReadRunFile("run.txt")
//	res, _ := lab.Evaluate(qrels, run, []lab.Measure{lab.NDCG(10), lab.P(10)}, lab.Options{})
//	fmt.Println(res.Means)
//
// # Evaluator semantics
//
// Grades. A qrels grade is an integer. A doc is relevant when its grade is at least the
// relevance level L (Options.RelLevel, trec_eval's -l, default 1; a measure's own rel= wins).
// A grade in [0, L) is judged non-relevant. A negative grade means "judged, never relevant":
// gain 0, not counted in R, skipped by bpref (trec_eval's "in pool, unjudged"). A retrieved doc
// that the qrels do not list gets the grade Unjudged: not relevant, gain 0.
package lab
