// The judging panel's script (wrapped as function(cfg){...}; cfg = {id, in, out}).
// It reaches the kernel through connectComm (internal/panel/comm.js, placed before it), which
// follows GoNB's gonb_comm and says hello until the kernel answers. It sends one key at a time
// with the pair it was pressed on; the next card shows only when the kernel's reply arrives,
// which it sends after the judgment is on disk. Keys handled here never reach JupyterLab's
// shortcuts.
const root = document.getElementById(cfg.id);
if (!root) { return; }
const card = root.querySelector("[data-judge-card]");
const progress = root.querySelector("[data-judge-progress]");
const status = root.querySelector("[data-judge-status]");
let seq = 0, connected = false, waiting = true, closed = false, late = null; // waiting: for the kernel's first screen
const keys = { "0": "0", "1": "1", "2": "2", "3": "3", "s": "skip", "S": "skip", "b": "back", "B": "back",
  "ArrowLeft": "back", "u": "undo", "U": "undo" };

function setButtons() {
  root.querySelectorAll("[data-act]").forEach((el) => { el.disabled = closed || waiting || !connected; });
}
function send(act, note) {
  if (!connected || closed || waiting) { return false; }
  const msg = { seq: seq + 1, act: act, pair: root.dataset.judgePair || "" };
  if (note !== undefined) { msg.note = note; }
  if (!conn.send(cfg.in, JSON.stringify(msg))) { return false; }
  seq++;
  waiting = true;
  root.dataset.judgeWaiting = "1";
  setButtons();
  // The next card shows only once the kernel has the key on disk: say so when it does not answer.
  clearTimeout(late);
  late = setTimeout(() => {
    status.textContent = "no answer from the Go kernel: the last key is not confirmed. Re-run the cell: it resumes at the first pair the file does not grade.";
    root.dataset.judgeLate = "1";
  }, 5000);
  return true;
}
function apply(m) {
  // A reply to a repeated hello (seq 0) that arrives after a key was sent is older than the
  // screen the key will bring: drop it. The closing message (seq -1) always applies.
  if (m.seq >= 0 && m.seq < seq) { return; }
  connected = true;
  conn.answered();
  const had = root.contains(document.activeElement);
  if (m.html !== undefined) { card.innerHTML = m.html; delete root.dataset.judgeMark; }
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
  if (m.closed) { closed = true; conn.close(); }
  setButtons();
  if (had || m.seq === 0) { root.focus({ preventScroll: true }); }
}
// The notebooks bind 0, s, b, u... in command mode: JupyterLab on the document after the key
// bubbles up, Notebook 7 on the document in the capture phase, before the panel. One listener on
// window, which comes before both, hands a key pressed in a panel to that panel (judgeKey) and
// stops it there when it is one of the panel's keys.
// n and p move between the marked query terms of the document, in the page alone: the next
// one is scrolled into the middle of the text box and outlined (data-judge-mark: its index).
function jump(step) {
  const marks = card.querySelectorAll("[data-judge-doc] mark");
  if (marks.length === 0) { status.textContent = "no marked query term in this document"; return; }
  const cur = Number(root.dataset.judgeMark === undefined ? -1 : root.dataset.judgeMark);
  const next = ((cur + step) % marks.length + marks.length) % marks.length;
  marks.forEach((m) => m.classList.remove("rj-cur"));
  const m = marks[next];
  m.classList.add("rj-cur");
  const box = m.closest("[data-judge-doc]");
  box.scrollTop += m.getBoundingClientRect().top - box.getBoundingClientRect().top - box.clientHeight / 2;
  root.dataset.judgeMark = String(next);
  status.textContent = "marked term " + (next + 1) + " of " + marks.length + " (n: next, p: previous)";
}
// m puts the cursor in the note box; there Enter sends the note (on disk before the panel
// answers, as a grade) and Escape goes back to the keys; every other key types.
root.judgeKey = (e) => {
  if (e.ctrlKey || e.metaKey || e.altKey) { return false; }
  const note = card.querySelector("[data-judge-note]");
  if (e.target === note) {
    if (e.key === "Enter") { if (send("note", note.value)) { root.focus({ preventScroll: true }); } return true; }
    if (e.key === "Escape") { root.focus({ preventScroll: true }); return true; }
    e.stopPropagation(); // typing, not JupyterLab's shortcuts
    return false;
  }
  if (e.key === "m" && note) { note.focus(); return true; }
  if (e.key === "n" || e.key === "p") { jump(e.key === "n" ? 1 : -1); return true; }
  const act = keys[e.key];
  if (!act) { return false; }
  if (!e.repeat) { send(act); }
  return true;
};
if (!window.ranklabJudgeKeys) {
  window.ranklabJudgeKeys = true;
  window.addEventListener("keydown", (e) => {
    const p = e.target && e.target.closest && e.target.closest("[data-judge-panel]");
    if (p && p.judgeKey && p.judgeKey(e)) { e.stopPropagation(); e.preventDefault(); }
  }, true);
}
root.querySelectorAll("[data-act]").forEach((el) => {
  el.addEventListener("click", () => { send(el.dataset.act); });
});

const conn = connectComm({
  out: cfg.out,
  receive: (value) => {
    try { apply(JSON.parse(value)); } catch (e) { console.error("ranklab judge: bad message", e, value); }
  },
  hello: () => { conn.send(cfg.in, JSON.stringify({ seq: 0, act: "hello", pair: "" })); },
  status: status,
});

// When the panel's tab closes (pagehide), or its output leaves the page for good (the cell run
// again, the notebook closed: detached at two checks 5 s apart, so a cell the notebook detaches
// for a moment does not count), it says bye and the cell program ends instead of holding the
// kernel until its idle timer (Run All would wait behind it without a word).
let detached = 0;
const watch = setInterval(() => {
  if (closed) { clearInterval(watch); return; }
  detached = document.contains(root) ? 0 : detached + 1;
  if (detached >= 2) {
    clearInterval(watch);
    conn.send(cfg.in, JSON.stringify({ seq: 0, act: "bye", pair: "" }));
  }
}, 5000);
window.addEventListener("pagehide", () => {
  if (!closed) { conn.send(cfg.in, JSON.stringify({ seq: 0, act: "bye", pair: "" })); }
});
