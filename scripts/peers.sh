#!/usr/bin/env bash
# peers.sh: installs the evaluators ranklab is compared with (pytrec_eval, ir_measures, ranx) into
# a virtual environment of their own and prints its python's path on the last line.
#
#   bash scripts/peers.sh            # idempotent: a complete environment is reused at once
#
# The environment lives in $RANKLAB_PEERS_VENV (default ~/.cache/ranklab/peers-venv), never in
# the system Python. Versions are pinned here, the one place the tests, the benchmark and the
# conventions checks take them from.
set -euo pipefail
venv=${RANKLAB_PEERS_VENV:-$HOME/.cache/ranklab/peers-venv}
pins=(pytrec-eval-terrier==0.5.11 ir-measures==0.4.3 ranx==0.3.21)
stamp="$venv/.ranklab-pins"
if [[ -x "$venv/bin/python" && -f "$stamp" && "$(cat "$stamp")" == "${pins[*]}" ]]; then
  echo "$venv/bin/python"; exit 0
fi
py=""
for c in /usr/bin/python3 python3; do
  if command -v "$c" >/dev/null && "$c" -c 'import venv, ensurepip' 2>/dev/null; then py=$c; break; fi
done
[[ -n "$py" ]] || { echo "peers.sh: no python3 with venv and ensurepip (Debian: apt-get install python3-venv)" >&2; exit 1; }
echo "peers.sh: installing ${pins[*]} into $venv" >&2
rm -rf "$venv"
"$py" -m venv "$venv"
"$venv/bin/pip" install --quiet --disable-pip-version-check "${pins[@]}" >&2
"$venv/bin/python" -c 'import pytrec_eval, ir_measures, ranx' >&2
echo "${pins[*]}" > "$stamp"
echo "$venv/bin/python"
