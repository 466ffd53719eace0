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
