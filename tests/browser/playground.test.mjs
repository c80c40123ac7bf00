// The playground in a real browser: Debian's chromium, headless, driven
// by playwright-core against a real `toolcalc serve --dev` (own port, own data dir). Every
// tool is opened, submitted with its defaults and its shown numbers compared with the
// API's answer to the same body; a validation error must appear beside the field the API
// names; sweeps must plot the requested number of points; the Tolerances panel must show
// the API's statistics, histogram and sensitivity, and the Solve panel its solutions and
// errors. Screenshots of a tool page, a sweep, a tolerance analysis (and the page at 375 px)
// are saved to $TOOLCALC_ARTIFACTS (build/artifacts).
//
// Run: make browser-test  (TOOLCALC_BIN, TOOLCALC_ARTIFACTS, CHROMIUM override the defaults)
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { chromium } from 'playwright-core';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const BIN = process.env.TOOLCALC_BIN || join(REPO, 'build', 'toolcalc');
const ARTIFACTS = process.env.TOOLCALC_ARTIFACTS || join(REPO, 'build', 'artifacts');
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';

let workdir;
let server;
let origin; // http://127.0.0.1:PORT
let base;   // origin + /api
let devKey;
let browser;
let page;
const pageProblems = []; // console errors, uncaught exceptions, CSP violations
// JavaScript values that must never reach the page as text.
const LEAKED = /\bnull\b|\bundefined\b|\[object |NaN/;

function startServer(args) {
  return new Promise((resolvePromise, reject) => {
    const proc = spawn(BIN, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    const timer = setTimeout(() => reject(new Error(`server did not start: ${out} ${err}`)), 15000);
    // The start-up line is an operational log line (JSON on stderr); the dev key is
    // printed for a person on stdout.
    const check = () => {
      const listen = /"msg":"listening on ([^"]+):(\d+)"/.exec(err);
      const key = /dev key \(shown once\): (tc_test_[A-Za-z0-9]+)/.exec(out);
      if (listen && key) {
        clearTimeout(timer);
        resolvePromise({ proc, port: Number(listen[2]), key: key[1] });
      }
    };
    proc.stderr.on('data', (d) => { err += d; check(); });
    proc.stdout.on('data', (d) => { out += d; check(); });
    proc.on('exit', (code) => reject(new Error(`toolcalc serve exited ${code}: ${out} ${err}`)));
  });
}

async function api(method, path, body) {
  const headers = { Authorization: `Bearer ${devKey}` };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const r = await fetch(base + path, {
    method, headers, body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await r.text();
  return { status: r.status, text, json: JSON.parse(text) };
}

// The literal text of result member `key` in a raw response body: what the page must show.
function rawMember(text, key) {
  const escaped = key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const m = new RegExp(`"${escaped}":(-?[0-9][0-9.eE+-]*|"(?:[^"\\\\]|\\\\.)*"|true|false)`).exec(text);
  assert.ok(m, `no member ${key} in ${text}`);
  return m[1].startsWith('"') ? JSON.parse(m[1]) : m[1];
}

async function openTool(domain, slug, name) {
  await page.evaluate((h) => {
    if (location.hash === h) window.dispatchEvent(new HashChangeEvent('hashchange'));
    else location.hash = h;
  }, `#/${domain}/${slug}`);
  await page.waitForFunction((n) => window.toolcalcPlayground?.ready &&
    document.querySelector('h1')?.textContent === n, name);
}

// The "where the numbers come from" section shows the details record as the API gives it.
async function checkProvenance(slug) {
  const details = (await api('GET', `/v1/tools/${slug}`)).json.result;
  assert.equal(await page.textContent('#method-description'), details.description, slug);
  const standard = await page.textContent('#method-standard');
  if (details.standard) assert.equal(standard, `Standard: ${details.standard}`, slug);
  else assert.match(standard, /^No standard governs/, slug);
  assert.equal(await page.textContent('#method-docs code'), details.docs, slug);
  assert.deepEqual(await page.$$eval('#references li', (els) => els.map((e) => e.textContent)),
                   details.references, slug);
  assert.ok(details.references.length >= 2, `${slug}: references`);
  const shown = await page.$$eval('#examples .example', (els) => els.map((e) => ({
    title: e.querySelector('h4').textContent,
    inputs: [...e.querySelectorAll('.example-inputs li')].map((li) => [li.dataset.key, li.querySelector('.value').textContent]),
    expected: [...e.querySelectorAll('.example-expected li')].map((li) => [li.dataset.key, li.querySelector('.value').textContent]),
    source: e.querySelector('cite')?.textContent ?? null,
  })));
  const text = (v) => (typeof v === 'string' ? v : JSON.stringify(v));
  assert.deepEqual(shown, details.examples.map((ex) => ({
    title: ex.title,
    inputs: Object.entries(ex.body).map(([k, v]) => [k, text(v)]),
    expected: Object.entries(ex.expected ?? {}).map(([k, v]) => [k, text(v)]),
    source: ex.source ?? null,
  })), slug);
  assert.ok(details.examples.length >= 1, `${slug}: worked examples`);
  // An example without a source says so rather than leaving the question open.
  const unsourced = await page.$$eval('#examples .example .no-source', (els) => els.length);
  assert.equal(unsourced, details.examples.filter((ex) => !ex.source).length, slug);
}

before(async () => {
  workdir = mkdtempSync(join(tmpdir(), 'toolcalc-browser-'));
  const config = join(workdir, 'toolcalc.toml');
  // Room for every tool's requests in one minute: the test must never meet a 429.
  writeFileSync(config, '[plans.pro]\nrate_per_minute = 100000\nmonthly_quota = 1000000\n' +
                        '[plans.anonymous]\nrate_per_minute = 100000\n');
  server = await startServer(['serve', '--dev', '--listen', '127.0.0.1:0', '--threads', '2',
                              '--data', join(workdir, 'data'), '--config', config]);
  origin = `http://127.0.0.1:${server.port}`;
  base = `${origin}/api`;
  devKey = server.key;
  mkdirSync(ARTIFACTS, { recursive: true });

  const args = process.getuid?.() === 0 ? ['--no-sandbox'] : [];
  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args });
  const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      console.error(`CSP violation: ${e.violatedDirective} ${e.blockedURI}`);
    });
  });
  page = await context.newPage();
  page.on('console', (msg) => {
    if (msg.type() !== 'error') return;
    // Chrome logs every 4xx of fetch() as an error; the API's 400s are provoked on purpose.
    const apiStatus = msg.text().startsWith('Failed to load resource') &&
                      msg.location().url.includes('/api/v1/');
    if (!apiStatus) pageProblems.push(msg.text());
  });
  page.on('pageerror', (e) => pageProblems.push(`uncaught: ${e.message}`));
  page.on('requestfailed', (r) => pageProblems.push(`request failed: ${r.url()}`));
  page.on('response', (r) => {
    if (r.status() >= 400 && !r.url().includes('/v1/')) pageProblems.push(`${r.status()} ${r.url()}`);
  });
});

after(async () => {
  await browser?.close();
  if (server) {
    const exited = new Promise((r) => server.proc.once('exit', r));
    server.proc.kill('SIGTERM');
    await exited;
  }
  if (workdir) rmSync(workdir, { recursive: true, force: true });
});

test('the page lists the domains with live/target counts and pre-fills the dev key', async () => {
  await page.goto(`${base}/`);
  await page.waitForFunction(() => window.toolcalcPlayground?.ready);
  assert.equal(await page.inputValue('#api-key'), devKey);
  const domains = (await api('GET', '/v1/domains')).json.result.items;
  for (const d of domains) {
    assert.equal(await page.textContent(`[data-domain-count="${d.domain}"]`),
                 `${d.live} of ${d.target} tools live`);
  }
  const tools = (await api('GET', '/v1/tools?limit=100')).json.result.items;
  assert.equal(await page.locator('a[data-tool]').count(), tools.length);
  assert.doesNotMatch(await page.textContent('main'), LEAKED);
  // The same page is served at the root too, talking to the API under /api.
  const root = await fetch(`${origin}/`);
  assert.equal(root.status, 200);
  assert.match(await root.text(), /<meta name="toolcalc-api-base" content="\/api">/);
});

test('every tool: defaults shown exactly as the API returns them, errors beside their field', async () => {
  const tools = (await api('GET', '/v1/tools?limit=100')).json.result.items;
  assert.ok(tools.length >= 16, `${tools.length} tools`);
  for (const t of tools) {
    const schema = (await api('GET', `/v1/${t.domain}/${t.tool}/schema`)).json.result;
    await openTool(t.domain, t.tool, schema.name);

    await checkProvenance(t.tool);

    // Every control is labelled.
    const unlabelled = await page.$$eval('main input, main select',
      (els) => els.filter((e) => e.labels.length === 0).map((e) => e.id || e.name));
    assert.deepEqual(unlabelled, [], `${t.tool}: unlabelled controls`);

    await page.click('#tool-form button[type="submit"]');
    await page.waitForFunction(() => window.toolcalcPlayground.lastExecute !== null);
    const sent = await page.evaluate(() => window.toolcalcPlayground.lastExecute.request);
    const defaults = Object.fromEntries(schema.inputs.map((i) => [i.key, i.default]));
    assert.deepEqual(sent, defaults, `${t.tool}: the form sends the defaults`);
    await page.waitForSelector('#results-table');

    const reference = await api('POST', `/v1/${t.domain}/${t.tool}`, sent);
    assert.equal(reference.status, 200, reference.text);
    for (const o of schema.outputs) {
      const shown = (await page.textContent(`td[data-output="${o.key}"]`)).trim();
      assert.equal(shown, rawMember(reference.text, o.key), `${t.tool}.${o.key}`);
      const unit = await page.textContent(`tr:has(td[data-output="${o.key}"]) td.unit`);
      assert.equal(unit, o.unit ?? '', `${t.tool}.${o.key} unit`);
    }
    assert.doesNotMatch(await page.textContent('main'), LEAKED, t.tool);
    if (t.tool === 'mcu-deep-sleep-battery') {
      await page.screenshot({ path: join(ARTIFACTS, 'playground-tool.png'), fullPage: true });
    }

    // The curl line carries the current inputs.
    const curl = await page.textContent('#curl');
    assert.ok(curl.includes(`${base}/v1/${t.domain}/${t.tool}`), curl);
    assert.deepEqual(JSON.parse(/-d '(.*)'$/s.exec(curl)[1].replaceAll(`'\\''`, "'")), defaults);

    // Out of bounds: the API's message appears beside the field it names.
    const bounded = schema.inputs.find((i) => i.max !== undefined || i.min !== undefined);
    if (!bounded) continue;
    const bad = bounded.max !== undefined ? bounded.max + 1 : bounded.min - 1;
    await page.fill(`#in-${bounded.key}`, String(bad));
    await page.click('#tool-form button[type="submit"]');
    const errorBox = `[data-error-for="${bounded.key}"]`;
    await page.waitForSelector(`${errorBox}:not([hidden])`);
    const refused = await api('POST', `/v1/${t.domain}/${t.tool}`, { ...defaults, [bounded.key]: bad });
    assert.equal(refused.status, 400);
    assert.equal(refused.json.error.field, bounded.key);
    assert.equal(await page.textContent(errorBox), refused.json.error.message);
    assert.equal(await page.getAttribute(`#in-${bounded.key}`, 'aria-invalid'), 'true');
    // The error sits inside that field's own box.
    assert.equal(await page.$eval(errorBox, (e) => e.closest('[data-field]')?.dataset.field), bounded.key);
  }
});

test('running a worked example sends its inputs and shows the results', async () => {
  const schema = (await api('GET', '/v1/electronics/voltage-divider/schema')).json.result;
  const details = (await api('GET', '/v1/tools/voltage-divider')).json.result;
  await openTool('electronics', 'voltage-divider', schema.name);
  const example = details.examples[1];
  await page.click('[data-use-example="1"]');
  await page.waitForFunction(() => window.toolcalcPlayground.lastExecute !== null);
  await page.waitForSelector('#results-table');
  const sent = await page.evaluate(() => window.toolcalcPlayground.lastExecute.request);
  const defaults = Object.fromEntries(schema.inputs.map((i) => [i.key, i.default]));
  assert.deepEqual(sent, { ...defaults, ...example.body });
  const reference = await api('POST', '/v1/electronics/voltage-divider', sent);
  for (const key of Object.keys(example.expected)) {
    const value = (await page.textContent(`td[data-output="${key}"]`)).trim();
    assert.equal(value, rawMember(reference.text, key));
    // Within the example's stated tolerance of the source, as the page says it is.
    const last = schema.outputs.find((o) => o.key === key).precision;
    const allowed = Math.abs(example.expected[key]) * example.tolerance_pct / 100 + 0.5 * 10 ** -last;
    assert.ok(Math.abs(Number(value) - example.expected[key]) <= allowed + 1e-12, `${key}: ${value}`);
  }
  await page.screenshot({ path: join(ARTIFACTS, 'playground-provenance.png'), fullPage: true });
});

test('a sweep plots the requested number of points, the same as the API computes', async () => {
  const schema = (await api('GET', '/v1/iot-mcu/mcu-deep-sleep-battery/schema')).json.result;
  await openTool('iot-mcu', 'mcu-deep-sleep-battery', schema.name);
  await page.selectOption('#sweep-key', 'cycle_period_s');
  await page.fill('#sweep-from', '10');
  await page.fill('#sweep-to', '600');
  await page.fill('#sweep-points', '37');
  await page.check('#sweep-out-avg_current_ua');
  await page.check('#sweep-out-lifetime_days');
  await page.click('#sweep-form button[type="submit"]');
  await page.waitForFunction(() => window.toolcalcPlayground.plot !== null);

  const { plotData, request, body } = await page.evaluate(() => {
    const s = window.toolcalcPlayground;
    return { plotData: s.plot.data.map((a) => Array.from(a)), request: s.lastSweep.request,
             body: s.lastSweep.status };
  });
  assert.equal(body, 200);
  assert.deepEqual(request.vary, { key: 'cycle_period_s', from: 10, to: 600, points: 37 });
  assert.equal(plotData.length, 3, 'x and two outputs');
  for (const series of plotData) assert.equal(series.length, 37);

  const reference = await api('POST', '/v1/iot-mcu/mcu-deep-sleep-battery/sweep', request);
  assert.equal(reference.status, 200, reference.text);
  const points = reference.json.result.points;
  assert.deepEqual(plotData[0], points.map((p) => p.x));
  assert.deepEqual(plotData[1], points.map((p) => p.result.avg_current_ua));
  assert.deepEqual(plotData[2], points.map((p) => p.result.lifetime_days));
  assert.equal(await page.locator('#sweep-table tbody tr').count(), 37);
  // uPlot drew into the page: its canvas is there and sized.
  const canvas = await page.$eval('#sweep-plot canvas', (c) => [c.width, c.height]);
  assert.ok(canvas[0] > 100 && canvas[1] > 100, `canvas ${canvas}`);
  assert.doesNotMatch(await page.textContent('main'), LEAKED);
  await page.screenshot({ path: join(ARTIFACTS, 'playground-sweep.png'), fullPage: true });

  // A sweep error is shown beside the sweep field it names.
  await page.fill('#sweep-points', '500');
  await page.click('#sweep-form button[type="submit"]');
  await page.waitForSelector('[data-error-for="vary.points"]:not([hidden])');
  assert.match(await page.textContent('[data-error-for="vary.points"]'), /between 2 and 200/);
});

test('every tool sweeps with the panel as it opens', async () => {
  const tools = (await api('GET', '/v1/tools?limit=100')).json.result.items;
  for (const t of tools) {
    const schema = (await api('GET', `/v1/${t.domain}/${t.tool}/schema`)).json.result;
    if (!schema.inputs.some((i) => i.type === 'number' || i.type === 'integer') ||
        !schema.outputs.some((o) => o.type === 'number')) continue;
    await openTool(t.domain, t.tool, schema.name);
    const points = Number(await page.inputValue('#sweep-points'));
    await page.click('#sweep-form button[type="submit"]');
    await page.waitForFunction(() => window.toolcalcPlayground.lastSweep !== null);
    const sweep = await page.evaluate(() => ({ status: window.toolcalcPlayground.lastSweep.status,
                                                body: JSON.stringify(window.toolcalcPlayground.lastSweep.body) }));
    assert.equal(sweep.status, 200, `${t.tool}: ${sweep.body}`);
    await page.waitForFunction(() => window.toolcalcPlayground.plot !== null);
    const n = await page.evaluate(() => window.toolcalcPlayground.plot.data[0].length);
    assert.equal(n, points, t.tool);
  }
});

async function fillDivider() {
  const schema = (await api('GET', '/v1/electronics/voltage-divider/schema')).json.result;
  await openTool('electronics', 'voltage-divider', schema.name);
  await page.fill('#in-vin_v', '12');
  await page.fill('#in-r1_ohm', '10000');
  await page.fill('#in-r2_ohm', '10000');
  return schema;
}

test('tolerances: tables, histogram and sensitivity bars as the API computes them', async () => {
  const schema = await fillDivider();
  for (const i of schema.inputs.filter((x) => x.type === 'number')) await page.fill(`#tol-pct-${i.key}`, '');
  await page.fill('#tol-pct-r1_ohm', '1');
  await page.fill('#tol-pct-r2_ohm', '1');
  await page.fill('#tol-samples', '2000');
  await page.click('#tol-form button[type="submit"]');
  await page.waitForFunction(() => window.toolcalcPlayground.histogram !== null);
  const { request, status } = await page.evaluate(() => ({
    request: window.toolcalcPlayground.lastTolerance.request,
    status: window.toolcalcPlayground.lastTolerance.status }));
  assert.equal(status, 200);
  assert.deepEqual(request.tolerances, { r1_ohm: { pct: 1 }, r2_ohm: { pct: 1 } });
  assert.equal(request.samples, 2000);
  const reference = await api('POST', '/v1/electronics/voltage-divider/tolerance', request);
  assert.equal(reference.status, 200, reference.text);
  const vout = reference.json.result.outputs.vout_v;
  // A table per output; the numbers exactly as the API wrote them (5.9400 stays 5.9400).
  assert.equal(await page.locator('table.tol-table').count(), schema.outputs.length);
  const table = await page.textContent('#tol-table-vout_v');
  const raw = reference.text.slice(reference.text.indexOf('"vout_v":{'));
  for (const key of ['nominal', 'min', 'max', 'mean', 'std', 'p99']) {
    assert.ok(table.includes(rawMember(raw, key)), `${key} ${rawMember(raw, key)} not in ${table}`);
  }
  assert.ok(table.includes('5.9400 … 6.0600'), table);
  // The histogram of the first number output: one bar per bin, the API's counts.
  const plot = await page.evaluate(() => window.toolcalcPlayground.histogram.data.map((a) => Array.from(a)));
  assert.deepEqual(plot[1], vout.monte_carlo.histogram.counts);
  assert.equal(plot[0].length, vout.monte_carlo.histogram.edges.length - 1);
  const canvas = await page.$eval('#tol-histogram canvas', (c) => [c.width, c.height]);
  assert.ok(canvas[0] > 100 && canvas[1] > 100, `canvas ${canvas}`);
  // Sensitivity: one bar per toleranced input, as wide as its share.
  const bars = await page.$$eval('#tol-sensitivity li', (els) => els.map((e) => [e.dataset.key,
    e.querySelector('.bar-fill').style.width]));
  assert.deepEqual(bars.map((b) => b[0]).sort(), ['r1_ohm', 'r2_ohm']);
  for (const [, width] of bars) assert.equal(width, '50%');
  assert.doesNotMatch(await page.textContent('main'), LEAKED);
  await page.screenshot({ path: join(ARTIFACTS, 'playground-tolerance.png'), fullPage: true });

  // A range past a bound: the API's message beside that input's ± box.
  await page.fill('#tol-pct-r1_ohm', '200');
  await page.click('#tol-form button[type="submit"]');
  await page.waitForSelector('[data-error-for="tolerances.r1_ohm"]:not([hidden])');
  assert.match(await page.textContent('[data-error-for="tolerances.r1_ohm"]'), /below its minimum of 100/);
  assert.equal(await page.getAttribute('#tol-pct-r1_ohm', 'aria-invalid'), 'true');
});

test('solve: the values found as the API finds them, and no solution beside the target', async () => {
  await fillDivider();
  await page.selectOption('#solve-vary', 'r2_ohm');
  await page.selectOption('#solve-output', 'vout_v');
  await page.fill('#solve-value', '3.3');
  await page.click('#solve-form button[type="submit"]');
  await page.waitForSelector('#solve-table');
  const request = await page.evaluate(() => window.toolcalcPlayground.lastSolve.request);
  assert.deepEqual({ vary: request.vary, target: request.target },
                   { vary: 'r2_ohm', target: { output: 'vout_v', value: 3.3 } });
  const reference = await api('POST', '/v1/electronics/voltage-divider/solve', request);
  assert.equal(reference.status, 200, reference.text);
  const cells = await page.$$eval('#solve-table tbody td', (tds) => tds.map((t) => t.textContent));
  const solution = reference.json.result.solutions[0];
  assert.deepEqual(cells, [String(solution.value), '3.3000']);
  // Executing at the solution gives the target.
  const at = await api('POST', '/v1/electronics/voltage-divider',
                       { ...request.inputs, r2_ohm: solution.value });
  assert.equal(at.json.result.vout_v, 3.3);

  await page.fill('#solve-value', '13');
  await page.click('#solve-form button[type="submit"]');
  await page.waitForSelector('[data-error-for="target.value"]:not([hidden])');
  const refused = await api('POST', '/v1/electronics/voltage-divider/solve',
                            { ...request, target: { output: 'vout_v', value: 13 } });
  assert.equal(refused.json.error.code, 'NO_SOLUTION');
  assert.equal(await page.textContent('[data-error-for="target.value"]'), refused.json.error.message);
  assert.equal(await page.locator('#solve-table').count(), 0);
});

test('every tool runs the tolerance panel as it opens', async () => {
  const tools = (await api('GET', '/v1/tools?limit=100')).json.result.items;
  let ran = 0;
  for (const t of tools) {
    const schema = (await api('GET', `/v1/${t.domain}/${t.tool}/schema`)).json.result;
    await openTool(t.domain, t.tool, schema.name);
    const boxes = await page.$$eval('#tol-form input[id^="tol-pct-"]', (els) => els.filter((e) => e.value).length);
    if (boxes === 0) continue; // no numeric default with room for ±1 % inside its bounds
    await page.fill('#tol-samples', '200');
    await page.click('#tol-form button[type="submit"]');
    await page.waitForFunction(() => window.toolcalcPlayground.lastTolerance !== null);
    const r = await page.evaluate(() => ({ status: window.toolcalcPlayground.lastTolerance.status,
                                           body: JSON.stringify(window.toolcalcPlayground.lastTolerance.body) }));
    assert.equal(r.status, 200, `${t.tool}: ${r.body}`);
    assert.equal(await page.locator('table.tol-table').count(), schema.outputs.length, t.tool);
    ++ran;
  }
  assert.ok(ran >= tools.length * 0.8, `${ran} of ${tools.length} tools ran`);
});

test('readable at 375 px: no sideways scrolling', async () => {
  await page.setViewportSize({ width: 375, height: 800 });
  const schema = (await api('GET', '/v1/iot-mcu/mcu-deep-sleep-battery/schema')).json.result;
  await openTool('iot-mcu', 'mcu-deep-sleep-battery', schema.name);
  await page.click('#tool-form button[type="submit"]');
  await page.waitForSelector('#results-table');
  await page.click('#sweep-form button[type="submit"]');
  await page.waitForFunction(() => window.toolcalcPlayground.plot !== null);
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 375, `page is ${width}px wide at a 375px viewport`);
  await page.screenshot({ path: join(ARTIFACTS, 'playground-375.png'), fullPage: true });
});

test('keyboard only: tab to an input, type, submit with Enter', async () => {
  await page.setViewportSize({ width: 1100, height: 900 });
  const schema = (await api('GET', '/v1/electronics/voltage-divider/schema')).json.result;
  await openTool('electronics', 'voltage-divider', schema.name);
  const first = schema.inputs[0];
  await page.focus(`#in-${first.key}`);
  await page.keyboard.press('Control+A');
  await page.keyboard.type(String(first.default));
  await page.keyboard.press('Enter');
  await page.waitForSelector('#results-table');
  assert.equal(await page.evaluate(() => window.toolcalcPlayground.lastExecute.status), 200);
  // The skip link is the first stop and moves focus to the content, keeping the route.
  await page.reload();
  await page.waitForFunction(() => window.toolcalcPlayground?.ready);
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement.className), 'skip');
  await page.keyboard.press('Enter');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'main');
  assert.equal(await page.evaluate(() => location.hash), '#/electronics/voltage-divider');
});

test('no console errors, failed requests or CSP violations on the page', () => {
  assert.deepEqual(pageProblems, []);
});
