"""Ctrl-C stops `make lab`: the server, its kernels and their cell programs, within 2 s.

    python ctrl-c-test.py [COMMAND...]     # default: make --no-print-directory lab

Run with a Python that has jupyter_client (the Jupyter environment kernel-setup/setup.sh made;
scripts/check-ctrl-c.sh picks it). What a terminal does, done for real:
  1. start COMMAND on a new pseudo-terminal (pty.fork: the child is a session leader whose
     controlling terminal is the pty), with RANKLAB_NO_BROWSER=1 and a free RANKLAB_PORT;
  2. wait for the URL it prints, start a GoNB kernel through the server's REST API and run a
     cell whose program sleeps for an hour (a gonb_* binary, as a live panel's is);
  3. note every process below COMMAND (make, bash, Jupyter, the kernel, the cell program);
  4. send SIGINT to the terminal's foreground process group (os.tcgetpgrp, os.killpg), as the
     terminal driver does on Ctrl-C;
  5. pass when, within 2 s, none of the noted processes is left (a zombie counts as gone) and
     the port no longer answers; otherwise name what is left (and kill it).
Prints the time from SIGINT to the last process gone. Exit status 0 on pass, 1 on failure.
CTRL_C_LOG=FILE keeps the command's whole output (the set-up's messages included) in FILE.
"""
import json
import os
import pty
import re
import signal
import socket
import sys
import tempfile
import threading
import time
import urllib.request

LIMIT = 2.0            # seconds from Ctrl-C to nothing left
URL_TIMEOUT = 600      # make lab runs the set-up first; a fresh machine may build GoNB
CELL_TIMEOUT = 300     # GoNB compiles the cell's program (first time: the Go cache warms)
CELL = 'import "time"\n\nfunc main() {\n\ttime.Sleep(time.Hour)\n}\n'


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def proc_table():
    """{pid: (ppid, starttime, state, name)} from /proc."""
    t = {}
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open(f"/proc/{d}/stat") as f:
                s = f.read()
        except OSError:
            continue
        name = s[s.index("(") + 1:s.rindex(")")]
        f = s[s.rindex(")") + 2:].split()
        t[int(d)] = (int(f[1]), f[19], f[0], name)
    return t


def below(root):
    """[(pid, starttime, name)] of every process below root (root included)."""
    t = proc_table()
    out, todo = [], [root]
    while todo:
        p = todo.pop()
        if p in t:
            out.append((p, t[p][1], t[p][3]))
        todo += [c for c, v in t.items() if v[0] == p]
    return out


def alive(noted):
    """The noted processes still running (same start time, not a zombie)."""
    t = proc_table()
    return [(p, n) for p, start, n in noted if p in t and t[p][1] == start and t[p][2] != "Z"]


def cmdline(pid):
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return f.read().replace(b"\0", b" ").decode(errors="replace").strip()
    except OSError:
        return "?"


def main(argv):
    cmd = argv or ["make", "--no-print-directory", "lab"]
    port = free_port()
    runtime = tempfile.mkdtemp(prefix="ctrl-c-runtime-")
    env = dict(os.environ, RANKLAB_PORT=str(port), RANKLAB_NO_BROWSER="1", JUPYTER_RUNTIME_DIR=runtime, TERM="dumb")
    pid, fd = pty.fork()
    if pid == 0:
        try:
            # A terminal's shell starts a command with SIGINT and SIGQUIT at their defaults. A
            # test launched from a background job of a non-interactive shell (nohup ... &, some
            # CI runners) inherits them ignored, and an ignored SIGINT stays ignored across exec:
            # reset them as the shell would, so the test sees what a user at a terminal sees.
            signal.signal(signal.SIGINT, signal.SIG_DFL)
            signal.signal(signal.SIGQUIT, signal.SIG_DFL)
            os.execvpe(cmd[0], cmd, env)
        finally:
            os._exit(127)

    out = bytearray()
    done = threading.Event()

    def drain():
        while True:
            try:
                b = os.read(fd, 4096)
            except OSError:
                break
            if not b:
                break
            out.extend(b)
        done.set()
    threading.Thread(target=drain, daemon=True).start()

    def text():
        return out.decode(errors="replace")

    def keep_log():
        if os.environ.get("CTRL_C_LOG"):
            with open(os.environ["CTRL_C_LOG"], "w") as f:
                f.write(text())

    def fail(msg, noted=()):
        keep_log()
        print(f"ctrl-c-test: FAIL: {msg}")
        print("---- output of", " ".join(cmd), "(last 40 lines)")
        print("\n".join(text().splitlines()[-40:]))
        for p, _ in alive(noted) if noted else []:
            print(f"left: {p} {cmdline(p)}")
        for p, _, _ in below(pid) + list(noted):
            try:
                os.kill(p, signal.SIGKILL)
            except OSError:
                pass
        return 1

    # 1-2. The URL, then a kernel with a running cell program.
    t0 = time.time()
    url = None
    while time.time() - t0 < URL_TIMEOUT:
        m = re.search(rf"http://127\.0\.0\.1:{port}/\S*token=([0-9a-f]+)", text())
        if m:
            url, token = m.group(0), m.group(1)
            break
        if done.is_set() or os.waitpid(pid, os.WNOHANG)[0]:
            return fail("the command ended before printing its URL")
        time.sleep(0.2)
    if not url:
        return fail(f"no URL within {URL_TIMEOUT} s")
    print(f"ctrl-c-test: {' '.join(cmd)} printed its URL after {time.time() - t0:.1f} s")
    base = f"http://127.0.0.1:{port}"
    req = urllib.request.Request(f"{base}/api/kernels?token={token}", data=json.dumps({"name": "gonb"}).encode(),
                                 headers={"Content-Type": "application/json"}, method="POST")
    kid = json.load(urllib.request.urlopen(req, timeout=60))["id"]
    conn = os.path.join(runtime, f"kernel-{kid}.json")
    for _ in range(300):
        if os.path.exists(conn):
            break
        time.sleep(0.1)
    from jupyter_client import BlockingKernelClient
    kc = BlockingKernelClient(connection_file=conn)
    kc.load_connection_file()
    kc.start_channels()
    try:
        kc.wait_for_ready(timeout=120)
    except RuntimeError as e:
        return fail(f"the GoNB kernel did not answer: {e}")
    kc.execute(CELL)
    t1 = time.time()
    cell = None
    while time.time() - t1 < CELL_TIMEOUT:
        cell = next(((p, n) for p, _, n in below(pid) if n.startswith("gonb_")), None)
        if cell:
            break
        time.sleep(0.2)
    if not cell:
        return fail(f"no gonb_* cell program within {CELL_TIMEOUT} s")
    time.sleep(0.5)  # let it settle: the cell program is running, not just being started
    kc.stop_channels()

    # 3-4. Everything below the command, then Ctrl-C as the terminal sends it.
    noted = below(pid)
    names = sorted({n for _, _, n in noted})
    kernels = [p for p, _, n in noted if n == "gonb"]
    print(f"ctrl-c-test: {len(noted)} processes below the command ({', '.join(names)}); kernel {kernels}, cell program {cell[1]} ({cell[0]})")
    if not kernels:
        return fail("no gonb kernel process below the command", noted)
    fg = os.tcgetpgrp(fd)
    t2 = time.time()
    os.killpg(fg, signal.SIGINT)

    # 5. Nothing left within LIMIT.
    left, gone = alive(noted), {}
    while left and time.time() - t2 < LIMIT + 3:
        try:
            os.waitpid(pid, os.WNOHANG)
        except ChildProcessError:
            pass
        time.sleep(0.02)
        left = alive(noted)
        now = time.time() - t2
        for p, _, n in noted:
            if (p, n) not in left and p not in gone:
                gone[p] = (now, n)
    took = time.time() - t2
    print("ctrl-c-test: gone after Ctrl-C: " + ", ".join(f"{n} {t:.2f} s" for t, n in sorted(gone.values())))
    if left:
        return fail(f"{len(left)} process(es) still running {took:.1f} s after Ctrl-C", noted)
    try:
        urllib.request.urlopen(f"{base}/api/status?token={token}", timeout=2)
        return fail("the server still answers after Ctrl-C")
    except OSError:
        pass
    if took > LIMIT:
        return fail(f"everything stopped, but only {took:.2f} s after Ctrl-C (limit {LIMIT} s)")
    time.sleep(0.2)  # the last of the output
    keep_log()
    print(f"ctrl-c-test: ok: Ctrl-C stopped all {len(noted)} processes (server, kernel, cell program) in {took:.2f} s (limit {LIMIT} s)")
    tail = [line for line in text().splitlines()[-4:] if line.strip()]
    print("ctrl-c-test: the command's last lines:", " | ".join(tail))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
