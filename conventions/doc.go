// Package conventions answers "why do the numbers differ?": it scores one run under the rules
// of each evaluation tool people compare numbers from, side by side, explains every number that
// differs from ranklab's with reasons computed from the data, and measures how far ties in the
// scores can move each query's value.
//
// The simplest use:
//
//	table, err := conventions.Compare(qrels, run, eval.NDCG(10), eval.Recall(100), eval.RRAt(10))
//	fmt.Print(table.Text()) // or Markdown, CSV, HTML, JSON
//	ties, err := conventions.Ties(qrels, run, eval.Options{AllQueries: true}, eval.NDCG(10))
//
// # The conventions
//
// Each row of a Table is a Convention: a tool, or one way of calling it, at the version the peer
// test checks (scripts/peers.sh). Its rules for a measure (a variant, in variant.go); each rule is written
// with the file it was read from (Convention.Sources). In short:
//
//	convention            order of a query's docs               queries averaged             formula departures
//	ranklab (reference)   score, ties by doc ID descending      every qrels query (-c)       none: eval.Measure.Compute
//	trec_eval 10.0        as ranklab                            every qrels query; stops     recip_rank is not cut at k
//	                                                            (exit 4) when one lacks a ranking
//	trec_eval 10.0 -c     as ranklab                            every qrels query            recip_rank not cut
//	pytrec_eval 0.5.11    scores as float32, then as ranklab    qrels queries the run ranks  recip_rank not cut
//	ir_measures 0.4.3     pytrec_eval's; RR@k: MS MARCO's,      every qrels query (0 for     —
//	                      ties by doc ID ascending, float64     the missing)
//	ranx 0.3.21           numba's quicksort of -score over      the same queries, else       —
//	                      the file order (not stable)           AssertionError
//	BEIR 2.2.0            pytrec_eval's (P, Recall, NDCG, MAP); shared queries (pytrec_eval) all metrics: a doc whose ID
//	                      MRR@k, Accuracy@k: score, ties in     or ÷ len(qrels) (custom);    is the query's is dropped
//	                      file order (stable sort)              KeyError on a run-only query (ignore_identical_ids); means
//	                                                                                         rounded to 5 decimals
//	BEIR R_cap            as BEIR's custom metrics              as BEIR's custom metrics     ÷ min(R, k); R = 0 divides by 0
//	ragas 0.4.3           the list in file order, top k         every qrels query; NaN       precision ÷ |top k|; NaN
//	                                                            queries left out (nanmean)   without retrieved/relevant docs
//	LlamaIndex 0.14.25    the list in file order, top k         every qrels query            precision ÷ |top k|; NDCG with
//	                                                                                         gain 1 and an ideal over all R
//	                                                                                         docs; ValueError without
//	                                                                                         retrieved or relevant docs
//	LlamaIndex granular   as LlamaIndex                         as LlamaIndex                HitRate = hits / R; MRR = mean
//	                                                                                         1/rank of the relevant docs
//
// A relevant doc has grade >= 1 in every row (ragas' reference IDs and LlamaIndex's expected IDs
// are the docs of grade >= 1). Tools that take a list of IDs (ragas, LlamaIndex) get each query's
// docs in the run's file order, as a user reading the file into lists would; eval.ReadRun keeps
// that order.
//
// # Reasons
//
// A cell agrees when it is within 1e-9 of the reference row. Each other cell gets one
// line per rule that moves its number on this data, each rule measured alone against the
// reference (the reference with that one rule changed): which queries are left out and why,
// how many queries a tie order or float32 scores change (with the first one and the rank of its
// tie), how many queries have their first relevant doc below k for an uncut recip_rank, how many
// have R > k for a capped recall or an uncut ideal, ... A tool that stops gets its error instead,
// naming the query and what it raises.
//
// # Ties
//
// Ties gives, per query and measure, the value under trec_eval's order, under the best and the
// worst order within tied scores, and the exact expected value over all orders (see Ties for the
// formulas), the queries whose value depends on the tie order, and the band of the mean.
// RankingBand does the same for one ranking (the lab's hook).
package conventions
