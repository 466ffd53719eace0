"""Computes prediction-powered intervals with ppi_py for package ppi's peer test.

Input (JSON file given as argv[1]): {"cases": [{"y": [...], "yhat": [...], "unlabeled": [...],
"alpha": 0.05, "lam": null | number}]}; lam null is ppi_py's default (PPI++, lam tuned).
Also {"classical": [{"x": [...], "alpha": 0.05}]}: ppi_py's classical_mean_ci.
Output (stdout, JSON): {"ppi": [[point estimate, low, high]], "classical": [[low, high]],
"versions": {...}}.
"""
import json
import sys

import numpy as np
import ppi_py
from importlib.metadata import version
from ppi_py import classical_mean_ci, ppi_mean_ci, ppi_mean_pointestimate


def main():
    with open(sys.argv[1]) as f:
        spec = json.load(f)
    out = {"ppi": [], "classical": [], "versions": {"ppi-python": version("ppi-python"), "numpy": np.__version__}}
    for c in spec["cases"]:
        y, yhat, unl = (np.array(c[k], dtype=float) for k in ("y", "yhat", "unlabeled"))
        lo, hi = ppi_mean_ci(y, yhat, unl, alpha=c["alpha"], lam=c["lam"])
        est = ppi_mean_pointestimate(y, yhat, unl, lam=c["lam"])
        out["ppi"].append([float(np.squeeze(est)), float(np.squeeze(lo)), float(np.squeeze(hi))])
    for c in spec["classical"]:
        lo, hi = classical_mean_ci(np.array(c["x"], dtype=float), alpha=c["alpha"])
        out["classical"].append([float(np.squeeze(lo)), float(np.squeeze(hi))])
    json.dump(out, sys.stdout)


main()
