// Browser test of the live lab panel (package live), run by scripts/check-live.sh.
//
// Opens a notebook in a running classic Jupyter Notebook server with the GoNB kernel, runs all
// cells, and drives the panel in headless Chromium: moves k and overlap, a rapid burst of k
// moves, the total slider (only valid values: its left end stands for 0; a lower grade raises a
// non-zero total), the reranker quality, k beyond the list, an invalid typed corpus size, Copy
// link, Export CSV, Reset and Done. Every expected number comes
// from the ranklab command line (`ranklab lab --link <the panel's link> --k .. -f json`), never
// from this script. Writes screenshots and summary.json to OUT.
//
// Environment: BASE (http://127.0.0.1:PORT), NOTEBOOK (path under the server's notebook dir),
// RANKLAB (the ranklab binary), OUT (artifact dir), CHROMIUM (default /usr/bin/chromium),
// RUN_TIMEOUT_MS (time for the notebook to compile and show the panel, default 420000).
import { chromium } from "playwright-core";
import { execFileSync } from "node:child_process";
import { writeFileSync, mkdirSync } from "node:fs";

const BASE = process.env.BASE;
const NOTEBOOK = process.env.NOTEBOOK;
const RANKLAB = process.env.RANKLAB;
const OUT = process.env.OUT || "ci-artifacts/live";
const RUN_TIMEOUT = Number(process.env.RUN_TIMEOUT_MS || 420000);
mkdirSync(OUT, { recursive: true });

const t0 = Date.now();
const summary = { notebook: NOTEBOOK, checks: [], latencies_ms: {}, console_errors: [] };
let failures = 0;
function check(name, ok, detail) {
  summary.checks.push({ name, ok, detail });
  console.log(`${ok ? "ok  " : "FAIL"} ${name}${detail ? " — " + detail : ""}`);
  if (!ok) failures++;
}
function lab(link, flags, format = "json") {
  const args = ["lab", ...(link ? ["--link", link] : []), ...flags, "-f", format];
  const out = execFileSync(RANKLAB, args, { encoding: "utf8" });
  return format === "json" ? JSON.parse(out) : out;
}

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: BASE });
const page = await context.newPage();
const noise = [/Comm promise not found/, /nbextensions\/widgets/, /404 \(Not Found\)/, /gonb_comm already running/];
page.on("console", (m) => {
  if (m.type() === "error" && !noise.some((r) => r.test(m.text()))) summary.console_errors.push(m.text());
});
page.on("pageerror", (e) => summary.console_errors.push("pageerror: " + e.message));

// What the panel shows, read from the DOM (the last panel of the page).
async function shown() {
  return page.evaluate(() => {
    const panels = document.querySelectorAll("[data-live-panel]");
    const panel = panels[panels.length - 1];
    const cell = panel && panel.closest(".cell");
    const q = (sel) => (cell ? cell.querySelector(sel) : null);
    const metric = (n) => { const e = q(`[data-metric="${n}"]`); return e ? Number(e.dataset.value) : null; };
    const ctl = {};
    // A slider's data-zero-at position stands for 0 (total: the qrels' count).
    if (cell) cell.querySelectorAll("[data-field]").forEach((e) => {
      const v = Number(e.value);
      ctl[e.dataset.field] = e.dataset.zeroAt !== undefined && v === Number(e.dataset.zeroAt) ? 0 : v;
    });
    const cards = cell ? Array.from(cell.querySelectorAll(".ranklab-cards")).map((e) => e.innerText).join("\n") : "";
    const fp = q("[data-live-footprint]");
    return {
      state: panel ? panel.dataset.liveState : null,
      link: panel ? (panel.dataset.link || (panel.querySelector("[data-live-link]") || {}).value || (panel.querySelector("[data-live-link]") || {}).textContent) : null,
      controls: ctl,
      precision: metric("precision"), recall: metric("recall"), mrr: metric("mrr"), ndcg: metric("ndcg"),
      highlighted: cell ? cell.querySelectorAll('[data-live-ranking] [data-inside-k="1"]').length : null,
      rows: cell ? cell.querySelectorAll("[data-live-ranking] tr[data-rank]").length : null,
      chunks: fp ? Number(fp.dataset.chunks) : null,
      error: q("[data-live-error]") ? q("[data-live-error]").innerText : null,
      cards,
      drawn: cell ? cell.querySelectorAll('[data-drawn="1"]').length : 0,
    };
  });
}
// matches tells whether the DOM shows exactly what the command line printed.
function matches(s, want) {
  const inside = want.items.filter((it) => it.inside_k).length;
  return s.precision === want.precision && s.recall === want.recall && s.mrr === want.mrr &&
    s.ndcg === want.ndcg && s.highlighted === inside && s.chunks === want.chunks && s.error === null;
}
function describe(s, want) {
  const inside = want.items.filter((it) => it.inside_k).length;
  return `shown P=${s.precision} R=${s.recall} highlighted=${s.highlighted} chunks=${s.chunks} err=${s.error}; ` +
    `ranklab lab: P=${want.precision} R=${want.recall} highlighted=${inside} chunks=${want.chunks}`;
}
// waitShown polls the DOM until it matches want; returns the latency in ms (or -1).
async function waitShown(want, timeout = 20000) {
  const start = Date.now();
  let s;
  while (Date.now() - start < timeout) {
    s = await shown();
    if (matches(s, want)) return { ms: Date.now() - start, s };
    await page.waitForTimeout(10);
  }
  return { ms: -1, s };
}
// waitControls polls until the controls satisfy ok (the kernel's reply, which sets them, may
// come after the views it re-rendered); returns the shown state.
async function waitControls(ok, timeout = 5000) {
  const start = Date.now();
  let s = await shown();
  while (!ok(s.controls) && Date.now() - start < timeout) {
    await page.waitForTimeout(20);
    s = await shown();
  }
  return s;
}
// shot takes a full-length screenshot: Notebook's scrolled output areas and its scrolling
// #site container are expanded first, so the whole panel is in the picture.
async function shot(name) {
  await page.evaluate(() => {
    Jupyter.notebook.get_cells().forEach((c) => { if (c.output_area) c.output_area.unscroll_area(); });
    for (const sel of ["html", "body", "#site"]) {
      const e = document.querySelector(sel);
      if (e) { e.style.height = "auto"; e.style.overflow = "visible"; }
    }
  });
  await page.waitForTimeout(200);
  await page.screenshot({ path: `${OUT}/${name}.png`, fullPage: true });
  // and the top of the panel's cell at full resolution
  const box = await page.evaluate(() => {
    const p = document.querySelectorAll("[data-live-panel]");
    const cell = p.length ? p[p.length - 1].closest(".output_wrapper") : null;
    if (!cell) return null;
    const r = cell.getBoundingClientRect();
    return { x: 0, y: r.top + window.scrollY, width: 1280, height: Math.min(900, r.height) };
  });
  if (box) await page.screenshot({ path: `${OUT}/${name}-panel.png`, fullPage: true, clip: box });
}
async function move(name, value) {
  await page.evaluate(({ name, value }) => {
    const panels = document.querySelectorAll("[data-live-panel]");
    const el = panels[panels.length - 1].querySelector(`[data-field="${name}"]`);
    el.value = String(value);
    el.dispatchEvent(new Event("input", { bubbles: true }));
    el.dispatchEvent(new Event("change", { bubbles: true }));
  }, { name, value });
}
async function press(action) {
  await page.locator(`[data-live-panel] [data-action="${action}"]`).last().click();
}
// The visible Precision@k card shows the value to three decimals.
function cardShows(s, k, p) {
  const m = s.cards.match(new RegExp(`Precision@${k}\\s*\\n\\s*([0-9.]+)`));
  return m !== null && Math.abs(Number(m[1]) - p) <= 0.0005 + 1e-12;
}

try {
  await page.goto(`${BASE}/notebooks/${NOTEBOOK}`, { waitUntil: "domcontentloaded" });
  await page.waitForFunction(() => window.Jupyter && Jupyter.notebook && Jupyter.notebook.kernel &&
    Jupyter.notebook.kernel.is_connected(), null, { timeout: 60000, polling: 200 });
  await page.evaluate(() => { Jupyter.notebook.set_autosave_interval(0); });
  const tRun = Date.now();
  await page.evaluate(() => Jupyter.notebook.execute_all_cells());
  await page.waitForFunction(() => {
    const p = document.querySelectorAll('[data-live-panel][data-live-state="live"]');
    return p.length > 0;
  }, null, { timeout: RUN_TIMEOUT, polling: 250 });
  summary.run_to_live_s = (Date.now() - tRun) / 1000;
  check("panel is live after Run All", true, `${summary.run_to_live_s.toFixed(1)} s`);

  let s0 = await shown();
  const link0 = s0.link;
  const defaults = lab(link0, []);
  check("initial state matches ranklab lab --link", matches(s0, defaults) || (await waitShown(defaults)).ms >= 0, describe(s0, defaults));
  // let the charts draw before the first screenshot
  await page.waitForFunction(() => {
    const p = document.querySelectorAll("[data-live-panel]");
    const cell = p[p.length - 1].closest(".cell");
    return cell.querySelectorAll('[data-drawn="1"]').length >= 3;
  }, null, { timeout: 30000, polling: 200 }).catch(() => {});
  s0 = await shown();
  check("charts drawn", s0.drawn >= 3, `${s0.drawn} charts with data-drawn=1`);
  await shot("before");

  // k slider
  const k1 = defaults.state.k + 3;
  let want = lab(link0, ["--k", String(k1)]);
  await move("k", k1);
  let r = await waitShown(want);
  summary.latencies_ms.k = r.ms;
  check(`k -> ${k1}: Precision@k, highlighted items and chunks equal ranklab lab`, r.ms >= 0, describe(r.s, want) + ` (${r.ms} ms)`);
  check(`k -> ${k1}: the Precision@${k1} card shows ${want.precision.toFixed(3)}`, cardShows(r.s, k1, want.precision), r.s.cards.split("\n").slice(0, 3).join(" | "));

  // update latency: single k moves after a pause (1.5 s) and in quick succession (0.3 s)
  for (const [label, pause] of [["after_pause", 1500], ["quick", 300]]) {
    const times = [];
    for (const k of [k1 + 1, k1 + 2, k1 + 3, k1 + 2, k1 + 1, k1]) {
      await page.waitForTimeout(pause);
      const w = lab(link0, ["--k", String(k)]);
      await move("k", k);
      const rr = await waitShown(w);
      if (rr.ms < 0) check(`k -> ${k} (latency series)`, false, describe(rr.s, w));
      times.push(rr.ms);
    }
    times.sort((a, b) => a - b);
    summary.latencies_ms[`k_${label}`] = { median: times[times.length >> 1], max: times[times.length - 1], all: times };
  }

  // overlap slider
  const ov = Math.min(defaults.state.chunk - 1, defaults.state.overlap + 72);
  want = lab(link0, ["--k", String(k1), "--overlap", String(ov)]);
  await move("overlap", ov);
  r = await waitShown(want);
  summary.latencies_ms.overlap = r.ms;
  check(`overlap -> ${ov}: chunk count equals ranklab lab (${want.chunks})`, r.ms >= 0, describe(r.s, want) + ` (${r.ms} ms)`);

  // a rapid burst ends on the value the slider shows
  const burst = [1, 9, 2, 12, 4, 15, 6, 3, 11, 2];
  const last = burst[burst.length - 1];
  await page.evaluate((burst) => {
    const p = document.querySelectorAll("[data-live-panel]");
    const el = p[p.length - 1].querySelector('[data-field="k"]');
    for (const v of burst) { el.value = String(v); el.dispatchEvent(new Event("input", { bubbles: true })); }
    el.dispatchEvent(new Event("change", { bubbles: true }));
  }, burst);
  want = lab(link0, ["--k", String(last), "--overlap", String(ov)]);
  r = await waitShown(want);
  summary.latencies_ms.burst = r.ms;
  await page.waitForTimeout(600); // a stale value arriving late would show up now
  let s = await shown();
  check(`burst of ${burst.length} k moves ends on k=${last}`, r.ms >= 0 && matches(s, want) && s.controls.k === last, describe(s, want));
  await shot("after");

  // the total slider offers only valid values: 1 is below its left end, which stands for 0
  const base = ["--k", String(last), "--overlap", String(ov)];
  await move("total", 1);
  r = await waitShown(want);
  check("total slider: 1 is not offered, its left end stands for 0 (the qrels' count)",
    r.ms >= 0 && r.s.controls.total === 0 && r.s.error === null, describe(r.s, want) + ` total shown ${r.s.controls.total}`);
  want = lab(link0, [...base, "--total", "12"]);
  await move("total", 12);
  r = await waitShown(want);
  check("total -> 12: recall's denominator raised", r.ms >= 0 && r.s.controls.total === 12, describe(r.s, want));
  // grade 2 finds fewer relevant items, total 3 is valid there; back to grade 1 raises it
  const found1 = defaults.items.filter((it) => it.relevant).length;
  await move("grade", 2);
  await waitShown(lab(link0, [...base, "--grade", "2", "--total", "12"])); // the reply brings total's new span
  want = lab(link0, [...base, "--grade", "2", "--total", "3"]);
  await move("total", 3);
  r = await waitShown(want);
  check("grade 2, total 3", r.ms >= 0 && r.s.controls.total === 3, describe(r.s, want));
  want = lab(link0, [...base, "--total", String(found1)]);
  await move("grade", 1);
  r = await waitShown(want);
  r.s = await waitControls((c) => c.total === found1);
  check(`grade back to 1 raises total 3 to the ${found1} relevant items found (no invalid state)`,
    r.ms >= 0 && r.s.controls.total === found1 && r.s.error === null, describe(r.s, want) + ` total shown ${r.s.controls.total}`);
  await move("total", 0);
  want = lab(link0, base);
  r = await waitShown(want);
  check("total back to 0", r.ms >= 0 && r.s.controls.total === 0, describe(r.s, want));

  // the reranker quality
  want = lab(link0, [...base, "--rerank_quality", "0"]);
  await move("rerank_quality", 0);
  r = await waitShown(want);
  check("reranker quality -> 0 (noise): the numbers equal ranklab lab", r.ms >= 0, describe(r.s, want));
  await move("rerank_quality", defaults.state.rerank_quality);
  want = lab(link0, base);
  r = await waitShown(want);
  check("reranker quality back to the default", r.ms >= 0, describe(r.s, want));

  // k beyond the list is reachable
  const kMax = await page.evaluate(() => {
    const p = document.querySelectorAll("[data-live-panel]");
    return Number(p[p.length - 1].querySelector('[data-field="k"]').max);
  });
  const n = defaults.state.n;
  want = lab(link0, ["--k", String(kMax), "--overlap", String(ov)]);
  await move("k", kMax);
  r = await waitShown(want);
  check(`k slider reaches ${kMax}, beyond the ${n} candidates, and the reading says so`,
    kMax > n && r.ms >= 0 && r.s.cards.includes(`is beyond the ${n} candidates`), describe(r.s, want));
  await move("k", last);
  want = lab(link0, base);
  r = await waitShown(want);

  // an invalid typed value shows the validation message and no numbers
  await move("corpus", -1);
  await page.waitForFunction(() => document.querySelector("[data-live-error]"), null, { timeout: 20000, polling: 20 }).catch(() => {});
  s = await shown();
  let cliErr = "";
  try { lab(link0, [...base, "--corpus=-1"]); } catch (e) { cliErr = String(e.stderr || e.message).trim(); }
  check("corpus=-1 shows the validation message instead of numbers",
    s.error !== null && s.precision === null && s.highlighted === 0 && s.chunks === null && cliErr.includes("corpus"),
    `panel: ${s.error && s.error.split("\n")[0]} | ranklab lab: ${cliErr.split("\n")[0]}`);
  await shot("invalid");
  await move("corpus", defaults.state.corpus);
  r = await waitShown(want);
  check("corpus back restores the numbers", r.ms >= 0, describe(r.s, want));

  // Copy link
  await press("copy");
  await page.waitForTimeout(300);
  const linkShown = await page.evaluate(() => {
    const p = document.querySelectorAll("[data-live-panel]");
    const box = p[p.length - 1].querySelector("[data-live-linkbox]");
    return { hidden: box.hidden, value: box.querySelector("input").value, note: box.querySelector("[data-live-copied]").textContent };
  });
  let clip = "";
  try { clip = await page.evaluate(() => navigator.clipboard.readText()); } catch (e) { clip = "(unreadable: " + e.message + ")"; }
  check("Copy link shows the state's link and copies it", !linkShown.hidden && linkShown.value === want.link && clip === want.link,
    `shown ${linkShown.value} · clipboard ${clip} · ${linkShown.note}`);

  // Export CSV
  await press("csv");
  const href = await page.waitForFunction(() => {
    const a = document.querySelector("[data-live-csv-link]");
    return a ? a.href : null;
  }, null, { timeout: 20000, polling: 50 }).then((h) => h.jsonValue()).catch(() => null);
  let csvOK = false, csvDetail = "no link shown";
  if (href) {
    // fetched by the page itself, as a click would (same origin, the server's redirect followed)
    const res = await page.evaluate(async (href) => {
      const r = await fetch(href);
      return { status: r.status, body: await r.text() };
    }, href);
    const expected = lab(want.link, [], "csv");
    csvOK = res.status === 200 && res.body === expected;
    csvDetail = `${href} -> HTTP ${res.status}, ${res.body.length} bytes, ${csvOK ? "equal to" : "DIFFERENT from"} ranklab lab -f csv`;
  }
  check("Export CSV writes the file beside the notebook and links it", csvOK, csvDetail);

  // Reset
  await press("reset");
  const defaultsAgain = lab("", []); // the documented defaults (lab.DefaultState)
  r = await waitShown(defaultsAgain);
  summary.latencies_ms.reset = r.ms;
  s = await waitControls((c) => Object.entries(defaultsAgain.state).every(([k, v]) => !(k in c) || c[k] === v));
  const ctlOK = Object.entries(defaultsAgain.state).every(([k, v]) => !(k in s.controls) || s.controls[k] === v);
  check("Reset brings back the defaults", r.ms >= 0 && ctlOK, describe(s, defaultsAgain) + ` controls ${JSON.stringify(s.controls)}`);

  // the panel's own round trips (page send -> kernel reply), before Done replaces it
  summary.panel_roundtrip_ms = await page.evaluate(() => {
    const p = document.querySelectorAll("[data-live-panel]");
    const l = (p[p.length - 1].liveLatency || []).slice().sort((a, b) => a - b);
    if (!l.length) return null;
    return { n: l.length, median: Math.round(l[Math.floor(l.length / 2)]), max: Math.round(l[l.length - 1]) };
  });

  // Done
  await press("done");
  await page.waitForFunction(() => document.querySelector('[data-live-panel][data-live-state="closed"]') &&
    !document.querySelector("[data-live-panel] [data-field]"), null, { timeout: 20000, polling: 50 });
  await page.waitForFunction(() => Jupyter.notebook.kernel_busy === false || !document.querySelector("#notebook .running"),
    null, { timeout: 20000, polling: 100 }).catch(() => {});
  await page.waitForTimeout(1500);
  s = await shown();
  check("Done leaves a static snapshot of the final state", s.state === "closed" && matches(s, defaultsAgain) &&
    Object.keys(s.controls).length === 0, describe(s, defaultsAgain));
  const running = await page.evaluate(() => document.querySelectorAll("#notebook .cell.running").length);
  check("the cell finished after Done", running === 0, `${running} cells still running`);
  await shot("done");

  // Interrupt: run the panel's cell again, then interrupt the kernel (SIGINT to the program);
  // the loop must end cleanly and leave a snapshot.
  const tInt = Date.now();
  await page.evaluate(() => {
    const cells = Jupyter.notebook.get_cells();
    const p = document.querySelectorAll("[data-live-panel]");
    const el = p[p.length - 1].closest(".cell");
    const idx = cells.findIndex((c) => c.element[0] === el);
    Jupyter.notebook.execute_cells([idx]);
  });
  await page.waitForFunction(() => document.querySelector('[data-live-panel][data-live-state="live"]'),
    null, { timeout: 120000, polling: 100 });
  await page.evaluate(() => Jupyter.notebook.kernel.interrupt());
  await page.waitForFunction(() => document.querySelector('[data-live-panel][data-live-reason="interrupt"]'),
    null, { timeout: 20000, polling: 50 }).catch(() => {});
  await page.waitForTimeout(1000);
  s = await shown();
  const reason = await page.evaluate(() => {
    const p = document.querySelectorAll("[data-live-panel]");
    return p[p.length - 1].dataset.liveReason || null;
  });
  const want0 = lab(link0, []);
  check("an interrupt ends the loop with a snapshot", reason === "interrupt" && s.state === "closed" && matches(s, want0),
    `reason ${reason}; ${describe(s, want0)} (${Date.now() - tInt} ms incl. re-run)`);
  await shot("interrupted");
} catch (e) {
  check("test ran to the end", false, e.stack || String(e));
  await page.screenshot({ path: `${OUT}/error.png`, fullPage: true }).catch(() => {});
} finally {
  summary.duration_s = (Date.now() - t0) / 1000;
  summary.failures = failures;
  writeFileSync(`${OUT}/summary.json`, JSON.stringify(summary, null, 2));
  await browser.close();
}
console.log(`live test: ${summary.checks.length - failures} passed, ${failures} failed in ${summary.duration_s.toFixed(1)} s; ` +
  `latency ms ${JSON.stringify(summary.latencies_ms)}`);
if (summary.console_errors.length) console.log("console errors:\n  " + summary.console_errors.join("\n  "));
process.exit(failures ? 1 : 0);
