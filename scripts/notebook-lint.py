#!/usr/bin/env python3
"""Checks (or cleans) the notebooks as git would commit them.

    python3 scripts/notebook-lint.py notebooks/*.ipynb          # check, exit 1 on a problem
    python3 scripts/notebook-lint.py --strip notebooks/*.ipynb  # remove outputs in place (make strip-notebooks)
    python3 scripts/notebook-lint.py --clean < in.ipynb > out.ipynb  # the git clean filter
    python3 scripts/notebook-lint.py --self-test                 # the filter on a used notebook

A committed notebook must have no outputs and no execution counts (CI executes them; outputs live
only in ci-artifacts/notebooks/), keep only the language's name in its language_info metadata (the
kernel rewrites the rest, such as the mimetype and Go's version, whenever the notebook is used:
committed in full it would show the notebook modified after every session), keep every code cell to
at most 30 non-blank lines, use the GoNB kernel, and wire the local module in its first code cell
exactly as common to every notebook:
    !*go mod edit -require=github.com/ranklab/ranklab@v0.0.0 -replace=github.com/ranklab/ranklab=${GONB_DIR}/..

What is checked is what git would commit: the staged version of a tracked notebook (the index;
in a fresh clone the index is the commit). Outputs and execution counts in the work tree, which
Jupyter's autosave writes while a notebook is in use, are no problem as long as they are not
staged. The clean filter registered by kernel-setup/setup.sh (.gitattributes: filter=ranklab-notebook)
strips them on `git add`, so they never are. An untracked notebook is checked as it is on disk.
Only the standard library is used, so any python3 runs it.
"""
import json
import os
import subprocess
import sys

MAX_LINES = 30  # non-blank lines of a code cell: one idea per cell, readable without scrolling
WIRING = ("!*go mod edit -require=github.com/ranklab/ranklab@v0.0.0 "
          "-replace=github.com/ranklab/ranklab=${GONB_DIR}/..")
FIX = ("strip it with `make strip-notebooks` and `git add` it again, or register the git filter that "
       "strips outputs on `git add` (`make setup` does: git config filter.ranklab-notebook.clean "
       "'python3 scripts/notebook-lint.py --clean')")


def source(cell):
    s = cell.get("source", "")
    return "".join(s) if isinstance(s, list) else s


# Cell metadata a front-end writes about a session, never about the content: execution timings
# (JupyterLab's recordTiming) and how an output area was scrolled or collapsed.
SESSION_CELL_KEYS = ("execution", "scrolled", "collapsed")


def language_info(nb):
    """language_info returns what a committed notebook keeps of metadata.language_info: the name."""
    li = nb.get("metadata", {}).get("language_info")
    if not isinstance(li, dict) or "name" not in li:
        return li
    return {"name": li["name"]}


def strip(nb):
    """strip removes outputs, execution counts and session metadata (see SESSION_CELL_KEYS) of
    every code cell and reduces metadata.language_info to its name, in place."""
    for c in nb.get("cells", []):
        if c.get("cell_type") == "code":
            c["outputs"], c["execution_count"] = [], None
            for k in SESSION_CELL_KEYS:
                c.get("metadata", {}).pop(k, None)
    li = language_info(nb)
    if li is not None:
        nb["metadata"]["language_info"] = li
    return nb


def clean(nb):
    """clean reports whether strip would leave nb unchanged."""
    code = [c for c in nb.get("cells", []) if c.get("cell_type") == "code"]
    return (all(not c.get("outputs") and c.get("execution_count") is None
                and not any(k in c.get("metadata", {}) for k in SESSION_CELL_KEYS) for c in code)
            and nb.get("metadata", {}).get("language_info") == language_info(nb))


def dump(nb):
    """dump writes a notebook as Jupyter does (indent 1, UTF-8, trailing newline)."""
    return json.dumps(nb, indent=1, ensure_ascii=False) + "\n"


def problems(where, nb):
    out = []
    spec = nb.get("metadata", {}).get("kernelspec", {}).get("name")
    if spec != "gonb":
        out.append(f"{where}: kernelspec is {spec!r}, want 'gonb'")
    code = [(i, c) for i, c in enumerate(nb.get("cells", [])) if c.get("cell_type") == "code"]
    if not code:
        out.append(f"{where}: no code cell")
    elif source(code[0][1]).strip() != WIRING:
        out.append(f"{where}: cell {code[0][0] + 1}: first code cell must be exactly: {WIRING}")
    for i, c in code:
        lines = sum(1 for line in source(c).split("\n") if line.strip())
        if lines > MAX_LINES:
            out.append(f"{where}: cell {i + 1}: {lines} non-blank lines, more than {MAX_LINES}: split it "
                       f"(one idea per cell; move helpers into a cell of their own)")
    dirty = 0
    for i, c in code:
        if c.get("outputs"):
            out.append(f"{where}: cell {i + 1}: staged with {len(c['outputs'])} output(s)")
            dirty += 1
        elif c.get("execution_count") is not None:
            out.append(f"{where}: cell {i + 1}: staged with execution_count {c['execution_count']}")
            dirty += 1
    li = nb.get("metadata", {}).get("language_info")
    if li != language_info(nb):
        out.append(f"{where}: metadata.language_info holds {sorted(li)}, want only its name")
        dirty += 1
    for i, c in code:
        session = [k for k in SESSION_CELL_KEYS if k in c.get("metadata", {})]
        if session:
            out.append(f"{where}: cell {i + 1}: staged with session metadata {session}")
            dirty += 1
    if dirty:
        out.append(f"{where}: notebooks are committed without outputs or session metadata: {FIX}")
    return out


def staged(path):
    """staged returns (label, text) of what git would commit for path: the index version of a
    tracked file, or None when path is not tracked (or there is no git)."""
    d = os.path.dirname(os.path.abspath(path))
    try:
        top = subprocess.run(["git", "-C", d, "rev-parse", "--show-toplevel"], capture_output=True, text=True)
        if top.returncode != 0:
            return None
        rel = os.path.relpath(os.path.abspath(path), top.stdout.strip())
        r = subprocess.run(["git", "-C", top.stdout.strip(), "show", ":" + rel], capture_output=True)
    except OSError:
        return None
    if r.returncode != 0:
        return None
    return f"{path} (staged)", r.stdout.decode("utf-8")


def self_test():
    """The clean filter maps a notebook as a JupyterLab session leaves it (outputs, counts, timings,
    the kernel's full language_info) to the committed notebook, which it leaves byte for byte."""
    committed = dump({"cells": [{"cell_type": "code", "execution_count": None, "id": "a", "metadata": {},
                                 "outputs": [], "source": ["x := 1"]}],
                      "metadata": {"kernelspec": {"display_name": "Go (gonb)", "language": "go", "name": "gonb"},
                                   "language_info": {"name": "go"}},
                      "nbformat": 4, "nbformat_minor": 5})
    used = json.loads(committed)
    used["cells"][0].update(execution_count=3, outputs=[{"output_type": "stream", "name": "stdout", "text": ["1\n"]}])
    used["cells"][0]["metadata"] = {"execution": {"iopub.status.busy": "2026-12-04T04:00:00Z"}, "scrolled": True}
    used["metadata"]["language_info"] = {"codemirror_mode": "", "file_extension": ".go", "mimetype": "text/x-go",
                                         "name": "go", "nbconvert_exporter": "", "pygments_lexer": "", "version": "go1.26.8"}
    bad = []
    for label, text in (("a used notebook", dump(used)), ("the committed notebook", committed)):
        out = subprocess.run([sys.executable, os.path.abspath(__file__), "--clean"], input=text.encode(),
                             capture_output=True).stdout.decode()
        if out != committed:
            bad.append(f"--clean of {label} differs from the committed notebook:\n{out}")
    print("\n".join(bad) or "notebook-lint --self-test: ok (a used notebook cleans to the committed bytes)")
    return 1 if bad else 0


def main(args):
    if args == ["--self-test"]:
        return self_test()
    if args == ["--clean"]:
        # git clean filter: notebook on stdin, stripped notebook on stdout; anything that is not
        # a notebook passes unchanged (git must never lose content through a filter).
        data = sys.stdin.buffer.read()
        try:
            nb = json.loads(data.decode("utf-8"))
            if not isinstance(nb, dict) or "cells" not in nb:
                raise ValueError("not a notebook")
        except ValueError:
            sys.stdout.buffer.write(data)
            return 0
        if clean(nb):
            sys.stdout.buffer.write(data)  # nothing to strip: byte for byte as it came
        else:
            sys.stdout.buffer.write(dump(strip(nb)).encode("utf-8"))
        return 0
    do_strip = args[:1] == ["--strip"]
    paths = args[1:] if do_strip else args
    if not paths:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    bad = []
    for path in paths:
        try:
            if do_strip:
                with open(path, encoding="utf-8") as f:
                    nb = json.load(f)
                with open(path, "w", encoding="utf-8") as f:
                    f.write(dump(strip(nb)))
                continue
            s = staged(path)
            if s is None:
                with open(path, encoding="utf-8") as f:
                    s = (path, f.read())
            bad += problems(s[0], json.loads(s[1]))
        except (OSError, ValueError) as e:
            bad.append(f"{path}: cannot read notebook: {e}")
    for b in bad:
        print(b)
    if not do_strip:
        print(f"notebook-lint: {len(paths)} notebook(s), {len(bad)} problem(s)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
