#!/usr/bin/env python3
"""An example judge for `ranklab autojudge`: the protocol, and a real (if crude) judge.

It reads one JSON line per pair on standard input,
    {"qid": "1", "query": "...", "docid": "184", "title": "...", "text": "..."}
and writes one JSON line per pair on standard output (flushed at once), in any order,
    {"qid": "1", "docid": "184", "grade": 2, "why": "3 of 4 query words: ..."}

The grade is the share of the query's content words (lower-cased, stop words dropped, a final
"s" stripped) found in the document's title and text: 0 below 1/4, 1 from 1/4, 2 from 1/2, 3 from
3/4. A team's own judge keeps this loop and replaces grade() with a call to its model
(the README's UMBRELA prompt): --workers N answers N pairs at once, as an API client would.

    python3 judges/overlap.py [--workers N] [--delay SECONDS]

--delay waits that long before each answer (a slow model).
"""
import argparse
import json
import os
import re
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

STOP = set("""a about above after again all also an and any are as at be because been before
being below between both but by can could did do does doing down during each few for from
further had has have having how however i if in into is it its itself just may me more most
must no nor not of off on once only or other our out over own same should so some such than
that the their them then there these they this those through to too under until up very was
we were what when where which while who whom why will with would you your""".split())


def words(text):
    out = set()
    for w in re.findall(r"[a-z0-9]+", text.lower()):
        if w in STOP or len(w) < 2:
            continue
        if len(w) > 3 and w.endswith("s") and not w.endswith("ss"):
            w = w[:-1]
        out.add(w)
    return out


def grade(pair):
    q = words(pair["query"])
    d = words(pair.get("title", "") + " " + pair.get("text", ""))
    if not q:
        return 0, "the query has no content word"
    found = sorted(q & d)
    share = len(found) / len(q)
    g = 3 if share >= 0.75 else 2 if share >= 0.5 else 1 if share >= 0.25 else 0
    return g, "%d of %d query words: %s" % (len(found), len(q), ", ".join(found))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--workers", type=int, default=1, help="pairs judged at once")
    ap.add_argument("--delay", type=float, default=0.0, help="seconds before each answer")
    args = ap.parse_args()
    lock = threading.Lock()

    def answer(pair):
        try:
            judge_one(pair)
        except Exception as e:  # a worker's error would otherwise vanish in the pool
            print("overlap.py: pair %r: %r" % (pair.get("qid"), e), file=sys.stderr, flush=True)
            os._exit(1)

    def judge_one(pair):
        if args.delay:
            time.sleep(args.delay)
        g, why = grade(pair)
        line = json.dumps({"qid": pair["qid"], "docid": pair["docid"], "grade": g, "why": why})
        with lock:
            sys.stdout.write(line + "\n")
            sys.stdout.flush()

    with ThreadPoolExecutor(max_workers=args.workers) as pool:
        for line in sys.stdin:
            if line.strip():
                pool.submit(answer, json.loads(line))


if __name__ == "__main__":
    main()
