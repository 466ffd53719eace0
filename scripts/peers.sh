#!/usr/bin/env bash
# peers.sh: installs the evaluators ranklab is compared with (pytrec_eval, ir_measures, ranx, and
# for the conventions table BEIR's evaluation and LlamaIndex's retrieval metrics; scikit-learn's
# cohen_kappa_score and SciPy's kendalltau for judge agreement; ppi_py (with statsmodels) for
# package ppi's prediction-powered intervals; Hugging Face's
# tokenizers, the reference of package embed's WordPiece) into a virtual
# environment of their own and prints its python's path on the last line.
#
#   bash scripts/peers.sh                         # idempotent: a complete environment is reused at once
#   RANKLAB_PEERS_RAGAS=1 bash scripts/peers.sh   # also ragas (not in CI: see below)
#   bash scripts/peers.sh --check                 # print the python if the environment is complete, else exit 1
#
# The environment lives in $RANKLAB_PEERS_VENV (default ~/.cache/ranklab/peers-venv), never in
# the system Python. Versions are pinned here, the one place the tests, the benchmark and the
# conventions checks take them from.
#
# beir is installed without its dependencies: its evaluation (beir/retrieval/evaluation.py,
# custom_metrics.py) needs only pytrec_eval and tqdm, while its declared dependencies pull
# sentence-transformers, torch with CUDA and datasets (gigabytes). llama-index-core adds about
# 140 MB and 25 s (measured). ragas 0.4.3 adds about 600 MB and 45 s (langchain, datasets,
# pyarrow, openai) and imports only with langchain-community < 0.4, so it is opt-in.
set -euo pipefail
venv=${RANKLAB_PEERS_VENV:-$HOME/.cache/ranklab/peers-venv}
pins=(pytrec-eval-terrier==0.5.11 ir-measures==0.4.3 ranx==0.3.21 llama-index-core==0.14.25 scikit-learn==1.9.1 tokenizers==0.23.3 ppi-python==0.2.3 statsmodels==0.15.0)
nodeps=(beir==2.2.0)
imports='import pytrec_eval, ir_measures, ranx, beir.retrieval.evaluation, llama_index.core.evaluation.retrieval.metrics, sklearn.metrics, scipy.stats, tokenizers, ppi_py'
if [[ "${RANKLAB_PEERS_RAGAS:-}" == 1 ]]; then
  pins+=(ragas==0.4.3 langchain-community==0.3.31)
  imports+=', ragas.metrics'
fi
stamp="$venv/.ranklab-pins"
complete() { [[ -x "$venv/bin/python" && -f "$stamp" && "$(cat "$stamp")" == "${pins[*]} ${nodeps[*]}" ]]; }
if complete; then echo "$venv/bin/python"; exit 0; fi
[[ "${1:-}" == --check ]] && { echo "peers.sh: $venv is missing or incomplete" >&2; exit 1; }
# One installer at a time: a second caller waits, then finds the environment complete.
mkdir -p "$(dirname "$venv")"
exec 9>"$venv.lock"
flock 9
if complete; then echo "$venv/bin/python"; exit 0; fi
py=""
for c in /usr/bin/python3 python3; do
  if command -v "$c" >/dev/null && "$c" -c 'import venv, ensurepip' 2>/dev/null; then py=$c; break; fi
done
[[ -n "$py" ]] || { echo "peers.sh: no python3 with venv and ensurepip (Debian: apt-get install python3-venv)" >&2; exit 1; }
echo "peers.sh: installing ${pins[*]} ${nodeps[*]} (no dependencies) with $("$py" --version 2>&1) into $venv:" >&2
echo "peers.sh: about 3.5 min on an empty pip cache (~90 packages: numba, scipy, llama-index-core and its dependencies; pip's progress below)" >&2
rm -rf "$venv"
"$py" -m venv "$venv"
progress() { { grep --line-buffered -v -E '^(Requirement already satisfied|  Using cached|$)' || true; } | sed -u 's/^/    /' >&2; }
"$venv/bin/pip" install --disable-pip-version-check "${pins[@]}" 2>&1 | progress
"$venv/bin/pip" install --disable-pip-version-check --no-deps "${nodeps[@]}" 2>&1 | progress
"$venv/bin/python" -c "$imports" >&2
# ranx compiles its numba code on first use and caches it beside itself: compile it once here,
# so the Go tests that compare with ranx (four packages at once) load it instead of each
# compiling it (scripts/peers_warm.py says what and why).
echo "peers.sh: compiling ranx's numba code once (scripts/peers_warm.py)" >&2
"$venv/bin/python" -W ignore "$(dirname "$0")/peers_warm.py" >&2
echo "${pins[*]} ${nodeps[*]}" > "$stamp"
echo "$venv/bin/python"
