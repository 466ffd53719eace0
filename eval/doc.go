// Package eval reads TREC qrels and runs and computes every measure of trec_eval 10.0 exactly
// (its test suite reproduces through `ranklab eval`), under trec_eval's and ir_measures' names.
//
// The simplest use:
//
//	qrels, err := eval.ReadQrelsFile("qrels.txt") // TREC or BEIR TSV, gzip or not
//	run, err := eval.ReadRunFile("run.txt")
//	res, err := eval.Evaluate(qrels, run, eval.NDCG(10), eval.P(10))
//	res.Mean(eval.NDCG(10))      // the mean over the evaluated queries
//	res.PerQuery(eval.NDCG(10))  // query ID → value
//	eval.Options{AllQueries: true}.Evaluate(qrels, run, eval.NDCG(10)) // trec_eval -c
//	ms, err := eval.ParseMeasures("official", "nDCG@10", "iprec_at_recall..1,.2")
//
// # Files
//
// TREC qrels "query-id iteration doc-id grade" (the iteration ignored, the grade an integer),
// BEIR qrels (tab-separated, header "query-id\tcorpus-id\tscore") and TREC runs "query-id Q0
// doc-id rank score tag" (Q0, the rank and fields after the tag ignored; a query's lines need
// not be adjacent); Files names trec_eval's other formats. Input starting with gzip's magic
// bytes is gunzipped; "-" (a pipe) is read once; a UTF-8 byte-order mark is dropped; CRLF is
// read, a bare CR or a line over 64 MiB is an error (package internal/scan); a line whose
// first non-blank character is '#' is a comment in every format (trec_eval 10.0 reads some as
// a query "#"); blank run lines are skipped, a blank line elsewhere is an error.
//
// A score (a preference level, a Z-score mean) is a decimal number with a finite float64 value,
//
//	[+|-] ( digits [ "." [digits] ] | "." digits ) [ (e|E) [+|-] digits ]
//
// and a grade an integer "[+|-]digits" of 32 bits: "1_000", "0x10", "inf", "1.5" as a grade are
// errors, where trec_eval would read a prefix and Go's strconv another value. Nothing is skipped
// or guessed: a wrong field count, a bad number, a doc listed twice for one query, an empty file
// or a read error is a *ParseError "file:line: msg" that unwraps to one of the Err* sentinels.
//
// # Semantics (trec_eval 10.0's, checked against its test suite)
//
// Ranking. A query's docs are sorted by score (as float64) descending, ties by doc ID descending
// in byte order ("d9" > "d10" > "c"); the rank column plays no part. Options.Depth (-M) then
// keeps the first docs, Options.JudgedOnly (-J) drops those not judged. (trec_eval's preference
// measures and ir_measures' Judged break ties by doc ID ascending; ranklab follows each.)
//
// Grades. A doc is relevant when its grade is at least the relevance level L (Options.RelLevel,
// -l, default 1; a measure's rel= wins). A grade in [0, L) is judged non-relevant; a negative
// grade is "in the pool, unjudged" as in trec_eval (never relevant, zero gain, skipped by bpref,
// unjudged for infAP, unj, rbp_resid and -J; judged for ir_measures' Judged@k). A retrieved doc
// the qrels do not list has grade Unjudged.
//
// Query sets. The evaluated queries are those in both the qrels and the run (as trec_eval 9.0.8
// and pytrec_eval); qrels queries without a ranking are listed in Result.Missing (`ranklab
// eval` then stops as trec_eval 10.0 does) and evaluated with Options.AllQueries (-c); run-only
// queries are listed in Result.Ignored. Options.TrecEval9 applies 9.0.8's rules.
// Result.Mean(m) is the mean over the evaluated queries summed in byte order of their IDs;
// Result.All(m) is trec_eval's "all" line; TrecFormat prints trec_eval's format.
//
// ir_measures' names give its values: RR@k as its msmarco provider (float64, ties by ID
// ascending), nDCG(dcg='exp-log2')@k as gdeval (float64), Judged@k as its judged provider, the
// rest as pytrec_eval (float32 scores: Options.TrecEval9). Left: gdeval's 5 decimals and "014"
// = "14"; no RBP provider in the pinned ir_measures; judged_only=True is -J.
//
// Names. Measures print in ir_measures' form where it has them (P(rel=2)@5) and in trec_eval's
// -m spelling otherwise (gm_map, relative_P.5) and parse back; ParseMeasures also reads
// trec_eval's names with their parameters (P.5,10) and nicknames (official, all_trec, ...).
//
// # Measures
//
// Every measure: ir_measures' name, trec_eval's, the value for one query, with n ranked docs,
// g(i) the grade at rank i (NP: not in the qrels, UJ: negative), rel(i) = [g(i) >= L], R the
// judged docs with grade >= L, RR_n = Σ_{i<=n} rel(i), rel@k = Σ_{i<=min(k,n)} rel(i); a ratio
// over 0 is 0. Where trec_eval's C reads uninitialised memory, its reference build's value.
//
//	P@k         P_k               rel@k / k
//	R@k         recall_k          rel@k / R
//	RR, RR@k    recip_rank        1 / min{i <= k: rel(i)} (trec_eval: no cutoff)
//	AP, AP@k    map, map_cut_k    Σ_{i<=k, rel(i)} (rel@i / i) / R
//	nDCG@k      ndcg_cut_k        Σ_{i<=k, g(i)>0} g(i)/log2(i+1) / the same over the judged
//	                              grades sorted descending; dcg=exp-log2: gain 2^g − 1
//	nDCG        ndcg[.1=3,2=9]    dcg / ideal_dcg with trec_eval's gain table (below)
//	Rprec       Rprec             rel@R / R
//	Bpref       bpref             Σ_{rel(i)} (1 − min(N_i, R)/min(N, R)) / R, N_i the judged
//	                              non-relevant docs above i, N all of them (NP, UJ skipped)
//	Success@k   success_k         1 when rel@k > 0
//	Judged@k    —                 #{i <= min(k,n): g(i) != NP} / min(k, n), ties by ID ascending
//	ERR@k       —                 Σ_{i<=k} S(g(i))/i · Π_{j<i} (1 − S(g(j))), S(g) = (2^g − 1)/2^G
//	                              for g > 0, G = max(4, the query's top grade) (gdeval's scale)
//	IPrec@r     iprec_at_recall_r max_{j >= j_K} RR_j/j, j_K the rank of the K-th relevant doc,
//	                              K = round(r·R) (TrecEval9: trunc(r·R+0.9)); 0 when K > RR_n
//	infAP       infAP             Σ_{rel(j)} [j=1 ? 1 : 1/j + (r+nr+u)/j · (r+ε)/(r+nr+2ε)] / R, r,
//	                              nr, u: relevant, non-relevant, UJ docs above j; ε = 0.00001
//	SetP        set_P             RR_n / n;  SetP(relative=True), set_relative_P: RR_n / min(n, R)
//	SetR        set_recall        RR_n / R
//	SetAP       set_map           RR_n² / (n·R)
//	SetF(beta=x) set_F.x          (x+1)·P·C / (x·P + C), P = RR_n/n, C = RR_n/R (x is β²)
//	RBP(p=x)    rbp.p=x           (1−p) Σ_{i<=n} gain(g(i)) p^(i−1), gain the grade / the top
//	                              grade when > 1 (rel=N: binary); default p 0.8, trec_eval 0.9
//	NumQ, NumRet, NumRel, NumRelRet   num_q, num_ret, num_rel, num_rel_ret: 1, n, R, RR_n
//	—           num_nonrel_judged_ret n − #NP − #UJ − RR_n
//	—           gm_map, gm_bpref  AP, bpref stored as log(max(v, 0.00001)); mean: exp(mean)
//	—           relative_P_k      rel@k / min(k, R)
//	—           Rprec_mult.x      rel@K / K, K = trunc(x·R + 0.9)
//	—           11pt_avg[.levels] the mean of IPrec at 0, 0.1, ..., 1 (or the levels given)
//	—           utility.a,b,c,d   a·RR_n + b·(n−RR_n) + c·(R−RR_n) + d·(N+RR_n−n−R), N NumDocs
//	—           binG              Σ_{rel(i)} 1/log2(2 + #{non-relevant above i}) / R
//	—           dcg, ideal_dcg    Σ_{i<=n} gain(g(i))/log2(i+1), gain the grade or the table's
//	                              ("1=3,2=9"); ideal: judged docs by gain, while gain > 0
//	—           G[.table]         Σ_i gain(g(i))/log2(2 + C_i − S_i) / Σ ideal gains, S_i, C_i
//	                              the run's and the ideal gains (each >= 1) summed to rank i
//	—           ndcg_rel, Rndcg   the mean running nDCG at each retrieved gain > 0 (ideal change)
//	—           yaap              log((1 + S)/(1 + R − S)), S = Σ_{rel(i)} rel@i / i
//	—           rbp_resid.p=x     p^n + (1−p) Σ_{i<=n, g(i) NP or UJ} p^(i−1) when one is, else 0
//	—           unj_k             #{i <= min(k,n): g(i) NP or UJ} / k
//	—           relstring.len     the top min(len, n) grades as text ('>' above 9, '-' NP, '.' UJ)
//	—           runid             the run's tag (text, on the "all" line)
//	—           prefs_*           preference counts and ratios per judgment group (prefs.go)
//	—           map_avgjg, P_avgjg_k, Rprec_mult_avgjg.x: averaged over judgment groups
package eval
