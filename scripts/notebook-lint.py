#!/usr/bin/env python3
"""Checks (or cleans) the notebooks as git would commit them.

    python3 scripts/notebook-lint.py notebooks/*.ipynb          # check, exit 1 on a problem
    python3 scripts/notebook-lint.py --strip notebooks/*.ipynb  # remove outputs in place (make strip-notebooks)
    python3 scripts/notebook-lint.py --clean < in.ipynb > out.ipynb  # the git clean filter

A committed notebook must have no outputs and no execution counts (CI executes them; outputs live
only in ci-artifacts/notebooks/), keep every code cell to at most 30 non-blank lines, use the GoNB
kernel, and wire the local module in its first code cell exactly as common to every notebook:
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


def strip(nb):
    """strip removes outputs and execution counts of every code cell, in place."""
    for c in nb.get("cells", []):
        if c.get("cell_type") == "code":
            c["outputs"], c["execution_count"] = [], None
    return nb


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
    if dirty:
        out.append(f"{where}: notebooks are committed without outputs: {FIX}")
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


def main(args):
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
        code = [c for c in nb["cells"] if c.get("cell_type") == "code"]
        if all(not c.get("outputs") and c.get("execution_count") is None for c in code):
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
