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
#   RANKLAB_SKIP_SETUP=1   skip the set-up step (a machine known to be set up)
set -uo pipefail
cd "$(dirname "$0")/.."
mkdir -p ci-artifacts
passed=0; failed=0; failures=(); times=()
t_all=$SECONDS

step() { # step NAME CMD...
  local name=$1; shift
  echo "=== $name"
  local t0=$SECONDS
  if "$@"; then passed=$((passed+1)); echo "--- ok   $name ($((SECONDS-t0)) s)"
  else failed=$((failed+1)); failures+=("$name"); echo "--- FAIL $name ($((SECONDS-t0)) s)"; fi
  times+=("$(printf '%-34s %5d s' "$name" $((SECONDS-t0)))")
}
summary() {
  echo
  echo "step times (load average now: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)):"
  printf '  %s\n' "${times[@]}"
  printf '  %-34s %5d s\n' "total" $((SECONDS-t_all))
  [ ${#failures[@]} -eq 0 ] || echo "failed steps: ${failures[*]}"
  echo "ranklab: $passed passed, $failed failed"
}

# The set-up. If it fails nothing else can run: say so and stop.
if [ "${RANKLAB_SKIP_SETUP:-0}" != 1 ]; then
  step "set-up (kernel-setup/setup.sh --ci)" bash kernel-setup/setup.sh --ci
  if [ "$failed" -gt 0 ]; then
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

step "gofmt" bash -c 'out=$(gofmt -l $(git ls-files "*.go")); [ -z "$out" ] || { echo "gofmt would change: $out"; exit 1; }'
step "go vet" go vet ./...
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
if [ -n "$GOTEST_FLAGS" ]; then
  RACE_PKGS=$(race_packages | tr '\n' ' ')
  export RACE_PKGS
  echo "packages with concurrent code (the -race pass): $RACE_PKGS"
  step "go test $GOTEST_FLAGS (concurrent packages)" bash -c 'set -o pipefail; go test $GOTEST_FLAGS $RACE_PKGS 2>&1 | tee ci-artifacts/go-test-short.log'
fi
step "go test (all, with the peers)" bash -c 'set -o pipefail; go test -count=1 ./... 2>&1 | tee ci-artifacts/go-test.log'
for s in scripts/check-*.sh; do
  [ -e "$s" ] || continue
  step "$(basename "$s" .sh)" bash "$s"
done

summary
[ "$failed" -eq 0 ]
