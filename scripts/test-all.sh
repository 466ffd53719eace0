#!/usr/bin/env bash
# Runs every test of the project: gofmt, go vet, the Go tests (with the trec_eval parity tests
# when ../shared is present; fuzz seeds run as unit tests), then each scripts/check-*.sh in name
# order (charts in headless Chromium, the live-lab browser test, every notebook executed).
# Prints one closing line "ranklab: N passed, M failed" and exits non-zero when anything failed.
# On a machine that lacks the tools of the checks it stops at once and names `make setup-ci`.
#
# The Go tests run twice: -race -short, then all without -race (see below).
set -uo pipefail
cd "$(dirname "$0")/.."
mkdir -p ci-artifacts
passed=0; failed=0; failures=()

step() { # step NAME CMD...
  local name=$1; shift
  echo "=== $name"
  local t0=$SECONDS
  if "$@"; then passed=$((passed+1)); echo "--- ok   $name ($((SECONDS-t0)) s)"
  else failed=$((failed+1)); failures+=("$name"); echo "--- FAIL $name ($((SECONDS-t0)) s)"; fi
}

# Before anything long: the tools the checks need. A fresh machine stops here within seconds,
# naming the one command that installs them (the same idempotent set-up CI runs).
need=()
command -v go >/dev/null || need+=("go")
command -v gonb >/dev/null || [ -x "$(go env GOPATH 2>/dev/null)/bin/gonb" ] || need+=("gonb")
J=$(cat kernel-setup/.jupyter-path 2>/dev/null || true)
{ [ -n "$J" ] && [ -x "$J" ]; } || need+=("Jupyter (kernel-setup/.jupyter-path)")
[ -n "$J" ] && [ -x "$(dirname "$J")/jupyter-lab" ] || need+=("JupyterLab")
[ -x "${CHROMIUM:-/usr/bin/chromium}" ] || need+=("chromium")
command -v node >/dev/null || need+=("node")
[ -d scripts/node_modules/playwright-core ] || need+=("playwright-core")
# The peer evaluators (pytrec_eval, ir_measures, ranx, BEIR's and LlamaIndex's metrics): the Go
# tests that compare with them run, and fail rather than skip, when RANKLAB_PEERS=1.
if peers_py=$(bash scripts/peers.sh --check 2>/dev/null | tail -1) && [ -x "$peers_py" ]; then
  export RANKLAB_PEERS=1 RANKLAB_PEERS_PYTHON="$peers_py"
else
  need+=("the peer evaluators (scripts/peers.sh)")
fi
bash kernel-setup/dense.sh --check >/dev/null 2>&1 || need+=("the dense model (kernel-setup/dense.sh)")
if [ ${#need[@]} -gt 0 ]; then
  echo "make test: not set up for the browser and notebook checks (missing: ${need[*]})."
  echo "Run this once (installs them; about a minute, needs root or sudo for Debian's packages):"
  echo
  echo "    make setup-ci"
  echo
  echo "ranklab: 0 passed, 1 failed"
  exit 1
fi

step "gofmt" bash -c 'out=$(gofmt -l $(git ls-files "*.go")); [ -z "$out" ] || { echo "gofmt would change: $out"; exit 1; }'
step "go vet" go vet ./...
# The Go tests run twice: with the race detector and -short (every test but the slow ones that
# read the real collections or run the peer evaluators in Python, where -race multiplies the
# time by about 10 and finds nothing the first pass does not), then all of them without -race.
# GOTEST_FLAGS replaces the first pass's flags (GOTEST_FLAGS= skips it).
if [ -z "${GOTEST_FLAGS+set}" ]; then
  GOTEST_FLAGS="-short"
  if [ "$(go env CGO_ENABLED)" = 1 ] && command -v "$(go env CC)" >/dev/null; then GOTEST_FLAGS="-race -short"
  else echo "note: no C compiler for cgo, so the first pass runs without -race"; fi
fi
export GOTEST_FLAGS
if [ -n "$GOTEST_FLAGS" ]; then
  step "go test $GOTEST_FLAGS" bash -c 'set -o pipefail; go test $GOTEST_FLAGS ./... 2>&1 | tee ci-artifacts/go-test-short.log'
fi
step "go test (all, with the peers)" bash -c 'set -o pipefail; go test -count=1 ./... 2>&1 | tee ci-artifacts/go-test.log'
for s in scripts/check-*.sh; do
  [ -e "$s" ] || continue
  step "$(basename "$s" .sh)" bash "$s"
done

echo
[ ${#failures[@]} -eq 0 ] || echo "failed steps: ${failures[*]}"
echo "ranklab: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
