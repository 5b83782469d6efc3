// Loads a rigbench HTML report in real headless Chromium (Debian's /usr/bin/chromium, driven
// by playwright-core from the npm folder scripts/setup fills) and prints one JSON object of
// what happened, for tests/e2e/report_browser_e2e_test.cpp to judge:
//   console_errors   console messages of type error or warning, and uncaught page errors
//   requests         every request other than the report file itself (any is a failure)
//   dialogs          alert/confirm/prompt dialogs opened (a script injected through a name)
//   charts           per canvas: id, size, how many of its pixels are painted, the y scale's
//                    type (linear, logarithmic), the smallest drawn bar's height in pixels
//                    (bar charts), the y axis title, and per dataset its label and whether
//                    its line is dashed
//   tables           per table box: its overflow-x, scroll and client width, the tallest cell's
//                    text in pixels, and the tallest cell that is neither a header nor a figure
//                    that may wrap between its pieces (td.pieces): a name wrapped over lines
//                    makes it tall
//   page_width       the document's scroll width (wider than the viewport = clipped page)
//   injected_scripts <script> elements whose text mentions alert (none expected)
//   texts            document.body.innerText (so a test can find a name shown as text)
//   screenshot       the PNG written (full page)
// Usage: node report_browser_check.mjs NPM_DIR CHROMIUM REPORT.html SCREENSHOT.png [VIEWPORT_WIDTH (default 1400)]
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import fs from 'node:fs';
import os from 'node:os';

const [npmDir, chromiumPath, reportPath, screenshotPath, viewportWidth] = process.argv.slice(2);
const require = createRequire(path.join(path.resolve(npmDir), 'package.json'));
const { chromium } = require('playwright-core');

const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'rigbench-chromium-'));
const context = await chromium.launchPersistentContext(profile, {
  executablePath: chromiumPath,
  headless: true,
  viewport: { width: Number(viewportWidth ?? 1400), height: 900 },
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
         '--disable-component-update', '--disable-sync'],
});
const result = { console_errors: [], requests: [], dialogs: [], charts: [], tables: [], page_width: 0, injected_scripts: 0,
                 texts: '', screenshot: '' };
try {
  const page = context.pages()[0] ?? await context.newPage();
  const reportUrl = pathToFileURL(path.resolve(reportPath)).href;
  page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') result.console_errors.push(m.text()); });
  page.on('pageerror', (e) => result.console_errors.push('uncaught: ' + e.message));
  page.on('dialog', async (d) => { result.dialogs.push(d.type() + ': ' + d.message()); await d.dismiss(); });
  context.on('request', (r) => { if (r.url() !== reportUrl) result.requests.push(r.url()); });
  await page.goto(reportUrl, { waitUntil: 'load' });
  await page.waitForTimeout(300);  // let the charts' resize observers settle
  result.charts = await page.evaluate(() => Array.from(document.querySelectorAll('canvas')).map((c) => {
    const ctx = c.getContext('2d');
    const pixels = ctx.getImageData(0, 0, c.width, c.height).data;
    let painted = 0;
    for (let i = 3; i < pixels.length; i += 4) if (pixels[i] !== 0) painted++;
    const chart = window.Chart ? window.Chart.getChart(c) : undefined;
    let minBar = null;
    const dashed = [];
    if (chart) {
      chart.data.datasets.forEach((d, i) => {
        dashed.push(Array.isArray(d.borderDash) && d.borderDash.length > 0);
        if (chart.config.type !== 'bar') return;
        chart.getDatasetMeta(i).data.forEach((el, j) => {
          const v = d.data[j];
          if (v === null || v === undefined) return;
          const h = Math.abs(el.base - el.y);
          if (minBar === null || h < minBar) minBar = h;
        });
      });
    }
    return { id: c.id, width: c.width, height: c.height, painted, scale: chart ? chart.scales.y.type : '',
             y_title: chart ? chart.options.scales.y.title.text : '', labels: chart ? chart.data.datasets.map((d) => d.label) : [],
             min_bar_px: minBar, dashed };
  }));
  result.tables = await page.evaluate(() => Array.from(document.querySelectorAll('div.table')).map((t) => {
    let tallest = 0, tallestName = 0;
    t.querySelectorAll('td, th').forEach((c) => {
      // The height of the cell's text, not of its row (a row is as tall as its tallest cell).
      const range = document.createRange();
      range.selectNodeContents(c);
      const h = range.getBoundingClientRect().height;
      tallest = Math.max(tallest, h);
      if (c.tagName === 'TD' && !c.classList.contains('pieces')) tallestName = Math.max(tallestName, h);
    });
    return { overflow_x: getComputedStyle(t).overflowX, scroll_width: t.scrollWidth, client_width: t.clientWidth,
             tallest_cell_px: tallest, tallest_name_px: tallestName };
  }));
  result.page_width = await page.evaluate(() => document.documentElement.scrollWidth);
  result.injected_scripts = await page.evaluate(
    () => Array.from(document.scripts).filter((s) => s.type !== 'application/json' && /alert\(/.test(s.text) &&
                                                      s.text.length < 1000).length);
  result.texts = await page.evaluate(() => document.body.innerText);
  await page.screenshot({ path: screenshotPath, fullPage: true });
  result.screenshot = screenshotPath;
} finally {
  await context.close();
  fs.rmSync(profile, { recursive: true, force: true });
}
process.stdout.write(JSON.stringify(result) + '\n');
