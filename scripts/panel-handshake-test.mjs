// Deterministic browser test of the panels' page scripts (live/panel.js and judge/panel.js, each
// after internal/panel/comm.js as package panel's Script places them) without Jupyter: headless
// Chromium, a bare page holding a panel-like fragment, and fake gonb_comm objects in place of
// GoNB's. Run by scripts/check-live.sh before the front-ends.
//
// The live panel:
//   1. A first gonb_comm whose connection fails (GoNB's page script rejects when the kernel's
//      acknowledgement takes over 500 ms): the panel sends nothing through it.
//   2. GoNB installs a second one: the panel subscribes to it and says hello through it, with the
//      values of its controls, and repeats hello every second until the kernel answers.
//   3. The kernel's answer (through the subscription) makes the panel live; hello stops.
//   4. Keys on a control stay with it: neither a capture-phase listener on the document (Notebook
//      7) nor a bubbling one (JupyterLab) sees them, and ArrowRight still moves the slider.
// The judging panel, the same handshake (1-3), then: a key goes through the working gonb_comm
// with the pair on screen, a late reply to a repeated hello does not end the wait for the key's
// screen, the key's reply does, and the key reaches neither document listener.
// Environment: CHROMIUM (default /usr/bin/chromium).
import { chromium } from "playwright-core";
import { readFileSync } from "node:fs";

const read = (f) => readFileSync(new URL("../" + f, import.meta.url), "utf8");
const commJS = read("internal/panel/comm.js");
// script is what panel.Script writes inside <script>: the panel's script after connectComm.
const script = (body, cfg) => `(function(cfg){${commJS}\n${body}})(${JSON.stringify(cfg)});`;
let failures = 0;
function check(name, ok, detail) {
  console.log(`${ok ? "ok  " : "FAIL"} ${name}${detail ? " — " + detail : ""}`);
  if (!ok) failures++;
}

// setUp installs fakeComm and two document listeners that record the keys they see.
function setUp() {
  // fakeComm stands for GoNB's gonb_comm: its connection resolves or fails after ms.
  window.fakeComm = (name, ok, ms) => {
    const c = { name, sent: [], subs: {} };
    c._is_connected = new Promise((res, rej) => setTimeout(() => (ok ? res(null) : rej(new Error("comm_open_ack not received in time"))), ms));
    c._is_connected.catch(() => {}); // GoNB's own rejection is not the panel's to report
    c.subscribe = (addr, fn) => { c.subs[addr] = fn; return Symbol(addr); };
    c.send = (addr, value) => { c.sent.push({ addr, value: JSON.parse(value) }); };
    return c;
  };
  window.docCapture = [];
  window.docBubble = [];
  document.addEventListener("keydown", (e) => { window.docCapture.push(e.key); e.preventDefault(); }, true);
  document.addEventListener("keydown", (e) => { window.docBubble.push(e.key); e.preventDefault(); });
}

// connectThroughFailure opens a page holding body, installs a gonb_comm A whose connection
// fails after 200 ms, runs the panel's script (file, after connectComm) with cfg, and once A has
// failed installs B, which connects after 100 ms. It returns the page 2.5 s later (B connected,
// hello, then hello again a second later), with A in window.commA.
async function connectThroughFailure(body, file, cfg) {
  const page = await browser.newPage();
  await page.setContent(`<!doctype html><body>${body}</body>`);
  await page.evaluate(setUp);
  await page.evaluate(() => { window.gonb_comm = window.fakeComm("A", false, 200); });
  await page.addScriptTag({ content: script(read(file), cfg) });
  await page.waitForTimeout(600); // A has failed
  await page.evaluate(() => { window.commA = window.gonb_comm; window.gonb_comm = window.fakeComm("B", true, 100); });
  await page.waitForTimeout(2500);
  return page;
}

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"],
});
try {
  const page = await connectThroughFailure(`
    <div id="p" class="ranklab-live" data-live-panel data-live-state="connecting">
      <span data-live-status></span>
      <input type="range" data-field="k" min="1" max="30" step="1" value="5"><output data-value-of="k">5</output>
      <div data-live-linkbox hidden><input data-live-link></div><div data-live-csv></div>
    </div>`, "live/panel.js", { id: "p", in: "/in", out: "/out" });
  const r = await page.evaluate(() => {
    const a = window.commA, b = window.gonb_comm;
    return { aSent: a.sent.length, aSub: "/out" in a.subs, bSub: "/out" in b.subs, bHellos: b.sent.filter((m) => m.value.event === "hello"),
      state: document.getElementById("p").dataset.liveState };
  });
  check("nothing is sent through a gonb_comm whose connection failed", r.aSent === 0 && r.aSub, `sent ${r.aSent}, subscribed ${r.aSub}`);
  check("the panel follows the new gonb_comm and says hello with its values", r.bSub && r.bHellos.length >= 1 &&
    r.bHellos.every((m) => m.addr === "/in" && m.value.values.k === 5 && m.value.seq > 0), JSON.stringify(r.bHellos.map((m) => m.value)));
  check("hello is repeated until the kernel answers", r.bHellos.length >= 2 && r.state === "connecting", `${r.bHellos.length} hellos, state ${r.state}`);

  // the kernel answers
  await page.evaluate(() => {
    const b = window.gonb_comm;
    b.subs["/out"]("/out", JSON.stringify({ seq: b.sent[b.sent.length - 1].value.seq, values: { k: 5 }, min: { k: 1 }, max: { k: 30 }, zero: {}, link: "k=5", notes: {}, status: "live" }));
    window.hellosAtAnswer = b.sent.filter((m) => m.value.event === "hello").length;
  });
  await page.waitForTimeout(2200);
  const r2 = await page.evaluate(() => ({ state: document.getElementById("p").dataset.liveState,
    hellos: window.gonb_comm.sent.filter((m) => m.value.event === "hello").length, at: window.hellosAtAnswer }));
  check("the kernel's answer makes the panel live and ends hello", r2.state === "live" && r2.hellos === r2.at, `state ${r2.state}, hellos ${r2.at} -> ${r2.hellos}`);

  // keys stay on the slider
  await page.focus('[data-field="k"]');
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("ArrowRight");
  await page.waitForTimeout(300);
  const r3 = await page.evaluate(() => ({ value: document.querySelector('[data-field="k"]').value, capture: window.docCapture, bubble: window.docBubble,
    inputs: window.gonb_comm.sent.filter((m) => m.value.event === "input").map((m) => m.value.values.k) }));
  check("ArrowRight moves the focused slider and reaches neither document listener", r3.value === "7" && r3.capture.length === 0 && r3.bubble.length === 0 &&
    r3.inputs.join(",") === "6,7", `value ${r3.value}, document saw capture [${r3.capture}] bubble [${r3.bubble}], sent k ${r3.inputs}`);
  // a shortcut with Ctrl still reaches the notebook
  await page.keyboard.press("Control+s");
  const r4 = await page.evaluate(() => window.docCapture);
  check("Ctrl-S still reaches the notebook", r4.includes("s"), `document saw [${r4}]`);

  // The judging panel.
  const jp = await connectThroughFailure(`
    <div id="j" tabindex="0" data-judge-panel data-judge-state="connecting" data-judge-pair="1\t184">
      <span data-judge-progress></span><div data-judge-card></div>
      <button data-act="2" data-grade="2" disabled>2</button>
      <div data-judge-status></div>
    </div>`, "judge/panel.js", { id: "j", in: "/jin", out: "/jout" });
  const j1 = await jp.evaluate(() => {
    const a = window.commA, b = window.gonb_comm;
    return { aSent: a.sent.length, bSub: "/jout" in b.subs, hellos: b.sent.filter((m) => m.value.act === "hello"),
      state: document.getElementById("j").dataset.judgeState, button: document.querySelector("#j [data-act]").disabled };
  });
  check("judge: nothing is sent through a gonb_comm whose connection failed", j1.aSent === 0, `sent ${j1.aSent}`);
  check("judge: it follows the new gonb_comm and repeats hello until the kernel answers, keys off meanwhile",
    j1.bSub && j1.hellos.length >= 2 && j1.hellos.every((m) => m.addr === "/jin" && m.value.seq === 0) && j1.state === "connecting" && j1.button,
    `${j1.hellos.length} hellos ${JSON.stringify(j1.hellos.map((m) => m.value))}, state ${j1.state}, buttons disabled ${j1.button}`);
  // the kernel's first screen (the reply to hello, seq 0)
  const screen = (seq, key, judged) => JSON.stringify({ seq, key, html: `<p>${key}</p>`, progress: `${judged} of 2 judged`, judged, was: -1, status: "keys" });
  await jp.evaluate((m) => { const b = window.gonb_comm; b.subs["/jout"]("/jout", m); window.hellosAtAnswer = b.sent.length; }, screen(0, "1\t184", 0));
  await jp.waitForTimeout(1500);
  const j2 = await jp.evaluate(() => ({ state: document.getElementById("j").dataset.judgeState, sent: window.gonb_comm.sent.length, at: window.hellosAtAnswer,
    button: document.querySelector("#j [data-act]").disabled }));
  check("judge: the kernel's first screen makes the panel live and ends hello", j2.state === "live" && j2.sent === j2.at && !j2.button,
    `state ${j2.state}, messages ${j2.at} -> ${j2.sent}, buttons disabled ${j2.button}`);
  // a key: sent with the pair on screen; a late reply to a repeated hello does not end the wait
  await jp.focus("#j");
  await jp.keyboard.press("2");
  await jp.waitForTimeout(100);
  const j3 = await jp.evaluate(() => ({ last: window.gonb_comm.sent[window.gonb_comm.sent.length - 1].value, waiting: document.getElementById("j").dataset.judgeWaiting,
    capture: window.docCapture, bubble: window.docBubble }));
  check("judge: key 2 goes through the working gonb_comm with the pair on screen, and reaches neither document listener",
    j3.last.seq === 1 && j3.last.act === "2" && j3.last.pair === "1\t184" && j3.waiting === "1" && j3.capture.length === 0 && j3.bubble.length === 0,
    `${JSON.stringify(j3.last)}, waiting ${j3.waiting}, document saw capture [${j3.capture}] bubble [${j3.bubble}]`);
  await jp.evaluate((m) => { window.gonb_comm.subs["/jout"]("/jout", m); }, screen(0, "1\t184", 0));
  const j4 = await jp.evaluate(() => document.getElementById("j").dataset.judgeWaiting);
  await jp.evaluate((m) => { window.gonb_comm.subs["/jout"]("/jout", m); }, screen(1, "1\t29", 1));
  const j5 = await jp.evaluate(() => { const e = document.getElementById("j"); return { waiting: e.dataset.judgeWaiting, pair: e.dataset.judgePair, seq: e.dataset.judgeSeq }; });
  check("judge: a late hello reply leaves the key waiting; the key's reply shows the next pair", j4 === "1" && j5.waiting === undefined && j5.pair === "1\t29" && j5.seq === "1",
    `after the hello reply waiting ${j4}; after the key's reply waiting ${j5.waiting}, pair ${JSON.stringify(j5.pair)}, seq ${j5.seq}`);
} catch (e) {
  check("test ran to the end", false, e.stack || String(e));
} finally {
  await browser.close();
}
console.log(`panel handshake test: ${failures} failed`);
process.exit(failures ? 1 : 0);
