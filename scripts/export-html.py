#!/usr/bin/env python3
"""Exports notebooks to standalone HTML whose formulas render without network.

    python scripts/export-html.py --output-dir DIR NOTEBOOK.ipynb...   (the Python of the Jupyter
    environment kernel-setup/setup.sh installed: nbconvert 7 and latex2mathml)

nbconvert's HTML export (template "lab") loads MathJax from a CDN (Debian's nbconvert 6.5 from a
local Debian path), so formulas stay raw TeX on a machine without that network or path. Here
every $...$ and $$...$$ of a markdown cell is converted to MathML when exporting (latex2mathml),
which browsers render natively (Chromium 109+, Firefox, Safari), and no MathJax is loaded.
A formula latex2mathml cannot convert is an error naming the notebook and the formula.
Everything else is nbconvert's own lab template: outputs, the charts' inline scripts.
"""
import argparse
import os
import sys

from jinja2 import pass_context
from latex2mathml.converter import convert
from nbconvert import HTMLExporter
from nbconvert.filters.markdown_mistune import IPythonRenderer, MarkdownWithMath
import nbformat


class MathMLRenderer(IPythonRenderer):
    """IPythonRenderer that writes formulas as MathML instead of leaving TeX for MathJax."""

    def __init__(self, *args, where="", **kwargs):
        super().__init__(*args, **kwargs)
        self.where = where

    def _mathml(self, tex, display):
        try:
            return convert(tex, display="block" if display else "inline")
        except Exception as e:  # latex2mathml raises several exception types
            raise ValueError(f"{self.where}: cannot convert formula {tex!r} to MathML: {e}") from e

    def block_math(self, body):
        return self._mathml(body, True)

    def inline_math(self, body):
        return self._mathml(body, False)

    def latex_environment(self, name, body):
        return self._mathml(f"\\begin{{{name}}}{body}\\end{{{name}}}", True)


class OfflineHTMLExporter(HTMLExporter):
    """The lab template with MathML formulas and without MathJax."""

    where = ""

    @pass_context
    def markdown2html(self, context, source):
        cell = context.get("cell", {})
        path = context.get("resources", {}).get("metadata", {}).get("path", "")
        renderer = MathMLRenderer(
            escape=False,
            attachments=cell.get("attachments", {}),
            embed_images=self.embed_images,
            path=path,
            anchor_link_text=self.anchor_link_text,
            exclude_anchor_links=self.exclude_anchor_links,
            where=self.where,
            **self.lexer_options,
        )
        return MarkdownWithMath(renderer=renderer).render(source)


def main():
    ap = argparse.ArgumentParser(description=__doc__.strip().splitlines()[0])
    ap.add_argument("--output-dir", required=True)
    ap.add_argument("notebooks", nargs="+")
    args = ap.parse_args()
    # Template ranklab-offline: the lab template without its MathJax block (no <script src> to a
    # CDN or a local path).
    exporter = OfflineHTMLExporter(
        extra_template_basedirs=[os.path.join(os.path.dirname(os.path.abspath(__file__)), "export-html")],
        template_name="ranklab-offline")
    os.makedirs(args.output_dir, exist_ok=True)
    bad = 0
    for path in args.notebooks:
        exporter.where = path
        try:
            nb = nbformat.read(path, as_version=4)
            body, _ = exporter.from_notebook_node(nb, resources={"metadata": {"name": os.path.splitext(os.path.basename(path))[0]}})
        except Exception as e:
            print(f"export-html: {path}: {e}", file=sys.stderr)
            bad += 1
            continue
        out = os.path.join(args.output_dir, os.path.splitext(os.path.basename(path))[0] + ".html")
        with open(out, "w", encoding="utf-8") as f:
            f.write(body)
        print(f"export-html: {out} ({body.count('<math')} formulas as MathML)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
