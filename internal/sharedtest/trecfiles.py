"""TREC qrels and runs read as the peer evaluators take them, for the tests' peers.py scripts
(eval/testdata, conventions/testdata), which import it from here:

    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "internal", "sharedtest"))
    from trecfiles import read_qrels, read_run

Nothing of ranklab is used: the files are split on whitespace, grades read with int() and scores
with Python's float().
"""


def read_qrels(path):
    """{query: {doc: grade}} from TREC qrels ("qid iter docno grade")."""
    qrels = {}
    with open(path) as f:
        for line in f:
            q, _, d, g = line.split()
            qrels.setdefault(q, {})[d] = int(g)
    return qrels


def read_run(path):
    """{query: {doc: score}} from a TREC run ("qid Q0 docno rank score tag"), each query's docs
    in file order (dicts keep insertion order)."""
    run = {}
    with open(path) as f:
        for line in f:
            q, _, d, _, s, _ = line.split()[:6]
            run.setdefault(q, {})[d] = float(s)
    return run
