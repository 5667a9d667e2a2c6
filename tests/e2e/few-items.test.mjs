// End-to-end: scores from few items on the leaderboard (issue 40). A simulated MM-IQ board
// (a 240-item key over the eight categories, 24 complete prediction files and 2 files that
// answer only the first 80 items, from a fixed-seed 2PL generator with a guessing floor of 1/4)
// is dropped on the MM-IQ tab and scored in the worker. Then:
// - each partial row shows "est. X% [lo, hi]" beside its coverage, equal to `coglab estimate
//   --answers KEY --calibration FULL... PARTIAL... --json` on the same files, the footnote
//   names the calibration (24 complete rows, the CLI's model) and defines the figure;
// - the "Rank by estimated scores" switch (default off) puts `est=1` in the address and the
//   estimate into the partial rows' Mean cell, and back;
// - the planner shows the board's MDD and the items 3 points need (and per pair) as
//   `coglab plan mmiq ... --mde 0.03 --json`, and again for 5 points typed;
// - the quality panel shows, per benchmark and category, what `coglab quality mmiq ... --json`
//   gives (items, reliability, SEM, signal, noise, ratio, MDD) and its warnings.
// On the three released KiVA runs (../shared/data), one cut to its first domain folders: the
// estimate is withheld with the core's reason (3 complete rows, fewer than 20), and the
// planner and quality panel equal `coglab plan kiva` / `coglab quality kiva`.
// Screenshots: tests/e2e/screenshots/issue40-*.png at 1280 px (light) and 390 px (dark).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, cpSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { start, newPage, App, ROOT, SHOTS, cli } from './support.mjs';

const DATA = process.env.COGLAB_DATA ?? join(ROOT, '../shared/data');
const KIVA = ['gpt4_multi_image', 'gpt4_single_image', 'mantis_multi_image']
  .map((m) => [m, join(DATA, 'kiva/model_data/KiVA', m)]);

const COMPLETE = 24;
const PARTIAL = 2;
const ITEMS = 240;
const ANSWERED = 80;

/**
 * Writes the simulated board into `dir`: `MMIQ_benchmark_answer_dict.jsonl` and one
 * predictions file per model, `sim-00.jsonl` ... (complete) and `part-0.jsonl`, `part-1.jsonl`
 * (the first ANSWERED items only). Returns { key, full: [[name, path]], partial: [[name, path]] }.
 */
function writeBoard(dir) {
  let seed = 0x2545f491;
  const rnd = () => { seed = (Math.imul(seed ^ (seed >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0; return seed / 2 ** 32; };
  const cats = ['Logical Operation', 'Mathematical', '2D-Geometry', '3D-Geometry', 'Visual Instruction',
    'Temporal Movement', 'Spatial Relationship', 'Concrete Object'];
  const L = ['A', 'B', 'C', 'D'];
  const key = [];
  for (let j = 0; j < ITEMS; j++) {
    key.push({ category: cats[j % cats.length], data_id: j, answer: L[Math.floor(rnd() * 4)],
      a: 0.6 + 1.2 * rnd(), b: 3 * rnd() - 1.5 });
  }
  const keyPath = join(dir, 'MMIQ_benchmark_answer_dict.jsonl');
  writeFileSync(keyPath, key.map(({ category, data_id, answer }) => JSON.stringify({ category, data_id, answer })).join('\n') + '\n');
  const model = (name, theta, upTo) => {
    const lines = [];
    for (const k of key.slice(0, upTo)) {
      const p = 0.25 + 0.75 / (1 + Math.exp(-k.a * (theta - k.b)));
      const pred = rnd() < p ? k.answer : L[(L.indexOf(k.answer) + 1 + Math.floor(rnd() * 3)) % 4];
      lines.push(JSON.stringify({ data_id: k.data_id, parsed_pred: pred }));
    }
    const path = join(dir, `${name}.jsonl`);
    writeFileSync(path, lines.join('\n') + '\n');
    return [name, path];
  };
  const full = [];
  for (let m = 0; m < COMPLETE; m++) full.push(model(`sim-${String(m).padStart(2, '0')}`, -2 + (4 * m) / (COMPLETE - 1), ITEMS));
  const partial = [];
  for (let m = 0; m < PARTIAL; m++) partial.push(model(`part-${m}`, m === 0 ? -0.5 : 1, ANSWERED));
  return { key: keyPath, full, partial };
}

/** Page object: the leaderboard's few-items parts of one tab (`mmiq` or `kiva`). */
class FewItems {
  constructor(page, stem) { this.page = page; this.stem = stem; }
  async pickFiles(paths) {
    await this.page.getByTestId('file-input').setInputFiles(paths);
    await this.page.waitForFunction((k) => document.querySelectorAll('[data-testid=staged-row]').length >= k, paths.length);
    await this.page.getByTestId('lb-score').click();
  }
  async pickFolder(dir, n) {
    await this.page.getByTestId('folder-input').setInputFiles(dir);
    await this.page.waitForFunction((k) => document.querySelectorAll('[data-testid=staged-row]').length >= k, n);
    await this.page.getByTestId('lb-score').click();
  }
  row(model) { return this.page.locator(`[data-testid=${this.stem}-computed-row][data-model="${model}"]`); }
  /** The estimate mark of a computed row: { text, estimate, low, high, href }. */
  async mark(model) {
    const m = this.row(model).getByTestId('estimate-mark');
    await m.waitFor();
    const num = async (a) => { const v = await m.getAttribute(a); return v === null ? null : Number(v); };
    return { text: await m.innerText(), estimate: await num('data-estimate'), low: await num('data-ci-low'),
      high: await num('data-ci-high'), href: await m.getAttribute('href') };
  }
  /** The Mean (MM-IQ) cell's data-value of a computed row. */
  async cell(model, col) {
    return Number(await this.row(model).locator(`td[data-col="${col}"]`).getAttribute('data-value'));
  }
  /** Waits for the planner's reply for `points` typed and returns the summary's items. */
  async plannerItems() {
    const p = this.page.getByTestId(`${this.stem}-plan-items`);
    await p.waitFor();
    return { items: await p.getAttribute('data-items'), text: await p.innerText() };
  }
  /** The quality table's rows: [{ label, items, reliability, sem, signal, noise, ratio, mdd }]. */
  async qualityRows() {
    await this.page.getByTestId(`${this.stem}-quality-table`).waitFor();
    return this.page.locator(`[data-testid=${this.stem}-quality-row]`).evaluateAll((rs) => rs.map((r) => {
      const n = (k) => (r.dataset[k] === undefined ? null : Number(r.dataset[k]));
      return { label: r.dataset.label, items: n('items'), reliability: n('reliability'), sem: n('sem'),
        signal: n('signal'), noise: n('noise'), ratio: n('ratio'), mdd: n('mdd') };
    }));
  }
  async open(testid) {
    const d = this.page.getByTestId(testid);
    if (!(await d.evaluate((el) => el.open))) await d.locator('summary').click();
  }
}

const near = (a, b, what, tol = 1e-9) => {
  assert.ok(a !== null && b !== null && b !== undefined, `${what}: ${a} vs ${b}`);
  assert.ok(Math.abs(a - b) <= tol, `${what}: ${a} vs ${b}`);
};
const pts = (x) => (100 * x).toFixed(1);
const thousands = (n) => n.toLocaleString('en-US');

/** The quality rows shown equal the CLI's panel (overall, then categories). */
function sameQuality(shown, json, what) {
  const want = [json.overall, ...json.categories];
  assert.deepEqual(shown.map((r) => r.label), want.map((r) => r.label), what);
  for (const [g, w] of shown.map((r, i) => [r, want[i]])) {
    assert.equal(g.items, w.items, `${what} ${w.label} items`);
    for (const k of ['reliability', 'sem', 'signal', 'noise', 'ratio', 'mdd']) {
      if (w[k] === null || w[k] === undefined) assert.equal(g[k], null, `${what} ${w.label} ${k}`);
      else near(g[k], w[k], `${what} ${w.label} ${k}`, 1e-12);
    }
  }
}

let env;
let tmp;
before(async () => { env = await start(); tmp = mkdtempSync(join(tmpdir(), 'coglab-few-')); });
after(async () => { await env?.close(); if (tmp) rmSync(tmp, { recursive: true, force: true }); });

test('MM-IQ partial rows: estimates, the switch, planner and quality equal coglab estimate / plan / quality',
  async () => {
    const board = writeBoard(tmp);
    const { page, context, errors } = await newPage(env.browser);
    const app = new App(page, env.base);
    const few = new FewItems(page, 'mmiq');
    await app.goto('/leaderboard');
    const all = [...board.full, ...board.partial];
    await few.pickFiles([board.key, ...all.map(([, p]) => p)]);
    for (const [name] of all) await few.row(name).waitFor();

    // Estimates: the CLI on the same split (complete files calibrate; 4 options by default).
    const est = cli(['estimate', '--answers', board.key,
      ...board.full.flatMap(([, p]) => ['--calibration', p]), ...board.partial.map(([, p]) => p), '--json']);
    assert.equal(est.estimates.length, PARTIAL);
    await page.getByTestId('mmiq-estimates').waitFor();
    for (const want of est.estimates) {
      const got = await few.mark(want.id);
      near(got.estimate, want.estimate, `${want.id} estimate`);
      near(got.low, want.ci_low, `${want.id} ci_low`);
      near(got.high, want.ci_high, `${want.id} ci_high`);
      assert.equal(got.text, `est. ${pts(want.estimate)}% [${pts(want.ci_low)}, ${pts(want.ci_high)}]`);
      // A link to the footnote: a phone reaches the definition with a tap.
      assert.equal(got.href, '#mmiq-estimates');
      const li = page.locator(`[data-testid=mmiq-estimate-row][data-row="${want.id}"]`);
      assert.match(await li.innerText(), new RegExp(`${want.answered} of ${ITEMS} items answered`));
    }
    const calibration = await page.getByTestId('mmiq-calibration').innerText();
    assert.equal(est.calibration.respondents, COMPLETE);
    assert.match(calibration, new RegExp(`calibrated on ${COMPLETE} complete rows \\(${ITEMS} items\\), 2PL`));
    assert.match(await page.getByTestId('mmiq-estimate-definition').innerText(), /expected proportion right over every item/);
    // Complete rows have no estimate mark.
    assert.equal(await few.row(board.full[0][0]).getByTestId('estimate-mark').count(), 0);

    // The switch: default off, named; on puts est=1 in the address and the estimate in Mean.
    const sw = page.getByTestId('mmiq-rank-estimated');
    assert.equal(await sw.isChecked(), false);
    assert.match(await page.getByTestId('mmiq-rank-basis').innerText(), /Off \(the default\)/);
    const [p0] = board.partial[0];
    const observed = await few.cell(p0, 'mean');
    const want0 = est.estimates.find((e) => e.id === p0);
    assert.ok(Math.abs(observed - want0.estimate) > 1e-6, 'the counted-wrong figure differs from the estimate');
    await sw.check();
    await page.waitForFunction(() => new URLSearchParams(location.search).get('est') === '1');
    await page.waitForFunction(([m, v]) => Math.abs(Number(document.querySelector(
      `[data-testid=mmiq-computed-row][data-model="${m}"] td[data-col=mean]`)?.dataset.value) - v) < 1e-9, [p0, want0.estimate]);
    near(Number(await few.row(p0).locator('td[data-col=mean]').getAttribute('data-ci-low')), want0.ci_low, 'Mean ci_low on');
    assert.match(await page.getByTestId('mmiq-rank-basis').innerText(), /^On:/);
    await sw.uncheck();
    await page.waitForFunction(() => !new URLSearchParams(location.search).has('est'));
    await page.waitForFunction(([m, v]) => Math.abs(Number(document.querySelector(
      `[data-testid=mmiq-computed-row][data-model="${m}"] td[data-col=mean]`)?.dataset.value) - v) < 1e-12, [p0, observed]);

    // Planner: 3 points by default, as `coglab plan ... --mde 0.03`.
    const named = all.map(([n, p]) => `${n}=${p}`);
    const plan3 = cli(['plan', 'mmiq', '--answers', board.key, ...named, '--mde', '0.03', '--json']);
    await page.getByTestId('mmiq-planner').waitFor();
    await page.waitForFunction((n) => document.querySelector('[data-testid=mmiq-plan-items]')?.dataset.items === n,
      String(plan3.summary.items));
    const mdd = await page.getByTestId('mmiq-plan-mdd').innerText();
    assert.ok(mdd.includes(plan3.mdd.text), `${mdd} vs ${plan3.mdd.text}`);
    const { text } = await few.plannerItems();
    assert.ok(text.includes(`${thousands(plan3.summary.items)} items per pair`), text);
    await few.open('mmiq-plan-pairs');
    // 26 rows, 325 pairs: the first 50 are drawn, a button draws the rest.
    await page.getByTestId('mmiq-plan-pairs-more').click();
    await page.waitForFunction((n) => document.querySelectorAll('[data-testid=mmiq-plan-pair]').length === n,
      plan3.pairs.length);
    const pairs = await page.locator('[data-testid=mmiq-plan-pair]').evaluateAll((rs) => rs.map((r) => (
      { a: r.dataset.a, b: r.dataset.b, items: r.dataset.items ?? null })));
    assert.equal(pairs.length, plan3.pairs.length);
    for (const w of plan3.pairs) {
      const g = pairs.find((p) => p.a === w.a && p.b === w.b);
      assert.ok(g, `pair ${w.a} / ${w.b} not shown`);
      assert.equal(g.items, w.items === null ? null : String(w.items), `${w.a} / ${w.b}`);
    }
    // Another difference typed: 5 points.
    const plan5 = cli(['plan', 'mmiq', '--answers', board.key, ...named, '--mde', '0.05', '--json']);
    await page.getByTestId('mmiq-plan-mde').fill('5');
    await page.waitForFunction((n) => document.querySelector('[data-testid=mmiq-plan-items]')?.dataset.items === n,
      String(plan5.summary.items));

    // Quality panel.
    const q = cli(['quality', 'mmiq', '--answers', board.key, ...named, '--json']);
    sameQuality(await few.qualityRows(), q, 'MM-IQ quality');
    if (q.warnings.length) {
      const shown = await page.getByTestId('mmiq-quality-warnings').locator('li').allInnerTexts();
      assert.deepEqual(shown, q.warnings);
    }
    await few.open('mmiq-quality-glossary');

    // Screenshots: desktop light, then phone dark (the same page, nothing overflows).
    await page.getByTestId('mmiq-estimates').scrollIntoViewIfNeeded();
    await app.screenshot('issue40-mmiq-1280-light');
    // Each panel on its own, for looking at.
    const panels = async (suffix) => {
      for (const id of ['mmiq-estimates', 'mmiq-planner', 'mmiq-quality']) {
        await page.getByTestId(id).screenshot({ path: join(SHOTS, `issue40-${id}-${suffix}.png`) });
      }
    };
    await panels('1280-light');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.emulateMedia({ colorScheme: 'dark' });
    for (const id of ['mmiq-estimates', 'mmiq-planner', 'mmiq-quality']) {
      const box = await page.getByTestId(id).boundingBox();
      assert.ok(box && box.x >= 0 && box.x + box.width <= 390 + 0.5, `${id} fits 390 px: ${JSON.stringify(box)}`);
    }
    await app.screenshot('issue40-mmiq-390-dark');
    await panels('390-dark');
    assert.deepEqual(errors, []);
    await context.close();
  });

test('KiVA: a cut run has its estimate withheld with the reason; planner and quality equal the CLI',
  { skip: !existsSync(DATA) && 'needs ../shared/data' }, async () => {
    // The third run cut to its first folder (one domain's trials).
    const [cutName, cutSrc] = KIVA[2];
    const cut = join(tmp, 'kiva', cutName);
    const first = readdirSync(cutSrc).filter((f) => f.startsWith('output_')).sort()[0];
    cpSync(join(cutSrc, first), join(cut, first), { recursive: true });
    const runs = [KIVA[0], KIVA[1], [cutName, cut]];
    const { page, context, errors } = await newPage(env.browser);
    const app = new App(page, env.base);
    const few = new FewItems(page, 'kiva');
    await app.goto('/leaderboard?b=kiva');
    for (const [model, dir] of runs) {
      const n = readdirSync(dir, { recursive: true }).filter((f) => String(f).endsWith('.csv')).length;
      await few.pickFolder(dir, n);
      await few.row(model).waitFor();
    }
    const mark = await few.mark(cutName);
    assert.equal(mark.estimate, null);
    // The cell says only that it is withheld; the footnote it links to says why.
    assert.equal(mark.text, 'est. withheld (why?)');
    assert.equal(mark.href, '#kiva-estimates');
    assert.match(await page.locator(`[data-testid=kiva-estimate-row][data-row="${cutName}"]`).innerText(),
      /est\. withheld: .*2 calibration respondents, fewer than the 20/);
    assert.match(await page.getByTestId('kiva-calibration').innerText(), /not calibrated: 2 complete rows/);

    const dirs = runs.map(([n, d]) => `${n}=${d}`);
    const plan = cli(['plan', 'kiva', ...dirs, '--mde', '0.03', '--json']);
    await page.waitForFunction((n) => document.querySelector('[data-testid=kiva-plan-items]')?.dataset.items === n,
      String(plan.summary.items));
    assert.ok((await page.getByTestId('kiva-plan-mdd').innerText()).includes(plan.mdd.text));
    // KiVA runs have regenerations: what K per item buys, per model.
    assert.equal(await page.locator('[data-testid=kiva-plan-replicates]').count(), plan.replicates.length);
    const q = cli(['quality', 'kiva', ...dirs, '--json']);
    sameQuality(await few.qualityRows(), q, 'KiVA quality');
    await app.screenshot('issue40-kiva-1280-light');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.emulateMedia({ colorScheme: 'dark' });
    await app.screenshot('issue40-kiva-390-dark');
    assert.deepEqual(errors, []);
    await context.close();
  });
