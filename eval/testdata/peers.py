"""Evaluates test cases with the peer evaluators, for eval's differential test (peers_test.go).

    python peers.py MANIFEST.json > RESULTS.json

MANIFEST is a list of cases {"qrels": path, "run": path, "level": L, "pytrec": [trec_eval
measure names], "ir": [ir_measures names], "ranx": [ranx metric names]}, each list possibly
empty. The files are TREC qrels ("qid iter docno grade") and runs ("qid Q0 docno rank score
tag"); scores are read with Python's float(). The output holds, per case, the per-query values
of each tool: {"pytrec": {qid: {key: value}}, "ir": {qid: {name: value}}, "ranx": {name: {qid:
value}}}. Run with the pinned environment of scripts/peers.sh.
"""
import json
import math
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "internal", "sharedtest"))
from trecfiles import read_qrels, read_run  # noqa: E402  (the tests' shared TREC reader)


def clean(v):
    v = float(v)
    if math.isnan(v):
        return "NaN"
    return v


def main():
    import pytrec_eval
    import ir_measures
    from ranx import Qrels, Run, evaluate

    cases = json.load(open(sys.argv[1]))
    out = []
    for case in cases:
        qrels, run = read_qrels(case["qrels"]), read_run(case["run"])
        res = {"pytrec": {}, "ir": {}, "ranx": {}}
        if case["pytrec"]:
            ev = pytrec_eval.RelevanceEvaluator(qrels, set(case["pytrec"]), relevance_level=case["level"])
            res["pytrec"] = {q: {k: clean(v) for k, v in vals.items()} for q, vals in ev.evaluate(run).items()}
        if case["ir"]:
            names = {str(ir_measures.parse_measure(n)): n for n in case["ir"]}
            measures = [ir_measures.parse_measure(n) for n in case["ir"]]
            for m in ir_measures.iter_calc(measures, qrels, run):
                res["ir"].setdefault(m.query_id, {})[names[str(m.measure)]] = clean(m.value)
        if case["ranx"]:
            rq = Qrels.from_dict(qrels)
            rr = Run.from_dict(run)
            evaluate(rq, rr, case["ranx"], make_comparable=True, save_results_in_run=True)
            res["ranx"] = {m: {q: clean(v) for q, v in rr.scores[m].items()} for m in case["ranx"]}
        out.append(res)
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
