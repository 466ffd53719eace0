"""peers_warm.py: compiles ranx's numba code once, when scripts/peers.sh installs the peers.

ranx 0.3.21 declares its metrics, normalisations and fusions @njit(cache=True): numba compiles
each on first use and keeps the machine code beside the module (__pycache__/*.nbi, *.nbc), where
every later process loads it. On a fresh machine the Go tests that compare with ranx (eval,
conventions, fusion, compare) start at once, each in its own process, and each compiled the same
functions again. This script calls every metric, normalisation and fusion method those tests use
on a toy qrels and run, so that their first use is a cache load.
"""
import sys

from ranx import Qrels, Run, evaluate, fuse

qrels = Qrels({"q1": {"d1": 1, "d2": 2}, "q2": {"d3": 1}, "q3": {"d1": 2}})
runs = [
    Run({"q1": {"d1": 0.9, "d2": 0.5, "d4": 0.1}, "q2": {"d3": 0.2, "d5": 0.7}, "q3": {"d2": 0.3, "d1": 0.2}}, name="a"),
    Run({"q1": {"d2": 0.8, "d4": 0.6}, "q2": {"d3": 0.9, "d1": 0.1}, "q3": {"d1": 0.5}}, name="b"),
]
# What the tests compile (the ranx functions whose cache files a full `go test ./...` leaves):
# these metrics, and fusion by sum, mnz, wsum and rrf after min-max, rank and z-score norms.
evaluate(qrels, runs[0], ["hits@10", "hit_rate@10", "precision@10", "recall@10", "r-precision", "mrr", "map",
                          "ndcg@10", "bpref", "rbp.95"], make_comparable=True)
for norm in ["min-max", "rank", "zmuv"]:
    for method in ["sum", "mnz", "rrf"]:
        fuse(runs=runs, norm=norm, method=method)
    fuse(runs=runs, norm=norm, method="wsum", params={"weights": [0.6, 0.4]})
print("ranx's numba code compiled and cached", file=sys.stderr)
