#!/usr/bin/env node
// Usage: node scripts/charts-drawn.js [--min=N] PAGE.html [--min=N] PAGE.html...
//
// Opens each exported notebook (or any ranklab page) in headless Chromium (playwright-core
// driving /usr/bin/chromium, network blocked so only offline charts can draw) and counts the
// chart containers (class "ranklab-chart", written by package charts) and how many of them report
// data-drawn="1". --min=N (default 0) sets the least number of containers the pages after it
// must have. Prints one line per page:
//   <page>: containers=N drawn=M errors=E
// and a screenshot beside it (<page>.png). Exits 1 when a page has a container that did not draw,
// fewer containers than --min, a JavaScript error, a formula that did not render (a MathML
// element without a size, or TeX left in a markdown cell), or cannot be opened. Set CHROMIUM to another browser binary if needed.
'use strict';
const path = require('path');
const { chromium } = require('playwright-core');

const CONTAINER = '.ranklab-chart';
const WAIT_MS = 30000;

async function check(browser, file) {
  const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
  const errors = [];
  page.on('pageerror', e => errors.push(String(e)));
  // Offline: a page must draw from what it embeds. Any http(s) request is refused.
  await page.route(/^https?:/, route => route.abort());
  await page.goto('file://' + path.resolve(file), { waitUntil: 'load', timeout: 60000 });
  const count = () => page.evaluate(sel => {
    const all = document.querySelectorAll(sel);
    let drawn = 0;
    for (const e of all) if (e.getAttribute('data-drawn') === '1') drawn++;
    return { containers: all.length, drawn };
  }, CONTAINER);
  let c = await count();
  const t0 = Date.now();
  while (c.drawn < c.containers && Date.now() - t0 < WAIT_MS) {
    await page.waitForTimeout(200);
    c = await count();
  }
  // Formulas: MathML elements (scripts/export-html.py) must have a size; TeX left for MathJax
  // ($$ in the text of a markdown cell) means a formula that will not render offline.
  const math = await page.evaluate(() => {
    const els = [...document.querySelectorAll('math')];
    const md = [...document.querySelectorAll('.jp-MarkdownOutput, .text_cell_render')].map(e => e.innerText).join('\n');
    return { n: els.length, blank: els.filter(e => { const r = e.getBoundingClientRect(); return r.width < 1 || r.height < 1; }).length,
      tex: (md.match(/\$\$|\\frac|\\text\{/g) || []).length };
  });
  await page.screenshot({ path: file.replace(/\.html$/, '') + '.png', fullPage: true });
  await page.close();
  return { ...c, errors, math };
}

(async () => {
  const files = process.argv.slice(2).filter(a => !a.startsWith('--min='));
  if (files.length === 0) { console.error('usage: charts-drawn.js PAGE.html...'); process.exit(2); }
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
  let bad = 0, min = 0;
  for (const f of process.argv.slice(2)) {
    if (f.startsWith('--min=')) { min = Number(f.slice(6)); continue; }
    try {
      const r = await check(browser, f);
      const mathOK = r.math.blank === 0 && r.math.tex === 0;
      const ok = r.drawn === r.containers && r.containers >= min && r.errors.length === 0 && mathOK;
      if (!ok) bad++;
      console.log(`${path.basename(f)}: containers=${r.containers} drawn=${r.drawn} errors=${r.errors.length} formulas=${r.math.n}` +
        `${mathOK ? '' : ` (${r.math.blank} blank, ${r.math.tex} left as TeX)`}${ok ? '' : '  FAIL'}${r.containers < min ? ` (want at least ${min} charts)` : ''}`);
      for (const e of r.errors) console.log(`  js error: ${e}`);
    } catch (e) {
      bad++;
      console.log(`${path.basename(f)}: cannot check: ${e.message}  FAIL`);
    }
  }
  await browser.close();
  process.exit(bad ? 1 : 0);
})();
