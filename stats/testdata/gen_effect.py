#!/usr/bin/env python3
"""Reference values of the paired effect sizes for stats.CohensD (d_z) and stats.CohensDav (d_av).

Regenerate with the peer evaluators' virtual environment (SciPy comes with ranx):

    py=$(bash scripts/peers.sh | tail -1)
    $py stats/testdata/gen_effect.py > stats/testdata/effect_ref.json

Each case holds the paired samples a, b (floats printed with repr, so they round-trip exactly) and

    d_z  = scipy.stats.ttest_rel(a, b).statistic / sqrt(n)             (= mean(a-b) / sd(a-b))
    d_av = mean(a - b) / ((scipy.stats.tstd(a) + scipy.stats.tstd(b)) / 2)
    r    = scipy.stats.pearsonr(a, b).statistic                        (for the reader: d_z grows with r)

with tstd the sample standard deviation (n-1 denominator).
"""
import json
import math
import sys

import numpy as np
import scipy
from scipy import stats

rng = np.random.RandomState(20261203)


def case(name, a, b):
    a = [float(x) for x in a]
    b = [float(x) for x in b]
    n = len(a)
    d_z = float(stats.ttest_rel(a, b).statistic) / math.sqrt(n)
    d_av = float(np.mean(np.subtract(a, b))) / ((float(stats.tstd(a)) + float(stats.tstd(b))) / 2)
    r = float(stats.pearsonr(a, b).statistic) if n > 2 else None
    return {"name": name, "a": a, "b": b, "d_z": d_z, "d_av": d_av, "r": r}


base = np.clip(rng.normal(0.55, 0.25, 50), 0, 1)
cases = [
    case("two pairs", [0.5, 0.25], [0.25, 0.5 + 0.125]),
    case("three pairs", [1.0, 2.0, 4.0], [0.5, 1.0, 1.0]),
    case("negative effect", [0.1, 0.3, 0.2, 0.4, 0.25], [0.3, 0.35, 0.5, 0.45, 0.4]),
    case("ties: binary P@1 style", [1, 1, 0, 1, 0, 1, 1, 0, 1, 1], [0, 1, 0, 1, 0, 0, 1, 0, 0, 1]),
    # Two rankers of the same queries: scores strongly correlated, +0.05 on average.
    case("correlated runs n=50, +0.05", np.clip(base + 0.05 + rng.normal(0, 0.03, 50), 0, 1), base),
    case("independent runs n=50, +0.05", np.clip(rng.normal(0.60, 0.25, 50), 0, 1), np.clip(rng.normal(0.55, 0.25, 50), 0, 1)),
    case("unequal spreads n=30", rng.uniform(0.2, 1.0, 30), rng.uniform(0.4, 0.6, 30)),
    case("grades n=25", rng.randint(0, 4, 25) / 3.0, rng.randint(0, 4, 25) / 3.0),
]

json.dump({"generator": "scipy.stats.ttest_rel, scipy.stats.tstd, scipy.stats.pearsonr",
           "scipy": scipy.__version__, "numpy": np.__version__,
           "command": "$(bash scripts/peers.sh | tail -1) stats/testdata/gen_effect.py > stats/testdata/effect_ref.json",
           "cases": cases}, sys.stdout, indent=1)
sys.stdout.write("\n")
