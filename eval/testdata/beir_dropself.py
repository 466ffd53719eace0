"""BEIR's own evaluation of a run, for eval's drop-self test.

Input (JSON file argv[1]): {"qrels": {qid: {doc: grade}}, "results": {qid: {doc: score}},
"k_values": [...]}. Output: {"on": [ndcg, map, recall, precision], "off": [...]}, each the dict
EvaluateRetrieval.evaluate returns with ignore_identical_ids True and False.
"""
import copy
import json
import sys

from importlib.metadata import version
from beir.retrieval.evaluation import EvaluateRetrieval

with open(sys.argv[1]) as f:
    spec = json.load(f)
out = {"version": version("beir")}
for name, ignore in (("on", True), ("off", False)):
    # evaluate pops the identical IDs from results in place: give each call its own copy.
    results = copy.deepcopy(spec["results"])
    out[name] = EvaluateRetrieval.evaluate(spec["qrels"], results, spec["k_values"], ignore_identical_ids=ignore)
json.dump(out, sys.stdout)
