// End-to-end: files other harnesses write (issue 24), dropped on the leaderboard. The hand-made
// fixtures of crates/coglab-core/tests/fixtures/harness (an MM-IQ key of 4 items; lmms-eval
// samples in three shapes; an Inspect log as .json and as .eval with zstd and deflate members;
// a circular VLMEvalKit judge table; an Every Eval Ever export; a jsPsych KiVA run) are picked
// with the file picker and scored in the worker. Each computed row equals the coglab CLI's JSON
// for the same file (accuracy and the paradigms' accuracies for MM-IQ, the stage means for
// KiVA), and the row says which harness produced it (its "via <harness>" badge and
// data-harness). Screenshot of the MM-IQ board with the harness rows.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, copyFileSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { start, newPage, App, ROOT, SHOTS } from './support.mjs';

const FIX = join(ROOT, 'crates/coglab-core/tests/fixtures/harness');
const KEY = join(FIX, 'key.jsonl');

/** The coglab CLI's output (COGLAB_CLI or COGLAB_BIN, else cargo run), run in `cwd`. */
function run(args, cwd = ROOT) {
  const bin = process.env.COGLAB_CLI ?? process.env.COGLAB_BIN;
  return bin
    ? execFileSync(bin, args, { cwd, encoding: 'utf8', maxBuffer: 1 << 28 })
    : execFileSync('cargo', ['run', '-q', '-p', 'coglab-cli', '--', ...args],
      { cwd, encoding: 'utf8', maxBuffer: 1 << 28 });
}

/** Clicks a download button; the file's suggested name and text. */
async function download(page, testid) {
  const [dl] = await Promise.all([page.waitForEvent('download'), page.getByTestId(testid).click()]);
  return { name: dl.suggestedFilename(), text: readFileSync(await dl.path(), 'utf8') };
}
const cli = (args) => JSON.parse(run(args));

const close = (a, b) => Math.abs(a - b) < 1e-9;

/** MM-IQ's paradigms in the board's column order. */
const CATS = ['Logical Operation', 'Mathematical', '2D-Geometry', '3D-Geometry', 'Visual Instruction',
  'Temporal Movement', 'Spatial Relationship', 'Concrete Object'];

/** Page object: the leaderboard's file picker and computed rows. */
class Board {
  constructor(page) { this.page = page; }
  async pickFiles(paths) {
    await this.page.getByTestId('file-input').setInputFiles(paths);
    await this.page.waitForFunction((k) => document.querySelectorAll('[data-testid=staged-row]').length >= k, paths.length);
    await this.page.getByTestId('lb-score').click();
  }
  /** A row computed from dropped files: a model's, or a person's reference row (baseline). */
  row(stem, model) {
    return this.page.locator(`:is([data-testid=${stem}-computed-row], [data-testid=${stem}-baseline-row])[data-model="${model}"]`);
  }
  /** data-col → data-value of a row's cells. */
  async cells(row) {
    return Object.fromEntries(await row.locator('td[data-value]').evaluateAll(
      (tds) => tds.map((td) => [td.dataset.col, Number(td.dataset.value)])));
  }
  /** data-value of a row's cells in column order (MM-IQ: mean, then the paradigms present). */
  async values(row) {
    return row.locator('td[data-value]').evaluateAll((tds) => tds.map((td) => Number(td.dataset.value)));
  }
}

let env;
before(async () => { env = await start(); });
after(async () => { await env?.close(); });

test('harness files dropped on the leaderboard equal the CLI and name their harness', async () => {
  const { page, context, errors } = await newPage(env.browser);
  const app = new App(page, env.base);
  const board = new Board(page);
  await app.goto('/leaderboard');

  // An EEE export of the lmms-eval file, written by the CLI, is dropped too.
  const dir = mkdtempSync(join(tmpdir(), 'coglab-harness-'));
  run(['export', 'eee', '--answers', KEY, join(FIX, '20240601_120000_samples_mmiq.jsonl'),
    '--out', dir, '--model', 'eee-export', '--timestamp', '1717243200']);
  const eee = join(dir, 'eee-export.jsonl');
  copyFileSync(join(dir, 'eee-export/MM-IQ_1717243200.jsonl'), eee);

  // file, model the row is named by, harness.
  const mmiq = [
    ['20240601_120000_samples_mmiq.jsonl', '20240601_120000', 'lmms-eval'],
    ['20231105_samples_mmiq_test.jsonl', '20231105', 'lmms-eval'],
    ['20240110_samples_mm_iq.jsonl', '20240110', 'lmms-eval'],
    ['GPT4o_MMIQ_CIRC_gpt-4o-mini_result.tsv', 'GPT4o', 'VLMEvalKit'],
  ].map(([f, m, h]) => [join(FIX, f), m, h]);
  mmiq.push([eee, 'eee-export', 'Every Eval Ever']);
  await board.pickFiles([KEY, ...mmiq.map(([f]) => f)]);
  for (const [file, model, harness] of mmiq) {
    const row = board.row('mmiq', model);
    await row.waitFor();
    assert.equal(await row.getAttribute('data-harness'), harness, file);
    // textContent: the badge's CSS shows it in capitals.
    assert.equal(await row.getByTestId('row-harness').textContent(), `via ${harness}`, file);
    const want = cli(['score', 'mmiq', '--answers', KEY, file, '--json']);
    assert.equal(want.harness.harness_label, harness, file);
    const got = await board.values(row);
    const cats = CATS.filter((c) => want.by_category[c]);
    assert.equal(got.length, 1 + cats.length, file);
    assert.ok(close(got[0], want.overall.accuracy), `${file}: ${got[0]} vs ${want.overall.accuracy}`);
    cats.forEach((c, i) => assert.ok(close(got[1 + i], want.by_category[c].accuracy), `${file} ${c}`));
  }
  await app.screenshot('leaderboard-harness-mmiq');

  // Inspect logs: one at a time, each in a fresh browser context (all three name the same
  // model, openai/gpt-4o, and files dropped in a context are kept there and scored again).
  for (const f of ['inspect_log.json', 'inspect_log_zstd.eval', 'inspect_log_deflate.eval']) {
    const fresh = await newPage(env.browser);
    await new App(fresh.page, env.base).goto('/leaderboard');
    const b = new Board(fresh.page);
    const file = join(FIX, f);
    await b.pickFiles([KEY, file]);
    const row = b.row('mmiq', 'openai/gpt-4o');
    await row.waitFor();
    assert.equal(await row.getAttribute('data-harness'), 'Inspect', f);
    const want = cli(['score', 'mmiq', '--answers', KEY, file, '--json']);
    const got = await b.values(row);
    assert.ok(close(got[0], want.overall.accuracy), `${f}: ${got[0]} vs ${want.overall.accuracy}`);
    assert.deepEqual(fresh.errors, [], f);
    await fresh.context.close();
  }

  // jsPsych: the KiVA run is its participant's row on the KiVA tab, a person's reference
  // row (not ranked among the models: issue 42, defect 15).
  await page.getByTestId('tab-kiva').click();
  await page.waitForURL(/b=kiva/);
  const run1 = join(FIX, 'kiva_run_jspsych.csv');
  await board.pickFiles([run1]);
  const krow = page.locator('[data-testid=kiva-baseline-row][data-model="p07 (jsPsych)"]');
  await krow.waitFor();
  assert.equal(await krow.locator('td[data-rank]').count(), 0, 'the participant has no rank');
  assert.equal(await krow.getAttribute('data-harness'), 'jsPsych');
  const kv = cli(['score', 'kiva', run1, '--json']);
  const cells = await board.cells(krow);
  assert.ok(Object.keys(cells).length > 0);
  for (const [col, v] of Object.entries(cells)) {
    const [d, st] = col.split('/');
    const want = d === 'All' ? kv.overall[st] : kv.by_domain[d]?.[st];
    if (want) assert.ok(close(v, want.mean), `${col}: ${v} vs ${want.mean}`);
  }
  await app.screenshot('leaderboard-harness-kiva');
  assert.deepEqual(errors, []);
  await context.close();
});

// Issue 24's "UI export": a computed MM-IQ row's model page downloads Every Eval Ever records
// written by the worker with the core writer `coglab export eee` uses. Both files equal, byte
// for byte, the CLI's for the same input file, model name and timestamp (the CLI is run in the
// fixtures folder on the file names the browser gives, so the records name the same files),
// and the downloaded instance records, dropped again with the key, give the original row.
test('Every Eval Ever records downloaded from the model page equal the CLI and round-trip', async () => {
  const { page, context, errors } = await newPage(env.browser);
  await new App(page, env.base).goto('/leaderboard');
  const board = new Board(page);
  const name = '20240601_120000_samples_mmiq.jsonl';
  const model = '20240601_120000';
  await board.pickFiles([KEY, join(FIX, name)]);
  await board.row('mmiq', model).waitFor();
  await page.getByTestId('model-pick').selectOption({ label: model });

  const instances = await download(page, 'eee-jsonl');
  const aggregate = await download(page, 'eee-json');
  const ts = (n) => n.name.match(/_MM-IQ_(\d+)\.jsonl?$/)?.[1];
  assert.match(instances.name, new RegExp(`^${model}_MM-IQ_\\d+\\.jsonl$`));
  assert.match(aggregate.name, new RegExp(`^${model}_MM-IQ_\\d+\\.json$`));
  for (const f of [instances, aggregate]) {
    const stamp = ts(f);
    const jsonl = f.name.endsWith('.jsonl');
    const first = JSON.parse(jsonl ? f.text.split('\n')[0] : f.text);
    assert.equal(first.evaluation_id, `MM-IQ/${model}/${stamp}`, f.name);
    const dir = mkdtempSync(join(tmpdir(), 'coglab-eee-'));
    run(['export', 'eee', '--answers', 'key.jsonl', name, '--out', dir, '--model', model,
      '--timestamp', stamp], FIX);
    const want = readFileSync(join(dir, model, `MM-IQ_${stamp}${jsonl ? '.jsonl' : '.json'}`), 'utf8');
    assert.equal(f.text, want, f.name);
  }
  // The 4-item key and the file's answers: one instance record per scored item.
  const want = cli(['score', 'mmiq', '--answers', KEY, join(FIX, name), '--json']);
  const lines = instances.text.trim().split('\n').map((l) => JSON.parse(l));
  assert.equal(lines.length, want.overall.n);
  assert.equal(lines.filter((l) => l.evaluation.is_correct).length, want.overall.correct);
  const agg = JSON.parse(aggregate.text);
  assert.equal(agg.schema_version, '0.3.0');
  assert.ok(close(agg.evaluation_results[0].score_details.score, want.overall.accuracy));

  // Round trip: the downloaded instance records, dropped with the key in a fresh context, are
  // read by our EEE reader into a row equal to the original file's.
  const dir = mkdtempSync(join(tmpdir(), 'coglab-eee-back-'));
  const back = join(dir, 'roundtrip.jsonl');
  writeFileSync(back, instances.text);
  const fresh = await newPage(env.browser);
  await new App(fresh.page, env.base).goto('/leaderboard');
  const b = new Board(fresh.page);
  await b.pickFiles([KEY, back]);
  const row = b.row('mmiq', model);
  await row.waitFor();
  assert.equal(await row.getAttribute('data-harness'), 'Every Eval Ever');
  const got = await b.values(row);
  const cats = CATS.filter((c) => want.by_category[c]);
  assert.equal(got.length, 1 + cats.length);
  assert.ok(close(got[0], want.overall.accuracy), `${got[0]} vs ${want.overall.accuracy}`);
  cats.forEach((c, i) => assert.ok(close(got[1 + i], want.by_category[c].accuracy), c));
  assert.deepEqual(fresh.errors, []);
  await fresh.context.close();
  assert.deepEqual(errors, []);
  await context.close();
});

// Issue 24: summary files and KiVA challenge results are drawn on their boards. An lmms-eval
// `results.json` gives one MM-IQ row per figure of its mmiq task, badged "summary: lmms-eval",
// its value and the file's stderr as the interval (value ± 1.96 stderr), as the CLI reads them;
// a KiVA challenge result with its annotations is a computed KiVA row via "KiVA challenge" whose
// Apply cells are the CLI's accuracies overall and per domain.
test('harness summary rows and KiVA challenge rows are drawn with the CLI numbers', async () => {
  const { page, context, errors } = await newPage(env.browser);
  await new App(page, env.base).goto('/leaderboard');
  const board = new Board(page);
  const results = join(FIX, '20240601_120000_results.json');
  await board.pickFiles([results]);
  const want = cli(['score', 'mmiq', '--answers', KEY, results, '--json']);
  assert.equal(want.precomputed, true);
  assert.equal(want.summary.length, 2);
  for (const s of want.summary) {
    const model = `${want.model} (lmms-eval summary, ${s.metric}, ${s.filter})`;
    const row = board.row('mmiq', model);
    await row.waitFor();
    assert.equal(await row.getAttribute('data-harness'), 'lmms-eval', model);
    const badge = row.getByTestId('row-summary');
    assert.equal(await badge.textContent(), 'summary: lmms-eval', model);
    assert.match(await badge.getAttribute('title'), /no items, so there is no model page/);
    const mean = row.locator('td[data-col=mean]');
    assert.ok(close(Number(await mean.getAttribute('data-value')), s.value), model);
    if (s.stderr === undefined) {
      assert.equal(await mean.getAttribute('data-ci-low'), null, model);
    } else {
      assert.ok(close(Number(await mean.getAttribute('data-ci-low')), s.value - 1.96 * s.stderr), model);
      assert.ok(close(Number(await mean.getAttribute('data-ci-high')), s.value + 1.96 * s.stderr), model);
    }
  }
  // No drill-down: the summary rows are not on the model page's picker (which is absent when
  // no row has items).
  assert.equal(await page.getByTestId('model-pick').locator('option', { hasText: 'summary' }).count(), 0);
  await page.getByTestId('mmiq-table').screenshot({ path: join(SHOTS, 'leaderboard-harness-summary.png') });

  // KiVA challenge: annotations and a result file (JSON, then CSV in a fresh context).
  for (const res of ['kiva_challenge_results.json', 'kiva_challenge_results.csv']) {
    const fresh = await newPage(env.browser);
    await new App(fresh.page, env.base).goto('/leaderboard?b=kiva');
    const b = new Board(fresh.page);
    const ann = join(FIX, 'kiva_challenge_annotations.json');
    await b.pickFiles([ann, join(FIX, res)]);
    const row = fresh.page.locator('[data-testid=kiva-computed-row][data-harness="KiVA challenge"]');
    await row.waitFor();
    assert.equal(await row.getByTestId('row-harness').textContent(), 'via KiVA challenge', res);
    const kv = cli(['score', 'kiva', ann, join(FIX, res), '--json']);
    assert.equal(kv.benchmark, 'kiva_challenge');
    const cells = await b.cells(row);
    assert.ok(close(cells['All/extrapolation'], kv.overall.accuracy), `${res}: ${cells['All/extrapolation']} vs ${kv.overall.accuracy}`);
    for (const [col, v] of Object.entries(cells)) {
      const [d, st] = col.split('/');
      assert.equal(st, 'extrapolation', `${res}: only the Apply stage is asked (${col})`);
      if (d !== 'All') assert.ok(close(v, kv.by_domain[d].accuracy), `${res} ${col}: ${v} vs ${kv.by_domain[d].accuracy}`);
    }
    // Drill-down: the challenge's trials, as the CLI lists them (--trials), with the counts of
    // trials not answered and results not mapped.
    const items = cli(['score', 'kiva', ann, join(FIX, res), '--json', '--trials']).items;
    const trials = fresh.page.getByTestId('challenge-trials').getByTestId('challenge-row');
    await fresh.page.waitForFunction((n) => document.querySelectorAll('[data-testid=challenge-row]').length === n, items.length);
    const shown = await trials.evaluateAll((trs) => trs.map((tr) => [tr.dataset.trial, tr.dataset.correct === 'true']));
    assert.deepEqual(shown, items.map((i) => [i.id, i.is_correct]), res);
    assert.equal(await fresh.page.getByTestId('challenge-note').textContent(),
      `${kv.not_answered} annotated trials without a result (not counted); ${kv.unmapped.length} results not mapped to an annotated trial.`);
    assert.deepEqual(fresh.errors, [], res);
    await fresh.context.close();
  }
  assert.deepEqual(errors, []);
  await context.close();
});

// Issue 39's Hub export from the model page: a computed MM-IQ row's Hugging Face Eval Results
// file, written by the worker with the core function `coglab export hf` uses, equals the CLI's
// for the same file, model id and date, byte for byte; its value is the row's accuracy in
// percent. A model id that is not `org/name` is refused with a message, and nothing downloads.
test('Hugging Face Eval Results downloaded from the model page equal coglab export hf', async () => {
  const { page, context, errors } = await newPage(env.browser);
  await new App(page, env.base).goto('/leaderboard');
  const board = new Board(page);
  const name = '20240601_120000_samples_mmiq.jsonl';
  const model = '20240601_120000';
  await board.pickFiles([KEY, join(FIX, name)]);
  await board.row('mmiq', model).waitFor();
  await page.getByTestId('model-pick').selectOption({ label: model });
  // The row's model name is no Hub id: the field starts empty, and the worker refuses it.
  assert.equal(await page.getByTestId('hf-model').inputValue(), '');
  await page.getByTestId('hf-yaml').click();
  assert.match(await page.getByTestId('hf-error').textContent(), /Hub model id: expected a Hub model id ORG\/NAME/);
  await page.getByTestId('hf-model').fill('coglab-test/model-x');
  const got = await download(page, 'hf-yaml');
  assert.equal(got.name, 'mmiq.yaml');
  const date = /date: (\d{4}-\d{2}-\d{2})/.exec(got.text)?.[1];
  assert.ok(date, got.text);
  const dir = mkdtempSync(join(tmpdir(), 'coglab-hf-'));
  run(['export', 'hf', '--answers', 'key.jsonl', name, '--out', dir, '--model', 'coglab-test/model-x',
    '--date', date], FIX);
  assert.equal(got.text, readFileSync(join(dir, '.eval_results', 'mmiq.yaml'), 'utf8'));
  const want = cli(['score', 'mmiq', '--answers', KEY, join(FIX, name), '--json']);
  const value = Number(/value: ([0-9.]+)/.exec(got.text)[1]);
  assert.ok(Math.abs(value - want.overall.accuracy * 100) < 1e-8, `${value} vs ${want.overall.accuracy}`);
  assert.match(got.text, /id: huanqia\/MM-IQ/);
  assert.match(got.text, /url: https:\/\/huggingface.co\/coglab-test\/model-x/);
  assert.match(await page.getByTestId('hf-saved').textContent(), /\.eval_results\/mmiq\.yaml/);
  await page.getByTestId('model-items').screenshot({ path: join(SHOTS, 'issue39-hf-export-1280-light.png') });
  assert.deepEqual(errors, []);
  await context.close();
  rmSync(dir, { recursive: true, force: true });
});

// The KiVA model page's Every Eval Ever download: a jsPsych run's row, the records equal the
// CLI's `coglab export eee --kiva` for the same file, model name and timestamp; one instance
// record per trial and stage, whose scores equal the CLI's per-trial scores.
test('Every Eval Ever records downloaded from the KiVA model page equal coglab export eee --kiva', async () => {
  const { page, context, errors } = await newPage(env.browser);
  await new App(page, env.base).goto('/leaderboard?b=kiva');
  const board = new Board(page);
  const name = 'kiva_run_jspsych.csv';
  const model = 'p07 (jsPsych)';
  await board.pickFiles([join(FIX, name)]);
  await page.locator(`[data-testid=kiva-baseline-row][data-model="${model}"]`).waitFor();
  await page.getByTestId('kiva-model-pick').selectOption({ label: model });
  for (const [testid, ext] of [['eee-jsonl', 'jsonl'], ['eee-json', 'json']]) {
    const got = await download(page, testid);
    const stamp = got.name.match(/_KiVA_(\d+)\.jsonl?$/)?.[1];
    assert.equal(got.name, `p07__jsPsych__KiVA_${stamp}.${ext}`);
    const dir = mkdtempSync(join(tmpdir(), 'coglab-eee-kiva-'));
    run(['export', 'eee', '--kiva', name, '--out', dir, '--model', model, '--timestamp', stamp], FIX);
    assert.equal(got.text, readFileSync(join(dir, 'p07__jsPsych_', `KiVA_${stamp}.${ext}`), 'utf8'), got.name);
    if (ext === 'jsonl') {
      const want = cli(['score', 'kiva', join(FIX, name), '--json', '--trials']);
      const lines = got.text.trim().split('\n').map((l) => JSON.parse(l));
      const stages = ['cross', 'within_conditional', 'within_joint', 'extrapolation'];
      const expected = want.trials.flatMap((t) => stages.filter((s) => t[s] != null).map((s) => t[s]));
      assert.deepEqual(lines.map((l) => l.evaluation.score), expected);
      // Issue 24: the records dropped back on the leaderboard are a KiVA row of their own
      // (named by their model_id), marked as read from Every Eval Ever, whose cells equal the
      // original row's and `coglab score kiva` of the same records.
      // Named so that the model guessed from the file name is the records' model_id.
      const back = join(dir, `${model}.jsonl`);
      writeFileSync(back, got.text);
      const before = await board.cells(board.row('kiva', model));
          const fresh = await newPage(env.browser);
      await new App(fresh.page, env.base).goto('/leaderboard?b=kiva');
      const b2 = new Board(fresh.page);
      await b2.pickFiles([back]);
      const row = b2.row('kiva', model);
      await row.waitFor();
      assert.equal(await row.getAttribute('data-harness'), 'Every Eval Ever');
      assert.equal(await row.getByTestId('row-harness').textContent(), 'via Every Eval Ever');
      const cells = await b2.cells(row);
      assert.deepEqual(Object.keys(cells).sort(), Object.keys(before).sort());
      for (const [k, v] of Object.entries(before)) assert.ok(close(cells[k], v), `${k}: ${cells[k]} vs ${v}`);
      const read = cli(['score', 'kiva', back, '--json']);
      const orig = cli(['score', 'kiva', join(FIX, name), '--json']);
      assert.ok(close(read.overall.cross.mean, orig.overall.cross.mean));
      assert.ok(close(cells['All/cross'], read.overall.cross.mean), `${cells['All/cross']} vs ${read.overall.cross.mean}`);
      assert.deepEqual(fresh.errors, []);
      await fresh.context.close();
    }
  }
  assert.deepEqual(errors, []);
  await context.close();
});
