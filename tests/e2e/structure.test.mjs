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

function cli(specPath, extra = []) {
  const out = execFileSync('cargo', ['run', '-q', '-p', 'coglab-cli', '--', 'sem', '--spec', specPath, DATA, '--json', ...extra],
    { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 << 20, env: { ...process.env, CARGO_TARGET_DIR: join(ROOT, 'target') } });
  return JSON.parse(out);
}

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
  const app = new App(page, env.base);
  const s = new StructurePage(page);
  await app.goto('/structure');
  await s.settled();
  await s.tid('data-file').setInputFiles(DATA);
  await page.waitForFunction(() => /models\.json/.test(document.querySelector('[data-testid=data-summary]').textContent));
  await s.build(LAYERS);
  await s.settled();
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
  await s.tid('run-bootstrap').click();
  await s.tid('boot-summary').waitFor({ timeout: 60000 });
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

  // Whole report export and load-back on a fresh page.
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
  assert.equal(await s.tid('boot-summary').textContent(), bootText);

  console.log(`# in-browser timings on OpenVLM (${ref.n_models} models x 8 tasks): fit ${fitMs.toFixed(1)} ms in the worker; `
    + `5,000 bootstrap resamples (with pruning) ${bootMs.toFixed(0)} ms round trip (${bootText})`);
  assert.deepEqual(errors, []);
  await context.close();
});
