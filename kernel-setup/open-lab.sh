#!/usr/bin/env bash
# Opens the lab notebook in the Jupyter front-end that setup.sh installed.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
J=$(cat "$here/.jupyter-path" 2>/dev/null || command -v jupyter)
cd "$here/../notebooks"
if "$J" lab --version >/dev/null 2>&1; then exec "$J" lab 00_lab.ipynb; fi
exec "$J" notebook 00_lab.ipynb
