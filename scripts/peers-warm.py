"""Compiles ranx's numba functions once, into numba's on-disk cache, for scripts/peers.sh.

    python peers-warm.py        # with the peers' python; prints what it compiled and how long

ranx 0.3.21 compiles its metrics, its qrels/run builders and its fusion methods with numba
(@njit(cache=True)) the first time a process calls them: about 65 CPU-seconds, which the three
agreement tests (eval/peers_test.go, conventions/peers_test.go, fusion/ranx_test.go) used to pay
each, at the same time, on a fresh machine (5 to 8 minutes each at a load of 8 to 12). numba
compiles a function again for each argument type, and ranx's Qrels.from_dict and Run.from_dict
pass the doc IDs as a NumPy array of dtype <U{longest doc ID}: every new longest-ID length costs
another compilation (the tests' IDs are 2 to 9 characters: "d7", "d123", SciFact's 4 to 9 digits,
Cranfield's 1 to 4). Calling every function those tests call, on tiny inputs and for every ID
length up to MAX_ID, writes the compiled code next to ranx's sources
(__pycache__/*.nbi, *.nbc, or $NUMBA_CACHE_DIR); later processes load it (about 11 CPU-seconds
for a test's whole script, imports included). A function this script misses is simply compiled
by the test that needs it: slower, never different.
"""
import os
import sys
import tempfile
import time

t0 = time.time()
from ranx import Qrels, Run, evaluate, fuse  # noqa: E402

# The metric families the tests ask ranx for (a cutoff is an argument, not another function).
METRICS = ["precision@1", "precision", "recall@5", "recall", "map@5", "map", "mrr@10", "mrr",
           "ndcg@5", "ndcg", "ndcg_burges@5", "r-precision", "hit_rate@5", "bpref", "rbp.8"]
MAX_ID = 12  # doc-ID lengths 1..MAX_ID
# ranx.fuse: the methods and normalisations fusion/ranx_test.go compares.
FUSIONS = [("rrf", None, {"k": 60}), ("sum", "min-max", {}), ("sum", "zmuv", {}), ("sum", "rank", {}),
           ("mnz", "min-max", {}), ("mnz", "zmuv", {}), ("mnz", "rank", {}),
           ("wsum", "min-max", {"weights": [0.2, 0.7]}), ("wsum", "zmuv", {"weights": [0.2, 0.7]}),
           ("wsum", "rank", {"weights": [0.2, 0.7]})]

qrels = {"q1": {"d1": 1, "d2": 2, "d4": 0}, "q2": {"d1": 1, "d5": 3}}
runs = [{"q1": {"d1": 0.5, "d3": 0.2, "d2": 0.1}, "q2": {"d2": 1.0, "d1": 0.3}},
        {"q1": {"d2": 3.0, "d1": 2.0, "d4": 1.0}, "q2": {"d5": 2.0, "d1": 1.0}}]

with tempfile.TemporaryDirectory() as d:
    qp, rp = os.path.join(d, "qrels"), os.path.join(d, "run")
    with open(qp, "w") as f:
        f.writelines(f"{q} 0 {doc} {g}\n" for q, docs in qrels.items() for doc, g in docs.items())
    with open(rp, "w") as f:
        f.writelines(f"{q} Q0 {doc} {i + 1} {s} r\n" for q, docs in runs[0].items() for i, (doc, s) in enumerate(docs.items()))
    for q, r in ((Qrels.from_dict(qrels), Run.from_dict(runs[0])), (Qrels.from_file(qp, kind="trec"), Run.from_file(rp, kind="trec"))):
        evaluate(q, r, METRICS, make_comparable=True, save_results_in_run=True)
        for m in METRICS:
            evaluate(q, r, m)
    for n in range(1, MAX_ID + 1):
        Qrels.from_dict({"q": {"x" * n: 1}})
        Run.from_dict({"q": {"x" * n: 1.0}})
    for method, norm, params in FUSIONS:
        fuse(runs=[Run.from_dict(r) for r in runs], norm=norm, method=method, params=params)
print(f"peers-warm: ranx's numba functions compiled and cached in {time.time() - t0:.0f} s "
      f"({len(METRICS)} metrics, {len(FUSIONS)} fusions, doc IDs of 1 to {MAX_ID} characters)", file=sys.stderr)
