"""One peer evaluator on the benchmark pair, for bench-eval.sh.

    python peer_eval.py TOOL QRELS RUN OUT.tsv

TOOL is pytrec_eval, ir_measures or ranx. It reads the files with the tool's own readers (the
whole task a user runs), computes nDCG@10, P@10, R@100 and RR per query, and writes OUT.tsv:
one line "qid<TAB>measure<TAB>value" (trec_eval's measure names, full precision). On stderr
it prints "timing NAME SECONDS" lines: load (reading the files), eval (the first evaluation;
for ranx with its numba JIT compilation), and for ranx warm (a second evaluation in the same
process, compiled).
"""
import sys
import time

NAMES = ["ndcg_cut_10", "P_10", "recall_100", "recip_rank"]


def timing(name, t0):
    print(f"timing {name} {time.perf_counter() - t0:.3f}", file=sys.stderr, flush=True)


def read_trec(qrels_path, run_path):
    qrels, run = {}, {}
    with open(qrels_path) as f:
        for line in f:
            q, _, d, g = line.split()
            qrels.setdefault(q, {})[d] = int(g)
    with open(run_path) as f:
        for line in f:
            q, _, d, _, s, _ = line.split()[:6]
            run.setdefault(q, {})[d] = float(s)
    return qrels, run


def main():
    tool, qrels_path, run_path, out_path = sys.argv[1:5]
    rows = []
    if tool == "pytrec_eval":
        import pytrec_eval
        t0 = time.perf_counter()
        qrels, run = read_trec(qrels_path, run_path)
        timing("load", t0)
        t0 = time.perf_counter()
        ev = pytrec_eval.RelevanceEvaluator(qrels, {"ndcg_cut.10", "P.10", "recall.100", "recip_rank"})
        res = ev.evaluate(run)
        timing("eval", t0)
        for q, vals in res.items():
            rows += [(q, n, vals[n]) for n in NAMES]
    elif tool == "ir_measures":
        import ir_measures
        from ir_measures import nDCG, P, R, RR
        t0 = time.perf_counter()
        qrels = list(ir_measures.read_trec_qrels(qrels_path))
        run = list(ir_measures.read_trec_run(run_path))
        timing("load", t0)
        t0 = time.perf_counter()
        names = {str(nDCG @ 10): "ndcg_cut_10", str(P @ 10): "P_10", str(R @ 100): "recall_100", str(RR): "recip_rank"}
        for m in ir_measures.iter_calc([nDCG @ 10, P @ 10, R @ 100, RR], qrels, run):
            rows.append((m.query_id, names[str(m.measure)], m.value))
        timing("eval", t0)
    elif tool == "ranx":
        from ranx import Qrels, Run, evaluate
        t0 = time.perf_counter()
        qrels = Qrels.from_file(qrels_path, kind="trec")
        run = Run.from_file(run_path, kind="trec")
        timing("load", t0)
        metrics = ["ndcg@10", "precision@10", "recall@100", "mrr"]
        t0 = time.perf_counter()
        evaluate(qrels, run, metrics, make_comparable=True)
        timing("eval", t0)
        t0 = time.perf_counter()
        evaluate(qrels, run, metrics, make_comparable=True)
        timing("warm", t0)
        for m, n in zip(metrics, NAMES):
            rows += [(q, n, v) for q, v in run.scores[m].items()]
    else:
        sys.exit(f"peer_eval.py: unknown tool {tool}")
    with open(out_path, "w") as f:
        for q, n, v in rows:
            f.write(f"{q}\t{n}\t{float(v)!r}\n")


if __name__ == "__main__":
    main()
