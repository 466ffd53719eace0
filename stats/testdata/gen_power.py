#!/usr/bin/env python3
"""Reference values of the topic set size design functions (stats/power.go), from SciPy.

Regenerate with the peer evaluators' virtual environment (SciPy comes with ranx):

    py=$(bash scripts/peers.sh | tail -1)
    $py stats/testdata/gen_power.py > stats/testdata/power_ref.json

Each formula is SciPy's distributions, independent of the Go code:

    paired t   c = t.ppf(1 - alpha/2, n-1), nc = diff/sd*sqrt(n)
               power = nct.sf(c, n-1, nc) + nct.cdf(-c, n-1, nc)
    ANOVA      d1 = m-1, d2 = (m-1)(n-1), lambda = n*diff^2/(2 sd^2)
               power = ncf.sf(f.ppf(1-alpha, d1, d2), d1, d2, lambda)
    CI width   2 * t.ppf((1+level)/2, n-1) * sd*sqrt(2/(n-1))*exp(gammaln(n/2)-gammaln((n-1)/2)) / sqrt(n)

and the topic set sizes are the smallest n >= 2 meeting the target, found by counting up.
"""
import json
import math
import sys

import scipy
from scipy import stats
from scipy.special import gammaln


def power_t(n, diff, sd, alpha):
    c = stats.t.ppf(1 - alpha / 2, n - 1)
    nc = abs(diff) / sd * math.sqrt(n)
    return float(stats.nct.sf(c, n - 1, nc) + stats.nct.cdf(-c, n - 1, nc))


def power_anova(m, n, diff, sd, alpha):
    d1, d2 = m - 1, (m - 1) * (n - 1)
    lam = n * diff * diff / (2 * sd * sd)
    return float(stats.ncf.sf(stats.f.ppf(1 - alpha, d1, d2), d1, d2, lam))


def ci_width(n, sd, level):
    es = sd * math.sqrt(2 / (n - 1)) * math.exp(gammaln(n / 2) - gammaln((n - 1) / 2))
    return float(2 * stats.t.ppf((1 + level) / 2, n - 1) * es / math.sqrt(n))


def smallest(ok):
    n = 2
    while not ok(n):
        n += 1
    return n


power_t_cases = [
    {"n": n, "diff": d, "sd": s, "alpha": a, "power": power_t(n, d, s, a)}
    for (n, d, s, a) in [(2, 0.1, 0.1, 0.05), (5, 0.05, 0.1, 0.05), (30, 0.0245, 0.0418, 0.05),
                         (30, 0.0333, 0.18, 0.05), (50, 0.02, 0.1, 0.01), (200, 0.01, 0.1, 0.05),
                         (1000, 0.01, 0.12, 0.05), (12, -0.1, 0.2, 0.1)]
]
topics_t_cases = [
    {"diff": d, "sd": s, "alpha": a, "power": p,
     "n": smallest(lambda n: power_t(n, d, s, a) >= p)}
    for (d, s, a, p) in [(0.1, 0.1, 0.05, 0.8), (0.05, 0.1, 0.05, 0.8), (0.02, 0.1, 0.05, 0.8),
                         (0.0245, 0.0418, 0.05, 0.8), (0.0333, 0.18, 0.05, 0.8), (0.05, 0.15, 0.01, 0.9)]
]
power_anova_cases = [
    {"m": m, "n": n, "diff": d, "sd": s, "alpha": a, "power": power_anova(m, n, d, s, a)}
    for (m, n, d, s, a) in [(2, 30, 0.05, 0.1, 0.05), (3, 20, 0.1, 0.1, 0.05), (5, 50, 0.05, 0.1, 0.05),
                            (10, 100, 0.05, 0.1, 0.05), (20, 200, 0.03, 0.1, 0.05), (4, 10, 0.2, 0.1, 0.01)]
]
topics_anova_cases = [
    {"m": m, "diff": d, "sd": s, "alpha": a, "power": p,
     "n": smallest(lambda n: power_anova(m, n, d, s, a) >= p)}
    for (m, d, s, a, p) in [(2, 0.05, 0.1, 0.05, 0.8), (5, 0.05, 0.1, 0.05, 0.8), (10, 0.05, 0.1, 0.05, 0.8),
                            (20, 0.05, 0.1, 0.05, 0.8), (5, 0.1, 0.15, 0.05, 0.9)]
]
ci_cases = [
    {"n": n, "sd": s, "level": l, "width": ci_width(n, s, l)}
    for (n, s, l) in [(2, 0.1, 0.95), (10, 0.1, 0.95), (30, 0.0418, 0.95), (100, 0.2, 0.99), (1000, 0.1, 0.9)]
]
topics_ci_cases = [
    {"width": w, "sd": s, "level": l, "n": smallest(lambda n: ci_width(n, s, l) <= w)}
    for (w, s, l) in [(0.1, 0.1, 0.95), (0.04, 0.1, 0.95), (0.02, 0.0418, 0.95), (0.05, 0.2, 0.99)]
]

json.dump({"generator": "scipy.stats.nct, scipy.stats.ncf, scipy.stats.t, scipy.special.gammaln",
           "scipy": scipy.__version__,
           "command": "$(bash scripts/peers.sh | tail -1) stats/testdata/gen_power.py > stats/testdata/power_ref.json",
           "power_t": power_t_cases, "topics_t": topics_t_cases,
           "power_anova": power_anova_cases, "topics_anova": topics_anova_cases,
           "ci_width": ci_cases, "topics_ci": topics_ci_cases}, sys.stdout, indent=1)
sys.stdout.write("\n")
