#!/usr/bin/env bash
# bench-eval.sh: times `ranklab eval` (and trec_eval, when available) on the large benchmark pair.
#
#   bench/bench-eval.sh [DIR]
#
# DIR (default /tmp/ranklab-bench) holds qrels.large and run.large; they are generated there with
# ../shared/bench/gen_large.py when missing (about a minute) and checked against its MD5SUMS.
# Never generate them inside the repository. trec_eval is taken from $TREC_EVAL or PATH; without
# it the script prints ranklab's own figures and says the reference is missing.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
shared="$root/../shared/bench"
dir=${1:-/tmp/ranklab-bench}
runs=${RUNS:-3}
measures=(-m ndcg_cut.10 -m P.10 -m recall.100 -m recip_rank)

mkdir -p "$dir"
if [[ ! -f "$dir/qrels.large" || ! -f "$dir/run.large" ]]; then
  [[ -f "$shared/gen_large.py" ]] || { echo "bench-eval: $shared/gen_large.py not found" >&2; exit 1; }
  echo "generating the large pair in $dir ..."
  (cd "$dir" && python3 "$shared/gen_large.py")
fi
if [[ -f "$shared/MD5SUMS" ]]; then
  (cd "$dir" && md5sum -c --quiet "$shared/MD5SUMS") || { echo "bench-eval: checksum mismatch in $dir" >&2; exit 1; }
fi

bin="$dir/ranklab"
(cd "$root" && go build -o "$bin" ./cmd/ranklab)

# measure NAME OUT CMD...: runs CMD $runs times, keeps the best wall time and its peak RSS.
measure() {
  local name=$1 out=$2; shift 2
  local best="" rss="" t
  for _ in $(seq "$runs"); do
    /usr/bin/time -f '%e %M' -o "$dir/time.txt" "$@" > "$out"
    read -r t r < "$dir/time.txt"
    if [[ -z "$best" ]] || awk -v a="$t" -v b="$best" 'BEGIN{exit !(a<b)}'; then best=$t; rss=$r; fi
  done
  printf '%-10s best of %d: %6.2f s wall, peak RSS %7.1f MB\n' "$name" "$runs" "$best" "$(awk -v k="$rss" 'BEGIN{print k/1024}')"
  eval "${name}_time=$best ${name}_rss=$rss"
}

echo "machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "command: eval -q ${measures[*]} qrels.large run.large"
measure ranklab "$dir/ranklab.out" "$bin" eval -q "${measures[@]}" "$dir/qrels.large" "$dir/run.large"

ref=${TREC_EVAL:-$(command -v trec_eval || true)}
if [[ -z "$ref" || ! -x "$ref" ]]; then
  echo "reference missing: no trec_eval on PATH and TREC_EVAL unset; trec_eval 10.0 -O2 was"
  echo "measured at about 5.5 s and 547 MB on this pair (../shared/bench/README.md): goal < 0.55 s, < 109 MB"
  awk -v t="$ranklab_time" -v r="$ranklab_rss" 'BEGIN{printf "ratios against those figures: %.1fx faster, %.1fx less memory\n", 5.5/t, 547*1024/r}'
  exit 0
fi
measure trec_eval "$dir/trec_eval.out" "$ref" -q "${measures[@]}" "$dir/qrels.large" "$dir/run.large"
awk -v a="$trec_eval_time" -v b="$ranklab_time" -v ra="$trec_eval_rss" -v rb="$ranklab_rss" \
  'BEGIN{printf "ranklab vs trec_eval: %.1fx faster, %.1fx less peak memory (goals: >= 10x, >= 5x)\n", a/b, ra/rb}'
if cmp -s "$dir/ranklab.out" "$dir/trec_eval.out"; then
  echo "per-query outputs: identical ($(wc -l < "$dir/ranklab.out") lines)"
else
  echo "per-query outputs DIFFER:"; diff "$dir/ranklab.out" "$dir/trec_eval.out" | head -20
  exit 1
fi
