#!/usr/bin/env bash
# Installs what the notebooks need and registers the GoNB kernel. Safe to run again: each step
# checks first and only does what is missing.
#
#   bash kernel-setup/setup.sh        # GoNB, goimports, JupyterLab (pip), the kernel spec (make lab)
#   bash kernel-setup/setup.sh --ci   # the same plus what the checks need (make test): Chromium,
#                                     # fonts, python3-scipy, gcc, Debian's classic Notebook,
#                                     # playwright-core (scripts/node_modules) and the peers
#                                     # (scripts/peers.sh)
#
# JupyterLab 4, Notebook 7 and nbconvert 7 come from pip, into a virtual environment
# (requirements.txt; constraints.txt pins the rest), so Debian's "externally managed" Python is
# left alone. Only where pip reaches no package index: Debian's classic Notebook and nbconvert.
# A second run finds everything in place in a few seconds, without touching the network.
# Works as root on Debian 12 (apt-get) and as a normal user (sudo for Debian packages); with
# --ci, Debian packages that are missing and cannot be installed stop it at once, named.
# Every step that takes more than about 10 s on a fresh machine says so before it starts (the
# times quoted were measured on a cold cache, 2 cores) and shows the tool's own progress.
# Environment:
#   RANKLAB_VENV          where the Jupyter environment goes (default ~/.local/share/ranklab/jupyter-venv)
#   RANKLAB_NO_PIP=1      skip pip and use Debian's Jupyter packages
#   RANKLAB_RETRY_PIP=1   try pip again after an earlier run fell back to Debian's packages
#   RANKLAB_STRICT_PINS=1 fail when constraints.txt does not install, instead of warning and
#                         installing requirements.txt alone (.ci/run sets it)
# The Jupyter command it chose is written to kernel-setup/.jupyter-path (open-lab.sh, the checks).
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
    -h|--help) sed -n '2,26p' "$0"; exit 0 ;;
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

# missing_debs PKG...: prints the packages of PKG that dpkg does not list as installed.
missing_debs() {
  local p
  for p in "$@"; do dpkg -s "$p" 2>/dev/null | grep '^Status: install ok installed' >/dev/null || printf '%s ' "$p"; done
}
# apt_install PKG...: installs the Debian packages that are missing (root, or a user with sudo),
# in one apt-get run whose own progress lines (Get:, Unpacking, Setting up) are shown.
apt_install() {
  local missing
  read -r -a missing <<<"$(missing_debs "$@")"
  if [ ${#missing[@]} -eq 0 ]; then ok "Debian packages present: $*"; return 0; fi
  command -v apt-get >/dev/null || die "these packages are missing and there is no apt-get to install them: ${missing[*]}"
  [ "$(id -u)" = 0 ] || [ -n "$sudo_cmd" ] || die "need root or sudo to install: ${missing[*]} (ask an administrator: apt-get install ${missing[*]})"
  local t=$SECONDS
  say "apt-get install ${missing[*]} ($(apt_estimate "${missing[@]}"); apt's progress below)"
  $sudo_cmd apt-get update -q 2>&1 | sed -u 's/^/    /' || die "apt-get update failed (no network or no Debian mirror?)"
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -q --no-install-recommends "${missing[@]}" 2>&1 \
    | grep --line-buffered -E '^(Get:|Unpacking|Setting up|E:)' | sed -u 's/^/    /' || true
  [ -z "$(missing_debs "${missing[@]}")" ] || die "apt-get install ${missing[*]} failed (run it by hand to see why)"
  ok "installed ${missing[*]} in $((SECONDS - t)) s"
}
# apt_estimate PKG...: how long installing them takes on a fresh Debian 12 (2 cores; Chromium and
# fonts measured at 16 s, the Jupyter packages at 10 s: ../shared/NOTES.md).
apt_estimate() {
  case " $* " in
    *" chromium "*) echo "Chromium alone is 414 MB, about 16 s on an idle machine with a near mirror; allow a minute for all" ;;
    *" openjdk-17-jdk-headless "*) echo "OpenJDK 17 is about 120 MB: allow a minute" ;;
    *" jupyter-notebook "*|*" nodejs "*|*" maven "*) echo "about 10 to 30 s" ;;
    *) echo "about 10 s" ;;
  esac
}

# With --ci, every Debian package the checks need is known now: install them first, or stop here,
# naming them, when there is no root or sudo (before anything long has run).
if [ "$ci" = 1 ]; then
  debs=(chromium fonts-dejavu-core python3-scipy python3-venv make gcc libc6-dev procps jupyter-notebook strace)
  # gcc and libc6-dev: cgo for go test -race; python3-venv: the peers' and Jupyter's environments
  # on Debian's own python3; jupyter-notebook: the live-panel browser test in the classic Notebook;
  # strace: TestSmolLM2InstallLockReleased makes a system call fail at the moment it tests.
  command -v npm >/dev/null || debs+=(nodejs npm)
  # Java and Maven: the local Solr/OpenSearch of the engine tests (kernel-setup/engine.sh), where
  # missing; make lab never needs them.
  { command -v java >/dev/null && command -v javac >/dev/null; } || debs+=(openjdk-17-jdk-headless)
  command -v mvn >/dev/null || debs+=(maven)
  need=$(missing_debs "${debs[@]}")
  if [ -n "$need" ] && [ "$(id -u)" != 0 ] && [ -z "$sudo_cmd" ]; then
    die "make test needs these Debian packages, and installing them needs root or sudo: ${need% }
    ask an administrator to run: apt-get install --no-install-recommends ${need% }"
  fi
  apt_install "${debs[@]}"
fi

# --- 0b. Downloads beside the builds ---------------------------------------------------------
# The dense model (kernel-setup/dense.sh: about 138 MB from PyPI, about a minute) and, with --ci,
# the peer evaluators (scripts/peers.sh: about 70 s) are mostly downloads: they run in the
# background while GoNB compiles, their lines prefixed [dense] and [peers], and the set-up
# waits for them at its end (measured on a fresh account, Debian packages present, idle at the
# start: the --ci set-up took 135 s with the peers in a row and no dense model, 84-89 s with both
# in the background).
bg_pids=(); bg_names=()
background() { # background NAME CMD...: runs CMD now, its output prefixed [NAME]
  local name=$1; shift
  ( "$@" 2>&1 >/dev/null | sed -u -E "/^(\x1b\[[0-9;]*m)?\[$name\]/!s/^/[$name] /" ; exit "${PIPESTATUS[0]}" ) &
  bg_pids+=($!); bg_names+=("$name")
}
if manifest=$(bash "$here/dense.sh" --check 2>/dev/null); then ok "dense model (all-MiniLM-L6-v2, ONNX Runtime) in $(dirname "$manifest")"
else say "installing the dense model in the background (kernel-setup/dense.sh: about 138 MB, about a minute)"; background dense bash "$here/dense.sh"; fi
if [ "$ci" = 1 ]; then
  if peers_py=$(bash "$root/scripts/peers.sh" --check 2>/dev/null | tail -1) && [ -n "$peers_py" ]; then ok "peer evaluators in $(dirname "$(dirname "$peers_py")")"
  else say "installing the peer evaluators in the background (scripts/peers.sh: about 70 s)"; background peers bash "$root/scripts/peers.sh"; fi
  if bash "$here/engine.sh" --check 2>/dev/null; then ok "search-engine launchers (Solr 9.10.1, OpenSearch 3.5.0) built"
  else say "building the search-engine launchers in the background (kernel-setup/engine.sh: Maven fetches about 220 MB of pinned jars, 1-2 min)"; background engine bash "$here/engine.sh"; fi
fi

# --- 1. GoNB and goimports -------------------------------------------------------------------
# The module proxy refuses gonb's version list, so `go install gonb@version` fails with a 403;
# installing from a throw-away module that requires the pinned version works.
# build_tool LABEL PKG VERSION: builds the command PKG@VERSION into $GOBIN from a throw-away
# module, showing go get's downloads and, every 25 packages, how many `go install -v` compiled.
build_tool() {
  local label=$1 pkg=$2 ver=$3 tmp total rc
  tmp=$(mktemp -d)
  ( cd "$tmp" && go mod init tools >/dev/null 2>&1 && go get "$pkg@$ver" 2>&1 | sed -u 's/^/    /' ) \
    || { rm -rf "$tmp"; return 1; }
  total=$(cd "$tmp" && go list -deps "$pkg" 2>/dev/null | wc -l)
  set +e
  ( cd "$tmp" && go install -v "$pkg" ) 2>&1 | tee "$tmp/log" | awk -v total="$total" -v label="$label" '
    /^[^ :]+$/ { n++; if (n % 25 == 0) { printf "    %s: %d of %d packages compiled\n", label, n, total; fflush() } }
    END { printf "    %s: %d of %d packages compiled (the others were in the Go build cache or need no compiling)\n", label, n, total }'
  rc=${PIPESTATUS[0]}
  set -e
  [ "$rc" = 0 ] || { grep -v '^[^ :]*$' "$tmp/log" >&2; rm -rf "$tmp"; return 1; }
  rm -rf "$tmp"
}
if gonb --version 2>/dev/null | grep "${GONB_VERSION}" >/dev/null; then
  ok "GoNB $GONB_VERSION at $(command -v gonb)"
else
  say "building GoNB $GONB_VERSION (the Go kernel for Jupyter) into $GOBIN: about 35 s with an empty Go cache on an idle 2-core machine, 100 s at a load of 14 (downloads, then ~290 packages compiled; progress below)"
  t=$SECONDS
  build_tool GoNB github.com/janpfeifer/gonb "$GONB_VERSION" \
    || die "could not build GoNB $GONB_VERSION (output above; is the Go module proxy reachable?)"
  gonb --version 2>/dev/null | grep "$GONB_VERSION" >/dev/null || die "GoNB installed but 'gonb --version' does not answer $GONB_VERSION"
  ok "GoNB $GONB_VERSION (built in $((SECONDS - t)) s)"
fi
if command -v goimports >/dev/null; then
  ok "goimports at $(command -v goimports)"
else
  say "building goimports $GOIMPORTS_VERSION (GoNB uses it to fill in imports): about 10 s after GoNB on an empty Go cache"
  t=$SECONDS
  build_tool goimports golang.org/x/tools/cmd/goimports "$GOIMPORTS_VERSION" \
    || die "could not build goimports $GOIMPORTS_VERSION (output above)"
  ok "goimports $GOIMPORTS_VERSION (built in $((SECONDS - t)) s)"
fi

# --- 2. A Jupyter front-end ----------------------------------------------------------------
# JupyterLab 4 + Notebook 7 + nbconvert 7 through pip into a virtual environment (the versions
# of requirements.txt, everything they pull in pinned by constraints.txt). A stamp in the
# environment records what was installed: when it matches, nothing is probed or downloaded.
# Only when pip reaches no package index: Debian's classic Notebook 6.4 and nbconvert 6.5.
REQ=$here/requirements.txt
CON=$here/constraints.txt
want_stamp=$(cat "$REQ" "$CON" | cksum | cut -d' ' -f1)
recorded=$(cat "$here/.jupyter-path" 2>/dev/null || true)
JUPYTER=""

venv_ok() { [ -x "$VENV/bin/jupyter" ] && [ "$(cat "$VENV/.ranklab-stamp" 2>/dev/null)" = "$want_stamp" ]; }
# versions prints the installed versions without importing Jupyter (a second run stays fast).
versions() {
  "$VENV/bin/python" -c 'from importlib.metadata import version as v
print("JupyterLab %s, Notebook %s, nbconvert %s" % (v("jupyterlab"), v("notebook"), v("nbconvert")))'
}

# pick_python prints a python3 that can create a virtual environment with pip: Debian's own
# /usr/bin/python3 first (the one constraints.txt is checked with, and the one CI uses), else the
# python3 first on PATH. Debian's needs python3-venv, installed when root or sudo allows.
pick_python() {
  local py
  for py in /usr/bin/python3 "$(command -v python3 || true)"; do
    [ -n "$py" ] && [ -x "$py" ] || continue
    "$py" -c 'import sys, venv, ensurepip; sys.exit(sys.version_info < (3, 10))' 2>/dev/null && { echo "$py"; return 0; }
  done
  if [ -x /usr/bin/python3 ] && command -v apt-get >/dev/null && { [ "$(id -u)" = 0 ] || [ -n "$sudo_cmd" ]; }; then
    apt_install python3-venv >&2 && { echo /usr/bin/python3; return 0; }
  fi
  return 1
}
pip_reachable() { # $1 = python; one small download, at most 30 s
  local d rc; d=$(mktemp -d)
  timeout 30 "$1" -m pip download --no-deps -q -d "$d" jupyterlab-pygments >/dev/null 2>&1
  rc=$?; rm -rf "$d"; return $rc
}
# pip_progress: pip's own lines (Collecting, Downloading with sizes, Installing), indented.
pip_progress() { { grep --line-buffered -v -E '^(Requirement already satisfied|  Using cached|  Obtaining|$)' || true; } | sed -u 's/^/    /'; }
install_venv() { # $1 = python
  local py=$1 log rc failed; log=$(mktemp)
  say "installing JupyterLab $(grep -o '^jupyterlab==[^ ]*' "$REQ" | cut -d= -f3), Notebook $(grep -o '^notebook==[^ ]*' "$REQ" | cut -d= -f3) and nbconvert with pip ($("$py" --version 2>&1)) into $VENV: about 20 s with an empty pip cache, 45 s on a busy machine, 90 packages (pip's progress below)"
  [ -x "$VENV/bin/python" ] || "$py" -m venv "$VENV" >"$log" 2>&1 || { cat "$log" >&2; rm -rf "$VENV"; return 1; }
  set +e
  "$VENV/bin/python" -m pip install --disable-pip-version-check -r "$REQ" -c "$CON" 2>&1 | tee "$log" | pip_progress
  rc=${PIPESTATUS[0]}
  set -e
  if [ "$rc" != 0 ]; then
    # Name the pins pip could not honour: the constraint lines of its conflict report, and the
    # versions it ignored for needing another Python.
    failed=$(grep -oE '\(constraint\) [^ ]+|[^ ]+ Requires-Python [^;]+' "$log" | sed 's/^(constraint) //' | sort -u | tr '\n' ' ')
    printf '\033[1;33m[setup] warning:\033[0m constraints.txt does not install with %s: %s\n' "$("$VENV/bin/python" --version 2>&1)" "${failed:-see the report of pip below}" >&2
    grep -E '^(ERROR|The conflict|    )' "$log" | head -20 | sed 's/^/    /' >&2
    if [ "${RANKLAB_STRICT_PINS:-0}" = 1 ]; then
      rm -f "$log"; die "RANKLAB_STRICT_PINS=1: the pinned set must install (fix kernel-setup/constraints.txt; check with: $py -m venv /tmp/v && /tmp/v/bin/pip install --dry-run -r $REQ -c $CON)"
    fi
    say "retrying with requirements.txt only: pip chooses the other versions, so this environment is NOT the pinned one"
    set +e
    "$VENV/bin/python" -m pip install --disable-pip-version-check -r "$REQ" 2>&1 | tee "$log" | pip_progress
    rc=${PIPESTATUS[0]}
    set -e
    [ "$rc" = 0 ] || { rm -f "$log"; return 1; }
    echo "${failed:-constraints.txt}" > "$VENV/.ranklab-unpinned"
  else
    rm -f "$VENV/.ranklab-unpinned"
  fi
  rm -f "$log"
  echo "$want_stamp" > "$VENV/.ranklab-stamp"
}
# unpinned_note: a reminder, on every run, that the environment was installed without the pins.
unpinned_note() {
  [ -f "$VENV/.ranklab-unpinned" ] || return 0
  printf '\033[1;33m[setup] warning:\033[0m %s was installed WITHOUT constraints.txt (these pins failed: %s); rm -rf it to try again\n' "$VENV" "$(cat "$VENV/.ranklab-unpinned")" >&2
}

if [ "${RANKLAB_NO_PIP:-0}" != 1 ] && venv_ok; then
  JUPYTER=$VENV/bin/jupyter
  ok "$(versions) in $VENV"
  unpinned_note
elif [ "${RANKLAB_NO_PIP:-0}" != 1 ] && [ "$recorded" = /usr/bin/jupyter ] && [ -x /usr/bin/jupyter ] && [ "${RANKLAB_RETRY_PIP:-0}" != 1 ]; then
  # An earlier run found no package index: keep Debian's front-end without probing again.
  JUPYTER=/usr/bin/jupyter
  ok "Debian's Jupyter Notebook $("$JUPYTER" notebook --version 2>/dev/null) (pip reached no index last time; RANKLAB_RETRY_PIP=1 tries again)"
else
  py=""
  if [ "${RANKLAB_NO_PIP:-0}" != 1 ]; then
    py=$(pick_python) || { py=""; say "no python3 with venv and pip: cannot install JupyterLab with pip"; }
  fi
  if [ -n "$py" ] && say "checking that pip reaches a package index (up to 30 s, first run only)" && pip_reachable "$py"; then
    t=$SECONDS
    install_venv "$py" || die "pip could not install JupyterLab into $VENV (output above); RANKLAB_NO_PIP=1 uses Debian's Jupyter instead"
    JUPYTER=$VENV/bin/jupyter
    ok "$(versions) in $VENV (installed in $((SECONDS - t)) s)"
    unpinned_note
  else
    say "pip reaches no package index: falling back to Debian's Jupyter packages (classic Notebook 6.4, nbconvert 6.5)"
    apt_install jupyter-notebook jupyter-nbconvert jupyter-client python3-nbclient jupyter-nbformat
    JUPYTER=/usr/bin/jupyter   # not the first python3 on PATH: that one may lack Debian's modules
    "$JUPYTER" nbconvert --version >/dev/null 2>&1 || die "$JUPYTER nbconvert does not run after installing Debian's packages"
    ok "Jupyter Notebook $("$JUPYTER" notebook --version 2>/dev/null), nbconvert $("$JUPYTER" nbconvert --version)"
  fi
fi

# JupyterLab-side defaults for this environment (overrides.json, read by JupyterLab and
# Notebook 7; a user's own settings still win): Notebook 7 puts long outputs in a scroll box by
# default, which would hide most of the live panel (the readings, the ranking, the charts); and
# JupyterLab's "Would you like to get notified about official Jupyter news?" toast would cover
# the top of the page (fetchNews "false" is the setting's own spelling: a string).
if [ "$JUPYTER" = "$VENV/bin/jupyter" ]; then
  ov=$VENV/share/jupyter/lab/settings/overrides.json
  want_ov='{
 "@jupyter-notebook/notebook-extension:scroll-output": {"autoScrollOutputs": false},
 "@jupyterlab/apputils-extension:notification": {"fetchNews": "false"}
}'
  if [ "$(cat "$ov" 2>/dev/null)" != "$want_ov" ]; then
    mkdir -p "$(dirname "$ov")" && printf '%s\n' "$want_ov" > "$ov.tmp" && mv "$ov.tmp" "$ov"
    ok "JupyterLab defaults in $ov: long outputs shown whole (Notebook 7), no news toast"
  fi
fi

# --- 3. The GoNB kernel spec ----------------------------------------------------------------
# GoNB runs `go` and `goimports` through PATH. Jupyter may be started from a shell whose PATH lacks
# $GOBIN (a fresh account: "goimports: executable file not found in $PATH"), so the kernel spec
# puts both folders first; ${PATH} is expanded by jupyter_client (>= 7) when the kernel starts.
# Registered again only when the spec does not name this gonb binary and this PATH.
kpath="$GOBIN:$(dirname "$(command -v go)"):\${PATH}"
spec_dir=${JUPYTER_DATA_DIR:-$HOME/.local/share/jupyter}/kernels/gonb
spec_current() {
  [ -f "$spec_dir/kernel.json" ] && python3 - "$spec_dir/kernel.json" "$(command -v gonb)" "$kpath" <<'PY' 2>/dev/null
import json, sys
spec = json.load(open(sys.argv[1]))
sys.exit(0 if spec["argv"][0] == sys.argv[2] and spec.get("env", {}).get("PATH") == sys.argv[3] else 1)
PY
}
if spec_current; then
  ok "kernel gonb registered ($spec_dir)"
else
  say "registering the GoNB kernel (kernel spec in $spec_dir)"
  args=(--install --force_deps)
  command -v gopls >/dev/null || args+=(--raw_error)
  gonb "${args[@]}" >/dev/null 2>&1 || gonb --install --raw_error --force_deps || die "gonb --install failed (output above)"
  "$JUPYTER" kernelspec list 2>/dev/null | grep '^ *gonb ' >/dev/null \
    || die "gonb --install ran but '$JUPYTER kernelspec list' does not show gonb (JUPYTER_DATA_DIR=${JUPYTER_DATA_DIR:-unset})"
  spec=$("$JUPYTER" kernelspec list 2>/dev/null | awk '$1 == "gonb" {print $2}')
  [ -f "$spec/kernel.json" ] || die "cannot find the gonb kernel spec (kernel.json) under '$spec'"
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
fi

# --- 3b. Notebooks are committed without outputs --------------------------------------------
# A git clean filter (scripts/notebook-lint.py --clean, declared in .gitattributes) strips
# outputs and execution counts on `git add`, so the work tree may keep them. Registered in this
# clone's config; a linked worktree shares its main clone's config, so it is left to that one.
if git -C "$root" rev-parse --git-dir >/dev/null 2>&1; then
  if [ "$(git -C "$root" config --get filter.ranklab-notebook.clean || true)" = "python3 scripts/notebook-lint.py --clean" ]; then
    ok "git filter ranklab-notebook (strips notebook outputs on git add)"
  elif [ "$(cd "$root" && git rev-parse --git-dir)" = "$(cd "$root" && git rev-parse --git-common-dir)" ]; then
    git -C "$root" config filter.ranklab-notebook.clean "python3 scripts/notebook-lint.py --clean"
    git -C "$root" config filter.ranklab-notebook.required false
    ok "git filter ranklab-notebook registered (strips notebook outputs on git add)"
  else
    say "linked git worktree: register the notebook filter in the main clone with: git config filter.ranklab-notebook.clean 'python3 scripts/notebook-lint.py --clean'"
  fi
fi

# --- 4. What the checks need (--ci, make test) ---------------------------------------------
# The Debian packages were installed at the start (see "With --ci" above).
if [ "$ci" = 1 ]; then
  # scripts/package.json pins playwright-core (a version that still runs on Debian 12's Node 18).
  want=$(node -p 'require(process.argv[1]).dependencies["playwright-core"]' "$root/scripts/package.json") \
    || die "cannot read the playwright-core version from scripts/package.json"
  have=$(node -p 'require(process.argv[1]).version' "$root/scripts/node_modules/playwright-core/package.json" 2>/dev/null || true)
  if [ "$have" = "$want" ]; then
    ok "playwright-core $want in scripts/node_modules"
  else
    say "npm install playwright-core@$want into scripts/node_modules (drives /usr/bin/chromium; no browser download; about 10 s)"
    ( cd "$root/scripts" && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm install --no-audit --no-fund ) 2>&1 | sed -u 's/^/    /'
    [ "$(node -p 'require(process.argv[1]).version' "$root/scripts/node_modules/playwright-core/package.json" 2>/dev/null)" = "$want" ] \
      || die "npm install in scripts/ failed (is the npm registry reachable?)"
    ok "playwright-core $want"
  fi
fi

# --- 5. The background installs (0b) ------------------------------------------------------------
for i in "${!bg_pids[@]}"; do
  t=$SECONDS
  say "waiting for the ${bg_names[$i]} install started at the beginning"
  if wait "${bg_pids[$i]}"; then ok "${bg_names[$i]} installed (waited $((SECONDS - t)) s)"
  elif [ "${bg_names[$i]}" = dense ] && [ "$ci" = 0 ]; then
    say "WARNING: the dense model did not install (its [dense] lines above say why): notebooks/17_dense_retrieval needs it; the other notebooks do not. make lab tries again next time."
  else die "the ${bg_names[$i]} install failed (its [${bg_names[$i]}] lines above say why)"; fi
done

echo "$JUPYTER" > "$here/.jupyter-path"
say "ready in $((SECONDS - t_start)) s: $(gonb --version 2>/dev/null | head -1), front-end $JUPYTER"
[ "$ci" = 1 ] || say "open the lab with: make lab   (or: bash kernel-setup/open-lab.sh)"
