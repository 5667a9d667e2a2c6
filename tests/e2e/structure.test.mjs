// End-to-end test of the Structure (Gold) page in real Chromium: the bundled Gold Table 2
// default, the OpenVLM leaderboard matrix with the 8 benchmarks assigned to three constructs,
// figures checked against `coglab sem --json` on the same spec and data, pruning steps,
// spec export / re-import, whole-report export / load-back, a 5,000-resample bootstrap with
// its in-browser time, and screenshots (light, dark, phone).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { start, newPage, App, ROOT } from './support.mjs';

const DATA = join(ROOT, '../shared/data/openvlm/models.json');
const HAVE_DATA = existsSync(DATA);
if (!HAVE_DATA && process.env.CI === 'true') {
  throw new Error(`${DATA} is missing (required under CI=true)`);
}

const LAYERS = {
  Perception: ['MMBench_V11', 'MMStar', 'AI2D'],
  Grounding: ['OCRBench', 'HallusionBench'],
  Reasoning: ['MMMU_VAL', 'MathVista', 'MMVet'],
};

let env;
before(async () => { env = await start(); });
after(async () => { await env?.close(); });

/** Page object of the Structure page. */
class StructurePage {
  constructor(page) { this.page = page; }
  tid(id) { return this.page.getByTestId(id); }
  /** Waits until no fit is running and the outer table is shown. */
  async settled() {
    await this.tid('table-outer').waitFor();
    await this.page.waitForFunction(() => document.querySelector('[data-testid=results]')?.getAttribute('aria-busy') === 'false');
  }
  /** Outer table rows: item -> [construct, weight, loading, vif]. */
  async outer() {
    return this.tid('table-outer').locator('tbody tr').evaluateAll((trs) => Object.fromEntries(
      trs.map((tr) => [tr.querySelector('th').textContent,
        [...tr.querySelectorAll('td')].slice(0, 4).map((td) => td.textContent)])));
  }
  async cells(testid) {
    return this.tid(testid).locator('td').allInnerTexts();
  }
  async specJson() { return JSON.parse(await this.tid('spec-json').textContent()); }
  /** Adds constructs named as given and assigns their tasks. */
  async build(layers) {
    const names = Object.keys(layers);
    for (let i = 0; i < names.length; i++) {
      await this.tid('add-construct').click();
      const input = this.tid(`construct-${i}`).locator('input[type=text]');
      await input.fill(names[i]);
      await input.press('Enter');
    }
    for (const [name, tasks] of Object.entries(layers)) {
      for (const t of tasks) await this.tid(`assign-${t}`).selectOption(name);
    }
    await this.tid('preset-overall').click();
  }
  async download(testid) {
    const [dl] = await Promise.all([this.page.waitForEvent('download'), this.tid(testid).click()]);
    return readFileSync(await dl.path(), 'utf8');
  }
}

const f3 = (v) => (v === null || v === undefined ? '–' : v.toFixed(3));

/** `coglab sem --json` on a spec and a matrix (COGLAB_BIN, else cargo run). */
function cli(specPath, extra = [], data = DATA) {
  const args = ['sem', '--spec', specPath, data, '--json', ...extra];
  const out = process.env.COGLAB_BIN
    ? execFileSync(process.env.COGLAB_BIN, args, { encoding: 'utf8', maxBuffer: 64 << 20 })
    : execFileSync('cargo', ['run', '-q', '-p', 'coglab-cli', '--', ...args],
      { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 << 20, env: { ...process.env, CARGO_TARGET_DIR: join(ROOT, 'target') } });
  return JSON.parse(out);
}

// Main-thread Long Tasks (> 50 ms), recorded from the first script on (Long Tasks API).
const LONGTASKS = `window.__longtasks = [];
  new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__longtasks.push({ start: e.startTime, ms: e.duration }); })
    .observe({ type: 'longtask', buffered: true });`;
/** The long tasks since `since` (performance.now() time): [count, longest ms]. */
const longTasksSince = (page, since) => page.evaluate((t) => {
  const l = window.__longtasks.filter((e) => e.start + e.ms >= t);
  return [l.length, l.reduce((m, e) => Math.max(m, e.ms), 0)];
}, since);

test('Gold Table 2 loads by default with the paper layers and every view renders', async () => {
  const { page, context, errors } = await newPage(env.browser);
  const app = new App(page, env.base);
  const s = new StructurePage(page);
  await app.goto('/structure');
  await s.settled();
  assert.match(await s.tid('data-summary').textContent(), /gold-table2\.csv: 10 models, 11 numeric columns/);
  const spec = await s.specJson();
  assert.deepEqual(Object.keys(spec.constructs), ['Perception', 'Memory', 'Reasoning']);
  assert.deepEqual(spec.second_order.Overall.constructs, ['Perception', 'Memory', 'Reasoning']);
  // Color's VIF is 10.523 (coglab sem on the same table): flagged as redundant.
  const outer = await s.outer();
  assert.equal(outer.Color[3], '10.523');
  assert.equal(await s.tid('table-outer').locator('tr.redundant[data-item=Color]').count(), 1);
  assert.equal(await s.tid('sem-diagram').locator('g.construct').count(), 4);
  assert.equal(await s.tid('htmt-line').count(), 1);
  // Gold's Table 3 rows are shown beside this model's diagnostics.
  assert.equal(await s.tid('table-diagnostics').locator('tr.paper').count(), 8);
  await app.screenshot('structure-gold-light');
  // A broken file shows a located error and keeps what is loaded.
  const dir = mkdtempSync(join(tmpdir(), 'structure-bad-'));
  writeFileSync(join(dir, 'bad.csv'), 'model,a,b\nx,1,2\ny,3\n');
  await s.tid('data-file').setInputFiles(join(dir, 'bad.csv'));
  const panel = page.getByTestId('error-panel');
  await panel.waitFor();
  assert.match(await panel.textContent(), /bad\.csv.*line 3/s);
  assert.match(await s.tid('data-summary').textContent(), /gold-table2\.csv/);
  assert.equal(await s.tid('table-outer').count(), 1);
  await app.screenshot('structure-gold-error-light');
  // A spec and a report are read in the worker (issue 18: the page parses no file) and keep
  // their located messages: the spec's line, the report's field.
  writeFileSync(join(dir, 'bad-spec.json'), '{\n  "constructs": {\n    "A": {"indicators": ["x"],}\n');
  await s.tid('spec-file').setInputFiles(join(dir, 'bad-spec.json'));
  await page.waitForFunction(() => /bad-spec\.json/.test(document.querySelector('[data-testid=error-panel]')?.textContent ?? ''));
  assert.match(await panel.textContent(), /Could not import the spec.*bad-spec\.json.*line 3/s);
  writeFileSync(join(dir, 'other.json'), JSON.stringify({ kind: 'something-else', spec: {}, prune: false,
    data: { name: 'm.csv', text: 'model,a\nx,1\n' } }));
  await s.tid('report-file').setInputFiles(join(dir, 'other.json'));
  await page.waitForFunction(() => /other\.json/.test(document.querySelector('[data-testid=error-panel]')?.textContent ?? ''));
  assert.match(await panel.textContent(), /other\.json: field "kind": expected "coglab-structure-report", found "something-else"/);
  assert.match(await s.tid('data-summary').textContent(), /gold-table2\.csv/);
  assert.equal(await s.tid('table-outer').count(), 1);
  // Charts save as PNG.
  for (const id of ['sem-diagram', 'htmt-heatmap']) {
    const [dl] = await Promise.all([page.waitForEvent('download'), s.tid(`png-${id}`).click()]);
    assert.match(dl.suggestedFilename(), /\.png$/);
    const png = readFileSync(await dl.path());
    assert.equal(png.subarray(1, 4).toString(), 'PNG');
  }
  await s.tid('editor').screenshot({ path: join(ROOT, 'tests/e2e/screenshots/structure-gold-editor-light.png') });
  await page.setViewportSize({ width: 390, height: 800 });
  await app.screenshot('structure-gold-phone');
  assert.deepEqual(errors, []);
  await context.close();
});

test('OpenVLM matrix: figures equal coglab sem, pruning, spec and report round trips, timings', { skip: !HAVE_DATA && `${DATA} absent` }, async () => {
  const { page, context, errors } = await newPage(env.browser, { colorScheme: 'dark' });
  await page.addInitScript(LONGTASKS);
  const app = new App(page, env.base);
  const s = new StructurePage(page);
  await app.goto('/structure');
  await s.settled();
  await s.tid('data-file').setInputFiles(DATA);
  await page.waitForFunction(() => /models\.json/.test(document.querySelector('[data-testid=data-summary]').textContent));
  await s.build(LAYERS);
  await s.settled();
  // One refit (the scheme back and forth is two fits): long tasks while fitting and rendering.
  const fitT0 = await page.evaluate(() => performance.now());
  const fitTimes = [Number(await s.tid('fit-ms').textContent())];
  await s.tid('scheme').selectOption('factorial');
  await s.settled();
  fitTimes.push(Number(await s.tid('fit-ms').textContent()));
  await s.tid('scheme').selectOption('path');
  await s.settled();
  fitTimes.push(Number(await s.tid('fit-ms').textContent()));
  const [fitLong, fitLongest] = await longTasksSince(page, fitT0);
  const spec = await s.specJson();
  assert.deepEqual(spec.constructs.Grounding.indicators, LAYERS.Grounding);
  const dir = mkdtempSync(join(tmpdir(), 'structure-'));
  const specPath = join(dir, 'spec.json');
  writeFileSync(specPath, JSON.stringify(spec));

  // Figures against the CLI on the same spec and data.
  const ref = cli(specPath);
  const outer = await s.outer();
  assert.deepEqual(Object.keys(outer).sort(), Object.keys(ref.outer).sort());
  for (const [item, o] of Object.entries(ref.outer)) {
    assert.deepEqual(outer[item].slice(0, 3), [o.construct, f3(o.weight), f3(o.loading)], item);
    assert.equal(outer[item][3], f3(ref.vif[item]), `VIF ${item}`);
  }
  const d = ref.diagnostics;
  assert.deepEqual(await s.cells('diag-ours'), [f3(d.d_div), f3(d.tc), f3(d.d_valid), f3(d.mean)]);
  const rel = await s.tid('table-reliability').locator('tbody tr').evaluateAll((trs) => Object.fromEntries(
    trs.map((tr) => [tr.querySelector('th').textContent, [...tr.querySelectorAll('td')].map((td) => td.textContent)])));
  for (const [c, r] of Object.entries(ref.reliability)) {
    assert.deepEqual(rel[c], [f3(r.alpha), f3(r.rho_a), f3(r.rho_c), f3(r.ave)], c);
  }
  for (const [pair, v] of Object.entries(ref.htmt)) {
    assert.equal(await s.tid('htmt-heatmap').locator(`g[data-pair="${pair}"] text`).textContent(), f3(v), pair);
  }
  // Weighted overall score of the first model in the table.
  const first = await s.tid('table-scores').locator('tbody tr').first();
  const model = await first.getAttribute('data-model');
  assert.equal(await first.locator('td').nth(1).textContent(), f3(ref.overall_scores[model].overall));
  const fitMs = Number(await s.tid('fit-ms').textContent());
  await app.screenshot('structure-openvlm-dark');
  await s.tid('results').screenshot({ path: join(ROOT, 'tests/e2e/screenshots/structure-openvlm-results-dark.png') });

  // Pruning: the same steps as coglab sem --prune.
  const refPruned = cli(specPath, ['--prune']);
  await s.tid('prune').check();
  if (refPruned.pruning.length > 0) {
    await s.tid('prune-steps').waitFor();
    await s.settled();
    const steps = await s.tid('prune-steps').locator('li strong').allInnerTexts();
    assert.deepEqual(steps, refPruned.pruning.map((p, k) => `Step ${k + 1}: removed ${p.removed}`));
    const outerPruned = await s.outer();
    assert.deepEqual(Object.keys(outerPruned).sort(), Object.keys(refPruned.outer).sort());
  } else {
    await s.tid('prune-none').waitFor();
  }
  await app.screenshot('structure-openvlm-pruned-dark');

  // Spec export and re-import.
  const exported = JSON.parse(await s.download('export-spec'));
  assert.deepEqual(exported, await s.specJson());
  await s.tid('construct-1').getByRole('button', { name: /Delete/ }).click();
  assert.equal(Object.keys((await s.specJson()).constructs).length, 2);
  const specFile = join(dir, 'exported-spec.json');
  writeFileSync(specFile, JSON.stringify(exported));
  await s.tid('spec-file').setInputFiles(specFile);
  await page.waitForFunction(() => Object.keys(JSON.parse(document.querySelector('[data-testid=spec-json]').textContent).constructs).length === 3);
  assert.deepEqual(await s.specJson(), exported);
  await s.settled();

  // Bootstrap of 5,000 resamples with its time in the browser.
  await s.tid('boot-n').fill('5000');
  await s.tid('boot-n').blur();
  const bootT0 = await page.evaluate(() => performance.now());
  // Responsiveness while the worker resamples: the main thread answers a timer within a frame
  // or two (sampled every 100 ms until the summary shows).
  const lagProbe = page.evaluate(() => new Promise((resolve) => {
    let worst = 0;
    const tick = () => {
      const t = performance.now();
      setTimeout(() => {
        worst = Math.max(worst, performance.now() - t - 100);
        if (document.querySelector('[data-testid=boot-summary]')) resolve(worst); else tick();
      }, 100);
    };
    tick();
  }));
  await s.tid('run-bootstrap').click();
  await s.tid('boot-summary').waitFor({ timeout: 60000 });
  const bootLag = await lagProbe;
  const [bootLong, bootLongest] = await longTasksSince(page, bootT0);
  const bootText = await s.tid('boot-summary').textContent();
  assert.match(bootText, /^5000 resamples \(seed 1\)/);
  const bootMs = await page.evaluate(() => {
    const m = performance.measure('boot', 'sem-boot-start', 'sem-boot-end');
    return m.duration;
  });
  const refBoot = cli(specPath, ['--prune', '--bootstrap', '5000', '--seed', '1']);
  const pageBoot = await s.tid('table-bootstrap').locator('tbody tr').evaluateAll((trs) => trs.map((tr) =>
    [tr.querySelector('th').textContent, ...[...tr.querySelectorAll('td')].map((td) => td.textContent)]));
  for (const [name, kind, , , se] of pageBoot.filter((r) => r[1] === 'loading')) {
    assert.equal(se, f3(refBoot.bootstrap.loadings[name].se), `bootstrap SE ${name} (${kind})`);
  }
  await app.screenshot('structure-openvlm-bootstrap-dark');

  // Whole report export and load-back on a fresh page: the page fits again from the saved data,
  // model, pruning and bootstrap settings, and shows the same figures (only the time differs).
  const report = await s.download('export-report');
  const reportFile = join(dir, 'report.json');
  writeFileSync(reportFile, report);
  const before = await s.outer();
  await app.goto('/structure');
  await s.settled();
  await s.tid('report-file').setInputFiles(reportFile);
  await page.waitForFunction(() => /models\.json/.test(document.querySelector('[data-testid=data-summary]').textContent));
  await s.tid('boot-summary').waitFor();
  assert.deepEqual(await s.outer(), before);
  const untimed = (t) => t.replace(/; \d+ ms in the worker\.$/, '');
  assert.notEqual(untimed(bootText), bootText, 'the summary ends with its time');
  assert.equal(untimed(await s.tid('boot-summary').textContent()), untimed(bootText));

  console.log(`# in-browser timings on OpenVLM (${ref.n_models} models x 8 tasks): fit ${fitMs.toFixed(1)} ms in the worker; `
    + `5,000 bootstrap resamples (with pruning) ${bootMs.toFixed(0)} ms round trip (${bootText})`);
  console.log(`# fits of this model in the worker: ${fitTimes.map((t) => t.toFixed(1)).join(', ')} ms`);
  console.log(`# main-thread long tasks: ${fitLong} during two refits (longest ${fitLongest.toFixed(0)} ms); `
    + `${bootLong} during the bootstrap (longest ${bootLongest.toFixed(0)} ms); worst timer lag while resampling ${bootLag.toFixed(0)} ms`);
  // Targets of issue 8 (release build): fit <= 10 ms (the fastest of three, as the machine may
  // be busy), bootstrap <= 2 s, and the page responsive: no long task while the worker
  // resamples, timers on time. Benchmark figures, printed above and reported in BENCHMARKS.md,
  // not asserted: a timed assertion fails on a loaded machine whatever the code does.
  assert.deepEqual(errors, []);
  await context.close();
});

/** Checks the page's outer model (and, when `paths`, the structural paths and R² in the
 * diagram) against `coglab sem --json` on the page's spec and matrix. Returns [spec, cli]. */
/** A p-value as the app prints it (coglab_core::stats::p_phrase): four decimals, or below 0.0001. */
const pPhrase = (p) => (p < 1e-4 ? 'p < 0.0001' : `p = ${p.toFixed(4)}`);

async function checkWithCli(s, dataPath, dir, label, { paths = false } = {}) {
  await s.settled();
  const spec = await s.specJson();
  const specPath = join(dir, `${label}.json`);
  writeFileSync(specPath, JSON.stringify(spec));
  const ref = cli(specPath, [], dataPath);
  const outer = await s.outer();
  assert.deepEqual(Object.keys(outer).sort(), Object.keys(ref.outer).sort(), label);
  for (const [item, o] of Object.entries(ref.outer)) {
    assert.deepEqual(outer[item].slice(0, 3), [o.construct, f3(o.weight), f3(o.loading)], `${label}: ${item}`);
  }
  if (paths) {
    const shown = await s.tid('sem-diagram').locator('g.structural[data-path]').evaluateAll((gs) =>
      Object.fromEntries(gs.map((g) => [g.dataset.path, g.querySelector('text').textContent.trim()])));
    assert.deepEqual(Object.keys(shown).sort(), Object.keys(ref.paths).sort(), `${label}: paths`);
    for (const [k, v] of Object.entries(ref.paths)) assert.equal(shown[k], f3(v), `${label}: path ${k}`);
    for (const [c, v] of Object.entries(ref.r2)) {
      const r2 = await s.tid('sem-diagram').locator(`g.construct[data-construct="${c}"] text.r2`).textContent();
      assert.equal(r2, `R² = ${f3(v)}`, `${label}: R² ${c}`);
    }
  }
  return [spec, ref];
}

test('model builder: chain preset, Mode B, inner scheme, path editing and human column equal coglab sem', async () => {
  const { page, context, errors } = await newPage(env.browser);
  const app = new App(page, env.base);
  const s = new StructurePage(page);
  await app.goto('/structure');
  await s.settled();
  // The matrix the page analyses (Gold Table 2 as CSV), from its whole-report export.
  const dir = mkdtempSync(join(tmpdir(), 'structure-builder-'));
  const dataPath = join(dir, 'gold-table2.csv');
  writeFileSync(dataPath, JSON.parse(await s.download('export-report')).data.text);

  // Chain preset: Perception -> Memory -> Reasoning, no second-order construct.
  await s.tid('preset-chain').click();
  let [spec, ref] = await checkWithCli(s, dataPath, dir, 'chain', { paths: true });
  assert.deepEqual(spec.paths, [['Perception', 'Memory'], ['Memory', 'Reasoning']]);
  assert.equal(spec.second_order, undefined);
  assert.deepEqual(await s.tid('paths').locator('li').allInnerTexts(),
    ['Perception → Memory Remove', 'Memory → Reasoning Remove']);
  await app.screenshot('structure-chain-light');

  // Mode B on Perception: weights from the regression, as the CLI.
  await s.tid('mode-0').selectOption('B');
  await s.settled();
  [spec, ref] = await checkWithCli(s, dataPath, dir, 'modeB', { paths: true });
  assert.equal(spec.constructs.Perception.mode, 'B');

  // Inner scheme.
  await s.tid('scheme').selectOption('factorial');
  [spec, ref] = await checkWithCli(s, dataPath, dir, 'factorial', { paths: true });
  assert.equal(spec.scheme, 'factorial');
  assert.equal(ref.scheme.toLowerCase(), 'factorial');

  // Path editing: remove Memory -> Reasoning, add Perception -> Reasoning.
  await s.tid('remove-path-1').click();
  await s.tid('path-from').selectOption('Perception');
  await s.tid('path-to').selectOption('Reasoning');
  await s.tid('add-path').click();
  [spec, ref] = await checkWithCli(s, dataPath, dir, 'paths', { paths: true });
  assert.deepEqual(spec.paths, [['Perception', 'Memory'], ['Perception', 'Reasoning']]);
  assert.ok('Perception -> Reasoning' in ref.paths);

  // Human column: BMK taken out of Memory and used as the human anchor.
  await s.tid('assign-BMK').selectOption('');
  await s.tid('human').selectOption('BMK');
  [spec, ref] = await checkWithCli(s, dataPath, dir, 'human', { paths: true });
  assert.equal(spec.human_column, 'BMK');
  assert.ok(ref.human, 'the CLI reports the human alignment');
  const h = ref.human;
  assert.equal(await s.tid('human-alignment').textContent(),
    `Weighted overall score against the human column BMK: Pearson r = ${f3(h.pearson.r)} (${pPhrase(h.pearson.p)}), `
    + `Spearman ρ = ${f3(h.spearman.r)} (${pPhrase(h.spearman.p)}), ${h.pearson.n} models.`);
  await app.screenshot('structure-builder-human-light');
  assert.deepEqual(errors, []);
  await context.close();
});

test('model builder by keyboard: Tab reaches every control with a visible focus ring, Enter/Space act', async () => {
  const { page, context, errors } = await newPage(env.browser);
  const app = new App(page, env.base);
  const s = new StructurePage(page);
  await app.goto('/structure');
  await s.settled();
  await s.tid('construct-0').locator('input[type=text]').focus();
  const seen = [];
  for (let k = 0; k < 80; k++) {
    const f = await page.evaluate(() => {
      const el = document.activeElement;
      const cs = getComputedStyle(el);
      return {
        id: el.dataset.testid ?? el.getAttribute('aria-label') ?? el.textContent.trim(),
        inEditor: !!el.closest('[data-testid=editor]'),
        ring: cs.outlineStyle !== 'none' && parseFloat(cs.outlineWidth) >= 2,
      };
    });
    if (!f.inEditor) break;
    seen.push(f);
    await page.keyboard.press('Tab');
  }
  const ids = seen.map((f) => f.id);
  for (const want of ['mode-0', 'add-construct', 'assign-Color', 'preset-overall', 'preset-chain', 'path-from',
    'path-to', 'add-path', 'scheme', 'human', 'vif-max', 'loading-min', 'prune', 'export-spec', 'spec-file']) {
    assert.ok(ids.includes(want), `Tab reaches ${want} (${ids.join(', ')})`);
  }
  const noRing = seen.filter((f) => !f.ring).map((f) => f.id);
  assert.deepEqual(noRing, [], 'every focused control shows a focus ring');
  // Enter on the chain preset, Space on "Add construct", Space on the pruning switch.
  await s.tid('preset-chain').focus();
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => JSON.parse(document.querySelector('[data-testid=spec-json]').textContent).paths.length === 2);
  await s.tid('add-construct').focus();
  await page.keyboard.press('Space');
  await page.waitForFunction(() => Object.keys(JSON.parse(document.querySelector('[data-testid=spec-json]').textContent).constructs).length === 4);
  await s.tid('prune').focus();
  await page.keyboard.press('Space');
  assert.equal(await s.tid('prune').isChecked(), true);
  await s.settled();
  await s.tid('preset-chain').focus();
  await s.tid('editor').screenshot({ path: join(ROOT, 'tests/e2e/screenshots/structure-editor-focus-light.png') });
  assert.deepEqual(errors, []);
  await context.close();
});

/** WCAG contrast ratio of the text colour of every element matching the selectors against
 * the background it is drawn on (the nearest ancestor with an opaque-enough background,
 * translucent layers composited). Returns [selector, ratio, colour, background] rows. */
const contrasts = (page, selectors) => page.evaluate((sels) => {
  const parse = (c) => { const m = c.match(/[\d.]+/g).map(Number); return [m[0], m[1], m[2], m.length > 3 ? m[3] : 1]; };
  const over = (top, under) => top.slice(0, 3).map((v, i) => v * top[3] + under[i] * (1 - top[3])).concat(1);
  const background = (el) => {
    const layers = [];
    for (let e = el; e; e = e.parentElement) {
      const c = parse(getComputedStyle(e).backgroundColor);
      if (c[3] > 0) layers.push(c);
      if (c[3] >= 1) break;
    }
    let bg = [255, 255, 255, 1];
    for (const l of layers.reverse()) bg = over(l, bg);
    return bg;
  };
  const lum = (c) => {
    const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]);
  };
  const out = [];
  for (const sel of sels) {
    for (const el of [...document.querySelectorAll(sel)].slice(0, 5)) {
      if (!el.textContent.trim()) continue;
      const bg = background(el);
      const fg = over(parse(getComputedStyle(el).color), bg);
      const [a, b] = [lum(fg), lum(bg)].sort((x, y) => y - x);
      out.push([sel, (a + 0.05) / (b + 0.05), getComputedStyle(el).color, `rgb(${bg.slice(0, 3).map(Math.round)})`]);
    }
  }
  return out;
}, selectors);

for (const scheme of ['light', 'dark']) {
  test(`text contrast on the Structure page (${scheme}): at least 4.5:1 (WCAG AA)`, async () => {
    const { page, context, errors } = await newPage(env.browser, { colorScheme: scheme });
    const app = new App(page, env.base);
    const s = new StructurePage(page);
    await app.goto('/structure');
    await s.settled();
    const rows = await contrasts(page, ['.structure h1', '.structure h2', '.structure h3', '.structure .lead',
      '.structure .muted', '.structure label', '.structure button', '.structure button.danger-link',
      '.structure button.small', '.structure select', '.st-results th', '.st-results td.num',
      '.st-results tr.redundant td', '.st-results tr.redundant th', '.st-results tr.weak td', '.st-results td.flag',
      '.st-results tr.paper td', '.st-results tr.ours td', '.st-results td.up', '.st-results td.down',
      '.spec-json']);
    // The pruning timeline (Color leaves for its VIF).
    await s.tid('prune').check();
    await s.settled();
    rows.push(...await contrasts(page, ['.timeline li', '.timeline li .muted']));
    const checked = new Set(rows.map((r) => r[0]));
    for (const must of ['.structure .muted', '.st-results tr.redundant td', '.st-results td.flag', '.st-results tr.paper td',
      '.st-results tr.ours td', '.structure button', '.structure button.danger-link', '.timeline li']) {
      assert.ok(checked.has(must), `${must} present`);
    }
    const low = rows.filter((r) => r[1] < 4.5).map((r) => `${r[0]}: ${r[1].toFixed(2)} (${r[2]} on ${r[3]})`);
    assert.deepEqual(low, [], `contrast below 4.5:1 (${scheme})`);
    console.log(`# ${scheme}: ${rows.length} text samples over ${checked.size} classes, lowest ratio `
      + `${Math.min(...rows.map((r) => r[1])).toFixed(2)}`);
    assert.deepEqual(errors, []);
    await context.close();
  });
}
