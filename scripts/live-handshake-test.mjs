// Deterministic browser test of the live panel's page script (live/panel.js) without Jupyter:
// headless Chromium, a bare page holding a panel-like fragment, and fake gonb_comm objects in
// place of GoNB's. Run by scripts/check-live.sh before the front-ends.
//
//   1. A first gonb_comm whose connection fails (GoNB's page script rejects when the kernel's
//      acknowledgement takes over 500 ms): the panel sends nothing through it.
//   2. GoNB installs a second one: the panel subscribes to it and says hello through it, with the
//      values of its controls, and repeats hello every second until the kernel answers.
//   3. The kernel's answer (through the subscription) makes the panel live; hello stops.
//   4. Keys on a control stay with it: neither a capture-phase listener on the document (Notebook
//      7) nor a bubbling one (JupyterLab) sees them, and ArrowRight still moves the slider.
// Environment: CHROMIUM (default /usr/bin/chromium).
import { chromium } from "playwright-core";
import { readFileSync } from "node:fs";

const panelJS = readFileSync(new URL("../live/panel.js", import.meta.url), "utf8");
let failures = 0;
function check(name, ok, detail) {
  console.log(`${ok ? "ok  " : "FAIL"} ${name}${detail ? " — " + detail : ""}`);
  if (!ok) failures++;
}

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"],
});
try {
  const page = await browser.newPage();
  await page.setContent(`<!doctype html><body>
    <div id="p" class="ranklab-live" data-live-panel data-live-state="connecting">
      <span data-live-status></span>
      <input type="range" data-field="k" min="1" max="30" step="1" value="5"><output data-value-of="k">5</output>
      <div data-live-linkbox hidden><input data-live-link></div><div data-live-csv></div>
    </div></body>`);
  await page.evaluate(() => {
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
    window.gonb_comm = window.fakeComm("A", false, 200);
  });
  await page.addScriptTag({ content: `(function(cfg){${panelJS}})({"id":"p","in":"/in","out":"/out"});` });
  await page.waitForTimeout(600); // A has failed
  await page.evaluate(() => { window.commA = window.gonb_comm; window.gonb_comm = window.fakeComm("B", true, 100); });
  await page.waitForTimeout(2500); // B connects; hello, then hello again a second later
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
} catch (e) {
  check("test ran to the end", false, e.stack || String(e));
} finally {
  await browser.close();
}
console.log(`live handshake test: ${failures} failed`);
process.exit(failures ? 1 : 0);
