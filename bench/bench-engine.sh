#!/usr/bin/env bash
# bench-engine.sh: the scale measurement of the README's search-engine section (not run in CI).
# Makes N deterministic passages, starts a local 2-node cluster (ranklab's engine package; the
# launchers kernel-setup/engine.sh builds), indexes them with BM25 and with vectors, and prints one
# JSON line per measurement (indexing rate, disk, JVM memory, query latency, recall of HNSW
# against exact search, in-process figures, the real model's embedding throughput), each with
# the load average. About 1-4 h for 1,000,000 passages on 2 cores.
#
#   bench/bench-engine.sh [-n 1000000] [-kind solr|opensearch] [-phases bm25,vectors,embed] ...
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
(cd "$root" && go build -o "$tmp/engine-bench" ./bench/engine)
echo "$(nproc) CPUs; load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
"$tmp/engine-bench" "$@"
