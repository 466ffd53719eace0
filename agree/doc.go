// Package agree measures how far two judges agree: on the pairs both judged, Cohen's κ (binary
// at a relevance threshold, and weighted for grades) with a confusion matrix and bootstrap
// intervals; and, given runs, how much the ranking of the runs changes when one judge's qrels
// replace the other's (Kendall's τ, τ_AP, and the pairs of runs that swap).
//
// The simplest use:
//
//	a, _ := eval.ReadQrelsFile("human.qrels")
//	b, _ := eval.ReadQrelsFile("llm.qrels")
//	ag, err := agree.Judges(a, b, agree.Options{})
//	fmt.Println(ag.Binary.Value, ag.Quadratic.Value, ag.Quadratic.Low, ag.Quadratic.High)
//	sr, err := agree.Systems(a, b, runs, agree.Options{})
//	fmt.Println(sr.Tau, sr.TauAP, sr.Swaps)
//
// # The pairs
//
// A pair (query, doc) is judged by a judge when its qrels give it a grade >= 0 (a negative
// grade is trec_eval's "pooled, not judged"). Agreement is computed on the pairs both judged;
// the pairs only one judged are counted (OnlyA, OnlyB) and otherwise left out.
//
// # Cohen's κ
//
// With the categories c_1 < … < c_m (Options.Labels, else every grade either judge gave on the
// common pairs), the confusion matrix O (O_ij: pairs A graded c_i and B graded c_j, n pairs),
// the expected matrix E_ij = (row_i · col_j) / n, and weights w_ij:
//
//	κ = 1 − Σ w_ij O_ij / Σ w_ij E_ij
//
//	unweighted  w_ij = 0 if i = j, else 1   (Cohen 1960: (p_o − p_e) / (1 − p_e))
//	linear      w_ij = |i − j|
//	quadratic   w_ij = (i − j)²
//
// Distances are between category positions i, j, not grade values: as scikit-learn's
// cohen_kappa_score, which this matches (TestPeers: 600 cases, max difference 4.4e-16).
// Set Labels to the whole scale (0, 1, 2, 3) to count a 0-versus-3 disagreement as 3 steps
// even where no judge used 1 or 2. Binary κ is the unweighted κ of the grades mapped to 1 when
// >= the threshold (Options.Threshold, default 1) and to 0 otherwise. When Σ w_ij E_ij = 0 (both
// judges used one category only) κ is undefined: NaN, as scikit-learn returns.
//
// Intervals: percentile bootstrap over pairs. Each of B = Options.Resamples (default 2000)
// resamples draws n pairs with replacement (PCG seeded with Options.Seed), computes κ; the
// bounds are the α/2 and 1 − α/2 quantiles of the B values (numpy's linear interpolation
// between order statistics), α = 1 − Options.Level (default 0.95). Resamples where κ is
// undefined are left out and counted (Kappa.Undefined). Not the asymptotic standard error:
// the bootstrap gives the same kind of interval for the three weightings and does not assume
// large n, at the price of a seed.
//
// # The ranking of the runs
//
// Systems evaluates every run with one measure (Options.Measure, default nDCG@10) under A and
// under B, on the queries both judged (at least one pair with a grade >= 0 each), every such
// query counted for every run (a run without it scores 0, as trec_eval -c), then compares the
// two orderings of the runs by their means:
//
// Kendall's τ-b (SciPy's kendalltau default), over the pairs of runs, with P concordant and Q
// discordant pairs, T_A the pairs tied under A only and T_B under B only:
//
//	τ_b = (P − Q) / √((P + Q + T_A) · (P + Q + T_B))
//
// τ_AP (Yilmaz, Aslam & Robertson 2008), which weights swaps near the top more, with A as the
// reference: order the runs by their mean under B; for each run i, p(i) is the number of runs
// whose mean under B is strictly higher and C(i) the number of those whose mean under A is
// strictly higher than run i's:
//
//	τ_AP = 2/|S| · Σ_{i∈S} C(i)/p(i) − 1,  S = {i : p(i) > 0}
//
// Without ties p(i) = i − 1 at position i and |S| = N − 1, Yilmaz's formula. Ties (two judges
// giving the same qrels tie every pair of runs the same way) follow Urbano & Marrero (2017, "The
// Treatment of Ties in AP Correlation"), τ_AP,b's term with A as the reference: runs tied under
// B form a group compared only with the groups above it, the top group is not scored, and a
// pair tied under A that B orders is not concordant. Identical means give 1, ties included.
// It is 1 when B orders the runs as A does and −1 when reversed; unlike τ it is not symmetric:
// Systems takes A as the truth (give the human judgments as A). τ-b is NaN for fewer than 2
// runs or when either judge ties them all; τ_AP is NaN when B ties them all.
//
// Swaps (Voorhees 2000): a pair of runs swaps when the sign of its mean difference under A is
// the opposite of its sign under B (a zero difference swaps nothing). For each pair the paired
// t-test of package stats gives a p-value under A and one under B, each Holm-adjusted over all
// the pairs of runs; a swap is significant under a judge when that judge's adjusted p < Alpha
// (Options.Alpha, default 0.05). A swap significant under either judge is one where the choice of
// judge changes a conclusion someone would report.
package agree
