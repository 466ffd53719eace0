#!/usr/bin/env bash
# Installs what the notebooks need and registers the GoNB kernel. Safe to run again: each step
# checks first and only does what is missing.
#
#   bash kernel-setup/setup.sh        # GoNB, goimports, a Jupyter front-end, the kernel spec
#   bash kernel-setup/setup.sh --ci   # the same with Debian's Jupyter (nbconvert + classic Notebook)
#                                     # plus Chromium, fonts, python3-scipy and playwright-core
#                                     # (scripts/node_modules) for the browser checks of `make test`
#
# Works as root on Debian 12 (apt-get) and as a normal user: with sudo for Debian packages, or
# with pip reaching an index for JupyterLab (installed into a virtual environment, so Debian's
# "externally managed" Python is left alone). Environment:
#   RANKLAB_VENV   where JupyterLab goes (default ~/.local/share/ranklab/jupyter-venv)
#   RANKLAB_NO_PIP=1  skip pip and use Debian's Jupyter packages
# The Jupyter command it chose is written to kernel-setup/.jupyter-path for open-lab.sh.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
GONB_VERSION=v0.11.5            # newest version the Go module proxy serves
GOIMPORTS_VERSION=v0.52.0
VENV=${RANKLAB_VENV:-$HOME/.local/share/ranklab/jupyter-venv}

ci=0
for a in "$@"; do
  case $a in
    --ci) ci=1 ;;
    -h|--help) sed -n '2,17p' "$0"; exit 0 ;;
    *) echo "setup.sh: unknown argument $a (try --help)" >&2; exit 2 ;;
  esac
done

say() { printf '\033[1m[setup]\033[0m %s\n' "$*"; }
ok() { printf '\033[1m[setup]\033[0m ok: %s\n' "$*"; }
die() { printf '\033[1;31m[setup] error:\033[0m %s\n' "$*" >&2; exit 1; }
t_start=$SECONDS

# --- 0. Go -------------------------------------------------------------------------------
command -v go >/dev/null || die "Go is not installed. Install Go 1.26 or newer (https://go.dev/dl/) and put it on PATH."
gover=$(go env GOVERSION)
ok "$gover at $(command -v go)"
GOBIN=$(go env GOBIN); [ -n "$GOBIN" ] || GOBIN=$(go env GOPATH)/bin
export PATH="$GOBIN:$PATH"

sudo_cmd=""
if [ "$(id -u)" != 0 ] && command -v sudo >/dev/null; then sudo_cmd="sudo"; fi

# apt_install PKG...: installs the Debian packages that are missing (root, or a user with sudo).
apt_install() {
  local missing=() p
  for p in "$@"; do dpkg -s "$p" 2>/dev/null | grep '^Status: install ok installed' >/dev/null || missing+=("$p"); done
  if [ ${#missing[@]} -eq 0 ]; then ok "Debian packages present: $*"; return 0; fi
  command -v apt-get >/dev/null || die "these packages are missing and there is no apt-get to install them: ${missing[*]}"
  [ "$(id -u)" = 0 ] || [ -n "$sudo_cmd" ] || die "need root or sudo to install: ${missing[*]} (ask an administrator: apt-get install ${missing[*]})"
  say "apt-get install ${missing[*]}"
  $sudo_cmd apt-get update -qq || die "apt-get update failed (no network or no Debian mirror?)"
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null \
    || die "apt-get install ${missing[*]} failed (run it by hand to see why)"
  ok "installed ${missing[*]}"
}

# --- 1. GoNB and goimports -------------------------------------------------------------------
# The module proxy refuses gonb's version list, so `go install gonb@version` fails with a 403;
# installing from a throw-away module that requires the pinned version works.
if gonb --version 2>/dev/null | grep "${GONB_VERSION}" >/dev/null; then
  ok "GoNB $GONB_VERSION at $(command -v gonb)"
else
  say "installing GoNB $GONB_VERSION into $GOBIN"
  tmp=$(mktemp -d)
  ( cd "$tmp" && go mod init tools >/dev/null 2>&1 \
      && go get "github.com/janpfeifer/gonb@$GONB_VERSION" \
      && go install github.com/janpfeifer/gonb ) >"$tmp/log" 2>&1 \
    || { cat "$tmp/log" >&2; die "could not install GoNB $GONB_VERSION (output above; is the Go module proxy reachable?)"; }
  rm -rf "$tmp"
  gonb --version 2>/dev/null | grep "$GONB_VERSION" >/dev/null || die "GoNB installed but 'gonb --version' does not answer $GONB_VERSION"
  ok "GoNB $GONB_VERSION"
fi
if command -v goimports >/dev/null; then
  ok "goimports at $(command -v goimports)"
else
  say "installing goimports $GOIMPORTS_VERSION (GoNB uses it to fill in imports)"
  go install "golang.org/x/tools/cmd/goimports@$GOIMPORTS_VERSION" || die "could not install goimports $GOIMPORTS_VERSION"
  ok "goimports $GOIMPORTS_VERSION"
fi

# --- 2. A Jupyter front-end ----------------------------------------------------------------
# JupyterLab through pip where an index answers (into a virtual environment), else Debian's
# classic Notebook. CI always uses Debian's packages: nbconvert executes the notebooks and the
# classic Notebook server hosts the live-panel browser test.
pip_reachable() {
  [ "${RANKLAB_NO_PIP:-0}" = 1 ] && return 1
  command -v python3 >/dev/null || return 1
  local d; d=$(mktemp -d)
  timeout 30 python3 -m pip download --no-deps -q -d "$d" jupyterlab-pygments >/dev/null 2>&1
  local rc=$?; rm -rf "$d"; return $rc
}
JUPYTER=""
if [ "$ci" = 0 ] && [ -x "$VENV/bin/jupyter" ] && "$VENV/bin/jupyter" lab --version >/dev/null 2>&1; then
  JUPYTER=$VENV/bin/jupyter
  ok "JupyterLab $("$JUPYTER" lab --version) in $VENV"
elif [ "$ci" = 0 ] && command -v jupyter >/dev/null && jupyter lab --version >/dev/null 2>&1; then
  JUPYTER=$(command -v jupyter)
  ok "JupyterLab $("$JUPYTER" lab --version) at $JUPYTER"
elif [ "$ci" = 0 ] && say "checking whether pip reaches a package index (up to 30 s)" && pip_reachable; then
  say "installing JupyterLab with pip into $VENV"
  python3 -m venv "$VENV" 2>/dev/null || {
    rm -rf "$VENV"
    die "python3 -m venv failed: install python3-venv (apt-get install python3-venv) or set RANKLAB_NO_PIP=1 to use Debian's Jupyter"; }
  "$VENV/bin/python" -m pip install -q --upgrade pip >/dev/null 2>&1 || true
  "$VENV/bin/python" -m pip install -q jupyterlab || die "pip install jupyterlab failed (output above)"
  JUPYTER=$VENV/bin/jupyter
  ok "JupyterLab $("$JUPYTER" lab --version) in $VENV"
else
  if [ "$ci" = 1 ]; then say "CI: using Debian's Jupyter packages"
  else say "pip cannot reach a package index: using Debian's Jupyter packages (classic Notebook)"; fi
  apt_install jupyter-notebook jupyter-nbconvert jupyter-client python3-nbclient jupyter-nbformat
  JUPYTER=/usr/bin/jupyter   # not the first python3 on PATH: that one may lack Debian's modules
  "$JUPYTER" nbconvert --version >/dev/null 2>&1 || die "$JUPYTER nbconvert does not run after installing Debian's packages"
  ok "Jupyter Notebook $("$JUPYTER" notebook --version 2>/dev/null), nbconvert $("$JUPYTER" nbconvert --version)"
fi

# --- 3. The GoNB kernel spec ----------------------------------------------------------------
# Re-registered every time (one second): it records the absolute path of the gonb binary.
# Without gopls GoNB needs --raw_error (no contextual help, plain error text).
say "registering the GoNB kernel (kernel spec in ${JUPYTER_DATA_DIR:-~/.local/share/jupyter}/kernels/gonb)"
args=(--install --force_deps)
command -v gopls >/dev/null || args+=(--raw_error)
gonb "${args[@]}" >/dev/null 2>&1 || gonb --install --raw_error --force_deps || die "gonb --install failed (output above)"
"$JUPYTER" kernelspec list 2>/dev/null | grep '^ *gonb ' >/dev/null \
  || die "gonb --install ran but '$JUPYTER kernelspec list' does not show gonb (JUPYTER_DATA_DIR=${JUPYTER_DATA_DIR:-unset})"
# GoNB runs `go` and `goimports` through PATH. Jupyter may be started from a shell whose PATH lacks
# $GOBIN (a fresh account: "goimports: executable file not found in $PATH"), so the kernel spec
# puts both folders first; ${PATH} is expanded by jupyter_client (>= 7) when the kernel starts.
spec=$("$JUPYTER" kernelspec list 2>/dev/null | awk '$1 == "gonb" {print $2}')
[ -f "$spec/kernel.json" ] || die "cannot find the gonb kernel spec (kernel.json) under '$spec'"
kpath="$GOBIN:$(dirname "$(command -v go)"):\${PATH}"
python3 - "$spec/kernel.json" "$kpath" <<'PY' || die "could not set PATH in $spec/kernel.json"
import json, sys
path, value = sys.argv[1], sys.argv[2]
with open(path) as f:
    spec = json.load(f)
spec.setdefault("env", {})["PATH"] = value
with open(path, "w") as f:
    json.dump(spec, f, indent=1)
PY
ok "kernel gonb registered for $JUPYTER (kernel PATH starts with $GOBIN)"

# --- 4. Browser checks (CI) ----------------------------------------------------------------
if [ "$ci" = 1 ]; then
  apt_install chromium fonts-dejavu-core python3-scipy python3-venv make gcc libc6-dev   # gcc: cgo for go test -race; venv: scripts/peers.sh
  command -v npm >/dev/null || apt_install nodejs npm
  # scripts/package.json pins playwright-core (a version that still runs on Debian 12's Node 18).
  want=$(node -p 'require(process.argv[1]).dependencies["playwright-core"]' "$root/scripts/package.json") \
    || die "cannot read the playwright-core version from scripts/package.json"
  have=$(node -p 'require(process.argv[1]).version' "$root/scripts/node_modules/playwright-core/package.json" 2>/dev/null || true)
  if [ "$have" = "$want" ]; then
    ok "playwright-core $want in scripts/node_modules"
  else
    say "npm install playwright-core@$want into scripts/node_modules (drives /usr/bin/chromium; no browser download)"
    ( cd "$root/scripts" && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm install --no-audit --no-fund --silent >/dev/null ) \
      || die "npm install in scripts/ failed (is the npm registry reachable?)"
    ok "playwright-core $want"
  fi
fi

echo "$JUPYTER" > "$here/.jupyter-path"
say "ready in $((SECONDS - t_start)) s: $(gonb --version 2>/dev/null | head -1), front-end $JUPYTER"
[ "$ci" = 1 ] || say "open the lab with: make lab   (or: bash kernel-setup/open-lab.sh)"
