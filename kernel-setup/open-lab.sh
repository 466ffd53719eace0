#!/usr/bin/env bash
# Serves the notebooks and opens notebooks/00_lab.ipynb itself in JupyterLab (the Jupyter that
# kernel-setup/setup.sh chose: JupyterLab from pip, else Debian's classic Notebook). The URL,
# with its token, is printed alone on its own line; where no browser is found it says so and
# that URL is the way in. Ctrl-C stops the server (and every kernel it started).
# Extra arguments go to Jupyter. Environment: RANKLAB_PORT (default: 8888 or the next free
# port), RANKLAB_NO_BROWSER=1 (print the URL only), RANKLAB_NOTEBOOK (default 00_lab.ipynb).
# Run `bash kernel-setup/setup.sh` first (`make lab` does both).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
say() { printf '\033[1m[open-lab]\033[0m %s\n' "$*"; }
die() { printf '\033[1;31m[open-lab] error:\033[0m %s\n' "$*" >&2; exit 1; }

J=$(cat "$here/.jupyter-path" 2>/dev/null || true)
[ -n "$J" ] && [ -x "$J" ] || die "no Jupyter recorded in kernel-setup/.jupyter-path: run 'bash kernel-setup/setup.sh' first"
nb=${RANKLAB_NOTEBOOK:-00_lab.ipynb}
[ -f "$root/notebooks/$nb" ] || die "notebooks/$nb is missing"
export PATH="$(go env GOPATH)/bin:$PATH"
py=$(dirname "$J")/python; [ -x "$py" ] || py=python3

# A free port, the token, and the URL of the notebook itself (not the file list).
port=${RANKLAB_PORT:-$("$py" - <<'PY'
import socket
for p in range(8888, 8988):
    s = socket.socket()
    try:
        s.bind(("127.0.0.1", p)); print(p); break
    except OSError:
        pass
    finally:
        s.close()
PY
)}
[ -n "$port" ] || die "no free port between 8888 and 8987 (set RANKLAB_PORT)"
token=$("$py" -c 'import secrets; print(secrets.token_hex(24))')

# The server's root is notebooks/, so every kernel starts there and ${GONB_DIR}/.. is the repository.
args=(--no-browser --ip=127.0.0.1 --port="$port" --notebook-dir="$root/notebooks")
[ "$(id -u)" = 0 ] && args+=(--allow-root)
bindir=$(dirname "$J")
if [ -x "$bindir/jupyter-lab" ]; then
  front="JupyterLab $("$py" -c 'from importlib.metadata import version; print(version("jupyterlab"))' 2>/dev/null || echo 4)"
  cmd=(lab --ServerApp.port_retries=0 --IdentityProvider.token="$token")
  url="http://127.0.0.1:$port/lab/tree/$nb?token=$token"
else
  front="Jupyter Notebook (classic; Debian's fallback)"
  cmd=(notebook --NotebookApp.port_retries=0 --NotebookApp.token="$token")
  url="http://127.0.0.1:$port/notebooks/$nb?token=$token"
fi

say "$front serving notebooks/ on port $port (Ctrl-C to stop)"
# Ctrl-C. A program this non-interactive script starts with & inherits SIGINT as ignored and
# /dev/null as its input, and Jupyter installs its own Ctrl-C handler only when its input is a
# terminal: the terminal's SIGINT never reaches it. So this script catches SIGINT (and TERM, HUP)
# and sends the server SIGTERM, which Jupyter always acts on: it shuts its kernels down (GoNB
# ends its running cell program) and exits. The processes below the server are noted when the
# signal arrives; once the server is gone (or 1 s has passed: by then its kernels are down and
# only its own clean-up is left, and it gets SIGKILL) those still alive get SIGTERM, then SIGKILL.
# scripts/check-ctrl-c.sh tests this through a real pseudo-terminal.
"$J" "${cmd[@]}" "${args[@]}" "$@" &
server=$!
# below PID: prints "pid start-time" for every process below PID, read from /proc (the start time
# tells a process from a later one that reuses its id). Linux only; elsewhere it prints nothing.
below() {
  local -A parent=() start=()
  local stat line pid p c todo fs
  for stat in /proc/[0-9]*/stat; do
    { read -r line <"$stat"; } 2>/dev/null || continue
    pid=${line%% *}
    read -r -a fs <<<"${line##*) }"   # state ppid ... (starttime, field 22 of stat, is fs[19])
    parent[$pid]=${fs[1]}; start[$pid]=${fs[19]}
  done
  todo=("$1")
  while [ ${#todo[@]} -gt 0 ]; do
    p=${todo[0]}; todo=("${todo[@]:1}")
    for c in "${!parent[@]}"; do
      [ "${parent[$c]}" = "$p" ] && { echo "$c ${start[$c]}"; todo+=("$c"); }
    done
  done
}
# still PID START: the process PID is still the one noted, and not a zombie.
still() {
  local line fs
  { read -r line <"/proc/$1/stat"; } 2>/dev/null || return 1
  read -r -a fs <<<"${line##*) }"
  [ "${fs[19]}" = "$2" ] && [ "${fs[0]}" != Z ]
}
# refresh_notebooks: after a session, a notebook whose only changes are what the git clean filter
# removes (outputs, execution counts, the kernel's language_info: scripts/notebook-lint.py
# --clean) would still be listed by `git status` as modified: git takes a changed file size as a
# change without running the filter. `git add` of such a notebook stores the very blob the index
# already holds, so only git's record of the file (size, time) is refreshed; a notebook with real
# edits is left alone. Needs the filter registered (kernel-setup/setup.sh does).
refresh_notebooks() {
  local f
  [ -n "$(git -C "$root" config --get filter.ranklab-notebook.clean 2>/dev/null)" ] || return 0
  while IFS= read -r f; do
    case "$f" in *.ipynb) git -C "$root" diff --quiet -- "$f" 2>/dev/null && git -C "$root" add -- "$f" 2>/dev/null ;; esac
  done < <(git -C "$root" ls-files -m -- notebooks 2>/dev/null)
  return 0
}
stop() { # $1: the signal that arrived
  # The stop path must not depend on its output being writable: under `make lab | tee lab.log`
  # Ctrl-C kills tee first, and a write to the broken pipe would end this script (SIGPIPE, or
  # set -e on the failed write) before it signals the server. So SIGPIPE is ignored, errors do
  # not end it, the server is signalled before anything is printed, and every message is best
  # effort.
  trap '' INT TERM HUP PIPE
  set +e
  local noted i pid start sig left
  noted=$(below "$server" 2>/dev/null || true)
  kill -TERM "$server" 2>/dev/null || true
  { echo; say "stopping the server and its kernels"; } 2>/dev/null || true
  for i in 1 2 3 4 5 6 7 8 9 10; do kill -0 "$server" 2>/dev/null || break; sleep 0.1; done
  kill -KILL "$server" 2>/dev/null || true
  wait "$server" 2>/dev/null || true
  for sig in TERM KILL; do
    left=0
    while read -r pid start; do
      [ -n "$pid" ] && still "$pid" "$start" || continue
      kill -"$sig" "$pid" 2>/dev/null || true; left=1
    done <<<"$noted"
    [ "$left" = 1 ] || break
    sleep 0.3
  done
  refresh_notebooks >/dev/null 2>&1 &   # git's bookkeeping only (see above); it may finish after this script
  { say "stopped"; } 2>/dev/null || true
  # End by that same signal (not an exit status), so make and shells see an interrupted command.
  trap - "$1"
  kill -"$1" $$
  exit 130
}
trap 'stop INT' INT
trap 'stop TERM' TERM
trap 'stop HUP' HUP
for _ in $(seq 1 300); do
  curl -fsS -o /dev/null "http://127.0.0.1:$port/api/status?token=$token" 2>/dev/null && break
  kill -0 "$server" 2>/dev/null || die "the server exited (see its messages above)"
  sleep 0.1
done

# A browser: $BROWSER, else what Python's webbrowser module finds (xdg-open, a desktop browser
# when there is a display, a text browser otherwise).
opened=0
if [ "${RANKLAB_NO_BROWSER:-0}" != 1 ]; then
  if "$py" - "$url" <<'PY' 2>/dev/null
import sys, webbrowser
try:
    b = webbrowser.get()
except webbrowser.Error:
    sys.exit(1)
sys.exit(0 if b.open(sys.argv[1], new=2) else 1)
PY
  then opened=1; fi
fi
if [ "$opened" = 1 ]; then
  say "opened $nb in your browser; the same address:"
else
  say "no web browser found here: open $nb at this address:"
fi
printf '%s\n' "$url"
status=0
wait "$server" || status=$?
refresh_notebooks
exit "$status"
