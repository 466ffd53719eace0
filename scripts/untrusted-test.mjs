// Opens a notebook saved with outputs but not trusted (executed by nbconvert: unsigned) in
// JupyterLab, as someone who received it would, and checks what shows, in JupyterLab's DOM:
//   1. untrusted: plain HTML (metric cards, tables) shows; no chart container is a blank box:
//      each shows its one-line note (class ranklab-chart-note, visible, at most 80 px tall);
//   2. after "Trust Notebook" (the command and its dialog): every chart draws (data-drawn="1").
// Screenshots in OUT (untrusted.png, trusted.png). Run by scripts/check-notebooks.sh.
// Environment: BASE, TOKEN, NOTEBOOK (path under the server's root), OUT, CHROMIUM.
import { chromium } from "playwright-core";
import { mkdirSync } from "node:fs";

const { BASE, TOKEN = "", NOTEBOOK, OUT = "ci-artifacts/notebooks" } = process.env;
mkdirSync(OUT, { recursive: true });
let failures = 0;
function check(name, ok, detail) {
  console.log(`${ok ? "ok  " : "FAIL"} ${name}${detail ? " — " + detail : ""}`);
  if (!ok) failures++;
}
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking"],
});
const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
// what the outputs show: cards, tables, chart containers and their notes. Each chart is
// scrolled into view before it is measured (JupyterLab skips the layout of cells off screen).
const look = () => page.evaluate(async () => {
  const frame = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  const charts = [...document.querySelectorAll(".ranklab-chart")];
  let noted = 0, tall = 0, drawn = 0;
  for (const e of charts) {
    e.scrollIntoView({ block: "center" });
    await frame();
    if (e.getAttribute("data-drawn") === "1") { drawn++; continue; }
    const n = e.querySelector(".ranklab-chart-note");
    const r = n ? n.getBoundingClientRect() : null;
    if (n && r.width > 0 && r.height > 0 && n.textContent.trim()) noted++;
    if (e.getBoundingClientRect().height > 80) tall++;
  }
  return {
    cards: [...document.querySelectorAll(".ranklab-cards")].filter((e) => e.textContent.trim().length > 0).length,
    tables: [...document.querySelectorAll(".jp-OutputArea table")].filter((e) => e.rows.length > 1).length,
    charts: charts.length, drawn, noted, tall,
    note: (document.querySelector(".ranklab-chart-note") || {}).textContent || "",
  };
});
try {
  await page.goto(`${BASE}/lab/tree/${NOTEBOOK}?token=${TOKEN}`, { waitUntil: "domcontentloaded" });
  await page.waitForFunction(() => {
    const w = window.jupyterapp && window.jupyterapp.shell.currentWidget;
    return !!w && !!w.content && w.content.widgets.length > 0 && document.querySelectorAll(".ranklab-chart").length > 0;
  }, null, { timeout: 90000, polling: 200 });
  // JupyterLab 4 renders cells lazily as they scroll into view: walk through the notebook once.
  await page.evaluate(async () => {
    const nb = window.jupyterapp.shell.currentWidget.content;
    for (const c of nb.widgets) { c.node.scrollIntoView(); await new Promise((r) => setTimeout(r, 30)); }
    nb.widgets[0].node.scrollIntoView();
  });
  await page.waitForTimeout(3000);
  let u = await look();
  const trusted = await page.evaluate(() => window.jupyterapp.shell.currentWidget.content.model.cells.get(1).trusted);
  check("the notebook opens untrusted", trusted === false, `first code cell trusted=${trusted}`);
  check("untrusted: metric cards and tables show", u.cards > 0 && u.tables > 0, `${u.cards} card blocks, ${u.tables} tables`);
  check("untrusted: every chart shows its one-line note, no blank box", u.charts > 0 && u.noted === u.charts && u.tall === 0 && u.drawn === 0,
    `${u.noted} of ${u.charts} with the note, ${u.tall} taller than 80 px, ${u.drawn} drawn; note: "${u.note}"`);
  await page.evaluate(() => { const c = document.querySelector(".ranklab-chart"); if (c) c.scrollIntoView({ block: "center" }); });
  await page.waitForTimeout(500);
  await page.screenshot({ path: `${OUT}/untrusted.png` });
  // Trust: the command asks in a dialog.
  await page.evaluate(() => { window.jupyterapp.commands.execute("notebook:trust"); });
  await page.locator(".jp-Dialog .jp-mod-accept").click({ timeout: 20000 });
  await page.evaluate(async () => {
    const nb = window.jupyterapp.shell.currentWidget.content;
    for (const c of nb.widgets) { c.node.scrollIntoView(); await new Promise((r) => setTimeout(r, 30)); }
    nb.widgets[0].node.scrollIntoView();
  });
  let t = await look();
  for (let i = 0; i < 150 && t.drawn < t.charts; i++) { await page.waitForTimeout(200); t = await look(); }
  check("after Trust Notebook every chart draws", t.charts > 0 && t.drawn === t.charts, `${t.drawn} of ${t.charts}`);
  await page.evaluate(() => { const c = document.querySelector(".ranklab-chart"); if (c) c.closest(".jp-Cell").scrollIntoView(); });
  await page.waitForTimeout(500);
  await page.screenshot({ path: `${OUT}/trusted.png` });
} catch (e) {
  check("untrusted test ran to the end", false, e.stack || String(e));
  await page.screenshot({ path: `${OUT}/untrusted-error.png` }).catch(() => {});
}
await browser.close();
console.log(`untrusted notebook: ${failures} failed`);
process.exit(failures ? 1 : 0);
