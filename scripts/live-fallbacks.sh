#!/usr/bin/env bash
# Counts how often the live panel falls back to its static snapshot instead of going live, over
# RUNS fresh kernels in JupyterLab, with LOAD busy loops making the machine busy (run by hand;
# not part of make test). Each run restarts the kernel, so GoNB installs its WebSocket to the
# page anew, runs live/testdata/live.ipynb (module, imports, live.Show) and waits for the panel
# to be live or static (scripts/live-test.mjs, LIVE_RUNS). Prints each run and the load average.
#   RUNS=20 LOAD=4 bash scripts/live-fallbacks.sh
# Artifacts: ci-artifacts/live-fallbacks/lab/summary.json (fallback_runs, fallbacks). Needs what
# `bash kernel-setup/setup.sh --ci` installs.
set -uo pipefail
cd "$(dirname "$0")/.."
runs=${RUNS:-20}
load=${LOAD:-4}
loops=()
stop_loops() {
  for p in "${loops[@]}"; do kill "$p" 2>/dev/null; done
  for p in "${loops[@]}"; do wait "$p" 2>/dev/null; done
  loops=()
}
trap stop_loops EXIT
for _ in $(seq 1 "$load"); do
  ( while :; do :; done ) &
  loops+=($!)
done
echo "live-fallbacks: $runs runs with $load busy loops (pids ${loops[*]}); load now $(cut -d' ' -f1-3 /proc/loadavg)"
LIVE_FRONTENDS=lab LIVE_NOTEBOOK=live/testdata/live.ipynb LIVE_RUNS=$runs LIVE_ARTIFACTS=live-fallbacks bash scripts/check-live.sh
status=$?
echo "live-fallbacks: load at the end $(cut -d' ' -f1-3 /proc/loadavg)"
exit $status
