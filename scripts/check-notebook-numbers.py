#!/usr/bin/env python3
"""Checks that every number a notebook's text quotes is one its code printed.

    python3 scripts/check-notebook-numbers.py ci-artifacts/notebooks/13_comparing_runs.ipynb ...
    python3 scripts/check-notebook-numbers.py --self-test

Run on EXECUTED notebooks (scripts/check-notebooks.sh runs it on ci-artifacts/notebooks/ after
executing them), so that a markdown cell and the output it describes cannot drift apart. Prints
one line per problem, "notebooks/NAME.ipynb: cell N (markdown): ...", and exits 1 when there is any.

The rule
--------
Quoted numbers are found in each markdown cell's text, after removing HTML comments, link
targets "(...)" of [text](url) links, and bare URLs (DOIs and arXiv numbers are not results).
Two kinds count:

  decimal   digits "." digits, e.g. 0.7245, 1.40, 32.5 (with "%" after it: the same number).
            A sign written directly before it (+, -, or the minus sign U+2212) is part of it.
            Not counted when glued to a letter, "_" or "." (k1, v0.11, ndcg_cut.10, P.5) or
            followed by "." and a digit (versions such as 0.4.3, 10.0.1).
  fraction  integers joined by "/", e.g. 2/5, 3/8 or a wins/ties/losses triple 22/0/8; not
            glued to letters, "." or another "/" (paths, dates in URLs).

Plain integers do not count (ranks, sizes, counts, years: too often inputs rather than outputs).

A quoted number is printed when some code cell's output holds it. Outputs read: stream text,
text/plain, text/markdown, and text/html with <script> and <style> removed and tags stripped
(tables count; a chart's data, which sits in its script, does not). Matching:

  decimal x written with d decimals: an output decimal y with e >= d decimals such that
            |x - y| < 0.5*10^-d + 0.5*10^-e (both can be roundings of one value: 0.72 and
            0.725 match 0.7245; 0.73 does not, nor does 0.6400 match 0.6399). When the text writes no sign, magnitudes are
            compared (prose says "lowers it by 0.004" of a printed -0.0040); a written sign
            must agree.
  fraction  a/b: the same fraction in the output (spaces around "/" ignored), or an output
            decimal with at least 2 decimals matching a/b's value as above. Three or more
            parts (22/0/8): the same text in the output.

Opting out
----------
A number that is not an output (a parameter such as BM25's k1 = 0.9, a formula constant, a
figure from a paper) is listed in an HTML comment in the same cell, invisible when rendered:

    <!-- not printed: 0.9 0.4 (BM25 parameters), 0.6789 (Anserini's published figure) -->

Every decimal or fraction inside a comment that starts with "not printed:" is exempt in that
cell. An exempt number the cell no longer quotes is a problem too, so the list cannot go stale.
Only the standard library is used.
"""
import html
import json
import os
import re
import sys

MINUS = "\u2212"
# A decimal: optional sign, digits.digits; not glued to a letter/_/. before, nor to a letter/_/
# or ".digit" after.
DECIMAL = re.compile(r"(?<![\w.])([+\-\u2212]?)(\d+)\.(\d+)(?![\w]|\.\d)")
FRACTION = re.compile(r"(?<![\w./])(\d+(?:\s*/\s*\d+)+)(?![\w/]|\.\d)")
COMMENT = re.compile(r"<!--(.*?)-->", re.S)
LINK_TARGET = re.compile(r"\]\([^)\s]*\)")
URL = re.compile(r"(?:https?://|doi:|www\.)\S+", re.I)
SCRIPT = re.compile(r"<(script|style)\b.*?</\1\s*>", re.S | re.I)
TAG = re.compile(r"<[^>]+>")


def source(cell):
    s = cell.get("source", "")
    return "".join(s) if isinstance(s, list) else s


class Decimal:
    def __init__(self, sign, whole, frac):
        self.signed = sign != ""
        self.neg = sign in ("-", MINUS)
        self.digits = len(frac)
        v = float(whole + "." + frac)
        self.value = -v if self.neg else v
        self.text = (("-" if self.neg else "+") if self.signed else "") + whole + "." + frac


def decimals(text):
    """Every decimal in text (sign as written)."""
    return [Decimal(m.group(1), m.group(2), m.group(3)) for m in DECIMAL.finditer(text)]


def fractions(text):
    """Every fraction in text, normalised without spaces."""
    return [re.sub(r"\s+", "", m.group(1)) for m in FRACTION.finditer(text)]


def close(x, xd, y, yd):
    """Could x (xd decimals) and y (yd decimals) be roundings of one value? Their rounding
    intervals must overlap by more than a point (0.6400 and 0.6399 only touch)."""
    return yd >= xd and abs(x - y) < 0.5 * 10 ** -xd + 0.5 * 10 ** -yd - 1e-12


class Printed:
    """What a notebook's code cells printed: decimals and fraction texts."""

    def __init__(self, texts):
        text = "\n".join(texts)
        self.decimals = decimals(text)
        self.fractions = set(fractions(text))

    def has_decimal(self, d):
        for y in self.decimals:
            if d.signed:
                if (y.value < 0) != d.neg and abs(y.value) > 0:
                    continue
                if close(abs(d.value), d.digits, abs(y.value), y.digits):
                    return True
            elif close(abs(d.value), d.digits, abs(y.value), y.digits):
                return True
        return False

    def has_fraction(self, f):
        if f in self.fractions:
            return True
        parts = [int(p) for p in f.split("/")]
        if len(parts) != 2 or parts[1] == 0:
            return False
        v = parts[0] / parts[1]
        return any(y.digits >= 2 and abs(v - abs(y.value)) <= 0.5 * 10 ** -y.digits + 1e-12 for y in self.decimals)

    def nearest(self, value):
        if not self.decimals:
            return None
        return min(self.decimals, key=lambda y: abs(abs(y.value) - abs(value))).text


def output_texts(cell):
    """The text a reader sees in a code cell's outputs."""
    out = []
    for o in cell.get("outputs", []):
        if o.get("output_type") == "stream":
            out.append(source({"source": o.get("text", "")}))
            continue
        data = o.get("data", {})
        for mime in ("text/plain", "text/markdown"):
            if mime in data:
                out.append(source({"source": data[mime]}))
        if "text/html" in data:
            h = source({"source": data["text/html"]})
            h = TAG.sub(" ", SCRIPT.sub(" ", h))
            out.append(html.unescape(h))
    return out


def quoted(md):
    """The quoted decimals and fractions of a markdown cell, and the exempt ones."""
    exempt = set()
    for c in COMMENT.findall(md):
        body = c.strip()
        if body.lower().startswith("not printed:"):
            body = body[len("not printed:"):]
            exempt |= {d.text.lstrip("+") for d in decimals(body)} | {d.text for d in decimals(body)}
            exempt |= set(fractions(body))
    text = COMMENT.sub(" ", md)
    text = LINK_TARGET.sub("]", text)
    text = URL.sub(" ", text)
    return decimals(text), fractions(text), exempt


def check(path, shown=None):
    """Problems of one executed notebook; shown is the path to print (default: notebooks/NAME)."""
    shown = shown or os.path.join("notebooks", os.path.basename(path))
    try:
        with open(path, encoding="utf-8") as f:
            nb = json.load(f)
    except (OSError, ValueError) as e:
        return [f"{shown}: cannot read the executed notebook {path}: {e}"]
    cells = nb.get("cells", [])
    texts = []
    for c in cells:
        if c.get("cell_type") == "code":
            texts += output_texts(c)
    if not any(t.strip() for t in texts):
        return [f"{shown}: no code cell has any output: check an EXECUTED notebook ({path})"]
    printed = Printed(texts)
    problems = []
    for i, c in enumerate(cells):
        if c.get("cell_type") != "markdown":
            continue
        md = source(c)
        decs, fracs, exempt = quoted(md)
        used = set()
        fraction_digits = set()
        for f in fracs:
            fraction_digits.update(f.split("/"))
            if f in exempt:
                used.add(f)
                continue
            if not printed.has_fraction(f):
                problems.append(f"{shown}: cell {i + 1} (markdown): fraction {f} is not printed by any code cell"
                                f" (print it, or list it in <!-- not printed: ... --> if it is not an output)")
        for d in decs:
            key = d.text.lstrip("+")
            if key in exempt or d.text in exempt:
                used.add(key)
                used.add(d.text)
                continue
            if not printed.has_decimal(d):
                near = printed.nearest(d.value)
                problems.append(f"{shown}: cell {i + 1} (markdown): {d.text} is not printed by any code cell"
                                f"{f' (nearest printed: {near})' if near else ''}"
                                f" (print it, or list it in <!-- not printed: ... --> if it is not an output)")
        for e in sorted(exempt - used):
            if e.lstrip("+-" + MINUS) in used or "-" + e in used or "+" + e in used:
                continue
            problems.append(f"{shown}: cell {i + 1} (markdown): {e} is listed as not printed but the cell does not quote it")
    return problems


def self_test():
    cases = [
        # (markdown, printed output, expected number of problems)
        ("nDCG@10 rises to 0.7245", "nDCG@10 0.7245\n", 0),
        ("about 0.72", "0.7245", 0),
        ("about 0.725", "0.7245", 0),
        ("about 0.73", "0.7245", 1),
        ("nDCG@5 0.6400", "nDCG@5 0.6399", 1),  # the rounding intervals only touch
        ("nDCG@5 0.640", "nDCG@5 0.6399", 0),
        ("0.7245 exactly", "0.72", 1),          # printed with fewer decimals: not a source
        ("+0.0245 gained", "Δ +0.0245", 0),
        ("−0.0002 low end", "[-0.0002, +0.0391]", 0),
        ("+0.0002 low end", "[-0.0002, +0.0391]", 1),
        ("lowered by 0.004", "delta -0.0040", 0),
        ("P@5 = 2/5", "P@5 0.400", 0),
        ("P@5 = 3/5", "P@5 0.400", 1),
        ("W/T/L 22/0/8", "22/0/8", 0),
        ("W/T/L 22/0/8", "22 0 8", 1),
        ("ir-measures 0.4.3 and ndcg_cut.10 and k1 and v0.11", "", 0),
        ("see [a](https://doi.org/10.1145/582415.582418) and https://arxiv.org/abs/2104.08663", "", 0),
        ("k1 = 0.9 <!-- not printed: 0.9 (BM25 parameter) -->", "", 0),
        ("k1 = 0.9 <!-- not printed: 0.9 0.4 -->", "", 1),  # 0.4 listed but not quoted
        ("32.5% duplicated", "duplication 32.5%", 0),
        ("a/b and ../shared/x and 2026/12/03x", "", 0),
    ]
    bad = 0
    for md, out, want in cases:
        nb = {"cells": [{"cell_type": "markdown", "source": md},
                        {"cell_type": "code", "outputs": [{"output_type": "stream", "text": out or "x"}]}]}
        tmp = os.path.join(os.environ.get("TMPDIR", "/tmp"), f"numbers-selftest-{os.getpid()}.ipynb")
        with open(tmp, "w", encoding="utf-8") as f:
            json.dump(nb, f)
        got = check(tmp, "t")
        os.remove(tmp)
        if len(got) != want:
            bad += 1
            print(f"self-test: {md!r} with output {out!r}: want {want} problem(s), got {got}")
    # HTML: tables count, scripts do not.
    nb = {"cells": [{"cell_type": "markdown", "source": "0.5123 and 0.9876"},
                    {"cell_type": "code", "outputs": [{"output_type": "display_data", "data": {
                        "text/html": "<table><tr><td>0.5123</td></tr></table><script>var x = 0.9876;</script>"}}]}]}
    tmp = os.path.join(os.environ.get("TMPDIR", "/tmp"), f"numbers-selftest-{os.getpid()}.ipynb")
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(nb, f)
    got = check(tmp, "t")
    os.remove(tmp)
    if len(got) != 1 or "0.9876" not in got[0]:
        bad += 1
        print(f"self-test: HTML table/script: want one problem about 0.9876, got {got}")
    print(f"check-notebook-numbers self-test: {len(cases) + 1} cases, {bad} failed")
    return 1 if bad else 0


def main(args):
    if args == ["--self-test"]:
        return self_test()
    if not args:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    problems = []
    for p in args:
        problems += check(p)
    for p in problems:
        print(p)
    print(f"check-notebook-numbers: {len(args)} notebook(s), {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
