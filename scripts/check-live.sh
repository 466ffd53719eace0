#!/usr/bin/env bash
# First the live panel's page script alone (scripts/panel-handshake-test.mjs, the live and the judging panel: a failed GoNB
# connection is followed by the next, hello repeats until the kernel answers, keys stay on the
# controls). Then a browser test of notebooks/00_lab.ipynb and its live panel (package live) in JupyterLab 4,
# Notebook 7 and Debian's classic Notebook 6.4 (in that order): for each front-end it
# starts a Jupyter server on 127.0.0.1 with a token and the GoNB kernel, opens the notebook in
# headless Chromium through Playwright (scripts/live-test.mjs), runs all cells and drives the
# panel; expected values come from `ranklab lab`. In JupyterLab it also switches to the dark
# theme, and restarts the kernel and stops the server while a panel runs (no cell program may
# stay behind). Artifacts (screenshots, summary.json, server log) in ci-artifacts/live/<front-end>/.
# The notebooks run from a scratch copy of the repository tree (symlinks + copied notebooks), so
# the browser session cannot save outputs into notebooks/ and the exported CSV lands there.
#   LIVE_FRONTENDS="lab notebook7 classic"   the front-ends to test (default: all three)
#   LIVE_NOTEBOOK, LIVE_RUNS, LIVE_ARTIFACTS  another notebook; count fallbacks over that many
#                                             runs instead (scripts/live-fallbacks.sh); artifact dir
# Needs what `bash kernel-setup/setup.sh --ci` installs.
set -uo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
export PATH="$(go env GOPATH)/bin:$PATH"

J=$(cat kernel-setup/.jupyter-path 2>/dev/null || true)
frontends=${LIVE_FRONTENDS:-lab notebook7 classic}
notebook=${LIVE_NOTEBOOK:-notebooks/00_lab.ipynb}
. scripts/jupyter-server.sh # free_port, new_token, server_up, need_frontends, scratch, scratch_tree, frontend_cmd
missing=()
need_frontends "$J" "$frontends"
[ -f "$notebook" ] || missing+=("$notebook")
if [ ${#missing[@]} -gt 0 ]; then
  echo "check-live: missing ${missing[*]} (run: make setup-ci)" >&2
  exit 1
fi

scratch
go build -o "$tmp/ranklab" ./cmd/ranklab || exit 1
py=$(dirname "$J")/python

status=0
# The page script's handshake and keys, with fake gonb_comm objects (no Jupyter, a few seconds).
if [ -z "${LIVE_RUNS:-}" ]; then
  echo "--- page script"
  timeout 120 node scripts/panel-handshake-test.mjs || status=1
fi
for fe in $frontends; do
  out=$root/ci-artifacts/${LIVE_ARTIFACTS:-live}/$fe
  rm -rf "$out"; mkdir -p "$out"
  # Scratch tree: every top-level entry linked, notebooks/ copied (GONB_DIR/.. is the module root).
  tree=$tmp/tree-$fe
  scratch_tree "$root" "$tree"
  cp "$root"/notebooks/*.ipynb "$tree/notebooks/"
  nb=notebooks/$(basename "$notebook")
  case "$notebook" in
    notebooks/*) ;;
    *) sed 's#${GONB_DIR}/\.\./\.\.#${GONB_DIR}/..#' "$notebook" > "$tree/$nb" ;;
  esac
  port=$(free_port "$py")
  token=$(new_token "$py")
  mkdir -p "$tmp/out-$fe" "$tmp/lab-$fe"
  # Fresh JupyterLab settings and workspaces: a user's theme or layout cannot change the test.
  export JUPYTERLAB_SETTINGS_DIR=$tmp/lab-$fe/settings JUPYTERLAB_WORKSPACES_DIR=$tmp/lab-$fe/workspaces
  if [ "$fe" = lab ]; then # no "Jupyter news?" toast over the page
    mkdir -p "$JUPYTERLAB_SETTINGS_DIR/@jupyterlab/apputils-extension"
    echo '{"fetchNews": "false"}' > "$JUPYTERLAB_SETTINGS_DIR/@jupyterlab/apputils-extension/notification.jupyterlab-settings"
  fi
  export RANKLAB_LIVE=auto RANKLAB_LIVE_IDLE=5m RANKLAB_LIVE_MAX=12m
  frontend_cmd "$J" "$fe" "$port" "$token" "$tree" || { echo "check-live: unknown front-end $fe" >&2; status=1; continue; }
  extra=()
  [ "$fe" = lab ] && extra=(ORPHANS=1 DARK=1)
  echo "--- $fe"
  t0=$SECONDS
  timeout 1200 "${cmd[@]}" >"$out/jupyter.log" 2>&1 &
  server=$!
  if server_up "$port" "$token" "$server"; then
    env "${extra[@]}" FRONTEND="$fe" BASE="http://127.0.0.1:$port" TOKEN="$token" NOTEBOOK="$nb" RANKLAB="$tmp/ranklab" \
      OUT="$out" SERVER_PID="$server" CSV_FILE="$tree/notebooks/ranklab-lab.csv" \
      timeout 1200 node scripts/live-test.mjs || status=1
  else
    echo "check-live: the $fe server did not start; see $out/jupyter.log" >&2; status=1
  fi
  kill "$server" 2>/dev/null; wait "$server" 2>/dev/null; server=""
  [ -f "$tree/notebooks/ranklab-lab.csv" ] && cp "$tree/notebooks/ranklab-lab.csv" "$out/"
  echo "--- $fe took $((SECONDS - t0)) s"
done
exit $status
