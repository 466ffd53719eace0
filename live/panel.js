// The live panel's script (wrapped as function(cfg){...}; cfg = {id, in, out}).
// It reaches the kernel through connectComm (internal/panel/comm.js, placed before it), which
// follows GoNB's gonb_comm and says hello until the kernel answers. It sends the whole panel on
// every move and button, re-sends ("settle") 150 ms after the last move, and applies what the
// kernel sends back. Keys pressed on its controls stay with them (JupyterLab's notebook
// shortcuts would otherwise take arrows, Page Up/Down, Home and End).
const root = document.getElementById(cfg.id);
if (!root) { return; }
const status = root.querySelector("[data-live-status]");
const controls = Array.from(root.querySelectorAll("[data-field]"));
const byName = {};
controls.forEach((el) => { byName[el.dataset.field] = el; });
let seq = 0, settleTimer = null, closed = false;
root.liveLatency = [];
const sentAt = {};

// A slider with data-zero-at offers 0 too: that position (just below its least non-zero value)
// stands for 0, so every position is a valid value.
function valueOf(el) {
  const v = parseInt(el.value, 10);
  if (el.dataset.zeroAt !== undefined && v === parseInt(el.dataset.zeroAt, 10)) { return 0; }
  return v;
}
function positionOf(el, v) {
  if (v === 0 && el.dataset.zeroAt !== undefined) { return parseInt(el.dataset.zeroAt, 10); }
  return v;
}
function show(el) {
  const out = root.querySelector('[data-value-of="' + el.dataset.field + '"]');
  if (out) { out.textContent = String(valueOf(el)); }
}
function values() {
  const v = {};
  controls.forEach((el) => { v[el.dataset.field] = valueOf(el); });
  return v;
}
function send(event) {
  // Only through a gonb_comm whose connection to the kernel is made: connectComm drops what
  // would go through one that failed (hello is repeated, and every message carries the whole panel).
  if (closed) { return; }
  if (conn.send(cfg.in, JSON.stringify({seq: seq + 1, event: event, values: values()}))) {
    seq++;
    sentAt[seq] = performance.now();
    root.dataset.liveSeq = String(seq);
  }
}
function keepOverlap() {
  // Overlap stays below the chunk size: the slider's maximum follows the chunk (a range input
  // clamps its value to a lowered maximum by itself).
  const chunk = byName["chunk"], overlap = byName["overlap"];
  if (chunk && overlap) {
    const c = parseInt(chunk.value, 10);
    if (c >= 1) { overlap.max = String(c - 1); show(overlap); }
  }
}
function apply(m) {
  // The slider spans follow the state (e.g. total's least value follows the grade). A slider
  // keeps the value it shows across a new span: its position is recomputed from the value.
  if (m.min && m.max) {
    for (const [k, lo] of Object.entries(m.min)) {
      const el = byName[k];
      if (!el || m.max[k] === undefined) { continue; }
      let shown = valueOf(el);
      el.min = String(lo);
      el.max = String(m.max[k]);
      if (m.zero && m.zero[k] !== undefined) { el.dataset.zeroAt = String(m.zero[k]); } else { delete el.dataset.zeroAt; }
      // A value the new span cannot hold (total 3 once grade 1 finds 5 relevant items) would be
      // clamped by the browser to the span's end, which may stand for 0, and the next message
      // would send that 0: take the kernel's value for it instead, even from an older reply.
      const fits = shown === 0 ? el.dataset.zeroAt !== undefined || lo <= 0 : shown >= lo && shown <= m.max[k];
      if (!fits && m.values && m.values[k] !== undefined) { shown = m.values[k]; }
      el.value = String(positionOf(el, shown));
      show(el);
    }
  }
  if (m.values && m.seq >= seq) {
    // Only when the page sent nothing newer: otherwise the user has moved on.
    for (const [k, v] of Object.entries(m.values)) {
      const el = byName[k];
      if (el && valueOf(el) !== v) { el.value = String(positionOf(el, v)); }
      if (el) { show(el); }
    }
  }
  if (m.notes) {
    for (const [k, text] of Object.entries(m.notes)) {
      const n = root.querySelector('[data-zero-note="' + k + '"]');
      if (n) { n.textContent = text; }
    }
  }
  if (m.link !== undefined) {
    root.dataset.link = m.link;
    const box = root.querySelector("input[data-live-link]");
    if (box) { box.value = m.link; }
  }
  if (m.csv) {
    // The file is written beside the notebook; its URL depends on the front-end (JupyterLab,
    // Notebook 7, classic, a base URL), so the link downloads the content the kernel sent.
    const d = root.querySelector("[data-live-csv]");
    d.textContent = "";
    const a = document.createElement("a");
    if (root.csvURL) { URL.revokeObjectURL(root.csvURL); }
    root.csvURL = URL.createObjectURL(new Blob([m.csv_data || ""], {type: "text/csv"}));
    a.href = root.csvURL; a.download = m.csv; a.textContent = m.csv; a.dataset.liveCsvLink = "";
    d.append("Exported ", a, " (saved beside the notebook; click to download)");
  }
  if (m.status !== undefined) { status.textContent = m.status; }
  if (m.seq && sentAt[m.seq]) {
    root.liveLatency.push(performance.now() - sentAt[m.seq]);
    delete sentAt[m.seq];
  }
  conn.answered();
  root.dataset.liveApplied = String(m.seq);
  root.dataset.liveState = m.closed ? "closed" : "live";
  if (m.closed) {
    closed = true;
    conn.close();
    controls.forEach((el) => { el.disabled = true; });
    root.querySelectorAll("[data-action]").forEach((el) => { el.disabled = true; });
  }
}
function copyLink() {
  const link = root.dataset.link || "";
  const boxWrap = root.querySelector("[data-live-linkbox]");
  const box = root.querySelector("input[data-live-link]");
  const note = root.querySelector("[data-live-copied]");
  boxWrap.hidden = false;
  box.value = link;
  const fallback = () => {
    box.select();
    let ok = false;
    try { ok = document.execCommand("copy"); } catch (e) { ok = false; }
    note.textContent = ok ? "copied" : "select and copy it (the browser refused the clipboard)";
  };
  if (navigator.clipboard && navigator.clipboard.writeText) {
    navigator.clipboard.writeText(link).then(() => { note.textContent = "copied"; }, fallback);
  } else { fallback(); }
}

controls.forEach((el) => {
  el.addEventListener("input", () => {
    if (el.dataset.field === "chunk") { keepOverlap(); }
    show(el);
    send("input");
    clearTimeout(settleTimer);
    settleTimer = setTimeout(() => send("settle"), 150);
  });
  el.addEventListener("change", () => { show(el); send("change"); });
});
root.querySelectorAll("[data-action]").forEach((el) => {
  el.addEventListener("click", () => {
    if (el.dataset.action === "copy") { copyLink(); }
    send(el.dataset.action);
  });
});

// Keys on a control move it (or type into it), not the notebook. JupyterLab handles keydown on
// the document after it bubbles up (and cancels arrows and Page Up/Down in outputs): the panel
// stops it first. Notebook 7 handles it on the document in the capture phase, before the panel:
// one listener on window, which comes first, stops it there for every panel's controls.
const ownKey = (e) => !(e.ctrlKey || e.metaKey || e.altKey || e.key === "Escape" || (e.key === "Enter" && e.shiftKey));
root.addEventListener("keydown", (e) => {
  if (ownKey(e) && e.target && e.target.closest && e.target.closest("input,button")) { e.stopPropagation(); }
});
if (!window.ranklabLiveKeys) {
  window.ranklabLiveKeys = true;
  window.addEventListener("keydown", (e) => {
    const t = e.target;
    if (ownKey(e) && t && t.closest && t.closest(".ranklab-live input, .ranklab-live button")) { e.stopPropagation(); }
  }, true);
}

const conn = connectComm({
  out: cfg.out,
  receive: (value) => {
    try { apply(JSON.parse(value)); } catch (e) { console.error("ranklab live: bad message", e, value); }
  },
  hello: () => send("hello"),
  status: status,
});
