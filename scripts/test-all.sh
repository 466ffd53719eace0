#!/usr/bin/env bash
# Runs every test of the project: go vet, the Go tests (with the trec_eval parity tests
# when ../shared is present), then each scripts/check-*.sh in name order (notebooks,
# headless Chromium, the live-lab browser test). Prints one closing line
# "ranklab: N passed, M failed" and exits non-zero when anything failed.
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

step "gofmt" bash -c 'out=$(gofmt -l $(git ls-files "*.go")); [ -z "$out" ] || { echo "gofmt would change: $out"; exit 1; }'
step "go vet" go vet ./...
step "go test" bash -c 'set -o pipefail; go test ${GOTEST_FLAGS:-} ./... 2>&1 | tee ci-artifacts/go-test.log'
for s in scripts/check-*.sh; do
  [ -e "$s" ] || continue
  step "$(basename "$s" .sh)" bash "$s"
done

echo
[ ${#failures[@]} -eq 0 ] || echo "failed steps: ${failures[*]}"
echo "ranklab: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
