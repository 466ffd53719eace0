#!/usr/bin/env bash
# Browser test of the judging panel (package judge) in JupyterLab, Notebook 7 and the classic
# Notebook 6 (JUDGE_FRONTENDS, default "lab notebook7 classic"; Notebook 7 handles its shortcuts in
# the capture phase, before the panel, so a key leak shows only there): a pool of 12 Cranfield pairs
# (the first 12 lines of its qrels, as "query 0 doc -1"), judged by keyboard in headless Chromium
# through Playwright (scripts/judge-test.mjs): 5 judgments (with an undo), then the kernel and
# the panel's cell program are killed with SIGKILL, the judgments file is read from disk, the
# notebook is re-run and must resume at pair 6; 5 more judgments; every grade must be in the
# file, read by `ranklab eval`'s reader rules (one line per pair, the latest grade). Screenshots
# in the light and the dark theme. Then, in JupyterLab, a long (27,000 words) and an empty document:
# length, n, a note, the empty notice, screenshots light and dark, scrolled out of view and back
# (windowingMode 'full'), and closing the tab ends the panel's cell program. Artifacts in ci-artifacts/judge/<front-end>/ and ci-artifacts/judge/long-empty/.
# Needs what `bash kernel-setup/setup.sh --ci` installs.
set -uo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
export PATH="$(go env GOPATH)/bin:$PATH"
J=$(cat kernel-setup/.jupyter-path 2>/dev/null || true)
frontends=${JUDGE_FRONTENDS:-lab notebook7 classic}
. scripts/jupyter-server.sh # free_port, new_token, server_up, need_frontends, scratch, scratch_tree, frontend_cmd
missing=()
need_frontends "$J" "$frontends"
cran=${RANKLAB_CRANFIELD:-$root/../shared/data/cranfield}
[ -f "$cran/qrels/test.tsv" ] || missing+=("Cranfield ($cran)")
if [ ${#missing[@]} -gt 0 ]; then
  echo "check-judge: missing ${missing[*]} (run: make setup-ci)" >&2
  exit 1
fi

scratch
out=$root/ci-artifacts/judge
rm -rf "$out"; mkdir -p "$out"

# Scratch tree (the browser session cannot save outputs into the repository): every top-level
# entry linked, the test notebook copied to notebooks/ with its module path adjusted.
tree=$tmp/tree
scratch_tree "$root" "$tree"
sed 's#${GONB_DIR}/\.\./\.\.#${GONB_DIR}/..#' judge/testdata/judge.ipynb > "$tree/notebooks/judge.ipynb"

# The pool: 12 pairs of Cranfield's qrels (after its header), in file order.
mkdir -p "$tmp/work"
export RANKLAB_JUDGE_POOL=$tmp/work/pool.txt RANKLAB_JUDGE_CORPUS=$cran
awk -F'\t' 'NR > 1 && n < 12 { print $1 " 0 " $2 " -1"; n++ }' "$cran/qrels/test.tsv" > "$RANKLAB_JUDGE_POOL"

py=$(dirname "$J")/python
export JUPYTERLAB_SETTINGS_DIR=$tmp/lab/settings JUPYTERLAB_WORKSPACES_DIR=$tmp/lab/workspaces
mkdir -p "$JUPYTERLAB_SETTINGS_DIR/@jupyterlab/apputils-extension"
echo '{"fetchNews": "false"}' > "$JUPYTERLAB_SETTINGS_DIR/@jupyterlab/apputils-extension/notification.jupyterlab-settings"
export RANKLAB_LIVE=auto RANKLAB_LIVE_PROBE=10s RANKLAB_LIVE_IDLE=3m RANKLAB_LIVE_MAX=5m
status=0
for fe in $frontends; do
  echo "--- $fe"
  # Each front-end judges into a judgments file of its own.
  mkdir -p "$tmp/work/$fe" "$out/$fe"
  export RANKLAB_JUDGE_QRELS=$tmp/work/$fe/judged.qrels
  port=$(free_port "$py")
  token=$(new_token "$py")
  frontend_cmd "$J" "$fe" "$port" "$token" "$tree" || { echo "check-judge: JUDGE_FRONTENDS: $fe: want lab, notebook7 or classic" >&2; exit 1; }
  timeout 600 "${cmd[@]}" >"$out/$fe/jupyter.log" 2>&1 &
  server=$!
  if ! server_up "$port" "$token" "$server"; then
    echo "FAIL check-judge: the $fe server did not start; see $out/$fe/jupyter.log"; status=1
  else
    FRONTEND=$fe BASE="http://127.0.0.1:$port" TOKEN="$token" NOTEBOOK=notebooks/judge.ipynb OUT="$out/$fe" SERVER_PID="$server" \
      timeout 600 node scripts/judge-test.mjs || status=1
  fi
  kill "$server" 2>/dev/null; wait "$server" 2>/dev/null; server=""
  cp "$RANKLAB_JUDGE_POOL" "$RANKLAB_JUDGE_QRELS" "$RANKLAB_JUDGE_QRELS.log" "$out/$fe/" 2>/dev/null
done

# The static fallback (nbconvert, no front-end): RANKLAB_LIVE=static shows what would be judged
# and the progress at once; it must not hang (timeout) and must show the state of the last
# front-end's judgments file.
judged=$(grep -c . "$RANKLAB_JUDGE_QRELS" 2>/dev/null || echo 0)
touch "$RANKLAB_JUDGE_QRELS.seen"; cat "$RANKLAB_JUDGE_QRELS" > "$RANKLAB_JUDGE_QRELS.seen" 2>/dev/null
next=$(awk 'FILENAME == ARGV[1] { seen[$1 "\t" $3] = 1; next } !(($1 "\t" $3) in seen) { print $1 "\t" $3; exit }' "$RANKLAB_JUDGE_QRELS.seen" "$RANKLAB_JUDGE_POOL")
t0=$SECONDS
if RANKLAB_LIVE=static timeout 300 "$J" nbconvert --to notebook --execute --ExecutePreprocessor.timeout=240 \
    --output-dir="$tmp/static" "$tree/notebooks/judge.ipynb" >"$out/static.log" 2>&1; then
  html=$("$py" -c 'import json,sys; nb=json.load(open(sys.argv[1])); print("".join("".join(o.get("data",{}).get("text/html","")) for c in nb["cells"] for o in c.get("outputs",[])))' "$tmp/static/judge.ipynb")
  printf '%s' "$html" > "$out/static.html"
  if grep -q 'data-judge-state="static"' <<<"$html" && grep -qF "data-judge-pair=\"$(printf "$next")\"" <<<"$html" && grep -q "$judged of 12 judged" <<<"$html"; then
    echo "ok   static fallback (nbconvert, RANKLAB_LIVE=static): $judged of 12 judged, next $(printf "$next" | tr '\t' ' ') ($((SECONDS - t0)) s)"
  else
    echo "FAIL static fallback: want state static, next pair $(printf "$next" | tr '\t' ' '), \"$judged of 12 judged\"; see $out/static.html"; status=1
  fi
else
  echo "FAIL static fallback: nbconvert failed or timed out; see $out/static.log"; status=1
fi
# A long and an empty document (JupyterLab): the card's length line, n to the next marked term,
# a note on disk, the empty document's notice, screenshots light and dark; then the tab closes
# and the panel's cell program must end (judge-test.mjs, SCENARIO=long-empty). JupyterLab runs
# with windowingMode 'full' here, and the panel must survive being scrolled out of view for 12 s
# (longer than the two checks 5 s apart after which a panel whose output left the page says bye). The long document
# is Cranfield's first abstracts joined (about 27,000 words); the query is its first query.
case " $frontends " in *" lab "*)
  echo "--- lab: a long and an empty document"
  long=$tmp/long
  mkdir -p "$long" "$out/long-empty"
  "$py" - "$cran" "$long" <<'PY'
import json, sys
cran, out = sys.argv[1], sys.argv[2]
texts, words = [], 0
for line in open(cran + "/corpus.jsonl"):
    d = json.loads(line)
    texts.append(d["text"]); words += len(d["text"].split())
    if words >= 27000: break
q = json.loads(open(cran + "/queries.jsonl").readline())
with open(out + "/corpus.jsonl", "w") as f:
    f.write(json.dumps({"_id": "all-abstracts", "title": "Cranfield's first %d abstracts, joined" % len(texts), "text": "\n\n".join(texts)}) + "\n")
    f.write(json.dumps({"_id": "empty", "title": "", "text": ""}) + "\n")
with open(out + "/queries.jsonl", "w") as f:
    f.write(json.dumps({"_id": q["_id"], "text": q["text"]}) + "\n")
with open(out + "/pool.txt", "w") as f:
    f.write("%s 0 all-abstracts -1\n%s 0 empty -1\n" % (q["_id"], q["_id"]))
PY
  export RANKLAB_JUDGE_POOL=$long/pool.txt RANKLAB_JUDGE_CORPUS=$long RANKLAB_JUDGE_QRELS=$long/judged.qrels
  # JupyterLab's notebook windowing at its most eager ('full': only the cells in view are shown),
  # and 20 tall markdown cells after the panel's, so the panel can be scrolled out of view.
  mkdir -p "$JUPYTERLAB_SETTINGS_DIR/@jupyterlab/notebook-extension"
  echo '{"windowingMode": "full"}' > "$JUPYTERLAB_SETTINGS_DIR/@jupyterlab/notebook-extension/tracker.jupyterlab-settings"
  "$py" - "$tree/notebooks/judge.ipynb" "$tree/notebooks/judge-tall.ipynb" <<'PY'
import json, sys
nb = json.load(open(sys.argv[1]))
for i in range(20):
    nb["cells"].append({"cell_type": "markdown", "metadata": {}, "id": "tall-%d" % i,
                        "source": "## Below the panel %d\n\n" % i + "\n\n".join("line %d" % j for j in range(20))})
json.dump(nb, open(sys.argv[2], "w"), indent=1)
PY
  # A workspace of its own: the lab stage's would reopen judge.ipynb beside judge-tall.ipynb, both
  # kernels start at once, and Run All can reach judge-tall before its kernel does (JupyterLab then
  # asks which kernel to start, and nothing runs: seen once in 4 fresh CI runs).
  export JUPYTERLAB_WORKSPACES_DIR=$tmp/lab/workspaces-long-empty
  port=$(free_port "$py")
  token=$(new_token "$py")
  timeout 600 "$J" lab --LabApp.expose_app_in_browser=True --no-browser --ip=127.0.0.1 --port="$port" --allow-root --ServerApp.port_retries=0 \
    --IdentityProvider.token="$token" --ServerApp.root_dir="$tree" >"$out/long-empty/jupyter.log" 2>&1 &
  server=$!
  if ! server_up "$port" "$token" "$server"; then
    echo "FAIL check-judge: the lab server did not start; see $out/long-empty/jupyter.log"; status=1
  else
    SCENARIO=long-empty FRONTEND=lab BASE="http://127.0.0.1:$port" TOKEN="$token" NOTEBOOK=notebooks/judge-tall.ipynb OUT="$out/long-empty" SERVER_PID="$server" \
      timeout 300 node scripts/judge-test.mjs || status=1
  fi
  kill "$server" 2>/dev/null; wait "$server" 2>/dev/null; server=""
  cp "$RANKLAB_JUDGE_QRELS" "$RANKLAB_JUDGE_QRELS.notes.jsonl" "$out/long-empty/" 2>/dev/null
  ;;
esac
exit $status
