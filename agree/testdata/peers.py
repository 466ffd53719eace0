"""Computes Cohen's kappa with scikit-learn and Kendall's tau-b with SciPy for agree's peer test.

Input (JSON file given as argv[1]): {"kappa": [{"a": [...], "b": [...], "labels": [...] or null,
"weights": null | "linear" | "quadratic"}], "tau": [{"x": [...], "y": [...]}]}.
Output (stdout, JSON): {"kappa": [value or null], "tau": [value or null], "versions": {...}};
null stands for NaN (undefined).
"""
import json
import math
import sys
import warnings

import scipy
import sklearn
from scipy.stats import kendalltau
from sklearn.metrics import cohen_kappa_score


def clean(v):
    v = float(v)
    return None if math.isnan(v) else v


def main():
    with open(sys.argv[1]) as f:
        spec = json.load(f)
    out = {"kappa": [], "tau": [], "versions": {"scikit-learn": sklearn.__version__, "scipy": scipy.__version__}}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # 0/0 in kappa, constant input in kendalltau: NaN
        for c in spec["kappa"]:
            out["kappa"].append(clean(cohen_kappa_score(c["a"], c["b"], labels=c["labels"], weights=c["weights"])))
        for c in spec["tau"]:
            out["tau"].append(clean(kendalltau(c["x"], c["y"]).statistic))
    json.dump(out, sys.stdout)


main()
