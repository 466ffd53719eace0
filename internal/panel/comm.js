// connectComm keeps a panel's page script connected to its Go cell program through GoNB's
// gonb_comm; it is placed before each panel's own script, inside its function(cfg){...}.
//
// GoNB installs gonb_comm when the program subscribes, and installs a new one when the old one
// failed (its page script gives up when the kernel takes over 500 ms to acknowledge, as on a busy
// machine) or stopped answering; the Go side asks for that (comms.Start, see panel.PokeFirst)
// while it has not heard from the page. connectComm follows gonb_comm: each new one gets the
// subscription to o.out, nothing is sent through one whose connection is not made (GoNB drops
// it), and o.hello() is called once a connection is made and every second after that until
// answered() is called.
//
// o: {out: the kernel->page address, receive(value): a message from the kernel, hello(): say
// hello through send, status: the element that says how long it has been connecting}.
// It returns {send(address, value): true when sent, answered(), close(), attempts()}.
function connectComm(o) {
  const t0 = Date.now();
  let comm = null, attempts = 0, answered = false, closed = false;
  const c = {
    send(address, value) {
      if (!comm || closed || comm.__ranklab !== "ready") { return false; }
      comm.send(address, value);
      return true;
    },
    answered() { answered = true; },
    close() { closed = true; },
    attempts() { return attempts; },
  };
  function follow() {
    if (closed) { return; }
    const g = globalThis.gonb_comm;
    if (g && g !== comm) {
      comm = g;
      attempts++;
      g.__ranklab = "connecting";
      g.subscribe(o.out, (address, value) => { o.receive(value); });
      const ready = () => { g.__ranklab = "ready"; if (!answered) { o.hello(); } };
      if (g._is_connected && g._is_connected.then) {
        g._is_connected.then(ready, () => { g.__ranklab = "failed"; });
      } else { ready(); }
    }
    if (!answered) {
      const s = Math.round((Date.now() - t0) / 1000);
      o.status.textContent = "connecting to the Go kernel… " +
        (s >= 5 ? s + " s, attempt " + attempts + " (a busy machine is slow to connect; the panel keeps trying)" : "");
    }
    setTimeout(follow, answered ? 500 : 100);
  }
  setTimeout(follow, 0); // after the caller holds the returned object (o.hello may use it)
  const helloTimer = setInterval(() => {
    if (answered || closed) { clearInterval(helloTimer); return; }
    o.hello();
  }, 1000);
  return c;
}
