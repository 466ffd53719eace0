#!/usr/bin/env bash
# Ctrl-C stops `make lab` within 2 s, leaving nothing behind: scripts/ctrl-c-test.py runs it on
# a real pseudo-terminal, starts a GoNB kernel running a cell program, sends SIGINT to the
# terminal's foreground process group and checks that the server, the kernel and the cell
# program (gonb_*) are all gone. Then the same through a pipe, `make lab 2>&1 | tee LOG`: Ctrl-C
# kills tee first, and the stop path must not depend on its output being writable (issue 33,
# 20). Needs what kernel-setup/setup.sh installs (make test runs it).
#   CTRL_C_COMMAND="bash kernel-setup/open-lab.sh"   test another command (default: make lab)
set -uo pipefail
cd "$(dirname "$0")/.."
J=$(cat kernel-setup/.jupyter-path 2>/dev/null || true)
[ -n "$J" ] && [ -x "$J" ] || { echo "check-ctrl-c: no Jupyter in kernel-setup/.jupyter-path (run bash kernel-setup/setup.sh)" >&2; exit 1; }
py=$(dirname "$J")/python
[ -x "$py" ] || py=/usr/bin/python3   # Debian's Jupyter: its python3 has jupyter_client
if [ -n "${CTRL_C_COMMAND:-}" ]; then read -r -a cmd <<<"$CTRL_C_COMMAND"
elif command -v make >/dev/null; then cmd=(make --no-print-directory lab)
else cmd=(bash kernel-setup/open-lab.sh); fi
"$py" scripts/ctrl-c-test.py "${cmd[@]}" || exit 1
log=$(mktemp -t ctrl-c-tee-XXXXXX.log)
trap 'rm -f "$log"' EXIT
echo "check-ctrl-c: again through a pipe: ${cmd[*]} 2>&1 | tee $log"
"$py" scripts/ctrl-c-test.py bash -c '"$@" 2>&1 | tee "$0"' "$log" "${cmd[@]}"
