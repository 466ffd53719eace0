#!/usr/bin/env python3
"""SciPy's answers for the many-systems tests of stats (studentized.go, tukey.go).

Run by stats/tukey_peer_test.go with the peers' Python (scripts/peers.sh; SciPy comes with ranx):

    py=$(bash scripts/peers.sh | tail -1)
    $py stats/testdata/tukey_peer.py IN.json

IN.json holds {"dist": [[q, k, df], ...], "ppf": [[p, k, df], ...],
"oneway": [{"groups": [[...], ...], "level": L}, ...], "blocked": [{"systems": [[...], ...], "level": L}, ...]}.
The answer, on standard output as JSON:

    dist     scipy.stats.studentized_range.sf(q, k, df)        (df may be "inf")
    ppf      scipy.stats.studentized_range.ppf(p, k, df)
    oneway   scipy.stats.tukey_hsd(*groups): pvalue, statistic (mean differences) and
             confidence_interval(level).low / .high, as m x m matrices
    blocked  Tukey's HSD with queries as blocks, written here from its definition with SciPy's
             studentized range (scipy.stats.tukey_hsd has no blocked form): residual mean square
             of the two-way ANOVA without replication, df = (n-1)(m-1), se = sqrt(mse/n),
             p = studentized_range.sf(|diff|/se, m, df), interval diff -/+ ppf(level, m, df)*se
"""
import json
import math
import sys

import numpy as np
import scipy
from scipy import stats


def num(x):
    return float("inf") if x == "inf" else float(x)


def blocked(systems, level):
    x = np.asarray(systems, dtype=float)  # x[j, i]: system j, query i
    m, n = x.shape
    e = x - x.mean(axis=1, keepdims=True) - x.mean(axis=0, keepdims=True) + x.mean()
    df = (n - 1) * (m - 1)
    mse = float((e ** 2).sum() / df)
    se = math.sqrt(mse / n)
    means = x.mean(axis=1)
    crit = float(stats.studentized_range.ppf(level, m, df))
    diff = means[:, None] - means[None, :]
    p = stats.studentized_range.sf(np.abs(diff) / se, m, df)
    return {"pvalue": p.tolist(), "diff": diff.tolist(), "low": (diff - crit * se).tolist(),
            "high": (diff + crit * se).tolist(), "mse": mse, "df": df, "critical": crit}


def main():
    case = json.load(open(sys.argv[1]))
    out = {"scipy": scipy.__version__, "dist": [], "ppf": [], "oneway": [], "blocked": []}
    for q, k, df in case.get("dist", []):
        out["dist"].append(float(stats.studentized_range.sf(q, k, num(df))))
    for p, k, df in case.get("ppf", []):
        out["ppf"].append(float(stats.studentized_range.ppf(p, k, num(df))))
    for c in case.get("oneway", []):
        r = stats.tukey_hsd(*[np.asarray(g, dtype=float) for g in c["groups"]])
        ci = r.confidence_interval(confidence_level=c["level"])
        out["oneway"].append({"pvalue": r.pvalue.tolist(), "diff": r.statistic.tolist(),
                              "low": ci.low.tolist(), "high": ci.high.tolist()})
    for c in case.get("blocked", []):
        out["blocked"].append(blocked(c["systems"], c["level"]))
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
