// Package stats holds the paired significance tests and multiple-comparison corrections used to
// compare two retrieval runs query by query, and the power computations that say how many
// queries such a comparison needs.
//
// The simplest call:
//
//	t, p, err := stats.PairedTTest(ndcgReranked, ndcgFirstStage)
//
// Every function takes two equal-length slices a and b of per-query scores, paired by index
// (a[i] and b[i] are the same query), and works on the differences d[i] = a[i] - b[i]. Inputs are
// never modified. Decisions made once for the whole package:
//
//   - Pairing: len(a) must equal len(b); otherwise an error names both lengths. NaN or infinite
//     scores are an error naming the index.
//   - Two-sided tests only. The null hypothesis is "mean difference 0" (t-test) or "each
//     difference is as likely to be +d as -d" (randomization test).
//   - All differences zero (identical runs): t = 0, p = 1, randomization p = 1, CI [0, 0],
//     effect sizes 0. No division by zero happens.
//   - Effect sizes: d_z (CohensD) divides the mean difference by the spread of the differences
//     and grows with the runs' correlation; d_av (CohensDav) divides by the average spread of
//     the scores and is the one to read against Cohen's 0.2/0.5/0.8 (effect.go explains).
//   - All differences equal and non-zero (sd = 0): t = ±Inf and p = 0, as SciPy's ttest_rel
//     returns; the effect size is ±Inf too.
//   - The t-test needs n ≥ 2 pairs (n-1 degrees of freedom); with n < 2 it returns an error. The
//     randomization test and the bootstrap accept n = 1 (p = 1, CI [d, d]).
//   - Randomness comes only from the seed argument: a PCG generator (math/rand/v2) seeded with
//     (seed, 0x9e3779b97f4a7c15). The same inputs and seed give the same result on every machine.
//   - Randomization p-value: (c + 1) / (N + 1), where N is the number of random sign-flip
//     permutations and c the number of them whose |sum| reaches the observed |sum| (within a
//     relative 1e-12, so floating-point ties count). The "+1" counts the observed assignment
//     itself, so p is never 0 and the estimate is a valid (slightly conservative) p-value.
//   - Bootstrap interval: percentile method with linear interpolation between order statistics
//     (numpy's default percentile, as scipy.stats.bootstrap(method="percentile")). Not BCa: for
//     the mean of paired differences the bootstrap distribution is nearly unbiased, so BCa's bias
//     correction is small; its acceleration comes from a jackknife that is degenerate for the
//     data IR comparisons have (few queries, many ties, e.g. most differences exactly 0), and the
//     percentile interval is the one a reader can check by hand.
//   - Corrections (Holm, Bonferroni) return adjusted p-values, capped at 1, in the input order;
//     compare the adjusted value to α.
//   - Design before the experiment (power.go): the power of the paired t-test and of the blocked
//     ANOVA F test, exact from the noncentral t and F distributions (equal to SciPy's nct and
//     ncf), and the smallest number of queries (topic set size, Sakai 2016) that reaches a
//     power or an expected interval width: TopicsPairedT, TopicsANOVA, TopicsCI.
//   - Many systems at once (tukey.go, randomized_tukey.go): m systems scored on the same n
//     queries come as systems[j][i] (system j, query i). TukeyHSD treats the queries as blocks
//     (two-way ANOVA residual, as Carterette 2012 and Sakai 2014); TukeyHSDOneWay is SciPy's
//     tukey_hsd for independent groups (what ranx's Tukey computes). RandomizedTukey permutes
//     each query's scores across the systems and compares every pair with the largest mean
//     difference of each draw. All three return p-values already adjusted for the m(m−1)/2
//     pairs. The studentized range (studentized.go) is integrated numerically, checked against
//     SciPy. Package compare's AllPairs runs these tests on evaluated runs, optionally on
//     standardised scores, and gives the compact letter display of which systems differ.
package stats
