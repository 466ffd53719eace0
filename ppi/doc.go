// Package ppi estimates a mean from many automatic labels and a few human ones, with a valid
// confidence interval: prediction-powered inference (Angelopoulos, Bates, Fannjiang, Jordan &
// Zrnic, Science 2023) with the power tuning of PPI++ (Angelopoulos, Duchi & Zrnic 2023), as
// Oosterhuis et al. (KDD 2024) use it for IR measures. The unit is a query: y[i] is a measure's
// value for query i under human judgments, yhat[i] its value under the automatic judge, both on
// the n queries people judged; unlabeled holds the automatic values of the N other queries (those
// people did not judge). The estimate is of the mean over the population the queries are drawn
// from, and the people's queries must be a random sample of the queries.
//
//	est := ppi.Mean(human, autoOnHuman, autoOnTheRest, 0.95)   // PPI++: λ tuned from the data
//	fmt.Printf("%.4f [%.4f, %.4f]\n", est.Mean, est.Low, est.High)
//
// # The estimate
//
// With a weight λ on the automatic labels (Mean tunes it; Simulate also reports λ = 1):
//
//	θ̂ = mean_N(λ·ŷ_unlabeled) + mean_n(y − λ·ŷ)
//	se = √( var_N(λ·ŷ_unlabeled)/N + var_n(y − λ·ŷ)/n )      (variances divide by the count)
//	interval: θ̂ ± z·se, z the standard normal's (1 + level)/2 quantile
//
// The second mean, the rectifier, removes the automatic judge's bias as measured on the queries
// people judged; λ = 1 is the original PPI, λ = 0 the classical mean of y alone. Mean takes the
// λ that minimises the variance (PPI++), clipped to [0, 1], so the interval is never much wider
// than the human-only one however poor the judge:
//
//	λ̂ = cov_n(y, ŷ) / ((1 + n/N) · var_{n+N}(ŷ ∪ ŷ_unlabeled))
//
// (cov_n divides by n, var_{n+N} by n + N − 1 over the pooled predictions: ppi_py's
// ppi_mean_ci and ppi_mean_pointestimate, which these functions equal to 2e-15, TestPeers.)
//
// Keep the human-judged queries out of unlabeled: the formula takes the two samples as
// independent, and with the same queries in both the term λ·(cov(y, ŷ) − λ·var(ŷ))·2/N is missing
// from the variance (on a biased judge the 90% interval of PPI++ covered 86% of the time in a
// simulation, TestSimulateCoverage's population, instead of 90%).
//
// CLT is the plain normal interval of one sample, mean ± z·√(var/n): of y alone (the human-only
// interval) or of the automatic values alone (the naive interval, which treats the judge as the
// truth and so misses its bias: its coverage falls as N grows, however good it looks).
//
// The interval is asymptotic (a normal approximation): with few human queries (n below about
// 30) or a measure concentrated on a few values its coverage can fall below the level; check it
// by simulation on a collection with full judgments (ranklab ppi --simulate).
package ppi
