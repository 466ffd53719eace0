"""Scores TREC qrels/run pairs with the real peer packages, for conventions' peer test.

    python peers.py CASES.json

CASES.json is a list of {"name": ..., "qrels": PATH, "run": PATH, "measures": [...]}, measures
in ir_measures' spelling (nDCG@10 R@100 RR@10 P@5 AP AP@10 RR nDCG Success@5). All cases run
in one process, so numba compiles ranx once. Prints one JSON object:
{"versions": {package: version}, "cases": {case: {convention name: {measure: {"value": x,
"per_query": {...}} | {"error": "ExceptionType: message"}} | {"unavailable": "why"}}}}.
Each tool is called the way its documentation shows, on inputs read from the files in file
order; nothing of ranklab is used. Convention names are those of conventions.Conventions().
"""
import asyncio
import json
import math
import os
import sys
import warnings

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "internal", "sharedtest"))
from trecfiles import read_qrels, read_run  # noqa: E402  (the tests' shared TREC reader)

warnings.filterwarnings("ignore")


def split_measure(m):
    """("nDCG", 10) from "nDCG@10"; cutoff 0 when there is none."""
    if "@" in m:
        name, k = m.split("@")
        return name, int(k)
    return m, 0


def num(x):
    x = float(x)
    return None if math.isnan(x) else x


def error(e):
    return {"error": f"{type(e).__name__}: {e}"}


TREC = {"P": "P", "R": "recall", "nDCG": "ndcg_cut", "AP": "map_cut", "Success": "success"}


def trec_names(m):
    """pytrec_eval's request and result key for m."""
    name, k = split_measure(m)
    if name == "RR":
        return "recip_rank", "recip_rank"
    if k == 0:
        return {"nDCG": ("ndcg", "ndcg"), "AP": ("map", "map")}[name]
    return f"{TREC[name]}.{k}", f"{TREC[name]}_{k}"


def pytrec(qrels_path, run_path, measures):
    import pytrec_eval
    out = {}
    for m in measures:
        request, key = trec_names(m)
        try:
            ev = pytrec_eval.RelevanceEvaluator(read_qrels(qrels_path), {request})
            res = ev.evaluate(read_run(run_path))
            per = {q: v[key] for q, v in res.items()}
            out[m] = {"value": sum(per.values()) / len(per), "per_query": per}
        except Exception as e:  # noqa: BLE001 - report what the tool raises
            out[m] = error(e)
    return out


def ir_measures_scores(qrels_path, run_path, measures):
    import ir_measures
    out = {}
    for m in measures:
        try:
            measure = ir_measures.parse_measure(m)
            per = {x.query_id: x.value for x in ir_measures.iter_calc([measure], ir_measures.read_trec_qrels(qrels_path), ir_measures.read_trec_run(run_path))}
            agg = ir_measures.calc_aggregate([measure], ir_measures.read_trec_qrels(qrels_path), ir_measures.read_trec_run(run_path))[measure]
            out[m] = {"value": agg, "per_query": per}
        except Exception as e:  # noqa: BLE001
            out[m] = error(e)
    return out


RANX = {"P": "precision", "R": "recall", "nDCG": "ndcg", "RR": "mrr", "AP": "map", "Success": "hit_rate"}


def ranx_scores(qrels_path, run_path, measures):
    from ranx import Qrels, Run, evaluate
    out = {}
    for m in measures:
        name, k = split_measure(m)
        metric = RANX[name] + (f"@{k}" if k else "")
        try:
            qrels = Qrels.from_file(qrels_path, kind="trec")
            run = Run.from_file(run_path, kind="trec")
            value = evaluate(qrels, run, metric)
            out[m] = {"value": float(value), "per_query": {q: float(v) for q, v in run.scores[metric].items()}}
        except Exception as e:  # noqa: BLE001
            out[m] = error(e)
    return out


def beir_scores(qrels_path, run_path, measures, r_cap):
    from beir.retrieval.evaluation import EvaluateRetrieval
    out = {}
    for m in measures:
        name, k = split_measure(m)
        if k == 0 or (r_cap and name != "R") or (not r_cap and name not in ("P", "R", "nDCG", "AP", "RR", "Success")):
            continue
        qrels, results = read_qrels(qrels_path), read_run(run_path)
        try:
            # As BEIR's examples: evaluate() first (it pops identical IDs from results in place),
            # then evaluate_custom() on the same results.
            ndcg, _map, recall, precision = EvaluateRetrieval.evaluate(qrels, results, [k])
            if r_cap:
                value = EvaluateRetrieval.evaluate_custom(qrels, results, [k], "r_cap")[f"R_cap@{k}"]
            elif name == "RR":
                value = EvaluateRetrieval.evaluate_custom(qrels, results, [k], "mrr")[f"MRR@{k}"]
            elif name == "Success":
                value = EvaluateRetrieval.evaluate_custom(qrels, results, [k], "acc")[f"Accuracy@{k}"]
            else:
                value = {"P": precision, "R": recall, "nDCG": ndcg, "AP": _map}[name][{"P": "P", "R": "Recall", "nDCG": "NDCG", "AP": "MAP"}[name] + f"@{k}"]
            out[m] = {"value": value}
        except Exception as e:  # noqa: BLE001
            out[m] = error(e)
    return out


def relevant(qrels, q):
    return [d for d, g in qrels[q].items() if g >= 1]


def top(run, q, k):
    docs = list(run.get(q, {}).keys())  # file order
    return docs[:k] if k else docs


def ragas_scores(qrels_path, run_path, measures):
    from ragas import EvaluationDataset, evaluate
    from ragas.dataset_schema import SingleTurnSample
    from ragas.metrics import IDBasedContextPrecision, IDBasedContextRecall
    qrels, run = read_qrels(qrels_path), read_run(run_path)
    out = {}
    for m in measures:
        name, k = split_measure(m)
        if name not in ("P", "R") or k == 0:
            continue
        metric = IDBasedContextPrecision() if name == "P" else IDBasedContextRecall()
        qids = sorted(qrels)
        try:
            ds = EvaluationDataset(samples=[SingleTurnSample(retrieved_context_ids=top(run, q, k), reference_context_ids=relevant(qrels, q)) for q in qids])
            res = evaluate(ds, metrics=[metric], show_progress=False, raise_exceptions=True)
            per = {q: num(s[metric.name]) for q, s in zip(qids, res.scores)}
            out[m] = {"value": num(res._repr_dict[metric.name]), "per_query": per}
        except Exception as e:  # noqa: BLE001
            out[m] = error(e)
    return out


def llama_scores(qrels_path, run_path, measures, granular):
    from llama_index.core.evaluation.retrieval.metrics import MRR, NDCG, AveragePrecision, HitRate, Precision, Recall
    qrels, run = read_qrels(qrels_path), read_run(run_path)
    out = {}
    for m in measures:
        name, k = split_measure(m)
        if granular:
            metric = {"R": HitRate(use_granular_hit_rate=True), "RR": MRR(use_granular_mrr=True)}.get(name)
        else:
            metric = {"Success": HitRate(), "RR": MRR(), "R": Recall(), "P": Precision(), "nDCG": NDCG(), "AP": AveragePrecision()}.get(name)
        if metric is None:
            continue
        try:
            per = {}
            for q in sorted(qrels):
                per[q] = metric.compute(expected_ids=relevant(qrels, q), retrieved_ids=top(run, q, k)).score
            out[m] = {"value": sum(per.values()) / len(per), "per_query": per}
        except Exception as e:  # noqa: BLE001
            out[m] = error(e)
    return out


def guarded(fn, *args):
    try:
        return fn(*args)
    except ImportError as e:
        return {"unavailable": f"{type(e).__name__}: {e}"}


def versions():
    from importlib.metadata import PackageNotFoundError, version
    out = {}
    for p in ("pytrec-eval-terrier", "ir-measures", "ranx", "beir", "ragas", "llama-index-core"):
        try:
            out[p] = version(p)
        except PackageNotFoundError:
            out[p] = None
    return out


def score(qrels_path, run_path, measures):
    return {
        "pytrec_eval 0.5.11 (trec_eval 9.0.8)": guarded(pytrec, qrels_path, run_path, measures),
        "ir_measures 0.4.3": guarded(ir_measures_scores, qrels_path, run_path, measures),
        "ranx 0.3.21": guarded(ranx_scores, qrels_path, run_path, measures),
        "BEIR 2.2.0": guarded(beir_scores, qrels_path, run_path, measures, False),
        "BEIR 2.2.0 R_cap": guarded(beir_scores, qrels_path, run_path, measures, True),
        "ragas 0.4.3 (ID-based)": guarded(ragas_scores, qrels_path, run_path, measures),
        "LlamaIndex 0.14.25": guarded(llama_scores, qrels_path, run_path, measures, False),
        "LlamaIndex 0.14.25 granular": guarded(llama_scores, qrels_path, run_path, measures, True),
    }


def main():
    with open(sys.argv[1]) as f:
        cases = json.load(f)
    out = {"versions": versions(), "cases": {c["name"]: score(c["qrels"], c["run"], c["measures"]) for c in cases}}
    json.dump(out, sys.stdout, allow_nan=False, default=str)


if __name__ == "__main__":
    asyncio.set_event_loop(asyncio.new_event_loop())
    main()
