// Browser test of `pascal report`: headless Chromium (Debian's chromium,
// /usr/bin/chromium) driven by playwright-core loads generated reports with
// every network request refused, checks that every plot rendered with data
// (a Vega view whose dataset has rows and a canvas with drawn pixels),
// operates the cache-lab panel (capacity 4, stride 4, Reset, Step: 13 hits;
// capacity 2: 0 hits), cross-checks the panel against `pascal lab --json`,
// and saves a screenshot.
//
// usage: node report_browser_test.mjs --pascal PASCAL --web BUILD/web
//                                     --source SOURCE_DIR --out OUT_DIR
// Exit status: 0 pass, 1 fail, 77 skipped (no chromium or no playwright-core).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const SKIP = 77;
const args = {};
for (let i = 2; i + 1 < process.argv.length; i += 2) args[process.argv[i].replace(/^--/, '')] = process.argv[i + 1];
const chromiumPath = process.env.PASCAL_CHROMIUM || '/usr/bin/chromium';
const failures = [];
let checks = 0;

function check(ok, what) {
  checks++;
  if (!ok) failures.push(what);
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
}

function skip(why) {
  console.log(`report_browser: skipped: ${why}`);
  process.exit(SKIP);
}

function run(cmd, argv) {
  return execFileSync(cmd, argv, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

// Reports: the default sweep (capacity plot, heatmap, sizing) and a
// synthetic file with dynamic columns (dynamic plot, occupancy x depth).
function makeReports(out) {
  const made = [];
  run(args.pascal, ['run', path.join(args.source, 'configs/default.yaml'), '-o',
                    path.join(out, 'default.h5'), '--quiet']);
  run(args.pascal, ['report', path.join(out, 'default.h5'), '-o', path.join(out, 'default.html')]);
  made.push({ name: 'default', html: path.join(out, 'default.html'),
              plots: ['capacity', 'heatmap'], sizing: true });
  try {
    run('/usr/bin/python3', [path.join(args.source, 'tests/browser/make_dynamic.py'),
                             path.join(out, 'dynamic.h5')]);
  } catch (e) {
    console.log('note: /usr/bin/python3 with h5py is missing; the dynamic report is not checked');
    return made;
  }
  run(args.pascal, ['report', path.join(out, 'dynamic.h5'), '-o', path.join(out, 'dynamic.html')]);
  made.push({ name: 'dynamic', html: path.join(out, 'dynamic.html'),
              plots: ['heatmap', 'dynamic'], sizing: false, heat: ['depth', 'occupancy'] });
  return made;
}

// Drawn pixels of the canvas in #plot-NAME (not white, not transparent).
async function drawnPixels(page, name) {
  return page.evaluate((n) => {
    const c = document.querySelector(`#plot-${n} canvas`);
    if (!c) return 0;
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    let k = 0;
    for (let i = 0; i < d.length; i += 4)
      if (d[i + 3] > 0 && (d[i] < 235 || d[i + 1] < 235 || d[i + 2] < 235)) k++;
    return k;
  }, name);
}

async function checkPlots(page, report) {
  const state = await page.evaluate(() => {
    const R = window.pascalReport;
    return { plots: R.plots, errors: R.errors,
             rows: Object.fromEntries(Object.entries(R.views).map(([k, v]) => [k, v.data('table').length])),
             drawn: R.rows, heat: R.data.plots.heatmap };
  });
  check(JSON.stringify(state.plots.slice().sort()) === JSON.stringify(report.plots.slice().sort()),
        `${report.name}: plots ${state.plots.join(', ')} (expected ${report.plots.join(', ')})`);
  check(state.errors.length === 0, `${report.name}: no plot errors ${state.errors.join('; ')}`);
  for (const p of state.plots) {
    check(state.rows[p] > 0 && state.drawn[p] > 0,
          `${report.name}: plot ${p} has data (${state.rows[p]} rows, ${state.drawn[p]} with values)`);
    const px = await drawnPixels(page, p);
    check(px > 2000, `${report.name}: plot ${p} drew ${px} pixels`);
  }
  if (report.heat)
    check(state.heat && state.heat.x === report.heat[0] && state.heat.y === report.heat[1],
          `${report.name}: heatmap defaults to ${report.heat.join(' x ')}`);
}

async function checkSizing(page, report) {
  const n = await page.locator('#sizing tr').count();
  const shown = await page.locator('#sec-sizing').isVisible();
  check(report.sizing ? shown && n > 1 : !shown,
        `${report.name}: sizing table ${report.sizing ? `has ${n - 1} rows` : 'absent (no capacity axis)'}`);
  if (!report.sizing) return;
  // aligned phases: every worker shares each block, so the smallest capacity meets any target
  const aligned = await page.locator('#sizing tr', { hasText: 'aligned' }).first().innerText();
  check(/4 MiB/.test(aligned), `${report.name}: aligned scenarios size at the smallest capacity (${aligned.replace(/\s+/g, ' ')})`);
}

// Changing a selector redraws with data.
async function checkSelectors(page, report) {
  if (!report.plots.includes('capacity')) return;
  const lines = page.locator('#ctl-capacity label', { hasText: 'lines by' }).locator('select');
  await lines.selectOption('occupancy');
  await page.waitForFunction(() => window.pascalReport.views.capacity &&
    window.pascalReport.views.capacity.data('table').some((r) => r.series === '8'));
  const unit = page.locator('#ctl-capacity label', { hasText: 'capacity in' }).locator('select');
  await unit.selectOption('blocks');
  await page.waitForFunction(() => window.pascalReport.views.capacity.data('table')
    .every((r) => r.x <= 8192));
  check(await drawnPixels(page, 'capacity') > 2000, `${report.name}: capacity plot redrawn by occupancy, in blocks`);
  await lines.selectOption('pattern');
  await unit.selectOption('bytes');
}

async function labValues(page) {
  return page.evaluate(() => ['requests', 'hits', 'misses'].map(
    (k) => Number(document.getElementById(`lab-${k}`).textContent)));
}

async function setInput(page, id, value) {
  await page.fill(id, String(value));
  await page.press(id, 'Tab'); // commit: the panel acts on change
}

async function checkLab(page, report) {
  const warning = await page.locator('#lab-warning').innerText();
  check(/not a GPU cache/i.test(warning) && /sectors/.test(warning) && /associativity/.test(warning) &&
        /cache operators/.test(warning) && /replacement policy/.test(warning),
        `${report.name}: lab says plainly it is not a GPU cache`);
  let v = await labValues(page);
  check(v[0] === 16 && v[1] + v[2] === 16, `${report.name}: lab starts with 16 requests counted (${v})`);
  await setInput(page, '#lab-capacity', 4);
  await setInput(page, '#lab-stride', 4);
  await page.click('#lab-reset');
  v = await labValues(page);
  check(v[0] === 16 && v[1] === 12, `${report.name}: capacity 4, stride 4, Reset: 16 requests, 12 hits (${v})`);
  await page.click('#lab-step');
  v = await labValues(page);
  check(v[0] === 17 && v[1] === 13 && v[2] === 4, `${report.name}: Step: 17 requests, 13 hits (${v})`);
  await setInput(page, '#lab-capacity', 2);
  v = await labValues(page);
  check(v[0] === 17 && v[1] === 0 && v[2] === 17, `${report.name}: capacity 2: 17 requests replayed, 0 hits (${v})`);
  const cache = await page.locator('#lab-cache div').allInnerTexts();
  check(cache.join(' ') === '0 3', `${report.name}: capacity 2 holds [0 3], most recent first (${cache.join(' ')})`);
  await setInput(page, '#lab-capacity', 0);
  const err = await page.locator('#lab-error').innerText();
  v = await labValues(page);
  check(/expected an integer 1\.\.64/.test(err) && v[0] === 17 && v[1] === 0,
        `${report.name}: capacity 0 is refused and changes nothing (${err})`);
}

// The panel and `pascal lab --json` agree on seeded random settings.
async function checkLabAgainstCli(page) {
  let seed = 2385;
  const rand = (n) => { seed = (seed * 1103515245 + 12345) % 2147483648; return 1 + (seed % n); };
  let agree = 0;
  for (let t = 0; t < 12; t++) {
    const c = rand(9), s = rand(12), k = rand(40) - 1;
    const cli = JSON.parse(run(args.pascal, ['lab', '--capacity', c, '--stride', s, '--steps', k, '--json']));
    const web = await page.evaluate(([c, s, k]) => {
      const L = window.pascalReport.data.lab;
      const lab = new PascalLab.Lab(Object.assign({}, L, { capacity: c, stride: s }));
      lab.step(k);
      return { requests: lab.requests, hits: lab.hits, misses: lab.misses, cache: lab.lines };
    }, [c, s, k]);
    if (cli.requests === web.requests && cli.hits === web.hits && cli.misses === web.misses &&
        JSON.stringify(cli.cache) === JSON.stringify(web.cache)) agree++;
    else console.log(`  differs at capacity ${c} stride ${s} steps ${k}: ${JSON.stringify(cli)} vs ${JSON.stringify(web)}`);
  }
  check(agree === 12, `lab panel agrees with pascal lab --json on ${agree}/12 random settings`);
}

async function main() {
  for (const k of ['pascal', 'web', 'source', 'out'])
    if (!args[k]) { console.log(`usage: missing --${k}`); process.exit(1); }
  if (!fs.existsSync(chromiumPath)) skip(`${chromiumPath} not found (apt-get install chromium)`);
  let chromium;
  try {
    chromium = createRequire(path.resolve(args.web, 'package.json'))('playwright-core').chromium;
  } catch (e) {
    skip(`playwright-core is not installed in ${args.web} (the build runs npm ci there)`);
  }
  fs.mkdirSync(args.out, { recursive: true });
  const reports = makeReports(args.out);
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'pascal-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath, headless: true, viewport: { width: 1280, height: 900 },
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
           '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const network = [];
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith('file:') || url.startsWith('data:') || url.startsWith('blob:')) return route.continue();
    network.push(url);
    return route.abort();
  });
  try {
    for (const report of reports) {
      const page = await context.newPage();
      const pageErrors = [];
      page.on('pageerror', (e) => pageErrors.push(String(e)));
      page.on('console', (m) => { if (m.type() === 'error') pageErrors.push(m.text()); });
      await page.goto(pathToFileURL(report.html).href);
      await page.waitForFunction(() => window.pascalReport && window.pascalReport.ready, null, { timeout: 30000 });
      await page.evaluate(() => window.pascalReport.ready.then(() => true));
      await checkPlots(page, report);
      await checkSizing(page, report);
      await checkSelectors(page, report);
      await checkLab(page, report);
      if (report.name === 'default') {
        await checkLabAgainstCli(page);
        await setInput(page, '#lab-capacity', 4);
        await page.click('#lab-reset');
        await page.click('#lab-step');
        await page.evaluate(() => window.scrollTo(0, 0));
        const shot = path.join(args.out, 'report-screenshot.png');
        await page.screenshot({ path: shot, fullPage: true });
        check(fs.statSync(shot).size > 10000, `screenshot saved to ${shot}`);
      }
      check(pageErrors.length === 0, `${report.name}: no page errors ${pageErrors.join('; ')}`);
      await page.close();
    }
  } finally {
    await context.close();
    fs.rmSync(profile, { recursive: true, force: true });
  }
  check(network.length === 0, `no network requests (${network.join(', ')})`);
  console.log(`report_browser: ${checks - failures.length}/${checks} checks passed`);
  process.exit(failures.length ? 1 : 0);
}

main().catch((e) => {
  console.log(`report_browser: error: ${e.stack || e}`);
  process.exit(1);
});
