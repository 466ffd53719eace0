// Package eval is the evaluator: it reads TREC qrels and runs and computes trec_eval's measures
// with trec_eval's exact semantics, under trec_eval's and ir_measures' names.
//
// The simplest use:
//
//	qrels, err := eval.ReadQrelsFile("qrels.txt") // TREC or BEIR TSV, gzip or not
//	run, err := eval.ReadRunFile("run.txt")
//	res, err := eval.Evaluate(qrels, run, eval.NDCG(10), eval.P(10))
//	res.Mean(eval.NDCG(10))      // the mean over the evaluated queries
//	res.PerQuery(eval.NDCG(10))  // query ID → value
//	eval.Options{AllQueries: true}.Evaluate(qrels, run, eval.NDCG(10)) // trec_eval -c
//
// # Files
//
// TREC qrels: one judgment a line, exactly 4 whitespace-separated fields
// "query-id iteration doc-id grade"; the iteration is ignored, the grade is an integer.
// BEIR qrels: tab-separated, header "query-id\tcorpus-id\tscore", then 3 fields a line.
// TREC run: at least 6 fields "query-id Q0 doc-id rank score tag"; Q0, the rank column and
// fields after the tag are ignored; the score is a finite float64; a query's lines need not be
// adjacent. Input starting with gzip's magic bytes is gunzipped, whatever the file name.
//
//	q1 0 d1 2        (TREC qrels: d1 has grade 2 for q1)
//	q1 Q0 d1 1 12.5 bm25   (run: q1 retrieved d1 with score 12.5)
//
// Nothing is skipped or guessed: a wrong field count, a grade that is not an integer, a score
// that is not a finite number, a doc listed twice for one query (in a run or in qrels), an empty
// line or an empty file is an error *ParseError printed "file:line: msg" that unwraps to
// ErrFieldCount, ErrGrade, ErrScore, ErrDuplicate, ErrEmptyLine or ErrEmpty.
//
// # Evaluator semantics (those of trec_eval 10.0, checked against its output)
//
// Ranking. A query's docs are sorted by score (as float64) descending, ties broken by doc ID
// descending in byte order ("d9" > "d10" > "c" > "b" > "a" > "B"); "1", "1.0", "1e0" and
// "0.10e1" are the same score. The rank column plays no part. Options.Depth (-M) then keeps
// the first Depth docs.
//
// Grades. A doc is relevant when its grade is at least the relevance level L
// (Options.RelLevel, trec_eval's -l, default 1; levels start at 1). A measure's own rel=
// (ir_measures' P(rel=2)@5) wins over L. A grade in [0, L) is judged non-relevant. A negative
// grade means "judged, never relevant": gain 0, not counted in R, skipped by bpref (trec_eval
// reads it as "in the pool, unjudged"); Judged@k still counts it as judged. A retrieved doc the
// qrels do not list has grade Unjudged: not relevant, gain 0. R is the number of qrels entries
// of the query with grade >= L, retrieved or not.
//
// Measures (formulas on Measure.Compute). P@k divides by k even when fewer than k docs were
// retrieved. R@k, AP and AP@k (map_cut) divide by R and are 0 when R = 0. RR (recip_rank) looks
// at the whole ranking; RR@k (MRR@k, the lab's figure) is 0 when the first relevant doc is
// below k. nDCG@k (trec_eval's ndcg_cut, ir_measures' nDCG@k) uses linear gain = grade for
// positive grades and the discount log2(rank+1); the ideal ranking sorts ALL positive judged
// grades of the query (retrieved or not) and is cut at k; nDCG is 0 when the ideal is 0.
// nDCG(dcg=exp-log2)@k uses gain 2^grade-1 (the lab's default). nDCG without cutoff is
// trec_eval's ndcg: the whole ranking against the uncut ideal. nDCG uses the grades as gains
// and ignores the relevance level L (as trec_eval's -l leaves ndcg_cut unchanged).
//
// Query sets. By default the evaluated queries are those in both the qrels and the run (as
// trec_eval 9.0.8 and pytrec_eval; trec_eval 10.0 stops with an error instead); qrels queries
// without a ranking are reported in Result.Missing. With Options.AllQueries (-c) every qrels
// query is evaluated, a missing one as an empty ranking (0 for every measure but NumRel).
// Queries only in the run are never evaluated and are reported in Result.Ignored. A query is
// evaluated even when it has no relevant doc (it then counts 0 in the means).
//
// Means. Result.Mean(m) (Result.Means[j]) is the arithmetic mean over the evaluated queries (summed in byte
// order of the query IDs). trec_eval's "all" line holds the mean too, except for the counts
// NumQ, NumRet, NumRel and NumRelRet where it holds the sum: Result.All gives that value.
//
// Large runs. EvaluateRunFile gives Evaluate's exact result for a run file without holding the
// run in memory when each query's lines are adjacent (as trec_eval itself requires of a sorted
// run; the usual case): the file is cut into blocks of whole queries evaluated on every core,
// and only each query's judged docs are ranked. An ungrouped run is read whole instead.
//
// Names. Measures print in ir_measures' canonical form (P@5, P(rel=2)@5, nDCG(dcg=exp-log2)@10,
// RR@10) and parse back to the same value; ParseMeasures also reads trec_eval's names
// (P.5,10, recall.100, recip_rank, ndcg_cut.10, map, map_cut.100, success.1,5,10, num_q, ...,
// with trec_eval's default cutoffs when none are given). WriteTrecEval prints trec_eval's
// format, measure order and names.
package eval
