#!/usr/bin/python3
"""Reference values of the paired t-test for stats.PairedTTest.

Regenerate with Debian's SciPy (not the pyenv python3 that may come first on PATH):

    /usr/bin/python3 stats/testdata/gen_ttest.py > stats/testdata/ttest_ref.json

Each case holds the paired samples a, b (floats printed with repr, so they round-trip exactly)
and scipy.stats.ttest_rel(a, b) -> statistic t, two-sided pvalue p, and df.
"""
import json
import sys

import numpy as np
import scipy
from scipy import stats

rng = np.random.RandomState(20240607)


def case(name, a, b):
    a = [float(x) for x in a]
    b = [float(x) for x in b]
    r = stats.ttest_rel(a, b)
    return {"name": name, "a": a, "b": b, "t": float(r.statistic), "p": float(r.pvalue), "df": len(a) - 1}


cases = [
    case("two pairs", [0.5, 0.25], [0.25, 0.5 + 0.125]),
    case("three pairs", [1.0, 2.0, 4.0], [0.5, 1.0, 1.0]),
    case("ties: binary P@1 style", [1, 1, 0, 1, 0, 1, 1, 0, 1, 1], [0, 1, 0, 1, 0, 0, 1, 0, 0, 1]),
    case("ties: many zero differences", [0.2, 0.4, 0.4, 0.6, 0.0, 0.8, 0.2, 0.2], [0.2, 0.4, 0.2, 0.6, 0.0, 0.6, 0.2, 0.4]),
    case("negative t", [0.1, 0.3, 0.2, 0.4, 0.25], [0.3, 0.35, 0.5, 0.45, 0.4]),
    case("uniform n=50", rng.uniform(size=50), rng.uniform(size=50)),
    case("nDCG-like n=50 shifted", np.clip(rng.normal(0.55, 0.2, 50), 0, 1), np.clip(rng.normal(0.5, 0.2, 50), 0, 1)),
    case("large effect n=30 (tiny p)", rng.uniform(0.5, 1.0, 30), rng.uniform(0.0, 0.3, 30)),
    case("small effect n=200", rng.normal(0.401, 0.1, 200), rng.normal(0.4, 0.1, 200)),
    case("grades n=25", rng.randint(0, 4, 25) / 3.0, rng.randint(0, 4, 25) / 3.0),
]

json.dump({"generator": "scipy.stats.ttest_rel", "scipy": scipy.__version__, "numpy": np.__version__,
           "command": "/usr/bin/python3 stats/testdata/gen_ttest.py > stats/testdata/ttest_ref.json",
           "cases": cases}, sys.stdout, indent=1)
sys.stdout.write("\n")
