#!/usr/bin/env bash
# The Jupyter environment's pins (kernel-setup/requirements.txt + constraints.txt) resolve on the
# newest Python 3 of this machine too, not only on Debian's /usr/bin/python3 that set-up and CI
# install with (a pin that needs a newer Python than Debian 12's 3.11.2 fails CI's strict install;
# one that a newer Python cannot take fails here). `pip install --dry-run` in a throw-away
# environment: resolution only, about 10 s with a warm pip cache. The newest Python is the highest
# python3.N among pyenv's versions and the python3 on PATH; skipped (and said) when it is Debian's.
set -uo pipefail
cd "$(dirname "$0")/.."
newest="" best=0
for py in /usr/bin/python3 "$(command -v python3 || true)" "${PYENV_ROOT:-$HOME/.pyenv}"/versions/3.*/bin/python3; do
  [ -x "$py" ] || continue
  v=$("$py" -c 'import sys; print(sys.version_info[0] * 10000 + sys.version_info[1] * 100 + sys.version_info[2])' 2>/dev/null) || continue
  [ "$v" -gt "$best" ] && { best=$v; newest=$py; }
done
[ -n "$newest" ] || { echo "check-pins: no python3 found" >&2; exit 1; }
if [ "$newest" = /usr/bin/python3 ]; then
  echo "check-pins: the newest Python here is Debian's own ($(/usr/bin/python3 --version)); the set-up's strict install covers it"
  exit 0
fi
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
"$newest" -m venv "$tmp/v" || { echo "check-pins: $newest cannot make a virtual environment" >&2; exit 1; }
echo "check-pins: pip install --dry-run -r kernel-setup/requirements.txt -c kernel-setup/constraints.txt with $("$newest" --version) ($newest)"
if "$tmp/v/bin/pip" install --dry-run --quiet --disable-pip-version-check -r kernel-setup/requirements.txt -c kernel-setup/constraints.txt >"$tmp/log" 2>&1; then
  echo "check-pins: ok, the pinned set resolves with $("$newest" --version)"
else
  grep -E 'ERROR|constraint|Requires-Python' "$tmp/log" | head -20
  echo "check-pins: FAIL: the pinned set does not resolve with $("$newest" --version)"
  exit 1
fi
