# Sourced by check-judge.sh, check-live.sh and check-notebooks.sh: what each needs to start a
# Jupyter server of its own on 127.0.0.1.
# free_port PY: a free TCP port (the kernel picks it; PY is a Python).
free_port() { "$1" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
# new_token PY: a random token for the server.
new_token() { "$1" -c 'import secrets; print(secrets.token_hex(16))'; }
# server_up PORT TOKEN PID: waits up to 60 s for the server at PORT to answer /api/status;
# fails when it does not, or as soon as its process PID has ended.
server_up() {
  for _ in $(seq 1 240); do
    curl -fsS "http://127.0.0.1:$1/api/status?token=$2" >/dev/null 2>&1 && return 0
    kill -0 "$3" 2>/dev/null || return 1
    sleep 0.25
  done
  return 1
}

# The browser checks of the notebook panels (check-live.sh, check-judge.sh) share what follows.
# need_frontends J "FRONT-ENDS": appends to the array missing what the front-ends need (J: the
# Jupyter kernel-setup/.jupyter-path names) and what every browser check needs.
need_frontends() {
  local j=$1
  [ -n "$j" ] && [ -x "$j" ] || missing+=("kernel-setup/.jupyter-path (a Jupyter)")
  case " $2 " in *" lab "*) [ -n "$j" ] && [ -x "$(dirname "$j")/jupyter-lab" ] || missing+=("JupyterLab (pip)") ;; esac
  case " $2 " in *" notebook7 "*) [ -n "$j" ] && [ -x "$(dirname "$j")/jupyter-notebook" ] || missing+=("Notebook 7 (jupyter-notebook beside $j)") ;; esac
  case " $2 " in *" classic "*) [ -x /usr/bin/jupyter-notebook ] || missing+=("/usr/bin/jupyter-notebook (Debian's classic Notebook: apt-get install jupyter-notebook)") ;; esac
  command -v gonb >/dev/null || missing+=(gonb)
  [ -x "${CHROMIUM:-/usr/bin/chromium}" ] || missing+=(chromium)
  command -v node >/dev/null || missing+=(node)
  [ -d scripts/node_modules/playwright-core ] || missing+=("scripts/node_modules/playwright-core")
}
# scratch: a temporary folder $tmp, removed at exit after the server this script started
# ($server, when set) is stopped.
scratch() {
  tmp=$(mktemp -d)
  server=""
  trap 'if [ -n "$server" ]; then kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; fi; rm -rf "$tmp"' EXIT
}
# scratch_tree ROOT TREE: TREE links every top-level entry of ROOT but notebooks/ and
# ci-artifacts/, and has an empty notebooks/ (GONB_DIR/.. is the module root), so a browser
# session cannot save outputs into the repository.
scratch_tree() {
  mkdir -p "$2/notebooks"
  local e name
  for e in "$1"/*; do
    name=$(basename "$e")
    case "$name" in notebooks|ci-artifacts) continue ;; esac
    [ -e "$2/$name" ] || ln -s "$e" "$2/$name"
  done
}
# frontend_cmd J FE PORT TOKEN DIR: sets the array cmd to the command that serves DIR with
# front-end FE (lab, notebook7 or classic) on 127.0.0.1:PORT with TOKEN, exposing JupyterLab's
# application to the page (window.jupyterapp) for the tests. Returns 1 for another FE.
frontend_cmd() {
  local common=(--no-browser --ip=127.0.0.1 --port="$3" --allow-root)
  case $2 in
    lab) cmd=("$1" lab "${common[@]}" --ServerApp.port_retries=0 --IdentityProvider.token="$4" --ServerApp.root_dir="$5" --LabApp.expose_app_in_browser=True) ;;
    notebook7) cmd=("$1" notebook "${common[@]}" --ServerApp.port_retries=0 --IdentityProvider.token="$4" --ServerApp.root_dir="$5" --JupyterNotebookApp.expose_app_in_browser=True) ;;
    classic) cmd=(/usr/bin/jupyter notebook "${common[@]}" --NotebookApp.token="$4" --NotebookApp.password='' --notebook-dir="$5") ;;
    *) return 1 ;;
  esac
}
