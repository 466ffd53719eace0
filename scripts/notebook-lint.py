#!/usr/bin/python3
"""Checks (or cleans) the notebooks as they are saved in the repository.

    /usr/bin/python3 scripts/notebook-lint.py notebooks/*.ipynb          # check, exit 1 on a problem
    /usr/bin/python3 scripts/notebook-lint.py --strip notebooks/*.ipynb  # remove outputs in place

A saved notebook must have no outputs and no execution counts (CI executes them; outputs live
only in ci-artifacts/notebooks/), use the GoNB kernel, and wire the local module in its first
code cell exactly as common to every notebook:
    !*go mod edit -require=github.com/ranklab/ranklab@v0.0.0 -replace=github.com/ranklab/ranklab=${GONB_DIR}/..
Only the standard library is used (json), so any python3 runs it.
"""
import json
import sys

WIRING = ("!*go mod edit -require=github.com/ranklab/ranklab@v0.0.0 "
          "-replace=github.com/ranklab/ranklab=${GONB_DIR}/..")


def source(cell):
    s = cell.get("source", "")
    return "".join(s) if isinstance(s, list) else s


def problems(path, nb):
    out = []
    spec = nb.get("metadata", {}).get("kernelspec", {}).get("name")
    if spec != "gonb":
        out.append(f"{path}: kernelspec is {spec!r}, want 'gonb'")
    code = [(i, c) for i, c in enumerate(nb.get("cells", [])) if c.get("cell_type") == "code"]
    if not code:
        out.append(f"{path}: no code cell")
    elif source(code[0][1]).strip() != WIRING:
        out.append(f"{path}: cell {code[0][0] + 1}: first code cell must be exactly: {WIRING}")
    for i, c in code:
        if c.get("outputs"):
            out.append(f"{path}: cell {i + 1}: saved with {len(c['outputs'])} output(s); save notebooks without outputs "
                       f"(python3 scripts/notebook-lint.py --strip {path})")
        if c.get("execution_count") is not None:
            out.append(f"{path}: cell {i + 1}: saved with execution_count {c['execution_count']}")
    return out


def main(args):
    strip = args[:1] == ["--strip"]
    paths = args[1:] if strip else args
    if not paths:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    bad = []
    for path in paths:
        try:
            with open(path, encoding="utf-8") as f:
                nb = json.load(f)
        except (OSError, ValueError) as e:
            bad.append(f"{path}: cannot read notebook: {e}")
            continue
        if strip:
            for c in nb.get("cells", []):
                if c.get("cell_type") == "code":
                    c["outputs"], c["execution_count"] = [], None
            with open(path, "w", encoding="utf-8") as f:
                json.dump(nb, f, indent=1, ensure_ascii=False)
                f.write("\n")
            continue
        bad += problems(path, nb)
    for b in bad:
        print(b)
    if not strip:
        print(f"notebook-lint: {len(paths)} notebook(s), {len(bad)} problem(s)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
