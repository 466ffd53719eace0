#!/usr/bin/env bash
# bench-eval.sh: times ranklab eval against trec_eval, pytrec_eval, ir_measures and ranx, in one
# run on the same files, with each one's peak RSS and whether its per-query values agree.
#
#   bench/bench-eval.sh [DIR]
#
# DIR (default /tmp/ranklab-bench) holds qrels.large and run.large; they are generated there with
# ../shared/bench/gen_large.py when missing (about a minute) and checked against its MD5SUMS.
# Never generate them inside the repository. Measures: nDCG@10, P@10, R@100, RR (trec_eval's
# -q -m ndcg_cut.10 -m P.10 -m recall.100 -m recip_rank), per query.
#
#   TREC_EVAL   a trec_eval binary (else trec_eval on PATH; without one it is left out)
#   PEERS_PYTHON  the peers' python (default: the last line of scripts/peers.sh; "none" skips them)
#   RUNS        runs of ranklab and trec_eval, best kept (default 3); the Python peers run once
#   BENCH_NO_CHECK=1  skip the checksum (to try the script on other files named so)
#
# Each tool runs as its own process under /usr/bin/time (wall time, peak RSS); the Python peers
# read the files with their own readers, as a user would. ranx runs with an empty numba cache
# (NUMBA_CACHE_DIR in DIR), so its first evaluation includes the JIT compilation; its second
# evaluation in the same process is reported apart as the warm call. Values: trec_eval's output
# must be byte-identical to ranklab's; the peers' per-query values are compared with ranklab's to
# 1e-9, under trec_eval 10.0's rules and under --trec-eval-9 (float32 scores, as pytrec_eval).
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
if [[ -f "$shared/MD5SUMS" && -z "${BENCH_NO_CHECK:-}" ]]; then
  (cd "$dir" && md5sum -c --quiet "$shared/MD5SUMS") || { echo "bench-eval: checksum mismatch in $dir" >&2; exit 1; }
fi

bin="$dir/ranklab"
(cd "$root" && go build -o "$bin" ./cmd/ranklab)
qrels=$dir/qrels.large run=$dir/run.large

declare -A wall rss note
# measure NAME N OUT CMD...: runs CMD N times (stdout to OUT), keeps the best wall time and its
# peak RSS; the command's stderr goes to DIR/NAME.err.
measure() {
  local name=$1 n=$2 out=$3; shift 3
  local best="" mem="" t r
  for _ in $(seq "$n"); do
    /usr/bin/time -f '%e %M' -o "$dir/time.txt" "$@" > "$out" 2> "$dir/$name.err" || { echo "$name failed:"; tail -5 "$dir/$name.err"; return 1; }
    read -r t r < "$dir/time.txt"
    if [[ -z "$best" ]] || awk -v a="$t" -v b="$best" 'BEGIN{exit !(a<b)}'; then best=$t; mem=$r; fi
  done
  wall[$name]=$best rss[$name]=$mem
}

echo "machine: $(nproc) cores, $(awk '/MemTotal/{printf "%.0f GiB", $2/1048576}' /proc/meminfo), load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "files: $qrels ($(wc -l < "$qrels") lines), $run ($(du -m "$run" | cut -f1) MB)"
echo "measures: ${measures[*]} (per query)"
measure ranklab "$runs" "$dir/ranklab.out" "$bin" eval -q "${measures[@]}" "$qrels" "$run"
"$bin" eval -q -digits 17 "${measures[@]}" "$qrels" "$run" > "$dir/ranklab17.out"
"$bin" eval -q -digits 17 --trec-eval-9 "${measures[@]}" "$qrels" "$run" > "$dir/ranklab17v9.out"
note[ranklab]="(the reference)"

ref=${TREC_EVAL:-$(command -v trec_eval || true)}
tools=(ranklab)
if [[ -n "$ref" && -x "$ref" ]]; then
  measure trec_eval "$runs" "$dir/trec_eval.out" "$ref" -q "${measures[@]}" "$qrels" "$run"
  if cmp -s "$dir/ranklab.out" "$dir/trec_eval.out"; then
    note[trec_eval]="output byte-identical ($(wc -l < "$dir/ranklab.out") lines)"
  else
    note[trec_eval]="output DIFFERS: $(diff "$dir/ranklab.out" "$dir/trec_eval.out" | grep -c '^<') lines"
  fi
  tools+=(trec_eval)
else
  echo "trec_eval: left out (no trec_eval on PATH and TREC_EVAL unset)"
fi

py=${PEERS_PYTHON:-}
if [[ -z "$py" ]]; then py=$(bash "$root/scripts/peers.sh" | tail -1) || py=none; fi
if [[ "$py" != none && -x "$py" ]]; then
  export NUMBA_CACHE_DIR="$dir/numba-cache"
  for tool in pytrec_eval ir_measures ranx; do
    rm -rf "$NUMBA_CACHE_DIR"
    measure "$tool" 1 /dev/null "$py" "$root/bench/peer_eval.py" "$tool" "$qrels" "$run" "$dir/$tool.tsv" || continue
    v10=$(python3 "$root/bench/compare_values.py" "$dir/ranklab17.out" "$dir/$tool.tsv")
    v9=$(python3 "$root/bench/compare_values.py" "$dir/ranklab17v9.out" "$dir/$tool.tsv")
    note[$tool]="vs 10.0 rules: $v10; vs --trec-eval-9: $v9"
    tools+=("$tool")
  done
  note[ranx]="${note[ranx]:-}; ranx breaks score ties in numba's unstable argsort order (trec_eval: doc ID descending)"
else
  echo "Python peers: left out (PEERS_PYTHON=none or scripts/peers.sh failed)"
fi

echo
printf '%-12s %9s %12s  %s\n' tool "wall s" "peak RSS MB" "values"
for t in "${tools[@]}"; do
  printf '%-12s %9.2f %12.1f  %s\n' "$t" "${wall[$t]}" "$(awk -v k="${rss[$t]}" 'BEGIN{print k/1024}')" "${note[$t]}"
done
if [[ -f "$dir/ranx.err" ]]; then
  echo "ranx inside its process: $(grep '^timing' "$dir/ranx.err" | sed 's/timing //' | paste -sd' ' | sed 's/load/load (Qrels, Run)/; s/eval/first evaluate (JIT compile)/; s/warm/second evaluate (warm)/')"
fi
for t in pytrec_eval ir_measures; do
  [[ -f "$dir/$t.err" ]] && echo "$t inside its process: $(grep '^timing' "$dir/$t.err" | sed 's/timing //' | paste -sd' ')"
done
echo "trec_eval binary: ${ref:-none}"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
for t in "${tools[@]}"; do
  [[ $t == ranklab ]] && continue
  awk -v n="$t" -v a="${wall[$t]}" -v b="${wall[ranklab]}" -v ra="${rss[$t]}" -v rb="${rss[ranklab]}" \
    'BEGIN{printf "ranklab vs %-11s %6.1fx faster, %5.1fx less peak memory\n", n, a/b, ra/rb}'
done
min_rss=""; min_tool=""
for t in "${tools[@]}"; do
  [[ $t == ranklab ]] && continue
  if [[ -z "$min_rss" || ${rss[$t]} -lt $min_rss ]]; then min_rss=${rss[$t]}; min_tool=$t; fi
done
if [[ -n "$min_rss" ]]; then
  awk -v r="${rss[ranklab]}" -v m="$min_rss" -v t="$min_tool" \
    'BEGIN{printf "goal: faster than every peer, and peak memory <= 1/5 of the smallest peer'"'"'s (%s, %.1f MB): ranklab %.1f MB = 1/%.1f\n", t, m/1024, r/1024, m/r}'
fi
