#!/usr/bin/env bash
# Installs what the notebooks need and registers the GoNB kernel. Idempotent.
#   bash kernel-setup/setup.sh        # GoNB, goimports, a Jupyter front-end
#   bash kernel-setup/setup.sh --ci   # also Chromium and playwright-core for the browser tests
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
GONB_VERSION=v0.11.5
GOIMPORTS_VERSION=v0.52.0
ci=0; [ "${1:-}" = "--ci" ] && ci=1

say() { printf '\033[1m[setup]\033[0m %s\n' "$*"; }
die() { printf '\033[1;31m[setup] error:\033[0m %s\n' "$*" >&2; exit 1; }

command -v go >/dev/null || die "Go is not installed (need Go 1.26 or newer: https://go.dev/dl/)"
GOBIN=$(go env GOPATH)/bin
export PATH="$GOBIN:$PATH"

sudo_cmd=""
if [ "$(id -u)" != 0 ]; then command -v sudo >/dev/null && sudo_cmd="sudo"; fi

apt_install() {
  local missing=()
  for p in "$@"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
  [ ${#missing[@]} -eq 0 ] && return 0
  command -v apt-get >/dev/null || die "need these packages and there is no apt-get: ${missing[*]}"
  say "apt-get install ${missing[*]}"
  $sudo_cmd apt-get update -qq || die "apt-get update failed"
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y --no-install-recommends "${missing[@]}" >/dev/null \
    || die "apt-get install ${missing[*]} failed"
}

# 1. GoNB. The module proxy refuses gonb's version list, so `go install ...@version` fails;
#    installing from a throw-away module that requires the pinned version works.
if ! gonb --version 2>/dev/null | grep -q "${GONB_VERSION#v}"; then
  say "installing GoNB $GONB_VERSION"
  tmp=$(mktemp -d)
  ( cd "$tmp" && go mod init tools >/dev/null 2>&1 && go get "github.com/janpfeifer/gonb@$GONB_VERSION" >/dev/null 2>&1 \
      && go install github.com/janpfeifer/gonb ) || die "could not install GoNB $GONB_VERSION"
  rm -rf "$tmp"
fi
if ! command -v goimports >/dev/null; then
  say "installing goimports $GOIMPORTS_VERSION"
  go install "golang.org/x/tools/cmd/goimports@$GOIMPORTS_VERSION" || die "could not install goimports"
fi

# 2. A Jupyter front-end: JupyterLab through pip where an index answers, else Debian's packages.
JUPYTER=""
if [ "$ci" = 0 ] && command -v pip3 >/dev/null && timeout 20 pip3 download --no-deps -q -d "$(mktemp -d)" jupyterlab-pygments >/dev/null 2>&1; then
  if ! python3 -c 'import jupyterlab' 2>/dev/null; then
    say "installing JupyterLab with pip"
    pip3 install --user jupyterlab || die "pip install jupyterlab failed"
  fi
  JUPYTER=$(command -v jupyter)
else
  say "pip cannot reach an index (or --ci): using Debian's Jupyter packages"
  apt_install jupyter-notebook jupyter-nbconvert jupyter-client python3-nbclient jupyter-nbformat
  JUPYTER=/usr/bin/jupyter
fi

# 3. Register the kernel (kernel spec in ~/.local/share/jupyter/kernels/gonb).
if ! "$JUPYTER" kernelspec list 2>/dev/null | grep -q '^ *gonb '; then
  say "registering the GoNB kernel"
  args=(--install --force_deps)
  command -v gopls >/dev/null || args+=(--raw_error)
  gonb "${args[@]}" >/dev/null 2>&1 || gonb --install --raw_error --force_deps || die "gonb --install failed"
fi

# 4. Browser tests (CI): Chromium from Debian, playwright-core from npm (driving /usr/bin/chromium).
if [ "$ci" = 1 ]; then
  apt_install chromium fonts-dejavu-core python3-scipy
  if [ ! -d "$root/scripts/node_modules/playwright-core" ]; then
    say "npm install playwright-core"
    ( cd "$root/scripts" && npm install --no-audit --no-fund --silent playwright-core@1 >/dev/null ) || die "npm install playwright-core failed"
  fi
fi
echo "$JUPYTER" > "$here/.jupyter-path"
say "ready: GoNB $(gonb --version 2>/dev/null | head -1), $("$JUPYTER" --version 2>/dev/null | grep -i -m1 -E 'notebook|lab' || echo jupyter)"
