#!/usr/bin/env bash
# Executes every notebook the way a reader would, and checks what it shows.
#
#   bash scripts/check-notebooks.sh                       # all of notebooks/*.ipynb
#   bash scripts/check-notebooks.sh notebooks/03_mrr.ipynb  # only these
#
# 1. Lint: every notebooks/*.ipynb is saved without outputs, uses the GoNB kernel and wires
#    the local module in its first code cell (scripts/notebook-lint.py).
# 2. Execute each notebook with `jupyter nbconvert --execute` (nbconvert 7 / nbclient 0.11 from
#    the pip environment kernel-setup/setup.sh installed; a failing cell fails the check)
#    into ci-artifacts/notebooks/<name>.ipynb — never into notebooks/ — with RANKLAB_LIVE=static
#    (the live panel shows its snapshot instead of waiting for a browser) and RANKLAB_OUT pointing
#    at ci-artifacts/notebooks (files a notebook exports land there).
# 3. Export each executed notebook to HTML (scripts/export-html.py: formulas as MathML, no MathJax)
#    and open it in headless Chromium with the network blocked (scripts/charts-drawn.js): every
#    chart container must report data-drawn="1", every formula must render (a MathML element
#    with a size), and a notebook must draw at least one chart unless its metadata says
#    {"ranklab": {"min_charts": 0}}.
# 4. A saved, untrusted 00_lab in JupyterLab (scripts/untrusted-test.mjs, see below).
# 5. Every decimal or fraction quoted in a markdown cell must be one the notebook printed
#    (scripts/check-notebook-numbers.py), so text and output cannot drift apart.
# Prints the run time of each notebook. Needs `bash kernel-setup/setup.sh --ci` first.
set -uo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
out=ci-artifacts/notebooks
# Jupyter with nbconvert: $JUPYTER, else the one kernel-setup/setup.sh chose (pip's nbconvert 7;
# Debian's /usr/bin/jupyter where pip reached no index).
if [ -z "${JUPYTER:-}" ]; then
  JUPYTER=$(cat kernel-setup/.jupyter-path 2>/dev/null || true)
  [ -n "$JUPYTER" ] || JUPYTER=/usr/bin/jupyter
fi
PY=${PYTHON:-python3}
JPY=$(dirname "$JUPYTER")/python   # the Jupyter environment's Python (export-html.py)
offline_math=0
[ -x "$JPY" ] && "$JPY" -c 'import latex2mathml, nbconvert' 2>/dev/null && offline_math=1
TIMEOUT=${NOTEBOOK_TIMEOUT:-1500}       # seconds per cell, and 2x per notebook (notebook 17 (dense retrieval) embeds SciFact in one cell: about 5 min idle, more while CI runs the Go tests beside it)

die() { echo "check-notebooks: $*" >&2; exit 1; }
[ -x "$JUPYTER" ] || die "$JUPYTER not found: run 'make setup-ci' (or set JUPYTER)"
echo "--- nbconvert $("$JUPYTER" nbconvert --version 2>/dev/null) at $JUPYTER; formulas in HTML: $([ $offline_math = 1 ] && echo "MathML (scripts/export-html.py)" || echo "nbconvert's MathJax (Debian fallback: needs network)")"
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
"$PY" scripts/notebook-lint.py --self-test || fail=1   # the clean filter on a notebook as JupyterLab leaves it

mkdir -p "$out"   # only this run's notebooks' files are replaced: others may run a subset at the same time
export RANKLAB_LIVE=static RANKLAB_OUT="$root/$out"
# Notebooks run $NOTEBOOK_JOBS at a time (default 2): a GoNB cell is a go build and a link, mostly
# one core each, so two kernels keep a 2-core machine busy where one left it half idle (in a fresh
# CI run at load 2-4, notebooks 00-19 executed one at a time took 438 s in all). Each notebook
# writes its own files; the results are collected in name order below.
JOBS=${NOTEBOOK_JOBS:-2}
. scripts/cpu.sh # cpu_of
. scripts/jupyter-server.sh # free_port, new_token, server_up
run_one() { # run_one NOTEBOOK: executes and exports one notebook; writes $out/$name.result
  local nb=$1 name t0 ms cpu status=ok
  name=$(basename "$nb" .ipynb)
  rm -f "$out/$name".{ipynb,html,png,log,result}
  echo "--- execute $nb"
  t0=$(date +%s%3N)
  # The CPU seconds of nbconvert, its kernel and the kernel's builds and cell programs: bash's
  # `times` in a subshell (children line).
  if ( timeout $((2 * TIMEOUT)) "$JUPYTER" nbconvert --to notebook --execute \
      --ExecutePreprocessor.timeout="$TIMEOUT" --ExecutePreprocessor.kernel_name=gonb \
      --output-dir "$out" --output "$name" "$nb" >"$out/$name.log" 2>&1; rc=$?; times >"$out/$name.times"; exit $rc ); then
    ms=$(( $(date +%s%3N) - t0 ))
    if [ $offline_math = 1 ]; then export_html=("$JPY" scripts/export-html.py --output-dir "$out" "$out/$name.ipynb")
    else export_html=("$JUPYTER" nbconvert --to html --output-dir "$out" "$out/$name.ipynb"); fi
    "${export_html[@]}" >>"$out/$name.log" 2>&1 || status=html
  else
    ms=$(( $(date +%s%3N) - t0 ))
    status=exec
  fi
  cpu=$(cpu_of "$out/$name.times")
  echo "$status $ms ${cpu:-0}" >"$out/$name.result"
  echo "--- done $nb ($((ms / 1000)) s, $status)"
}
# They start in name order (starting the long real-data ones first was measured slower in a fresh
# CI run: 1,215 s against 1,114 s for this step, notebook 17 (dense retrieval) then competing with the Go lane).
running=0
for nb in "${nbs[@]}"; do
  if [ "$running" -ge "$JOBS" ]; then wait -n; running=$((running - 1)); fi
  run_one "$nb" &
  running=$((running + 1))
done
wait
html=(); times=(); executed=()
for nb in "${nbs[@]}"; do
  name=$(basename "$nb" .ipynb)
  min=$("$PY" -c 'import json,sys; print(json.load(open(sys.argv[1])).get("metadata",{}).get("ranklab",{}).get("min_charts",1))' "$nb" 2>/dev/null || echo 1)
  read -r status ms cpu <"$out/$name.result" 2>/dev/null || { status=exec; ms=0; cpu=0; }
  took=$(printf '%-32s %4d.%d s %5d CPU-s' "$name" $((ms / 1000)) $((ms % 1000 / 100)) "${cpu:-0}")
  case $status in
    ok)
      times+=("$took")
      executed+=("$out/$name.ipynb")
      html+=("--min=$min" "$out/$name.html") ;;
    html)
      times+=("$took")
      executed+=("$out/$name.ipynb")
      echo "FAIL $nb: HTML export failed (see $out/$name.log)"; fail=1 ;;
    *)
      times+=("$took  FAILED")
      echo "FAIL $nb: execution failed; the error (from $out/$name.log):"
      grep -v '^[IWE][0-9]\{4\} ' "$out/$name.log" | grep -A25 -m1 -E 'CellExecutionError|CellTimeoutError|Error' | sed 's/^/    /'
      fail=1 ;;
  esac
done

if [ ${#html[@]} -gt 0 ]; then
  echo "--- charts drawn (headless Chromium, network blocked)"
  node scripts/charts-drawn.js "${html[@]}" || fail=1
fi

# 4. A notebook received with saved outputs opens untrusted in JupyterLab: tables and cards show,
#    every chart shows a one-line note instead of a blank box, and draws after "Trust Notebook"
#    (scripts/untrusted-test.mjs, on a copy of the executed 00_lab; trust kept in memory only).
if [ -f "$out/00_lab.ipynb" ] && [ -x "$(dirname "$JUPYTER")/jupyter-lab" ]; then
  echo "--- untrusted notebook in JupyterLab"
  ut=$(mktemp -d)
  cp "$out/00_lab.ipynb" "$ut/"
  port=$(free_port "$JPY")
  token=$(new_token "$JPY")
  mkdir -p "$ut/settings/@jupyterlab/apputils-extension"
  echo '{"fetchNews": "false"}' > "$ut/settings/@jupyterlab/apputils-extension/notification.jupyterlab-settings"
  JUPYTERLAB_SETTINGS_DIR=$ut/settings JUPYTERLAB_WORKSPACES_DIR=$ut/ws timeout 300 "$JUPYTER" lab --no-browser --ip=127.0.0.1 --port="$port" \
    --ServerApp.port_retries=0 --IdentityProvider.token="$token" --ServerApp.root_dir="$ut" --allow-root \
    --LabApp.expose_app_in_browser=True --NotebookNotary.db_file=:memory: >"$out/untrusted-jupyter.log" 2>&1 &
  userver=$!
  server_up "$port" "$token" "$userver" # the test below says what it finds if not
  BASE="http://127.0.0.1:$port" TOKEN="$token" NOTEBOOK=00_lab.ipynb OUT="$out" timeout 240 node scripts/untrusted-test.mjs || fail=1
  kill "$userver" 2>/dev/null; wait "$userver" 2>/dev/null
  rm -rf "$ut"
fi

# 5. Every number a markdown cell quotes (decimals, fractions) is one the notebook's code printed
#    (scripts/check-notebook-numbers.py states the rule and the opt-out comment).
if [ ${#executed[@]} -gt 0 ]; then
  echo "--- numbers quoted in markdown are printed"
  "$PY" scripts/check-notebook-numbers.py --self-test >/dev/null || { "$PY" scripts/check-notebook-numbers.py --self-test; fail=1; }
  "$PY" scripts/check-notebook-numbers.py "${executed[@]}" || fail=1
fi

echo "--- run times"
printf '  %s\n' "${times[@]}"
exit $fail
