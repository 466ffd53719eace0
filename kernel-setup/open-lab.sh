#!/usr/bin/env bash
# Opens notebooks/00_lab.ipynb in the Jupyter front-end that setup.sh chose (JupyterLab where pip
# installed it, else the classic Notebook). Extra arguments go to Jupyter, e.g. --port=9999
# or --no-browser. Run `bash kernel-setup/setup.sh` first (`make lab` does both).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
die() { printf '\033[1;31m[open-lab] error:\033[0m %s\n' "$*" >&2; exit 1; }

J=$(cat "$here/.jupyter-path" 2>/dev/null || true)
[ -n "$J" ] && [ -x "$J" ] || die "no Jupyter recorded in kernel-setup/.jupyter-path: run 'bash kernel-setup/setup.sh' first"
"$J" kernelspec list 2>/dev/null | grep '^ *gonb ' >/dev/null || die "the GoNB kernel is not registered for $J: run 'bash kernel-setup/setup.sh'"
export PATH="$(go env GOPATH)/bin:$PATH"
[ -f "$root/notebooks/00_lab.ipynb" ] || die "notebooks/00_lab.ipynb is missing"

# The server's root is notebooks/, so every kernel starts there and ${GONB_DIR}/.. is the repository.
args=(--notebook-dir="$root/notebooks")
[ "$(id -u)" = 0 ] && args+=(--allow-root)
if "$J" lab --version >/dev/null 2>&1; then
  printf '\033[1m[open-lab]\033[0m JupyterLab %s: opening 00_lab.ipynb (Ctrl-C twice to stop)\n' "$("$J" lab --version)"
  exec "$J" lab "${args[@]}" "$@" "$root/notebooks/00_lab.ipynb"
fi
printf '\033[1m[open-lab]\033[0m Jupyter Notebook %s: opening 00_lab.ipynb (Ctrl-C twice to stop)\n' "$("$J" notebook --version)"
exec "$J" notebook "${args[@]}" "$@" "$root/notebooks/00_lab.ipynb"
