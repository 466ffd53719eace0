// Package pool chooses the query–document pairs to judge: depth-k pooling (TREC's) and
// move-to-front pooling (Cormack, Palmer & Clarke 1998), over any number of runs, with what
// each run contributes, and a pool that grows later without re-judging what is judged.
//
// The simplest use:
//
//	p := pool.Depth(runs, 20, nil)           // the top 20 of every run, every query
//	err := pool.Write(w, p.Pairs)             // "q1 0 d7 -1" lines: qrels every tool reads
//	p = pool.Depth(runs, 50, judged)          // deeper later: only the pairs not judged yet
//	p = pool.MoveToFront(runs, 100, judged, 1) // the next pair to judge for each query
//
// # Runs and ranks
//
// A run's ranking of a query is eval.Rank's (trec_eval's: score descending, ties by doc ID
// descending); its top k are its first k docs (k = 0: all of them). Queries are every query
// that some run ranks, in byte order.
//
// # Judged pairs
//
// A pair is judged when judged (the qrels so far) gives it a grade >= 0. A negative grade is
// trec_eval's "in the pool, not judged" (what Write writes), so a pool file given back as
// judged takes nothing out. Judged pairs never enter a pool again: growing a pool (a deeper k,
// more runs, more of move-to-front) lists only new pairs.
//
// # Depth-k pooling
//
// The pool of query q is the union over the runs of their top k for q, less the judged pairs:
//
//	Pool(q) = ⋃_r top_k(r, q) \ Judged(q)
//
// Pairs are listed query by query, each query's pairs by the best (smallest) rank any run gives
// them, then by the first run (in the order given) that has them at that rank, then doc ID: the
// pairs every run puts first come first, as in a round-robin over the runs.
//
// What each run contributes (contribution): Top, the new pairs in its top k (not judged);
// Unique, those no other run has in its top k (the run's unique contribution: dropping the
// run from the pool loses exactly these); Added, those not in the top k of a run given
// before it (the marginal contribution in the order given, summing to the pool's size).
//
// # Move-to-front pooling
//
// Move-to-front (MTF) is adaptive: which pair to judge next depends on the grades given so
// far, so a pool of it is one next pair per query, and the loop is judge, then pool again with
// the grades. For each query, independently of the others (the "local" MTF), with the runs'
// top k as their lists:
//
//  1. Every run starts with the same priority, p_r = 0; the current run c is the first given.
//  2. Take c's highest-ranked doc that this query has not reached yet.
//     If c has none left, drop c and let c be the run with the highest priority that has docs
//     left (ties: the order given); stop when no run has any.
//  3. If the doc is not judged, it is the next pair to judge: stop.
//  4. If it is relevant (grade >= the relevance level), stay with c and go to 2.
//     If not, p_c ← p_c − 1 and c ← the run with the highest priority among the other runs
//     with docs left (ties: the order given; c stays only when it is the last run with docs).
//     Go to 2.
//
// So a run keeps the front while it finds relevant docs and moves back after each non-relevant
// one: good runs contribute deep, poor runs shallow, the "variable number of documents from each
// source depending on its retrieval performance" of the paper's abstract. A doc already
// reached through another run is skipped without changing any priority (its grade is known).
//
// Source of the steps: the paper itself could not be read here (only its abstract); the steps
// are those of the MTF baseline as Losada, Parapar & Barreiro (SAC 2016, IP&M 2017) describe it
// ("all runs start with the maximum priority; the run with the highest priority is chosen and
// its documents are judged until a non-relevant one is found; then its priority is decreased by
// one and the run with the highest priority is chosen"), with the ties made deterministic (the
// order the runs are given, where their code draws the first run at random).
//
// Replaying the judged qrels: the steps run from the start with judged as the oracle, so when
// every grade came from MTF the replay retraces exactly the judgments that were made, and the
// first pair the replay reaches unjudged is the next one. Grades made some other way (an earlier
// depth pool) are used when the replay reaches their pair, at no cost.
//
// What each run contributes to MTF (contribution): Top, the judged pairs the replay took from
// the run plus the next pair when it is the run's; Added equals Top; Unique counts those pairs
// that no other run has in its top k.
//
// # The pool file
//
// Write writes pairs as TREC qrels lines with grade -1, in the pool's order:
//
//	q1 0 d7 -1
//
// trec_eval, ranklab's eval and every qrels reader read it (a negative grade is "pooled, not
// judged"); Read reads it back in order. A judging tool shows the pairs in file order and
// writes the grades it gets as ordinary qrels lines (grade >= 0) to give back as judged;
// A judging tool lists what is left to judge (the pool pairs the judged qrels lack), in order, so
// it resumes where it stopped (package judge does).
//
// # Simulated judgments
//
// To study what incomplete judgments do, the package also simulates them against qrels taken as
// the complete truth: a TREC-style pool judged (Judge), a uniform random sample of it (Sample,
// what infAP estimates from), and the per-query bookkeeping such a study needs (WithRelevant,
// MeanOver). Notebook 09 uses it on Cranfield:
//
//	pooled := pool.Judge(truth, 20, bm25)           // BM25's top 20 of every query, judged
//	half := pool.Sample(pooled, 0.5, 1)             // half of it judged, the rest grade −1
//	qs := pool.WithRelevant(half)                   // queries an estimate can be made for
//	ap := pool.MeanOver(res, eval.AP(), qs)
package pool
