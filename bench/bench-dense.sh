#!/usr/bin/env bash
# bench-dense.sh: embeds the same corpus with ranklab (package embed: its WordPiece, its cgo
# binding of ONNX Runtime's C library, mean pooling in Go) and with onnxruntime's own Python
# package on the same graph, in one run, and prints each one's CPU seconds and their ratio (the
# goal: ranklab ≤ 1.2 × onnxruntime), with the load average before and after.
#
#   bench/bench-dense.sh [COLLECTION_DIR]     # default ../shared/data/cranfield
#   ROUNDS=2 bench/bench-dense.sh ../shared/data/scifact
#
# Both embed every document (title + " " + text, 256 tokens at most), in batches of 32 texts
# sorted by length, with ONNX Runtime 1.32.0's default intra-op threads (one per core) and all
# graph optimisations. ranklab's time includes tokenizing; the Python side is given ranklab's
# token IDs (so it times only the forward passes and pooling) and checks that its vectors agree
# with ranklab's. The halves alternate ROUNDS times (default 1); each line is one process.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
data=${1:-$root/../shared/data/cranfield}
rounds=${ROUNDS:-1}
manifest=$(bash "$root/kernel-setup/dense.sh" --check) || exit 1
py=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["python"])' "$manifest")
onnx=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["model_dir"] + "/model.onnx")' "$manifest")
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
(cd "$root" && go build -o "$tmp/dense" ./bench/dense)
echo "corpus: $data; $(nproc) CPUs; load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)"
for r in $(seq "$rounds"); do
  g=$("$tmp/dense" -data "$data" -tokens "$tmp/tokens.json" -vectors "$tmp/vectors.f32")
  p=$("$py" "$root/bench/dense_ort.py" "$onnx" "$tmp/tokens.json" "$tmp/vectors.f32")
  python3 - "$g" "$p" <<'PY'
import json, sys
g, p = json.loads(sys.argv[1]), json.loads(sys.argv[2])
print(f"ranklab (embed)          {g['texts']} texts  {g['cpu_s']:8.1f} CPU-s  {g['wall_s']:8.1f} s wall")
print(f"onnxruntime (Python)     {p['texts']} texts  {p['cpu_s']:8.1f} CPU-s  {p['wall_s']:8.1f} s wall")
print(f"ratio ranklab/onnxruntime: {g['cpu_s'] / p['cpu_s']:.2f} CPU, {g['wall_s'] / p['wall_s']:.2f} wall; lowest cosine between the two: {p['min_cosine']:.9f}")
PY
done
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
