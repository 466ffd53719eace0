#!/usr/bin/env python3
"""ranx 0.3.21's Tukey test on the runs compare/tukey_test.go writes (the peers' Python,
scripts/peers.sh).

    py=$(bash scripts/peers.sh | tail -1)
    $py compare/testdata/ranx_tukey.py IN.json

IN.json: {"qrels": {q: {doc: grade}}, "runs": {name: {q: {doc: score}}}, "metric": "ndcg@10"}.
Prints {"ranx": version, "means": {name: mean}, "p": {"a|b": p-value}} from
ranx.compare(qrels, runs, metrics=[metric], stat_test="tukey"): scipy.stats.tukey_hsd on the
per-query scores of every run (one-way: the queries are not blocks).
"""
import json
import sys

import ranx


def main():
    case = json.load(open(sys.argv[1]))
    qrels = ranx.Qrels(case["qrels"])
    runs = []
    for name, r in case["runs"].items():
        run = ranx.Run(r, name=name)
        runs.append(run)
    metric = case["metric"]
    report = ranx.compare(qrels, runs, metrics=[metric], stat_test="tukey", max_p=0.05)
    names = [r.name for r in runs]
    p = {}
    for a in names:
        for b in names:
            if a != b:
                p[a + "|" + b] = float(report.comparisons[a, b][metric]["p_value"])
    means = {n: float(report.results[n][metric]) for n in names}
    json.dump({"ranx": ranx.__version__ if hasattr(ranx, "__version__") else "?", "means": means, "p": p}, sys.stdout)


if __name__ == "__main__":
    main()
