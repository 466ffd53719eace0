"""Compares per-query values for bench-eval.sh (no dependencies).

    python3 compare_values.py RANKLAB.out PEER.tsv

RANKLAB.out is `ranklab eval -q -digits 17` output ("name<TAB>qid<TAB>value" lines, "all"
lines ignored); PEER.tsv is peer_eval.py's "qid<TAB>name<TAB>value". Prints one line:
"<n> values, <d> differ (> 1e-9), <q> queries" and, when some differ, the largest difference.
Exits 0 either way.
"""
import sys


def main():
    ref = {}
    with open(sys.argv[1]) as f:
        for line in f:
            name, q, v = [x.strip() for x in line.split("\t")]
            if q != "all":
                ref[(q, name)] = float(v)
    n = d = 0
    worst = 0.0
    queries = set()
    missing = 0
    with open(sys.argv[2]) as f:
        for line in f:
            q, name, v = line.rstrip("\n").split("\t")
            v = float(v)
            if (q, name) not in ref:
                missing += 1
                continue
            n += 1
            diff = abs(ref[(q, name)] - v)
            if diff > 1e-9 * max(1.0, abs(v)):
                d += 1
                queries.add(q)
                worst = max(worst, diff)
    msg = f"{n} values, {d} differ (> 1e-9) in {len(queries)} queries"
    if d:
        msg += f", largest difference {worst:.4g}"
    if missing:
        msg += f", {missing} values for queries ranklab did not evaluate"
    print(msg)


if __name__ == "__main__":
    main()
