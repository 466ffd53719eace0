#!/usr/bin/env bash
# Browser test of the live lab panel (package live): starts Debian's classic Jupyter Notebook
# server on 127.0.0.1 with the GoNB kernel, opens notebooks/00_lab.ipynb in headless Chromium
# through Playwright (scripts/live-test.mjs), runs it and drives the panel; expected values come
# from `ranklab lab`. Artifacts (screenshots, summary.json, server log) in ci-artifacts/live/.
# The notebooks run from a scratch copy of the repository tree (symlinks + copied notebooks), so
# the browser session cannot save outputs into notebooks/ and the exported CSV lands there.
# Needs: /usr/bin/jupyter (jupyter-notebook), gonb + goimports, /usr/bin/chromium, node with
# scripts/node_modules/playwright-core (bash kernel-setup/setup.sh --ci installs them all).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
out=$root/ci-artifacts/live
rm -rf "$out"; mkdir -p "$out"
export PATH="$(go env GOPATH)/bin:$PATH"

notebook=${LIVE_NOTEBOOK:-notebooks/00_lab.ipynb}
missing=()
[ -x /usr/bin/jupyter ] || missing+=("/usr/bin/jupyter (jupyter-notebook)")
command -v gonb >/dev/null || missing+=(gonb)
[ -x "${CHROMIUM:-/usr/bin/chromium}" ] || missing+=(chromium)
command -v node >/dev/null || missing+=(node)
[ -d scripts/node_modules/playwright-core ] || missing+=("scripts/node_modules/playwright-core")
[ -f "$notebook" ] || missing+=("$notebook")
if [ ${#missing[@]} -gt 0 ]; then
  echo "check-live: missing ${missing[*]} (run: bash kernel-setup/setup.sh --ci)" >&2
  exit 1
fi

tmp=$(mktemp -d)
server=""
cleanup() {
  if [ -n "$server" ]; then kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; fi
  rm -rf "$tmp"
}
trap cleanup EXIT

# Scratch tree: every top-level entry linked, notebooks/ copied (GONB_DIR/.. is the module root).
tree=$tmp/tree
mkdir -p "$tree/notebooks"
for e in "$root"/* "$root"/go.mod "$root"/go.sum; do
  name=$(basename "$e")
  case "$name" in notebooks|ci-artifacts) continue ;; esac
  [ -e "$tree/$name" ] || ln -s "$e" "$tree/$name"
done
cp "$root"/notebooks/*.ipynb "$tree/notebooks/" 2>/dev/null || true
case "$notebook" in
  notebooks/*) ;;
  *) # a test notebook kept elsewhere: copy it beside the others, wired one level up
     sed 's#${GONB_DIR}/\.\./\.\.#${GONB_DIR}/..#' "$notebook" > "$tree/notebooks/$(basename "$notebook")"
     notebook=notebooks/$(basename "$notebook") ;;
esac

go build -o "$tmp/ranklab" ./cmd/ranklab

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
mkdir -p "$tmp/out"
export RANKLAB_LIVE=auto RANKLAB_LIVE_IDLE=5m RANKLAB_LIVE_MAX=12m RANKLAB_OUT=$tmp/out
timeout 900 /usr/bin/jupyter notebook --no-browser --ip=127.0.0.1 --port="$port" \
  --NotebookApp.token='' --NotebookApp.password='' --allow-root --notebook-dir="$tree" \
  >"$out/jupyter.log" 2>&1 &
server=$!
for _ in $(seq 1 120); do
  curl -fsS "http://127.0.0.1:$port/api" >/dev/null 2>&1 && break
  kill -0 "$server" 2>/dev/null || { echo "check-live: the notebook server exited; see $out/jupyter.log" >&2; exit 1; }
  sleep 0.5
done

status=0
BASE="http://127.0.0.1:$port" NOTEBOOK="$notebook" RANKLAB="$tmp/ranklab" OUT="$out" \
  timeout 900 node scripts/live-test.mjs || status=$?
[ -f "$tree/notebooks/ranklab-lab.csv" ] && cp "$tree/notebooks/ranklab-lab.csv" "$out/"
exit $status
