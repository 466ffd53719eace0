#!/usr/bin/env python3
"""Renumbers the walkthrough notebooks into the course order of issue 25 and fixes every reference.

    python3 scripts/renumber-notebooks.py          # from the repository root; uses git mv

The order a course can follow: the measures (01-05, with the lab's reranking 06 and chunking 07
panels), AP and curves (08), incomplete judgments (09), files and tools (10-12), then comparing
runs (13), statistical design (14), chunking on real qrels (15), RAG retrieval (16) and many
systems (17). It renames the files (git mv), rewrites every markdown link [NN](NN_name.ipynb) and
the prose references listed in BARE, adds each notebook's "Before this" line (BEFORE), and updates
the README's notebook table and the file names in README.md and scripts/check-notebook-numbers.py.
Run it once on a tree still numbered the old way; it refuses a tree already renumbered. It writes
each file to a temporary file first, then renames it.
"""
import json
import os
import re
import subprocess
import sys

OLD_TO_NEW = {
    "00_lab": "00_lab",
    "01_precision": "01_precision",
    "02_recall": "02_recall",
    "03_mrr": "03_mrr",
    "04_ndcg": "04_ndcg",
    "05_threshold": "05_threshold",
    "06_reranking": "06_reranking",
    "07_chunking_footprint": "07_chunking_footprint",
    "13_ap_rprec_pr_curves": "08_ap_rprec_pr_curves",
    "14_incomplete_judgments": "09_incomplete_judgments",
    "08_evaluate_trec_files": "10_evaluate_trec_files",
    "11_why_numbers_differ": "11_why_numbers_differ",
    "15_rag_metric_names": "12_rag_metric_names",
    "09_comparing_runs": "13_comparing_runs",
    "16_statistical_design": "14_statistical_design",
    "10_chunking_real_qrels": "15_chunking_real_qrels",
    "12_rag_retrieval": "16_rag_retrieval",
    "17_many_systems": "17_many_systems",
}
NUM = {old[:2]: new[:2] for old, new in OLD_TO_NEW.items()}

# Prose references to a notebook by number, outside links: (notebook, new name), old text, new text.
BARE = [
    ("15_chunking_real_qrels", "// no token budgets: notebook 12 reads those", "// no token budgets: notebook 16 reads those"),
    ("15_chunking_real_qrels", "each 95% interval of 09 would", "each 95% interval of 13 would"),
    ("07_chunking_footprint", "(notebook 10)", "(notebook 15)"),
    ("11_why_numbers_differ", "as in notebook 10)", "as in notebook 15)"),
    ("16_rag_retrieval", "read this one as 10 does.", "read this one as 15 does."),
    ("16_rag_retrieval", "course's reading is 10's", "course's reading is 15's"),
    ("14_statistical_design", "(the runs of notebook 09 for", "(the runs of notebook 13 for"),
    ("14_statistical_design", "## The pilot: 09's 30 queries", "## The pilot: 13's 30 queries"),
    ("14_statistical_design", "estimate. 09's \"not shown\"", "estimate. 13's \"not shown\""),
    ("14_statistical_design", "### What 09 was up against\n\n09 did not test", "### What 13 was up against\n\n13 did not test"),
    ("14_statistical_design", "undetected: 09's P@5 and AP", "undetected: 13's P@5 and AP"),
    ("17_many_systems", " Before this, read 09 and 16.", ""),
    ('08_ap_rprec_pr_curves', 'a qrels and a run, like those of 08.', 'a qrels and a run, like those of 10.'),
    ('14_statistical_design', 'come from the runs of 09:', 'come from the runs of 13:'),
    ('14_statistical_design', 'p, as in 09:', 'p, as in 13:'),
    ('14_statistical_design', "(09's AP gain", "(13's AP gain"),
    ('14_statistical_design', "(09's multiple-comparison trap)", "(13's multiple-comparison trap)"),
    ('14_statistical_design', "(09's Holm correction)", "(13's Holm correction)"),
    ('17_many_systems', "(10's design)", "(15's design)"),
    # links are already renumbered when these apply
    ("08_ap_rprec_pr_curves", "[10](10_evaluate_trec_files.ipynb) printed trec_eval's `map` and [13](13_comparing_runs.ipynb)\ncompared runs on AP before either said what AP is. This notebook defines",
     "Evaluators print AP as trec_eval's `map` ([10](10_evaluate_trec_files.ipynb)) and papers compare runs\non it ([13](13_comparing_runs.ipynb)); this notebook says first what it is. It defines"),
]

# What each notebook (new name) asks to have read first; None: nothing.
BEFORE = {
    "00_lab": "*For playing.* The walkthroughs [01](01_precision.ipynb)–[07](07_chunking_footprint.ipynb) derive what the lab shows, one idea each.",
    "01_precision": None,
    "02_recall": ["01_precision"],
    "03_mrr": ["01_precision", "02_recall"],
    "04_ndcg": ["01_precision", "02_recall", "03_mrr"],
    "05_threshold": ["01_precision", "02_recall", "03_mrr", "04_ndcg"],
    "06_reranking": ["01_precision", "04_ndcg"],
    "07_chunking_footprint": None,
    "08_ap_rprec_pr_curves": ["01_precision", "02_recall", "05_threshold"],
    "09_incomplete_judgments": ["05_threshold", "08_ap_rprec_pr_curves"],
    "10_evaluate_trec_files": ["04_ndcg", "08_ap_rprec_pr_curves"],
    "11_why_numbers_differ": ["10_evaluate_trec_files"],
    "12_rag_metric_names": ["08_ap_rprec_pr_curves", "09_incomplete_judgments", "11_why_numbers_differ"],
    "13_comparing_runs": ["04_ndcg", "06_reranking", "08_ap_rprec_pr_curves"],
    "14_statistical_design": ["13_comparing_runs"],
    "15_chunking_real_qrels": ["07_chunking_footprint", "13_comparing_runs", "14_statistical_design"],
    "16_rag_retrieval": ["15_chunking_real_qrels"],
    "17_many_systems": ["13_comparing_runs", "14_statistical_design", "15_chunking_real_qrels"],
}

TABLE = """| notebook | what it teaches |
|---|---|
| `00_lab` | For playing: the whole lab — the controls as variables at the top (k, rerank depth, threshold, recall's denominator, corpus, chunk, overlap, seed; a `link` to restore a shared state; `reset`), metric cards with their reading, the ranking with the top k shaded, the measures over k, the rerank before/after and depth sweep, the chunking panel with its overlap chart, the link, CSV export (`ranklab-lab.csv` beside the notebook), reset — and last, the live panel (sliders); its Method links to 01–07 for the derivations |
| `01_precision` | P@k by hand and with `eval.P`; k beyond the list still divides by k; ties by doc ID descending; the threshold; unjudged docs count as not relevant (`Judged@k`); R = 0 |
| `02_recall` | R@k's denominator lives outside the top k (docs the retriever missed); incomplete judgments and a raised denominator; recall capped (BEIR) or not (trec_eval); R = 0 |
| `03_mrr` | Only the first hit counts; MRR@k vs trec_eval's `recip_rank`, which is not cut at k |
| `04_ndcg` | Gain (linear as trec_eval, or 2^g − 1), the log2 discount, the ideal ranking from every judged doc; a chart of discounted gain built with `charts.Bars` |
| `05_threshold` | The relevance threshold changes P, R (numerator and R) and MRR, never nDCG; `-l` vs `rel=` |
| `06_reranking` | Reranking a prefix by hand and with `lab.RerankOrder`; before/after; a perfect reranker still cannot rescue what the first stage missed; the lab's reranker sorts by grade from quality 75 |
| `07_chunking_footprint` | Chunks, stride, indexed and duplicated tokens by hand and with `chunking.NewFootprint`; per-document footprints; storage only, not relevance |
| `08_ap_rprec_pr_curves` | AP, R-precision, precision-recall and 11-point curves by hand and with `eval` |
| `09_incomplete_judgments` | Relevant-only qrels, a pool simulated on Cranfield: pool bias (it swaps two new systems), Judged@k, condensed lists, bpref, infAP by hand and on a sampled pool |
| `10_evaluate_trec_files` | Read a qrels and a run, per-query table, distribution chart, means, trec_eval's output — checked line by line against trec_eval's own output where `../shared` is present; the rule for a judged query without a ranking |
| `11_why_numbers_differ` | BM25 on SciFact scored under trec_eval 10.0 (and `-c`), pytrec_eval, ir_measures, ranx, BEIR, ragas and LlamaIndex rules, with a reason for every difference; the tie band; `ranklab check` on a broken copy; compare refusing a run that is not a result; the provenance stamp |
| `12_rag_metric_names` | The names RAG tools use (top-k accuracy, hit rate, MRR, context precision and recall, R_cap) scored on one ranking, each with its formula and the IR measure it is; BEIR's hole@k |
| `13_comparing_runs` | Two runs query by query: means, W/T/L, d_z and d_av, the paired t-test and the percentile bootstrap by hand, the randomization test, intervals per comparison and at the family's level, Holm; a gain resting on one query, a measure at its ceiling |
| `14_statistical_design` | Power (simulated and from the noncentral t; why skewed differences beat the formula), topic set size, the power Holm leaves, interval-based design, many systems (ANOVA), σ_d on SciFact |
| `15_chunking_real_qrels` | BM25 on SciFact and Cranfield by chunk size and overlap: one family of 30 comparisons with Bonferroni-level intervals, verdicts from the interval, overlap tested directly, MaxP/FirstP/SumP |
| `16_rag_retrieval` | A chunk run read four ways against document qrels (top-k chunks deduplicated, MaxP, FirstP, SumP); quality at a token budget, chunk size × budget against whole documents beside each chunking's storage; RRF and CombSUM of BM25, query likelihood and chunked BM25 against each input; every claim with its interval and test |
| `17_many_systems` | Eight SciFact systems, every pair: Holm over pairs, Tukey's HSD (by hand for one pair) and the randomised Tukey test; letters, a matrix, comparison intervals; standardised scores; why blocking by query matters (SciPy's and ranx's one-way HSD) |
"""


def write(path, text):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, path)


def lines(text):
    parts = text.split("\n")
    out = [p + "\n" for p in parts[:-1]]
    if parts[-1]:
        out.append(parts[-1])
    return out


LINK = re.compile(r"\[([^\]]+)\]\((\d\d_[a-z_]+)\.ipynb\)")


def relink(text):
    def sub(m):
        label, target = m.group(1), m.group(2)
        new = OLD_TO_NEW.get(target)
        if new is None:
            sys.exit(f"renumber: link to unknown notebook {target}")
        if label == target:
            label = new
        elif re.fullmatch(r"\d\d", label):
            label = NUM[label]
        return f"[{label}]({new}.ipynb)"
    return LINK.sub(sub, text)


def before_line(name):
    b = BEFORE[name]
    if isinstance(b, str):
        return b
    if b is None:
        return "*Before this:* nothing; [00_lab](00_lab.ipynb) lets you play with what it explains."
    return "*Before this, read* " + ", ".join(f"[{n[:2]}]({n}.ipynb)" for n in b) + "."


def main():
    os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    if not os.path.exists("notebooks/13_ap_rprec_pr_curves.ipynb"):
        sys.exit("renumber: notebooks/13_ap_rprec_pr_curves.ipynb not found: already renumbered?")
    moves = [(o, n) for o, n in OLD_TO_NEW.items() if o != n]
    for o, _ in moves:  # two steps, so that no rename overwrites a file still to be moved
        subprocess.check_call(["git", "mv", f"notebooks/{o}.ipynb", f"notebooks/{o}.renumber.ipynb"])
    for o, n in moves:
        subprocess.check_call(["git", "mv", f"notebooks/{o}.renumber.ipynb", f"notebooks/{n}.ipynb"])
    bare = {}
    for nb, old, new in BARE:
        bare.setdefault(nb, []).append((old, new))
    for name in OLD_TO_NEW.values():
        path = f"notebooks/{name}.ipynb"
        nb = json.load(open(path))
        done = set()
        for k, cell in enumerate(nb["cells"]):
            src = "".join(cell["source"])
            if cell["cell_type"] == "markdown":
                src = relink(src)
            for old, new in bare.get(name, []):
                if old in src:
                    src = src.replace(old, new)
                    done.add(old)
            if k == next(i for i, c in enumerate(nb["cells"]) if c["cell_type"] == "markdown"):
                src = src.rstrip("\n") + "\n\n" + before_line(name)
            cell["source"] = lines(src)
        missing = [old for old, _ in bare.get(name, []) if old not in done]
        if missing:
            sys.exit(f"renumber: {path}: reference not found: {missing}")
        write(path, json.dumps(nb, indent=1, ensure_ascii=False) + "\n")
    readme = open("README.md").read()
    start = readme.index("| notebook | what it teaches |")
    end = readme.index("\n\n", start)
    readme = readme[:start] + TABLE.rstrip("\n") + readme[end:]
    for o, n in OLD_TO_NEW.items():
        readme = readme.replace(f"notebooks/{o}.ipynb", f"notebooks/{n}.ipynb")
    write("README.md", readme)
    p = "scripts/check-notebook-numbers.py"
    write(p, open(p).read().replace("09_comparing_runs.ipynb", "13_comparing_runs.ipynb"))


if __name__ == "__main__":
    main()
