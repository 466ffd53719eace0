// The judging panel's script (wrapped as function(cfg){...}; cfg = {id, in, out}).
// It waits for GoNB's gonb_comm, says hello, and sends one key at a time with the pair it was
// pressed on; the next card shows only when the kernel's reply arrives, which it sends after
// the judgment is on disk. Keys handled here never reach JupyterLab's shortcuts.
const root = document.getElementById(cfg.id);
if (!root) { return; }
const card = root.querySelector("[data-judge-card]");
const progress = root.querySelector("[data-judge-progress]");
const status = root.querySelector("[data-judge-status]");
let seq = 0, comm = null, waiting = false, closed = false, late = null;
const keys = { "0": "0", "1": "1", "2": "2", "3": "3", "s": "skip", "S": "skip", "b": "back", "B": "back",
  "ArrowLeft": "back", "u": "undo", "U": "undo" };

function setButtons() {
  root.querySelectorAll("[data-act]").forEach((el) => { el.disabled = closed || waiting || !comm; });
}
function send(act) {
  if (!comm || closed || waiting) { return false; }
  seq++;
  waiting = true;
  root.dataset.judgeWaiting = "1";
  setButtons();
  comm.send(cfg.in, JSON.stringify({ seq: seq, act: act, pair: root.dataset.judgePair || "" }));
  // The next card shows only once the kernel has the key on disk: say so when it does not answer.
  clearTimeout(late);
  late = setTimeout(() => {
    status.textContent = "no answer from the Go kernel: the last key is not confirmed. Re-run the cell: it resumes at the first pair the file does not grade.";
    root.dataset.judgeLate = "1";
  }, 5000);
  return true;
}
function apply(m) {
  const had = root.contains(document.activeElement);
  if (m.html !== undefined) { card.innerHTML = m.html; }
  root.dataset.judgePair = m.key || "";
  root.dataset.judgeJudged = String(m.judged);
  root.dataset.judgeSeq = String(m.seq);
  if (m.progress !== undefined) { progress.textContent = m.progress; }
  if (m.status !== undefined) { status.textContent = m.status; }
  root.querySelectorAll("[data-grade]").forEach((el) => { el.classList.toggle("rj-was", String(m.was) === el.dataset.grade); });
  waiting = false;
  clearTimeout(late);
  delete root.dataset.judgeWaiting;
  delete root.dataset.judgeLate;
  root.dataset.judgeState = m.closed ? "closed" : "live";
  if (m.closed) { closed = true; }
  setButtons();
  if (had || m.seq === 0) { root.focus({ preventScroll: true }); }
}
root.addEventListener("keydown", (e) => {
  if (e.ctrlKey || e.metaKey || e.altKey) { return; }
  const act = keys[e.key];
  if (!act) { return; }
  // JupyterLab binds 0, s, b, u... in command mode: the panel's keys stop here.
  e.stopPropagation();
  e.preventDefault();
  if (!e.repeat) { send(act); }
});
root.querySelectorAll("[data-act]").forEach((el) => {
  el.addEventListener("click", () => { send(el.dataset.act); });
});

let tries = 0;
(function connect() {
  if (globalThis.gonb_comm) {
    comm = globalThis.gonb_comm;
    comm.subscribe(cfg.out, (address, value) => {
      try { apply(JSON.parse(value)); } catch (e) { console.error("ranklab judge: bad message", e, value); }
    });
    waiting = true; // until the kernel's first screen
    comm.send(cfg.in, JSON.stringify({ seq: 0, act: "hello", pair: "" }));
    return;
  }
  if (++tries < 400) { setTimeout(connect, 50); return; }
  status.textContent = "not connected to the Go kernel: re-run the cell";
})();
