// Browser test of the judging panel (package judge) in JupyterLab, Notebook 7 or the classic
// Notebook (FRONTEND), run by scripts/check-judge.sh.
//
// Opens the test notebook, runs all cells and judges by keyboard: pairs 1-3, undo (u) and a new
// grade for pair 3, ← and s, pairs 4-5; then SIGKILLs the GoNB kernel and the panel's cell program (no
// clean-up of any kind runs) and reads the judgments file from disk: the 5 grades must be there.
// It re-runs the notebook, which must resume at pair 6 (the next pool pair not in the file),
// b and s, judges 6-10 (with 0 0, JupyterLab's restart shortcut), and checks the file (one line per pair, the latest grade: what eval reads), the
// side log, the panel's progress and the pair it shows next (11). Then it closes the tab, opens
// the notebook again, interrupts the kernel and re-runs: the panel resumes at pair 11. Screenshots of the panel in
// the light and the dark theme (the classic Notebook has one theme). Expected grades are the keys this script pressed; the pairs are
// the pool file's lines. Writes screenshots and summary.json to OUT.
//
// Environment: FRONTEND (lab, notebook7 or classic; default lab), BASE, TOKEN, NOTEBOOK, OUT, SERVER_PID, RANKLAB_JUDGE_POOL, RANKLAB_JUDGE_QRELS,
// CHROMIUM (default /usr/bin/chromium).
import { chromium } from "playwright-core";
import { writeFileSync, mkdirSync, readFileSync, existsSync } from "node:fs";
import { frontEnd, gonbProcesses } from "./jupyter-page.mjs";

const { BASE, TOKEN = "", NOTEBOOK, OUT = "ci-artifacts/judge", FRONTEND = "lab" } = process.env;
const SERVER_PID = Number(process.env.SERVER_PID || 0);
const POOL = process.env.RANKLAB_JUDGE_POOL, QRELS = process.env.RANKLAB_JUDGE_QRELS;
mkdirSync(OUT, { recursive: true });
const t0 = Date.now();
const summary = { checks: [], console_errors: [] };
let failures = 0;
function check(name, ok, detail) {
  summary.checks.push({ name, ok, detail });
  console.log(`${ok ? "ok  " : "FAIL"} ${name}${detail ? " — " + detail : ""}`);
  if (!ok) failures++;
}
const pool = readFileSync(POOL, "utf8").trim().split("\n").map((l) => { const f = l.split(/\s+/); return `${f[0]}\t${f[2]}`; });
// The judgments file as every TREC tool reads it: "query 0 doc grade", one line per pair.
function onDisk() {
  if (!existsSync(QRELS)) return { lines: 0, grades: {}, dup: false };
  const grades = {};
  let dup = false, lines = 0;
  for (const l of readFileSync(QRELS, "utf8").split("\n")) {
    if (!l.trim()) continue;
    lines++;
    const f = l.split(/\s+/);
    const k = `${f[0]}\t${f[2]}`;
    if (k in grades) dup = true;
    grades[k] = Number(f[3]);
  }
  return { lines, grades, dup };
}
// The GoNB kernel under our server, and its cell programs.
function kernelAndCells() {
  const g = gonbProcesses(SERVER_PID);
  return { kernels: g.kernels.map((p) => p.pid), cells: g.cells.map((p) => p.pid) };
}

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
const noise = [/Comm promise not found/, /404 \(Not Found\)/, /gonb_comm already running/, /WebSocket/, /Kernel/i];
let page, fe;
async function openPage() {
  page = await context.newPage();
  page.on("console", (m) => { if (m.type() === "error" && !noise.some((r) => r.test(m.text()))) summary.console_errors.push(m.text()); });
  page.on("pageerror", (e) => summary.console_errors.push("pageerror: " + e.message));
  fe = frontEnd(page, { frontend: FRONTEND, base: BASE, token: TOKEN, notebook: NOTEBOOK });
  await page.goto(fe.url(), { waitUntil: "domcontentloaded" });
}

const ready = () => fe.ready();
const runAll = () => fe.runAll();
// panel(): the last panel's state.
const panel = () => page.evaluate(() => {
  const p = document.querySelectorAll("[data-judge-panel]");
  const e = p[p.length - 1];
  if (!e) return null;
  return { state: e.dataset.judgeState, reason: e.dataset.judgeReason || "", pair: e.dataset.judgePair, judged: Number(e.dataset.judgeJudged),
    waiting: e.dataset.judgeWaiting === "1", progress: (e.querySelector("[data-judge-progress]") || {}).textContent,
    doc: (e.querySelector("[data-judge-doc]") || {}).dataset?.judgeDoc, status: (e.querySelector("[data-judge-status]") || {}).textContent };
});
// GoNB's page script gives the kernel 500 ms to acknowledge its comm (v0.11.5); on a loaded
// machine that fails and the panel falls back to its static view: re-run once, as a user would
// (counted in summary.comm_retries).
summary.comm_retries = 0;
const retriedStatus = []; // the status lines of panels that fell back before a re-run
// lastId is the DOM id of the last panel (each run of the cell has its own).
const lastId = () => page.evaluate(() => { const p = document.querySelectorAll("[data-judge-panel]"); return p.length ? p[p.length - 1].id : ""; });
// waitLive waits for a panel other than the one with DOM id old to be live.
async function waitLive(old, timeout = 180000, retry = true) {
  const h = await page.waitForFunction((old) => {
    const p = document.querySelectorAll("[data-judge-panel]");
    const e = p[p.length - 1];
    if (!e || e.id === old || !e.id) return null;
    if (e.dataset.judgeState === "live" && e.dataset.judgeWaiting !== "1") return "live";
    if (e.dataset.judgeState === "static") return "static";
    return null;
  }, old, { timeout, polling: 100 });
  const s = await h.jsonValue();
  if (s !== "live" && retry) {
    summary.comm_retries++;
    console.log("note: the panel did not connect (GoNB's comm), re-running the notebook once");
    // What the static panel said (a lock it took over, say) goes with it when the cell runs again.
    retriedStatus.push(...await page.evaluate(() => {
      const p = document.querySelectorAll("[data-judge-panel]");
      return [...p[p.length - 1].querySelectorAll("[data-judge-status]")].map((e) => e.textContent);
    }));
    const id = await lastId();
    await ready();
    await runAll();
    return waitLive(id, timeout, false);
  }
  if (s !== "live") throw new Error(`the panel is ${s}, not live`);
  await page.locator("[data-judge-panel]").last().focus();
}
const dismissDialogs = () => fe.dismissDialogs();
// press sends one key to the focused panel and waits for the kernel's next screen.
async function press(key) {
  const before = await panel();
  const seq0 = await page.evaluate(() => { const p = document.querySelectorAll("[data-judge-panel]"); return Number(p[p.length - 1].dataset.judgeSeq || 0); });
  const tk = Date.now();
  await page.keyboard.press(key);
  await page.waitForFunction((seq0) => {
    const p = document.querySelectorAll("[data-judge-panel]");
    const e = p[p.length - 1];
    return Number(e.dataset.judgeSeq || 0) > seq0 && e.dataset.judgeWaiting !== "1";
  }, seq0, { timeout: 15000, polling: 20 });
  summary.key_ms = summary.key_ms || [];
  summary.key_ms.push(Date.now() - tk);
  return { before, after: await panel() };
}
async function shot(name) {
  const box = await page.evaluate(() => {
    const p = document.querySelectorAll("[data-judge-panel]");
    const e = p[p.length - 1];
    e.scrollIntoView({ block: "center" });
    const r = e.getBoundingClientRect();
    return { x: Math.max(0, r.left - 8), y: Math.max(0, r.top - 8), width: Math.min(r.width + 16, 1270), height: r.height + 16 };
  });
  await page.screenshot({ path: `${OUT}/${name}.png`, clip: box }).catch((e) => console.log(`screenshot ${name}: ${e.message}`));
}

// SCENARIO=long-empty (check-judge.sh's second stage, JupyterLab only): a pool of a long
// document (about 27,000 words) and an empty one. The card must give the long one's length and
// marked terms, n must move to the next marked term inside the text box, m must take a note that
// is on disk before the panel answers, the empty one must show its notice; screenshots of both
// in the light and the dark theme. Last the tab closes: the page says bye and the panel's cell
// program must end within seconds (it no longer holds the kernel until its idle timer).
async function longEmpty() {
  // scrollTo brings the panel's cell (or the notebook's last cell) into view and makes it the
  // active cell; it returns the cell's index. Run All ends at the last cell, so with windowing
  // 'full' the panel starts out of view, as it would for a user.
  const scrollTo = (last) => page.evaluate((last) => {
    const nb = window.jupyterapp.shell.currentWidget.content;
    const i = last ? nb.widgets.length - 1 : nb.widgets.findIndex((c) => c.model.sharedModel.getSource().includes("judge.Show"));
    nb.activeCellIndex = i;
    return nb.scrollToItem(i, "start").then(() => i);
  }, last);
  await openPage();
  await ready();
  await runAll();
  await waitLive("");
  await scrollTo(false);
  await page.waitForTimeout(500);
  await page.locator("[data-judge-panel]").last().focus();
  let s = await panel();
  const card = () => page.evaluate(() => {
    const p = document.querySelectorAll("[data-judge-panel]");
    const e = p[p.length - 1];
    const len = e.querySelector("[data-judge-length]"), box = e.querySelector("[data-judge-doc]"), cur = e.querySelector("mark.rj-cur");
    let curVisible = false;
    if (cur && box) { const a = cur.getBoundingClientRect(), b = box.getBoundingClientRect(); curVisible = a.top >= b.top && a.bottom <= b.bottom; }
    return { words: len ? Number(len.dataset.judgeLength) : -1, marks: len ? Number(len.dataset.judgeMarks) : -1, lenText: len ? len.textContent : "",
      empty: !!e.querySelector("[data-judge-empty]"), emptyText: (e.querySelector("[data-judge-empty]") || {}).textContent || "",
      scrollTop: box ? box.scrollTop : 0, boxHeight: box ? box.clientHeight : 0, curIndex: e.dataset.judgeMark, curVisible,
      status: (e.querySelector("[data-judge-status]") || {}).textContent };
  });
  let c = await card();
  check("long document: the card gives its length and its marked terms", s.pair === pool[0] && c.words > 20000 && c.marks > 2 && /words · .* marked query terms/.test(c.lenText),
    `${c.lenText} (text box ${c.boxHeight} px)`);
  await shot("long-light");
  await page.keyboard.press("n");
  await page.keyboard.press("n");
  await page.keyboard.press("n");
  await page.waitForTimeout(300);
  c = await card();
  check("n jumps to the next marked term inside the text box", c.curIndex === "2" && c.curVisible && c.scrollTop > 0 && /marked term 3 of/.test(c.status),
    `mark ${c.curIndex}, visible ${c.curVisible}, scrollTop ${c.scrollTop}; ${c.status}`);
  await shot("long-light-jumped");
  // m: a note, on disk when the panel answers.
  await page.keyboard.press("m");
  await page.keyboard.type("long: only the third section is on topic");
  const seq0 = await page.evaluate(() => { const p = document.querySelectorAll("[data-judge-panel]"); return Number(p[p.length - 1].dataset.judgeSeq || 0); });
  await page.keyboard.press("Enter");
  await page.waitForFunction((seq0) => { const p = document.querySelectorAll("[data-judge-panel]"); return Number(p[p.length - 1].dataset.judgeSeq || 0) > seq0; }, seq0, { timeout: 15000 });
  const notes = existsSync(QRELS + ".notes.jsonl") ? readFileSync(QRELS + ".notes.jsonl", "utf8") : "";
  s = await panel();
  check("m takes a note, on disk before the panel answers; the pair stays on screen", notes.includes("only the third section is on topic") && s.pair === pool[0],
    `${notes.trim().split("\n").length} note line(s); ${s.status}`);
  let r = await press("1");
  c = await card();
  check("empty document: a notice, not a blank card", r.after.pair === pool[1] && c.empty && c.words === -1 && /empty/.test(c.emptyText), c.emptyText);
  await shot("empty-light");
  await page.evaluate(() => window.jupyterapp.commands.execute("apputils:change-theme", { theme: "JupyterLab Dark" }));
  await page.waitForFunction(() => document.body.getAttribute("data-jp-theme-light") === "false", null, { timeout: 30000, polling: 200 });
  await page.waitForTimeout(500);
  await shot("empty-dark");
  await press("b");
  await page.locator("[data-judge-panel]").last().focus();
  await page.keyboard.press("n");
  await page.waitForTimeout(300);
  await shot("long-dark");
  await page.evaluate(() => window.jupyterapp.commands.execute("apputils:change-theme", { theme: "JupyterLab Light" }));
  // Scrolled out of view and back (check-judge.sh sets windowingMode 'full': JupyterLab 4.6 hides
  // a cell out of view, display none, and keeps it in the page): 12 s away, longer than the two
  // checks 5 s apart after which a panel whose output left the page says bye, then a key must
  // still get the kernel's answer.
  const panelCell = await scrollTo(false);
  await scrollTo(true);
  const away = [];
  for (let i = 0; i < 12; i++) {
    await page.waitForTimeout(1000);
    away.push(await page.evaluate(() => {
      const p = document.querySelectorAll("[data-judge-panel]");
      const e = p[p.length - 1];
      return !e ? "gone" : e.getBoundingClientRect().height === 0 ? "hidden" : "shown";
    }));
  }
  await scrollTo(false);
  await page.waitForTimeout(500);
  await page.locator("[data-judge-panel]").last().focus();
  let after;
  try {
    after = (await press("s")).after;
  } catch (e) { // the panel said bye while out of view: its loop ended and nothing answers
    after = await panel();
    after.status = "no answer to s (" + after.status + ")";
  }
  const mode = await page.evaluate(() => window.jupyterapp.shell.currentWidget.content.notebookConfig.windowingMode);
  check("scrolled out of view for 12 s and back (windowingMode full): the panel is still live and answers a key",
    mode === "full" && away.includes("hidden") && after.state === "live" && /skipped/.test(after.status),
    `windowing ${mode}, panel cell ${panelCell}; away: ${[...new Set(away)].join(", ")}; after s: ${after.state} · ${after.status}`);
  // Close the tab: the page says bye, the cell program ends and the lock goes.
  const before = kernelAndCells();
  const tClose = Date.now();
  await page.close();
  let gone = false;
  for (let i = 0; i < 100 && !gone; i++) {
    await new Promise((ok) => setTimeout(ok, 200));
    const now = kernelAndCells();
    gone = before.cells.length > 0 && before.cells.every((pid) => !now.cells.includes(pid)) && !existsSync(QRELS + ".lock");
  }
  check("closing the tab ends the panel's cell program and frees the lock (it no longer holds the kernel)", gone,
    `${before.cells.length} cell program(s); ${gone ? ((Date.now() - tClose) / 1000).toFixed(1) + " s after the tab closed" : "still running after 20 s"}`);
}

const grades = {}; // what this script pressed, pair -> grade
if (process.env.SCENARIO === "long-empty") {
  try {
    await longEmpty();
  } catch (e) {
    check("test ran to the end", false, e.stack || String(e));
    await page.screenshot({ path: `${OUT}/error.png`, fullPage: true }).catch(() => {});
  }
} else try {
  await openPage();
  await ready();
  let tRun = Date.now();
  await runAll();
  await waitLive("");
  summary.run_to_live_s = (Date.now() - tRun) / 1000;
  let s = await panel();
  check("panel live at pair 1 of the pool", s.pair === pool[0], `${s.pair.replace("\t", " ")} · ${s.progress} (${summary.run_to_live_s} s after Run All)`);
  await shot("light");

  const keys = ["2", "0", "3"];
  for (let i = 0; i < 3; i++) {
    const r = await press(keys[i]);
    grades[r.before.pair] = Number(keys[i]);
  }
  let r = await press("u");
  check("u (undo) shows pair 3 again with its grade withdrawn", r.after.pair === pool[2] && r.after.judged === 2, `${r.after.pair} judged ${r.after.judged}`);
  delete grades[pool[2]];
  r = await press("1");
  grades[r.before.pair] = 1;
  // b/← shows pair 3 (looked at, not changed), s moves on to pair 4 again
  r = await press("ArrowLeft");
  const backOK = r.after.pair === pool[2];
  r = await press("s");
  check("← shows the previous pair, s returns to the next pending one", backOK && r.after.pair === pool[3], `${r.after.pair}`);
  for (const k of ["3", "2"]) { r = await press(k); grades[r.before.pair] = Number(k); }
  s = await panel();
  check("5 judged by keyboard, the panel at pair 6", s.judged === 5 && s.pair === pool[5], `${s.progress} · next ${s.pair}`);

  // Kill: SIGKILL the cell program and the kernel (nothing gets to clean up).
  const kc = kernelAndCells();
  summary.killed = kc;
  for (const pid of [...kc.cells, ...kc.kernels]) { try { process.kill(pid, "SIGKILL"); } catch (e) { /* gone */ } }
  const d = onDisk();
  const want5 = Object.entries(grades);
  const all5 = want5.every(([k, g]) => d.grades[k] === g);
  check("after SIGKILL of the kernel and the cell program: every judgment on disk", d.lines === 5 && all5 && !d.dup,
    `killed ${kc.cells.length} cell program(s), ${kc.kernels.length} kernel(s); ${d.lines} lines in the file: ${JSON.stringify(d.grades)}`);
  summary.after_kill = d.grades;

  const killedId = await lastId();
  // The server restarts the dead kernel and the front-end says so in a dialog ("Kernel
  // Restarting"); dismiss it (it would take the keyboard's focus), then run the notebook again.
  await fe.dialog(20000);
  await dismissDialogs();
  await ready();
  tRun = Date.now();
  retriedStatus.length = 0;
  await runAll();
  await waitLive(killedId);
  s = await panel();
  summary.resume = { pair: s.pair, progress: s.progress, status: s.status };
  check("after the restart the panel resumes at pair 6", s.pair === pool[5] && s.judged === 5, `${s.pair.replace("\t", " ")} · ${s.progress} (${(Date.now() - tRun) / 1000} s)`);
  // The first panel after the kill takes the lock over; when it fell back and the notebook ran
  // again, its static view said so and the re-run's panel found no stale lock.
  const said = [s.status, ...retriedStatus];
  check("it took over the killed panel's stale lock (named by PID)", said.some((st) => kc.cells.some((pid) => st.includes(`process ${pid},`))), said.join(" | "));

  // b (back) and s, then grades with "0 0" in a row: in the front-ends' command mode b inserts a
  // cell and 0 0 restarts the kernel, so a leaked key would show.
  r = await press("b");
  const bOK = r.after.pair === pool[4];
  r = await press("s");
  check("b shows pair 5, s returns to pair 6", bOK && r.after.pair === pool[5], r.after.pair);
  for (const k of ["0", "0", "2", "3", "1"]) { r = await press(k); grades[r.before.pair] = Number(k); }
  s = await panel();
  // No key reached the front-end's command-mode shortcuts (b inserts a cell, 0 0 restarts...).
  const cells = await fe.cells();
  check("the panel's keys never reached the front-end's shortcuts (still 3 cells, no restart)", cells === 3, `${cells} cells`);
  const d2 = onDisk();
  const ok10 = Object.entries(grades).every(([k, g]) => d2.grades[k] === g) && Object.keys(grades).length === 10;
  check("10 judged: the file holds exactly the 10 grades pressed, one line per pair", ok10 && d2.lines === 10 && !d2.dup,
    JSON.stringify(d2.grades));
  check("the panel shows pair 11 next and says so", s.pair === pool[10] && new RegExp(`^10 of ${pool.length} judged, about`).test(s.progress), `${s.pair.replace("\t", " ")} · ${s.progress}`);
  const log = readFileSync(QRELS + ".log", "utf8").trim().split("\n").filter((l) => !l.startsWith("#")).map((l) => l.split("\t"));
  const judges = log.filter((f) => f[2] === "judge").length, undos = log.filter((f) => f[2] === "undo").length;
  check("the side log: 11 judgments and 1 undo, judge name and seconds", judges === 11 && undos === 1 && log.every((f) => f[1] === "browser-test" && Number(f[6]) >= 0),
    `${judges} judge, ${undos} undo lines`);
  await shot("light-after");

  // dark theme
  if (await fe.setTheme("JupyterLab Dark", false)) {
    await shot("dark");
    await fe.setTheme("JupyterLab Light", true);
  }

  // A closed tab: the panel's program still runs in the kernel (until its idle timer) and holds
  // the lock. Reopen the notebook, interrupt the kernel (the panel ends and releases the lock),
  // Run All: the new panel resumes at pair 11.
  await page.close();
  await openPage();
  await fe.connected();
  await fe.interrupt();
  await ready();
  const tTab = Date.now();
  await runAll();
  await waitLive(await lastId());
  s = await panel();
  check("after closing the tab and reopening (interrupt, Run All): resumes at pair 11", s.pair === pool[10] && s.judged === 10 && onDisk().lines === 10,
    `${s.pair.replace("\t", " ")} · ${s.progress} (${(Date.now() - tTab) / 1000} s)`);

  // Done releases the lock.
  await page.locator("[data-judge-panel] [data-act=done]").last().click();
  await page.waitForFunction(() => { const p = document.querySelectorAll("[data-judge-panel]"); return p[p.length - 1].dataset.judgeState === "closed"; }, null, { timeout: 15000 }).catch(() => {});
  await page.waitForTimeout(500);
  s = await panel();
  check("Done closes the panel and removes the lock file", s.state === "closed" && !existsSync(QRELS + ".lock"), `${s.state} ${s.reason}`);
} catch (e) {
  check("test ran to the end", false, e.stack || String(e));
  await page.screenshot({ path: `${OUT}/error.png`, fullPage: true }).catch(() => {});
}
{
  summary.duration_s = (Date.now() - t0) / 1000;
  summary.failures = failures;
  writeFileSync(`${OUT}/summary.json`, JSON.stringify(summary, null, 2));
  await browser.close();
}
const km = (summary.key_ms || []).slice().sort((a, b) => a - b);
console.log(`judge test: ${summary.checks.length - failures} passed, ${failures} failed in ${summary.duration_s.toFixed(1)} s; key→next screen median ${km[km.length >> 1]} ms, max ${km[km.length - 1]} ms`);
if (summary.console_errors.length) console.log("console errors:\n  " + summary.console_errors.join("\n  "));
process.exit(failures ? 1 : 0);
