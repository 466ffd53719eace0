// Browser test of the lab notebook and its live panel (package live), run by scripts/check-live.sh
// in JupyterLab 4, Notebook 7 and the classic Notebook 6 (FRONTEND).
//
// Opens notebooks/00_lab.ipynb in a running Jupyter server with the GoNB kernel, runs all cells
// and checks, in headless Chromium at 1280×800 and the front-end's own DOM: every chart container
// of the notebook reports data-drawn="1"; the live panel needs no inner scroll bar; each tab shows
// its view alone and draws it; the panel's cell is at most 900 px tall whichever tab is open, and
// with the panel scrolled to the top the sliders, cards, reading and ranking chart are all in
// view (JupyterLab, Notebook 7); the total control's label says "0 = the qrels' count (N)" with
// ranklab lab's N; the grade colours, marker and table rules keep 3:1 contrast against the
// background as drawn, in the light and the dark theme; ArrowRight/Left, Page Up/Down, End and
// Home on the focused k slider move it and the cards follow (screen-light.png, screen-dark.png,
// tab-<view>.png). Then it drives the
// panel: moves k and overlap, a rapid burst of k moves, the total slider (only valid values: its
// left end stands for 0; a lower grade raises a non-zero total), the reranker quality, k beyond
// the list, an invalid typed corpus size, Copy link, Export CSV, Reset, Done and an interrupt. Every expected number comes from the ranklab command line
// (`ranklab lab --link <the panel's link> --k .. -f json`), never from this script. ORPHANS=1
// also checks that no cell program (GoNB's gonb_* binary) is left after an interrupt, a kernel
// restart and a server stop while a panel runs; DARK=1 switches to JupyterLab's dark theme and
// checks that every chart redraws. Writes screenshots and summary.json to OUT.
//
// LIVE_RUNS=N instead counts fallbacks to the static snapshot over N fresh kernels
// (scripts/live-fallbacks.sh).
//
// Environment: FRONTEND (lab, notebook7 or classic; default lab), BASE (http://127.0.0.1:PORT),
// TOKEN, NOTEBOOK (path under the server's root), RANKLAB (the ranklab binary), OUT (artifact
// dir), SERVER_PID (the Jupyter server: ORPHANS stops it last), CSV_FILE (where Export CSV must
// write), CHROMIUM (default /usr/bin/chromium), RUN_TIMEOUT_MS (time for the notebook to
// compile and show the panel, default 420000).
import { chromium } from "playwright-core";
import { execFileSync } from "node:child_process";
import { writeFileSync, mkdirSync, readFileSync, existsSync } from "node:fs";
import { frontEnd, gonbProcesses } from "./jupyter-page.mjs";

const FRONTEND = process.env.FRONTEND || "lab";
const BASE = process.env.BASE;
const TOKEN = process.env.TOKEN || "";
const NOTEBOOK = process.env.NOTEBOOK;
const RANKLAB = process.env.RANKLAB;
const OUT = process.env.OUT || "ci-artifacts/live";
const RUN_TIMEOUT = Number(process.env.RUN_TIMEOUT_MS || 420000);
const SERVER_PID = Number(process.env.SERVER_PID || 0);
const ORPHANS = process.env.ORPHANS === "1";
const DARK = process.env.DARK === "1";
const RUNS = Number(process.env.LIVE_RUNS || 0); // > 0: count fallbacks over that many runs (fallbackRuns)
mkdirSync(OUT, { recursive: true });
const classic = FRONTEND === "classic";
const CELL = classic ? ".cell" : ".jp-Cell";

const t0 = Date.now();
const summary = { frontend: FRONTEND, notebook: NOTEBOOK, checks: [], latencies_ms: {}, console_errors: [] };
let failures = 0;
function check(name, ok, detail) {
  summary.checks.push({ name, ok, detail });
  console.log(`${ok ? "ok  " : "FAIL"} ${name}${detail ? " — " + detail : ""}`);
  if (!ok) failures++;
}
function lab(link, flags, format = "json") {
  const args = ["lab", ...(link ? ["--link", link] : []), ...flags, "-f", format];
  const out = execFileSync(RANKLAB, args, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  return format === "json" ? JSON.parse(out) : out;
}

// The cell programs GoNB runs: children of a `gonb` kernel process under the server (read from
// /proc, so other users' notebooks on the machine are not counted).
const cellPrograms = () => gonbProcesses(SERVER_PID).cells;
function alive(pid) {
  try { const st = readFileSync(`/proc/${pid}/stat`, "utf8"); return st.slice(st.lastIndexOf(")") + 2)[0] !== "Z"; } catch (e) { return false; }
}
async function allGone(pids, ms) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (pids.every((p) => !alive(p))) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return pids.every((p) => !alive(p));
}
const names = (ps) => ps.map((p) => `${p.pid} ${p.comm}`).join(", ");

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
// 1280×800: the screen the live panel must fit (sliders, cards, reading and ranking chart together).
const VIEW = { width: 1280, height: 800 };
const context = await browser.newContext({ viewport: VIEW });
await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: BASE });
const page = await context.newPage();
await page.addInitScript((cell) => { window.__CELL = cell; }, CELL);
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
    const cell = panel && panel.closest(window.__CELL);
    const q = (sel) => (cell ? cell.querySelector(sel) : null);
    const metric = (n) => { const e = q(`[data-metric="${n}"]`); return e ? Number(e.dataset.value) : null; };
    const ctl = {};
    // A slider's data-zero-at position stands for 0 (total: the qrels' count).
    if (cell) cell.querySelectorAll("[data-field]").forEach((e) => {
      const v = Number(e.value);
      ctl[e.dataset.field] = e.dataset.zeroAt !== undefined && v === Number(e.dataset.zeroAt) ? 0 : v;
    });
    const cards = cell ? Array.from(cell.querySelectorAll(".ranklab-cards, [data-reading]")).map((e) => e.innerText || e.textContent).join("\n") : "";
    const fp = q("[data-footprint]");
    return {
      state: panel ? panel.dataset.liveState : null,
      link: panel ? (panel.dataset.link || (panel.querySelector("[data-live-link]") || {}).value || (panel.querySelector("[data-live-link]") || {}).textContent) : null,
      controls: ctl,
      precision: metric("precision"), recall: metric("recall"), mrr: metric("mrr"), ndcg: metric("ndcg"),
      highlighted: cell ? cell.querySelectorAll('[data-ranking-table] [data-inside-k="1"]').length : null,
      rows: cell ? cell.querySelectorAll("[data-ranking-table] tr[data-rank]").length : null,
      zeroNote: q('[data-zero-note="total"]') ? q('[data-zero-note="total"]').textContent : null,
      chunks: fp ? Number(fp.dataset.chunks) : null,
      error: q("[data-live-error]") ? q("[data-live-error]").innerText : null,
      cards,
      drawn: cell ? cell.querySelectorAll('[data-drawn="1"]').length : 0,
      visibleCharts: cell ? [...cell.querySelectorAll(".ranklab-chart")].filter((e) => e.offsetParent !== null).length : 0,
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
// shot takes screenshots. Classic Notebook: the whole page, its scrolled output areas and #site
// expanded. JupyterLab / Notebook 7: the live panel's cell as it is (nothing expanded), on a
// viewport tall enough to hold it, so an inner scroll bar would show.
async function shot(name) {
  if (classic) {
    await page.evaluate(() => {
      Jupyter.notebook.get_cells().forEach((c) => { if (c.output_area) c.output_area.unscroll_area(); });
      for (const sel of ["html", "body", "#site"]) {
        const e = document.querySelector(sel);
        if (e) { e.style.height = "auto"; e.style.overflow = "visible"; }
      }
    });
    await page.waitForTimeout(200);
    await page.screenshot({ path: `${OUT}/${name}.png`, fullPage: true });
    return;
  }
  await cellShot(`${name}-panel`, "[data-live-panel]");
}
// cellShot screenshots the last cell holding sel, with the viewport grown to fit it.
async function cellShot(name, sel) {
  const where = () => page.evaluate(({ sel, CELL }) => {
    const all = document.querySelectorAll(sel);
    const cell = all.length ? all[all.length - 1].closest(CELL) : null;
    if (!cell) return null;
    cell.scrollIntoView({ block: "start" });
    const r = cell.getBoundingClientRect();
    return { x: Math.max(0, r.left), y: Math.max(0, r.top), width: Math.min(r.width, 1280), height: Math.ceil(r.height) };
  }, { sel, CELL });
  let box = await where();
  if (!box) { console.log(`screenshot ${name}: no cell with ${sel}`); return; }
  await page.setViewportSize({ width: 1280, height: Math.min(4000, box.height + 400) });
  await page.waitForTimeout(500);
  box = await where();
  await page.waitForTimeout(300);
  box = await where();
  await page.screenshot({ path: `${OUT}/${name}.png`, clip: box }).catch((e) => console.log(`screenshot ${name}: ${e.message}`));
  await page.setViewportSize(VIEW);
}
// Front-end actions (scripts/jupyter-page.mjs), and running the live panel's cell alone.
const fe = {
  ...frontEnd(page, { frontend: FRONTEND, base: BASE, token: TOKEN, notebook: NOTEBOOK }),
  runPanelCell: () => page.evaluate(({ classic, CELL }) => {
    const p = document.querySelectorAll("[data-live-panel]");
    const el = p[p.length - 1].closest(CELL);
    if (classic) {
      const cells = Jupyter.notebook.get_cells();
      Jupyter.notebook.execute_cells([cells.findIndex((c) => c.element[0] === el)]);
      return;
    }
    const nb = window.jupyterapp.shell.currentWidget.content;
    nb.activeCellIndex = nb.widgets.findIndex((c) => c.node === el);
    window.jupyterapp.commands.execute("notebook:run-cell");
  }, { classic, CELL }),
};
// scrollers lists what scrolls inside the live panel's cell (an inner scroll bar): elements with
// overflow auto or scroll and more content than room, and JupyterLab's "scrolled outputs" mode.
function scrollers() {
  return page.evaluate((CELL) => {
    const p = document.querySelectorAll("[data-live-panel]");
    const cell = p.length ? p[p.length - 1].closest(CELL) : null;
    if (!cell) return ["no panel cell"];
    const out = [];
    for (const e of [cell, ...cell.querySelectorAll("*")]) {
      const cs = getComputedStyle(e);
      if (/(auto|scroll)/.test(cs.overflowY) && e.scrollHeight > e.clientHeight + 2) {
        out.push(`${e.tagName.toLowerCase()}.${String(e.className).split(" ")[0]} ${e.scrollHeight}>${e.clientHeight} px`);
      }
    }
    if (cell.classList.contains("jp-mod-outputsScrolled")) out.push("cell in scrolled-outputs mode");
    return out;
  }, CELL);
}
// chartCounts: chart containers in the notebook's outputs (its model), in the DOM, and drawn.
function chartCounts() {
  return page.evaluate((classic) => {
    let model = null;
    if (!classic) {
      model = 0;
      const cells = window.jupyterapp.shell.currentWidget.content.model.cells;
      for (let i = 0; i < cells.length; i++) {
        const c = cells.get(i);
        if (c.type !== "code") continue;
        for (let j = 0; j < c.outputs.length; j++) {
          const h = c.outputs.get(j).data["text/html"];
          const t = Array.isArray(h) ? h.join("") : (h || "");
          model += (t.match(/class="ranklab-chart"/g) || []).length;
        }
      }
    }
    const all = [...document.querySelectorAll(".ranklab-chart")];
    const drawn = all.filter((e) => e.getAttribute("data-drawn") === "1");
    // a chart that is not displayed (a live panel's tab not shown, a cell JupyterLab keeps out of
    // view) draws when it first shows
    const hidden = all.filter((e) => e.getAttribute("data-drawn") !== "1" && e.offsetParent === null);
    return { model, dom: all.length, drawn: drawn.length, hidden: hidden.length };
  }, classic);
}
// showEveryChart scrolls each chart that is not drawn into view and waits (up to 5 s each) for it
// to draw: a chart that was not displayed draws when it shows.
async function showEveryChart() {
  const n = await page.evaluate(() => document.querySelectorAll(".ranklab-chart").length);
  for (let i = 0; i < n; i++) {
    const drawn = await page.evaluate((i) => {
      const e = document.querySelectorAll(".ranklab-chart")[i];
      if (!e || e.getAttribute("data-drawn") === "1") return true;
      e.scrollIntoView({ block: "center" });
      return false;
    }, i);
    if (!drawn) {
      await page.waitForFunction((i) => {
        const e = document.querySelectorAll(".ranklab-chart")[i];
        return !e || e.getAttribute("data-drawn") === "1";
      }, i, { timeout: 5000, polling: 100 }).catch(() => {});
    }
  }
}
// allDrawn: every chart drawn, or waiting until it is displayed.
const allDrawn = (c) => c.dom > 0 && c.drawn + c.hidden === c.dom;
// waitLive waits until the (last) panel is live. GoNB's page script gives the kernel 500 ms to
// acknowledge its comm (gonb v0.11.5, websocket.js); on a loaded machine that can fail, the
// panel then falls back to its static snapshot ("no-frontend") and tells the user to re-run the
// cell: the test does the same, once, and records it in summary.json (comm_retries).
summary.comm_retries = 0;
async function waitLive(timeout, retry = true) {
  const h = await page.waitForFunction(() => {
    const p = document.querySelectorAll("[data-live-panel]");
    const last = p.length ? p[p.length - 1] : null;
    if (!last) return null;
    if (last.dataset.liveState === "live") return "live";
    if (last.dataset.liveReason === "no-frontend") return "no-frontend";
    return null;
  }, null, { timeout, polling: 100 });
  const state = await h.jsonValue();
  if (state === "live") return;
  if (!retry) throw new Error("the panel fell back to its static snapshot twice (no front-end answered)");
  summary.comm_retries++;
  console.log("note: the panel did not connect (GoNB's comm), re-running its cell once");
  await fe.runPanelCell();
  await page.waitForTimeout(500);
  await waitLive(timeout, false);
}

// geometry scrolls the live panel to the top of the notebook's scroller (as a user who starts
// dragging does; the cell's one line of code goes above) and measures, at the 1280×800 viewport: the cell's height, the scroller's
// visible band, and for each part that must be seen together (sliders, cards, reading, ranking
// chart) whether it lies inside that band and inside the window.
async function geometry() {
  await page.evaluate(() => {
    const p = document.querySelectorAll("[data-live-panel]");
    p[p.length - 1].scrollIntoView({ block: "start" });
  });
  await page.waitForTimeout(400);
  return page.evaluate((CELL) => {
    const p = document.querySelectorAll("[data-live-panel]");
    const panel = p[p.length - 1];
    const cell = panel.closest(CELL);
    let sc = cell.parentElement;
    while (sc && sc !== document.body && !/(auto|scroll)/.test(getComputedStyle(sc).overflowY)) sc = sc.parentElement;
    const band = sc && sc !== document.body ? sc.getBoundingClientRect() : { top: 0, bottom: window.innerHeight };
    const top = Math.max(0, band.top), bottom = Math.min(window.innerHeight, band.bottom);
    const parts = {
      sliders: [...panel.querySelectorAll("[data-field]")],
      cards: [...cell.querySelectorAll("[data-metric-card]")],
      reading: [...cell.querySelectorAll("[data-reading]")],
      "ranking chart": [...cell.querySelectorAll('.ranklab-chart[aria-label^="Ranking"]')].filter((e) => e.offsetParent !== null),
    };
    const seen = {};
    for (const [name, els] of Object.entries(parts)) {
      const rs = els.map((e) => e.getBoundingClientRect()).filter((r) => r.height > 0);
      seen[name] = rs.length === 0 ? "missing" :
        rs.every((r) => r.top >= top - 1 && r.bottom <= bottom + 1) ? "visible" :
        `cut (${Math.round(Math.min(...rs.map((r) => r.top)))}..${Math.round(Math.max(...rs.map((r) => r.bottom)))} px, visible ${Math.round(top)}..${Math.round(bottom)})`;
    }
    return { cell: Math.round(cell.getBoundingClientRect().height), band: [Math.round(top), Math.round(bottom)], seen };
  }, CELL);
}

// tabWalk opens each tab of the last panel's strip in turn and records whether its view shows
// (and no other tabbed view), whether its charts draw, and the cell's height; then reopens the
// first tab.
async function tabWalk() {
  const info = await page.evaluate(() => {
    const t = document.querySelectorAll("[data-live-tabs]");
    const strip = t[t.length - 1];
    return strip ? { uid: strip.dataset.liveTabs, keys: [...strip.querySelectorAll("[data-tab]")].map((b) => b.dataset.tab) } : { keys: [] };
  });
  const out = {};
  for (const key of info.keys) {
    await page.locator(`[data-live-tabs="${info.uid}"] [data-tab="${key}"]`).click();
    const probe = ({ uid, key, CELL }) => {
      const mine = document.querySelector(`[data-live-of="${uid}"][data-live-tab="${key}"]`);
      const others = [...document.querySelectorAll(`[data-live-of="${uid}"][data-live-tab]`)].filter((e) => e.dataset.liveTab !== key);
      const charts = mine ? [...mine.querySelectorAll(".ranklab-chart")] : [];
      return {
        shown: !!mine && mine.offsetParent !== null,
        othersVisible: others.filter((e) => e.offsetParent !== null).length,
        drawn: charts.every((c) => c.getAttribute("data-drawn") === "1"),
        cell: mine ? Math.round(mine.closest(CELL).getBoundingClientRect().height) : null,
      };
    };
    await page.waitForFunction(probe, { uid: info.uid, key, CELL }, { timeout: 20000, polling: 100 })
      .then(async () => {
        for (let i = 0; i < 200; i++) {
          const r = await page.evaluate(probe, { uid: info.uid, key, CELL });
          if (r.shown && r.drawn) break;
          await page.waitForTimeout(100);
        }
      }).catch(() => {});
    out[key] = await page.evaluate(probe, { uid: info.uid, key, CELL });
    await page.evaluate(() => {
      const p = document.querySelectorAll("[data-live-panel]");
      p[p.length - 1].scrollIntoView({ block: "start" });
    });
    await page.waitForTimeout(300);
    await page.screenshot({ path: `${OUT}/tab-${key}.png` });
  }
  if (info.keys.length) await page.locator(`[data-live-tabs="${info.uid}"] [data-tab="${info.keys[0]}"]`).click();
  await page.waitForTimeout(300);
  return out;
}

// keyTest focuses the k slider and presses ArrowRight, ArrowLeft, Page Up, Page Down, End and
// Home: each must move the slider (one step, a page, the ends) and the cards and ranking must
// then equal `ranklab lab` at the new k. Ends back at the default k.
async function keyTest(link0, defaults) {
  const slider = page.locator('[data-live-panel] [data-field="k"]').last();
  await slider.focus();
  const moved = { ArrowRight: (b, a) => a.v === b + 1, ArrowLeft: (b, a) => a.v === b - 1, PageUp: (b, a) => a.v > b,
    PageDown: (b, a) => a.v < b, End: (b, a) => a.v === a.max, Home: (b, a) => a.v === a.min };
  const got = [];
  let ok = true;
  for (const key of Object.keys(moved)) {
    const before = await slider.evaluate((e) => Number(e.value));
    await page.keyboard.press(key);
    const after = await slider.evaluate((e) => ({ v: Number(e.value), min: Number(e.min), max: Number(e.max), focused: document.activeElement === e }));
    const want = lab(link0, ["--k", String(after.v)]);
    const r = await waitShown(want, 15000);
    const good = moved[key](before, after) && after.focused && r.ms >= 0 && cardShows(r.s, after.v, want.precision);
    ok = ok && good;
    got.push(`${key} ${before}->${after.v}${good ? "" : " FAIL: " + describe(r.s, want)}`);
  }
  summary.keys = got;
  check("arrow keys, Page Up/Down, Home and End move the focused k slider, and the cards follow", ok, got.join("; "));
  await move("k", defaults.state.k);
  await waitShown(defaults);
}

// contrastCheck reads, in the page as drawn, the ranking chart's grade and marker colours and
// the ranking table's rules, and the background behind each (the first opaque ancestor, with
// translucent layers composited); each must have a contrast ratio of at least 3:1 (WCAG 2).
async function contrastCheck(theme) {
  const res = await page.evaluate((CELL) => {
    const parse = (c) => {
      const m = String(c).match(/rgba?\(([^)]+)\)/);
      if (m) { const v = m[1].split(/[ ,\/]+/).filter(Boolean).map(Number); return [v[0], v[1], v[2], v.length > 3 ? v[3] : 1]; }
      const h = String(c).replace("#", "");
      const x = h.length === 3 ? h.split("").map((d) => d + d).join("") : h;
      return [0, 2, 4].map((i) => parseInt(x.slice(i, i + 2), 16)).concat([1]);
    };
    const over = (top, bottom) => [0, 1, 2].map((i) => top[i] * top[3] + bottom[i] * (1 - top[3])).concat([1]);
    const bgOf = (el) => {
      const layers = [];
      for (let e = el; e; e = e.parentElement) {
        const c = parse(getComputedStyle(e).backgroundColor);
        if (c[3] > 0) { layers.push(c); if (c[3] >= 1) break; }
      }
      let bg = [255, 255, 255, 1];
      for (let i = layers.length - 1; i >= 0; i--) bg = over(layers[i], bg);
      return bg;
    };
    const lum = (c) => { const l = c.slice(0, 3).map((v) => { v /= 255; return v <= 0.04045 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); }); return 0.2126 * l[0] + 0.7152 * l[1] + 0.0722 * l[2]; };
    const ratio = (a, b) => { const x = lum(a), y = lum(b); return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05); };
    const hex = (c) => "#" + c.slice(0, 3).map((v) => Math.round(v).toString(16).padStart(2, "0")).join("");
    const p = document.querySelectorAll("[data-live-panel]");
    const cell = p[p.length - 1].closest(CELL);
    const out = [];
    const chart = cell.querySelector('.ranklab-chart[aria-label^="Ranking"]');
    const inst = chart && window.echarts && window.echarts.getInstanceByDom(chart);
    if (inst) {
      const bg = bgOf(chart);
      for (const s of inst.getOption().series) {
        const c = s.itemStyle && s.itemStyle.color;
        if (typeof c === "string" && /^grade/.test(s.name)) { const col = over(parse(c), bg); out.push({ what: s.name, color: c, bg: hex(bg), ratio: ratio(col, bg) }); }
      }
    }
    const table = cell.querySelector("[data-ranking-table]");
    if (table) {
      const bg = bgOf(table);
      for (const [what, el] of [["table header rule", table.querySelector("th")], ["table row rule", table.querySelector("td")]]) {
        const c = getComputedStyle(el).borderBottomColor;
        out.push({ what, color: c, bg: hex(bg), ratio: ratio(over(parse(c), bg), bg) });
      }
    }
    return out;
  }, CELL);
  summary[`contrast_${theme}`] = res;
  const low = res.filter((r) => r.ratio < 3);
  check(`${theme} theme: grade colours, marker and table rules have contrast >= 3:1 against the background`,
    res.length >= 6 && low.length === 0,
    res.map((r) => `${r.what} ${r.color} on ${r.bg}: ${r.ratio.toFixed(2)}`).join("; "));
}

// setTheme switches JupyterLab's theme and waits for the page to say so (light: "true"/"false").
const setTheme = (name, light) => fe.setTheme(name, light);

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

// mainTest drives the panel (the checks listed at the top of this file).
async function mainTest() {
  if (classic) await page.evaluate(() => { Jupyter.notebook.set_autosave_interval(0); });
  const tRun = Date.now();
  await fe.runAll();
  await waitLive(RUN_TIMEOUT);
  summary.run_to_live_s = (Date.now() - tRun) / 1000;
  check("panel is live after Run All", true, `${summary.run_to_live_s.toFixed(1)} s`);

  let s0 = await shown();
  const link0 = s0.link;
  const defaults = lab(link0, []);
  check("initial state matches ranklab lab --link", matches(s0, defaults) || (await waitShown(defaults)).ms >= 0, describe(s0, defaults));
  // let the charts draw before the first screenshot (those in tabs not shown draw when shown)
  await page.waitForFunction((CELL) => {
    const p = document.querySelectorAll("[data-live-panel]");
    const cell = p[p.length - 1].closest(CELL);
    const vis = [...cell.querySelectorAll(".ranklab-chart")].filter((e) => e.offsetParent !== null);
    return vis.length >= 1 && vis.every((e) => e.getAttribute("data-drawn") === "1");
  }, CELL, { timeout: 30000, polling: 200 }).catch(() => {});
  s0 = await shown();
  check("the panel's visible charts drawn", s0.visibleCharts >= 1 && s0.drawn >= s0.visibleCharts, `${s0.drawn} charts with data-drawn=1, ${s0.visibleCharts} visible`);
  const wantNote = `0 = the qrels' count (${defaults.recall_denominator})`;
  check(`the total control's label says "${wantNote}"`, s0.zeroNote === wantNote, `shown: ${s0.zeroNote}`);
  {
    // every tab: shows its view only, draws its charts, keeps the cell within 900 px
    const tabs = await tabWalk();
    summary.tabs = tabs;
    const bad = Object.entries(tabs).filter(([, t]) => !t.shown || t.othersVisible > 0 || !t.drawn);
    check("each tab shows its view alone and draws its charts", Object.keys(tabs).length >= 2 && bad.length === 0,
      Object.entries(tabs).map(([k, t]) => `${k}: ${t.cell} px${t.shown ? "" : " NOT SHOWN"}${t.othersVisible ? ` +${t.othersVisible} others` : ""}${t.drawn ? "" : " undrawn"}`).join("; "));
  }
  if (!classic) {
    const tabs = summary.tabs;
    const tall = Object.entries(tabs).filter(([, t]) => t.cell > 900);
    check("the panel's cell stays within 900 px whichever tab is open", tall.length === 0, tall.map(([k, t]) => `${k} ${t.cell} px`).join("; ") || "all within");
  }
  // every chart of the notebook, in the front-end's own DOM
  let cc = await chartCounts();
  for (let i = 0; i < 100 && !allDrawn(cc); i++) { await page.waitForTimeout(200); cc = await chartCounts(); }
  summary.charts = cc;
  check("every chart container of the notebook reports data-drawn=1", cc.dom > 0 && cc.drawn === cc.dom && (cc.model === null || cc.model === cc.dom),
    `${cc.drawn} drawn of ${cc.dom} in the DOM` + (cc.model === null ? "" : `, ${cc.model} in the notebook's outputs`));
  if (!classic) {
    const sc = await scrollers();
    summary.panel_scrollers = sc;
    check("the whole panel shows without an inner scroll bar", sc.length === 0, sc.join("; ") || "no scrolling element in the panel's cell");
  }
  if (!classic) {
    const g = await geometry();
    summary.panel_geometry = g;
    check(`the live panel's cell is at most 900 px tall at 1280×800`, g.cell <= 900, `${g.cell} px`);
    check("sliders, cards, reading and ranking chart are visible together at 1280×800",
      Object.values(g.seen).every((v) => v === "visible"), JSON.stringify(g.seen) + ` in the band ${g.band.join("..")} px`);
    await page.screenshot({ path: `${OUT}/screen-light.png` });
    await contrastCheck("light");
    if (DARK) {
      // the live panel in JupyterLab's dark theme: the same screen, and the same contrast
      await setTheme("JupyterLab Dark", "false");
      await geometry();
      await page.screenshot({ path: `${OUT}/screen-dark.png` });
      await contrastCheck("dark");
      await setTheme("JupyterLab Light", "true");
    }
  }
  await keyTest(link0, defaults);
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
  const note2 = `0 = the qrels' count (${lab(link0, [...base, "--grade", "2"]).recall_denominator})`;
  let sn = await shown();
  for (let i = 0; i < 100 && sn.zeroNote !== note2; i++) { await page.waitForTimeout(50); sn = await shown(); }
  check(`grade 2: the total control's label follows ("${note2}")`, sn.zeroNote === note2, `shown: ${sn.zeroNote}`);
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
  // every region is its own output, updated in turn: wait until all of them show the error state
  const invalid = (s) => s.error !== null && s.precision === null && s.highlighted === 0 && s.chunks === null;
  for (const end = Date.now() + 20000; Date.now() < end; await page.waitForTimeout(20)) {
    s = await shown();
    if (invalid(s)) break;
  }
  let cliErr = "";
  try { lab(link0, [...base, "--corpus=-1"]); } catch (e) { cliErr = String(e.stderr || e.message).trim(); }
  check("corpus=-1 shows the validation message instead of numbers",
    invalid(s) && cliErr.includes("corpus"),
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
    csvDetail = `${href.slice(0, 40)} -> HTTP ${res.status}, ${res.body.length} bytes, ${csvOK ? "equal to" : "DIFFERENT from"} ranklab lab -f csv`;
    if (process.env.CSV_FILE) {
      const disk = existsSync(process.env.CSV_FILE) ? readFileSync(process.env.CSV_FILE, "utf8") : null;
      csvOK = csvOK && disk === expected;
      csvDetail += `; the file beside the notebook: ${disk === null ? "MISSING" : disk === expected ? "equal" : "DIFFERENT"}`;
    }
  }
  check("Export CSV writes the file beside the notebook and links the same bytes", csvOK, csvDetail);

  // Reset
  await press("reset");
  const defaultsAgain = lab("", []); // the documented defaults (lab.DefaultState)
  r = await waitShown(defaultsAgain);
  summary.latencies_ms.reset = r.ms;
  s = r.s;
  // the controls follow with the kernel's reply, which may come after the views
  s = await waitControls((c) => Object.entries(defaultsAgain.state).every(([k, v]) => !(k in c) || c[k] === v), 20000);
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
  await fe.idle();
  await page.waitForTimeout(1500);
  s = await shown();
  check("Done leaves a static snapshot of the final state", s.state === "closed" && matches(s, defaultsAgain) &&
    Object.keys(s.controls).length === 0, describe(s, defaultsAgain));
  const busy = await page.evaluate((classic) => classic ? document.querySelectorAll("#notebook .cell.running").length
    : (window.jupyterapp.shell.currentWidget.sessionContext.session.kernel.status === "idle" ? 0 : 1), classic);
  check("the cell finished after Done", busy === 0, busy ? "kernel still busy" : "no cell running");
  await shot("done");

  // Interrupt: run the panel's cell again, then interrupt the kernel (SIGINT to the program);
  // the loop must end cleanly, leave a snapshot, and its program must end.
  const tInt = Date.now();
  await fe.runPanelCell();
  await waitLive(120000);
  let progs = cellPrograms();
  summary.cell_programs_seen = names(progs);
  await fe.interrupt();
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
  if (ORPHANS) {
    const gone = await allGone(progs.map((p) => p.pid), 10000);
    check("interrupt: the panel's program ended", progs.length > 0 && gone, `while live: ${names(progs) || "no program found"}`);
  }
  await shot("interrupted");

  if (DARK && !classic) {
    // JupyterLab's dark theme: every chart redraws dark; cards and tables take the theme's colours.
    await cellShot("light-cards", ".ranklab-cards");
    await cellShot("light-ranking", '[aria-label^="Ranking"]');
    await page.evaluate(() => window.jupyterapp.commands.execute("apputils:change-theme", { theme: "JupyterLab Dark" }));
    await page.waitForFunction(() => document.body.getAttribute("data-jp-theme-light") === "false", null, { timeout: 30000, polling: 200 });
    await page.waitForTimeout(500);
    let dc = await chartCounts();
    for (let i = 0; i < 100 && !allDrawn(dc); i++) { await page.waitForTimeout(200); dc = await chartCounts(); }
    await showEveryChart();
    dc = await chartCounts();
    const look = await page.evaluate(() => {
      const card = document.querySelector(".ranklab-cards");
      return { body: getComputedStyle(document.body).backgroundColor, cards: card ? getComputedStyle(card).color : null };
    });
    check("dark theme: every chart redrawn (each scrolled into view)", dc.dom > 0 && dc.drawn === dc.dom, `${dc.drawn} of ${dc.dom}; page ${look.body}, card text ${look.cards}`);
    await cellShot("dark-cards", ".ranklab-cards");
    await cellShot("dark-ranking", '[aria-label^="Ranking"]');
    await cellShot("dark-chunks", '[aria-label^="Chunk"]');
    await cellShot("dark-panel", "[data-live-panel]");
    await page.evaluate(() => window.jupyterapp.commands.execute("apputils:change-theme", { theme: "JupyterLab Light" }));
    await page.waitForFunction(() => document.body.getAttribute("data-jp-theme-light") === "true", null, { timeout: 30000, polling: 200 }).catch(() => {});
  }

  if (ORPHANS && !classic) {
    // Restart the kernel while a panel runs: its program must end too (not re-parented to PID 1).
    await fe.runPanelCell();
    await waitLive(120000);
    progs = cellPrograms();
    const tR = Date.now();
    await fe.restart();
    const goneR = await allGone(progs.map((p) => p.pid), 15000);
    check("kernel restart: the panel's program ended", progs.length > 0 && goneR,
      `${names(progs) || "no program found while live"}: ${goneR ? `gone ${Date.now() - tR} ms after the restart` : "STILL RUNNING"}`);
    // Stop the server while a panel runs (a new Run All: the restart cleared the kernel's cells).
    await fe.ready();
    await fe.runAll();
    await waitLive(RUN_TIMEOUT);
    progs = cellPrograms();
    if (SERVER_PID) {
      const tS = Date.now();
      process.kill(SERVER_PID, "SIGTERM");
      const goneS = await allGone(progs.map((p) => p.pid), 20000);
      check("server stopped: the panel's program ended", progs.length > 0 && goneS,
        `${names(progs) || "no program found while live"}: ${goneS ? `gone ${Date.now() - tS} ms after SIGTERM to the server` : "STILL RUNNING"}`);
    }
  }
}

// fallbackRuns counts, over `runs` fresh kernels, how often the panel falls back to its static
// snapshot instead of going live (scripts/live-fallbacks.sh runs it under load): each run
// restarts the kernel (so GoNB installs its WebSocket to the page anew), runs every cell, waits
// for the panel to be live or static, records the load average, and presses Done.
async function fallbackRuns(runs) {
  const rows = [];
  for (let i = 1; i <= runs; i++) {
    if (i > 1) {
      await fe.restart();
      await page.waitForTimeout(1000);
      await fe.ready();
    }
    const t = Date.now();
    await fe.runAll();
    const h = await page.waitForFunction(() => {
      const p = document.querySelectorAll("[data-live-panel]");
      const last = p.length ? p[p.length - 1] : null;
      if (!last) return null;
      if (last.dataset.liveState === "live") return "live";
      if (last.dataset.liveReason === "no-frontend") return "static";
      return null;
    }, null, { timeout: RUN_TIMEOUT, polling: 100 }).then((x) => x.jsonValue()).catch(() => "timeout");
    const load = Number(readFileSync("/proc/loadavg", "utf8").split(" ")[0]);
    rows.push({ run: i, result: h, seconds: (Date.now() - t) / 1000, load1: load });
    console.log(`run ${i}: ${h} after ${((Date.now() - t) / 1000).toFixed(1)} s, load ${load}`);
    if (h === "live") {
      await press("done");
      await page.waitForFunction(() => document.querySelector('[data-live-panel][data-live-state="closed"]'), null, { timeout: 30000, polling: 100 }).catch(() => {});
    }
    await fe.idle();
  }
  const fallbacks = rows.filter((r) => r.result !== "live").length;
  const loads = rows.map((r) => r.load1);
  summary.fallback_runs = rows;
  summary.fallbacks = fallbacks;
  check(`${runs} runs: the panel went live every time (no fallback to the snapshot)`, fallbacks === 0,
    `${fallbacks} fallbacks in ${runs} runs; load average (1 min) ${Math.min(...loads)}..${Math.max(...loads)}, mean ${(loads.reduce((a, b) => a + b, 0) / loads.length).toFixed(1)}`);
}

try {
  await page.goto(fe.url(), { waitUntil: "domcontentloaded" });
  await fe.ready();
  if (RUNS > 0) { await fallbackRuns(RUNS); } else { await mainTest(); }
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
