// Package compare compares two or more retrieval runs on one set of relevance judgments, query
// by query, with paired significance tests. The result is a value, Report, looked up by run name
// and measure (Comparison, Mean, Column: a measure is an eval.Measure, so a misspelt one does not
// compile, and one the report lacks is a returned error) and printed as text, Markdown, LaTeX
// (booktabs), CSV or JSON; package charts draws it (CompareTable, CompareMeans, CompareDiff).
//
// The simplest call, with runs read by package eval (a run is named by its Tag):
//
//	r, err := compare.Runs(qrels, []eval.Measure{eval.NDCG(10), eval.P(5)}, firstStage, reranked)
//	fmt.Print(r.Text())
//	c, err := r.Comparison(reranked.Tag, eval.NDCG(10))
//	fmt.Println(c.Diff, c.PTHolm)
//
// Results the caller already has go to Options.FromResults (eval.Result values;
// compare.Options{}.FromResults(a, b) with the defaults), per-query values computed elsewhere to
// Options.FromScores; Options{...}.Runs is Runs with options.
// Every p-value is named by its test and correction, the same everywhere: PT, PTHolm,
// PTBonferroni (paired t-test), PPerm, PPermHolm, PPermBonferroni (randomization test).
//
// Decisions made once:
//
//   - Baseline: the first run, or the one Options.Baseline names. Every other run is compared
//     with it, on every measure; those (runs-1) × measures comparisons form the family that Holm
//     and Bonferroni correct over, separately for the t-test and for the randomization test
//     (Joint makes one family of several reports).
//   - Paired query set: the qrels queries that at least one run ranks (with Eval.AllQueries,
//     every qrels query). Per-query values come from eval.Evaluate; a run with no ranking for a
//     query of the set scores 0 on it, as trec_eval -c scores missing topics, and the report
//     names those queries per run (Report.Runs[i].ScoredZero and a note). A run's queries that the
//     qrels lack are ignored, as trec_eval does, and named too. So a run's mean here can differ
//     from `ranklab eval` without -c when the runs do not rank the same queries; the note says so.
//   - Differences are run − baseline: positive means the run is better on a measure where higher
//     is better. Win/tie/loss counts queries with d > 1e-9, |d| ≤ 1e-9, d < −1e-9.
//   - Tests (package stats): the paired Student t-test (two-sided, gonum's t distribution, equal
//     to SciPy's ttest_rel), the paired randomization test (sign flips, Permutations draws,
//     p = (c+1)/(N+1)), and the percentile bootstrap interval of the mean difference. The
//     randomization test and the bootstrap use the seed in Options (default 42, 10000 draws
//     each), so a report is reproducible. Effect size: Cohen's d_z = mean(d) / sd(d).
//   - Significance marks: "*" when the Holm-adjusted t-test p ≤ α, "†" when the Holm-adjusted
//     randomization p ≤ α (α = 0.05 by default). Unadjusted and Bonferroni p are reported too.
//   - Identical runs (every difference 0): t = 0, p = 1, interval [0, 0], d_z = 0. One query:
//     the t-test, the effect size and the bootstrap intervals are not computed (NaN in the
//     values, "n/a" in text, null in JSON; a resampled single difference would give the
//     degenerate [d, d]) and a note says why; the randomization test then gives p = 1. Equal non-zero
//     differences on every query: t = ±Inf, p = 0 (as SciPy), printed "inf", null in JSON.
//   - Every format prints the same Report values and computes nothing; LaTeX and Markdown escape
//     their special characters (charts.CompareTable escapes every string for HTML).
package compare
