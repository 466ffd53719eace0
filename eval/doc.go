// Package eval is the evaluator: it reads TREC qrels and runs and computes every measure of
// trec_eval 10.0 with trec_eval's exact semantics (its own test suite reproduces byte for byte
// through `ranklab eval`), under trec_eval's and ir_measures' names.
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
// TREC qrels: one judgment a line, exactly 4 whitespace-separated fields
// "query-id iteration doc-id grade"; the iteration is ignored, the grade is an integer.
// BEIR qrels: tab-separated, header "query-id\tcorpus-id\tscore", then 3 fields a line.
// TREC run: at least 6 fields "query-id Q0 doc-id rank score tag"; Q0, the rank column and
// fields after the tag are ignored; a query's lines need not be adjacent. Preferences
// (ReadPrefs: "query-id group sub-group doc-id level"), qrels with judgment groups
// (ReadQrelsJG) and Z-score files (ReadZScores) are trec_eval's other formats.
//
//	q1 0 d1 2              (TREC qrels: d1 has grade 2 for q1)
//	q1 Q0 d1 1 12.5 bm25   (run: q1 retrieved d1 with score 12.5)
//
// Every reader shares these rules. Input starting with gzip's magic bytes is gunzipped,
// whatever the file name; the path "-" is standard input. A UTF-8 byte-order mark at the start
// is dropped (trec_eval would make it part of the first query ID). A line whose first non-blank
// character is '#' is a comment, in every format (trec_eval 10.0 skips a '#' line of qrels only
// when the line before is not one too, reads the second of two as a judgment of a query named
// "#", and crashes on one at the end of the file: ranklab never makes a query "#"). Blank run
// lines are skipped, as in trec_eval; a blank line elsewhere is an error. A CRLF line ending is
// fine.
//
// Numbers. A score (and a preference level, a Z-score mean) is a decimal number,
//
//	[+|-] ( digits [ "." [digits] ] | "." digits ) [ (e|E) [+|-] digits ]
//
// with a finite float64 value: what C's strtod reads when it consumes the whole field. Anything
// else ("1_000", "0x10", "1,5", "1e", "inf", "nan", "1e400") is an error, where trec_eval would
// read a prefix ("1_000" as 1) and Go's strconv another value (1000): never a third meaning. A
// grade is an integer "[+|-]digits" of 32 bits; trec_eval's atol would read "1.5" as 1 and "abc"
// as 0, ranklab refuses them.
//
// Nothing is skipped or guessed otherwise: a wrong field count, a bad number, a doc listed twice
// for one query (in a run or in qrels; trec_eval reports it only for a query it evaluates), an
// empty file or a read error is a *ParseError printed "file:line: msg" that unwraps to
// ErrFieldCount, ErrGrade, ErrScore, ErrLevel, ErrDuplicate, ErrEmptyLine, ErrEmpty, ErrHeader
// or ErrTruncated (a gzip stream that ends early: the line after the last complete one, the same
// in every reader). Messages quote at most the first 40 bytes of a bad field.
//
// # Evaluator semantics (trec_eval 10.0's, checked against its output and its test suite)
//
// Ranking. A query's docs are sorted by score (as float64) descending, ties broken by doc ID
// descending in byte order ("d9" > "d10" > "c" > "b" > "a" > "B"); "1", "1.0", "1e0" and
// "0.10e1" are the same score. The rank column plays no part. Options.Depth (-M) then keeps
// the first Depth docs, and Options.JudgedOnly (-J) drops the docs that are not judged.
// (trec_eval's preference measures break ties by doc ID ascending, and so does ir_measures'
// Judged; ranklab follows each.)
//
// Grades. A doc is relevant when its grade is at least the relevance level L (Options.RelLevel,
// trec_eval's -l, default 1; levels below 1 are refused, where trec_eval would count
// non-relevant or unjudged docs as relevant). A measure's own rel= (ir_measures' P(rel=2)@5)
// wins over L. A grade in [0, L) is judged non-relevant. A negative grade means "in the pool,
// unjudged" as in trec_eval: never relevant, zero gain, not in R, skipped by bpref, counted as
// unjudged by infAP, unj, rbp_resid and -J, shown "." by relstring; ir_measures' Judged@k counts
// it as judged, as ir_measures does. A retrieved doc the qrels do not list has grade Unjudged.
// R is the number of judged docs of the query with grade >= L, retrieved or not.
//
// Measures. The formulas are on the constructors (P, Recall, AP, NDCG, IPrec, infAP, RBP, ...),
// the preference measures on EvaluatePrefs, the judgment-group ones on EvaluateJG. Where
// trec_eval's C reads uninitialised memory ranklab takes the value its reference build prints:
// rbp normalises gains with min = max = 0 to start with (so grades divided by the query's largest
// grade when that exceeds 1). dcg, ideal_dcg and ndcg each have their own parameters (trec_eval
// shares them and crashes).
//
// ir_measures' names. A name spelled as ir_measures spells it gives ir_measures' value,
// provider by provider: RR@k as its msmarco provider computes it (float64 scores, ties by doc ID
// ascending; plain RR is pytrec_eval's recip_rank), nDCG(dcg='exp-log2')@k as gdeval does
// (float64 scores, ties by doc ID descending), Judged@k as its judged provider (ties ascending,
// divided by min(k, n)); RBP(rel=N) is binary RBP, SetF(beta=x) passes x as trec_eval's set_F
// does. The measures ir_measures takes from pytrec_eval (P, R, RR, AP, nDCG, Rprec, Bpref,
// Success, IPrec, infAP, SetP, SetR, SetAP, SetF, NumQ, NumRet, NumRel, NumRelRet) rank by float32
// scores there, which Options.TrecEval9 (--trec-eval-9) reproduces: under TrecEval9 every name
// gives ir_measures' value; under the default 10.0 rules those values differ only for a query
// with two scores equal as float32 and not as float64. The differences that remain are
// ir_measures' own: gdeval prints 5 decimals (ranklab's value is unrounded, within 5e-6) and
// reads query IDs as numbers (it refuses non-numeric ones and dies dividing by zero when "014"
// and "14" are both in the qrels; ranklab reads any ID, and those as two queries); the pinned
// ir_measures has no provider for RBP (ranklab computes trec_eval's rbp); ranklab does not read
// judged_only=True (use Options.JudgedOnly, -J); a qrels query without a ranking scores 0 in
// ir_measures for NumRel and NumQ too. Its
// quoted spelling nDCG(dcg='exp-log2')@10 is read as nDCG(dcg=exp-log2)@10, the form ranklab
// prints. The differential test (peers_test.go) covers every ir_measures name ranklab reads.
//
// Query sets. By default the evaluated queries are those in both the qrels and the run (the
// rule of DESIGN.md, of trec_eval 9.0.8 and of pytrec_eval); qrels queries without a ranking
// are listed in Result.Missing, and `ranklab eval` then stops as trec_eval 10.0 does (exit 4),
// naming them and pointing to -c and --trec-eval-9. With Options.AllQueries (-c) every qrels
// query is evaluated, one without a ranking as trec_eval 10.0 does (see Options.AllQueries).
// Queries only in the run are never evaluated; they are listed in Result.Ignored. A query is
// evaluated even when it has no relevant doc (it then counts 0 in the means).
//
// trec_eval 9.0.8. Options.TrecEval9 (`ranklab eval --trec-eval-9`) applies the rules where
// 9.0.8, which pytrec_eval embeds, differs from 10.0: float32 scores, IPrec and 11pt_avg's
// trunc(x·R + 0.9), and -c leaving out the queries without a ranking. The differential test
// (peers_test.go) checks every shared measure per query against pytrec_eval, ir_measures and
// ranx.
//
// Means. Result.Mean(m) is the mean over the evaluated queries (summed in byte order of the
// query IDs); for gm_map and gm_bpref, whose per-query values are the logs trec_eval stores,
// the geometric mean. Result.All(m) is trec_eval's "all" line: the sum for counts, the number of
// queries for num_q, and with -c trec_eval's count of judgments with a grade > 0 for num_rel.
// TrecFormat prints trec_eval's format, measure order and names; Standardize gives -Z's values.
//
// Large runs. EvaluateRunFile gives Evaluate's exact result for a run file without holding the
// run in memory when each query's lines are adjacent (the usual case): the file is cut into
// blocks of whole queries evaluated on every core, and only each query's judged docs are ranked.
// An ungrouped run is read again whole, from the start of the same file, or for a pipe or
// standard input from the copy made as it streamed (memory, then $TMPDIR): the result is always
// the file's. Every reader reads lines by the rules of package internal/scan: a BOM dropped, CRLF
// read, a bare CR or a line over 64 MiB an error at its line, gzip by its magic bytes.
//
// Names. Measures print in ir_measures' canonical form where ir_measures has them (P@5,
// P(rel=2)@5, nDCG(dcg=exp-log2)@10, IPrec@0.5, RBP(p=0.9)) and in trec_eval's -m spelling
// otherwise (gm_map, relative_P.5, utility.2,-1,0,0, ndcg.1=3,2=9), and parse back to the same
// value; ParseMeasures also reads trec_eval's names with their parameters (P.5,10,
// iprec_at_recall..1,.2, ndcg_cut.10, map, ...) and nicknames (official, all_trec, set,
// all_prefs, prefs, qrels_jg), with trec_eval's default parameters when none are given.
package eval
