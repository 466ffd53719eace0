#!/usr/bin/env node
// Usage: node scripts/check-charts.mjs OUTDIR PAGE.html[=MIN_CHARTS[:TEXT]]...
//
// Loads each standalone ranklab page (charts.Page) in headless Chromium (playwright-core driving
// /usr/bin/chromium, or $CHROMIUM) with every http(s) request refused, so charts can only draw
// from the ECharts embedded in the page. A page passes when
//   - it has at least MIN_CHARTS chart containers (class "ranklab-chart", default 1),
//   - every container reports data-drawn="1" within 30 s,
//   - every container's canvas is not blank: it has at least 2% painted (non-transparent,
//     non-white) pixels and at least 3 distinct colours (read with getImageData),
//   - no JavaScript error, no alert/confirm dialog and no network request happened, also while
//     the tooltip of every data item is shown (ECharts writes tooltips as HTML),
//   - when TEXT is given (e.g. a hostile ID), the page's text and some tooltip show it literally.
// Writes OUTDIR/<page>.png (full page) and OUTDIR/<page>-<n>.png (each chart), prints one line
// per chart and per page, and exits 1 when any page fails.
import path from 'node:path';
import fs from 'node:fs';
import { chromium } from 'playwright-core';

const WAIT_MS = 30000;
const MIN_PAINTED = 0.02;
const MIN_COLOURS = 3;

async function check(browser, outDir, spec) {
  const m = spec.match(/^(.*?\.html)(?:=(\d+)(?::(.*))?)?$/s);
  if (!m) throw new Error(`bad page spec ${spec}`);
  const [, file, minStr, text] = m;
  const min = minStr ? Number(minStr) : 1;
  const name = path.basename(file, '.html');
  const problems = [];
  const page = await browser.newPage({ viewport: { width: 1100, height: 900 }, deviceScaleFactor: 1 });
  page.on('pageerror', e => problems.push(`js error: ${e}`));
  page.on('console', msg => { if (msg.type() === 'error') problems.push(`console error: ${msg.text()}`); });
  page.on('dialog', d => { problems.push(`dialog opened: ${d.type()} ${JSON.stringify(d.message())}`); d.dismiss().catch(() => {}); });
  await page.route(/^(https?|wss?):/, route => { problems.push(`network request: ${route.request().url()}`); route.abort(); });
  await page.goto('file://' + path.resolve(file), { waitUntil: 'load', timeout: 60000 });

  const state = () => page.evaluate(() => [...document.querySelectorAll('.ranklab-chart')]
    .map(e => ({ id: e.id, label: e.getAttribute('aria-label'), drawn: e.getAttribute('data-drawn') === '1' })));
  let charts = await state();
  const t0 = Date.now();
  while (charts.some(c => !c.drawn) && Date.now() - t0 < WAIT_MS) {
    await page.waitForTimeout(200);
    charts = await state();
  }
  if (charts.length < min) problems.push(`${charts.length} chart containers, want at least ${min}`);

  // Pixels of every canvas inside each container: painted share and number of colours.
  const pixels = await page.evaluate(() => [...document.querySelectorAll('.ranklab-chart')].map(e => {
    const cs = e.querySelectorAll('canvas');
    let total = 0, painted = 0;
    const colours = new Set();
    for (const c of cs) {
      const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
      total += c.width * c.height;
      for (let i = 0; i < d.length; i += 4) {
        if (d[i + 3] > 0 && !(d[i] > 250 && d[i + 1] > 250 && d[i + 2] > 250)) {
          painted++;
          if (colours.size < 1000) colours.add((d[i] >> 4) << 8 | (d[i + 1] >> 4) << 4 | (d[i + 2] >> 4));
        }
      }
    }
    return { canvases: cs.length, total, painted, colours: colours.size };
  }));

  fs.mkdirSync(outDir, { recursive: true });
  await page.screenshot({ path: path.join(outDir, `${name}.png`), fullPage: true });
  const handles = await page.$$('.ranklab-chart');
  for (let i = 0; i < charts.length; i++) {
    const c = charts[i], p = pixels[i];
    const share = p.total ? p.painted / p.total : 0;
    const bad = [];
    if (!c.drawn) bad.push('not drawn');
    if (p.canvases === 0) bad.push('no canvas');
    else if (share < MIN_PAINTED || p.colours < MIN_COLOURS) bad.push('blank canvas');
    console.log(`  ${name} #${i + 1} ${JSON.stringify(c.label)}: drawn=${c.drawn} painted=${(100 * share).toFixed(1)}% colours=${p.colours}${bad.length ? '  FAIL ' + bad.join(', ') : ''}`);
    for (const b of bad) problems.push(`chart #${i + 1} ${JSON.stringify(c.label)}: ${b}`);
    await handles[i].screenshot({ path: path.join(outDir, `${name}-${i + 1}.png`) });
  }
  // Show the tooltip of every data item of every chart (ECharts writes tooltips as HTML): a
  // hostile ID that escaped its escaping would open a dialog or throw here. The tooltip texts
  // are kept to look for TEXT.
  const tips = await page.evaluate(async () => {
    const texts = [];
    for (const el of document.querySelectorAll('.ranklab-chart')) {
      const c = window.echarts && window.echarts.getInstanceByDom(el);
      if (!c) continue;
      (c.getOption().series || []).forEach((s, si) => {
        (s.data || []).forEach((d, di) => {
          if (d === '-' || (d && d.value === '-')) return;
          c.dispatchAction({ type: 'showTip', seriesIndex: si, dataIndex: di });
          for (const t of el.querySelectorAll('div[style*="z-index"]')) texts.push(t.textContent);
        });
      });
      c.dispatchAction({ type: 'hideTip' });
      await new Promise(r => setTimeout(r, 20));
    }
    return texts;
  });
  await page.waitForTimeout(200);
  if (text !== undefined) {
    const body = await page.evaluate(() => document.body.innerText);
    if (!body.includes(text)) problems.push(`page text lacks ${JSON.stringify(text)}`);
    if (!tips.some(t => t.includes(text))) problems.push(`no tooltip shows ${JSON.stringify(text)}`);
  }
  await page.close();
  return { name, charts: charts.length, problems };
}

const [outDir, ...specs] = process.argv.slice(2);
if (!outDir || specs.length === 0) {
  console.error('usage: check-charts.mjs OUTDIR PAGE.html[=MIN_CHARTS[:TEXT]]...');
  process.exit(2);
}
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
});
let failed = 0;
for (const spec of specs) {
  try {
    const r = await check(browser, outDir, spec);
    if (r.problems.length) failed++;
    console.log(`${r.name}: charts=${r.charts} ${r.problems.length ? 'FAIL' : 'ok'}`);
    for (const p of r.problems) console.log(`  ${p}`);
  } catch (e) {
    failed++;
    console.log(`${spec}: cannot check: ${e.message}  FAIL`);
  }
}
await browser.close();
process.exit(failed ? 1 : 0);
