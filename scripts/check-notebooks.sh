#!/usr/bin/env bash
# Executes every notebook the way a reader would, and checks what it shows.
#
#   bash scripts/check-notebooks.sh                       # all of notebooks/*.ipynb
#   bash scripts/check-notebooks.sh notebooks/03_mrr.ipynb  # only these
#
# 1. Lint: every notebooks/*.ipynb is saved without outputs, uses the GoNB kernel and wires
#    the local module in its first code cell (scripts/notebook-lint.py).
# 2. Execute each notebook with `jupyter nbconvert --execute` (a failing cell fails the check)
#    into ci-artifacts/notebooks/<name>.ipynb — never into notebooks/ — with RANKLAB_LIVE=static
#    (the live panel shows its snapshot instead of waiting for a browser) and RANKLAB_OUT pointing
#    at ci-artifacts/notebooks (files a notebook exports land there).
# 3. Export each executed notebook to HTML and open it in headless Chromium with the network
#    blocked (scripts/charts-drawn.js): every chart container must report data-drawn="1", and a
#    notebook must draw at least one chart unless its metadata says {"ranklab": {"min_charts": 0}}.
# 4. Every decimal or fraction quoted in a markdown cell must be one the notebook printed
#    (scripts/check-notebook-numbers.py), so text and output cannot drift apart.
# Prints the run time of each notebook. Needs `bash kernel-setup/setup.sh --ci` first.
set -uo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
out=ci-artifacts/notebooks
# Jupyter with nbconvert: $JUPYTER, else Debian's /usr/bin/jupyter (the first python3 on PATH may
# lack nbconvert), else the front-end kernel-setup/setup.sh chose.
if [ -z "${JUPYTER:-}" ]; then
  JUPYTER=/usr/bin/jupyter
  [ -x "$JUPYTER" ] || JUPYTER=$(cat kernel-setup/.jupyter-path 2>/dev/null || echo /usr/bin/jupyter)
fi
PY=${PYTHON:-/usr/bin/python3}
TIMEOUT=${NOTEBOOK_TIMEOUT:-600}        # seconds per cell, and 2x per notebook

die() { echo "check-notebooks: $*" >&2; exit 1; }
[ -x "$JUPYTER" ] || die "$JUPYTER not found: run 'bash kernel-setup/setup.sh --ci' (or set JUPYTER)"
"$JUPYTER" nbconvert --version >/dev/null 2>&1 || die "$JUPYTER has no nbconvert: run 'bash kernel-setup/setup.sh --ci'"
"$JUPYTER" kernelspec list 2>/dev/null | grep '^ *gonb ' >/dev/null || die "the GoNB kernel is not registered: run 'bash kernel-setup/setup.sh --ci'"
command -v node >/dev/null || die "node not found (needed for the Chromium check)"
[ -d scripts/node_modules/playwright-core ] || die "scripts/node_modules/playwright-core missing: run 'bash kernel-setup/setup.sh --ci'"
[ -x "${CHROMIUM:-/usr/bin/chromium}" ] || die "${CHROMIUM:-/usr/bin/chromium} not found: run 'bash kernel-setup/setup.sh --ci'"
export PATH="$(go env GOPATH)/bin:$PATH"   # gonb and goimports

if [ $# -gt 0 ]; then nbs=("$@"); else nbs=(notebooks/*.ipynb); fi
[ -e "${nbs[0]}" ] || die "no notebooks found"

fail=0
echo "--- lint"
"$PY" scripts/notebook-lint.py "${nbs[@]}" || fail=1

mkdir -p "$out"   # only this run's notebooks' files are replaced: others may run a subset at the same time
export RANKLAB_LIVE=static RANKLAB_OUT="$root/$out"
html=(); times=(); executed=()
for nb in "${nbs[@]}"; do
  name=$(basename "$nb" .ipynb)
  min=$("$PY" -c 'import json,sys; print(json.load(open(sys.argv[1])).get("metadata",{}).get("ranklab",{}).get("min_charts",1))' "$nb" 2>/dev/null || echo 1)
  echo "--- execute $nb"
  rm -f "$out/$name".{ipynb,html,png,log}
  t0=$(date +%s%3N)
  if timeout $((2 * TIMEOUT)) "$JUPYTER" nbconvert --to notebook --execute \
      --ExecutePreprocessor.timeout="$TIMEOUT" --ExecutePreprocessor.kernel_name=gonb \
      --output-dir "$out" --output "$name" "$nb" >"$out/$name.log" 2>&1; then
    ms=$(( $(date +%s%3N) - t0 ))
    times+=("$(printf '%-32s %4d.%d s' "$name" $((ms / 1000)) $((ms % 1000 / 100)))")
    executed+=("$out/$name.ipynb")
    if "$JUPYTER" nbconvert --to html --output-dir "$out" "$out/$name.ipynb" >>"$out/$name.log" 2>&1; then
      html+=("--min=$min" "$out/$name.html")
    else
      echo "FAIL $nb: HTML export failed (see $out/$name.log)"; fail=1
    fi
  else
    ms=$(( $(date +%s%3N) - t0 ))
    times+=("$(printf '%-32s %4d.%d s  FAILED' "$name" $((ms / 1000)) $((ms % 1000 / 100)))")
    echo "FAIL $nb: execution failed; the error (from $out/$name.log):"
    grep -v '^[IWE][0-9]\{4\} ' "$out/$name.log" | grep -A25 -m1 -E 'CellExecutionError|CellTimeoutError|Error' | sed 's/^/    /'
    fail=1
  fi
done

if [ ${#html[@]} -gt 0 ]; then
  echo "--- charts drawn (headless Chromium, network blocked)"
  node scripts/charts-drawn.js "${html[@]}" || fail=1
fi

# 4. Every number a markdown cell quotes (decimals, fractions) is one the notebook's code printed
#    (scripts/check-notebook-numbers.py states the rule and the opt-out comment).
if [ ${#executed[@]} -gt 0 ]; then
  echo "--- numbers quoted in markdown are printed"
  "$PY" scripts/check-notebook-numbers.py --self-test >/dev/null || { "$PY" scripts/check-notebook-numbers.py --self-test; fail=1; }
  "$PY" scripts/check-notebook-numbers.py "${executed[@]}" || fail=1
fi

echo "--- run times"
printf '  %s\n' "${times[@]}"
exit $fail
