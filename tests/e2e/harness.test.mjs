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
import { mkdtempSync, copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { start, newPage, App, ROOT } from './support.mjs';

const FIX = join(ROOT, 'crates/coglab-core/tests/fixtures/harness');
const KEY = join(FIX, 'key.jsonl');

/** The coglab CLI's output (COGLAB_CLI or COGLAB_BIN, else cargo run). */
function run(args) {
  const bin = process.env.COGLAB_CLI ?? process.env.COGLAB_BIN;
  return bin
    ? execFileSync(bin, args, { encoding: 'utf8', maxBuffer: 1 << 28 })
    : execFileSync('cargo', ['run', '-q', '-p', 'coglab-cli', '--', ...args],
      { cwd: ROOT, encoding: 'utf8', maxBuffer: 1 << 28 });
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
  row(stem, model) {
    return this.page.locator(`[data-testid=${stem}-computed-row][data-model="${model}"]`);
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

  // jsPsych: the KiVA run is its participant's computed row on the KiVA tab.
  await page.getByTestId('tab-kiva').click();
  await page.waitForURL(/b=kiva/);
  const run1 = join(FIX, 'kiva_run_jspsych.csv');
  await board.pickFiles([run1]);
  const krow = board.row('kiva', 'p07 (jsPsych)');
  await krow.waitFor();
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
