// End-to-end: rows outlive the worker that scored them (issue 38). Files are scored, then a
// second scoring is cancelled (which terminates the worker), and later the worker is ended from
// outside the page (`self.close()` in it, as the browser ending it would): each time the rows
// stay on the board marked stale in one notice, the model page, a comparison and the item
// analysis say the row is stale with one click to restore, and after that click each works
// again from the kept files. Made-up MM-IQ files, written here, so it runs without
// ../shared/data.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync, openSync, writeSync, closeSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { start, newPage, App, SHOTS } from './support.mjs';

const ITEMS = 240;
const CATEGORIES = ['Logical', 'Mathematical', 'Spatial'];
const LETTERS = ['A', 'B', 'C', 'D'];

/** A key of ITEMS items and three models right on 80%, 50% and 30% of them (made-up). */
function files() {
  const dir = mkdtempSync(join(tmpdir(), 'coglab-gen-'));
  const answer = (i) => LETTERS[(i * 7) % 4];
  const key = join(dir, 'MMIQ_benchmark_answer_dict.jsonl');
  writeFileSync(key, Array.from({ length: ITEMS }, (_, i) => `${JSON.stringify({
    category: CATEGORIES[i % 3], data_id: i, answer: answer(i) })}\n`).join(''));
  const model = (name, rightEvery) => {
    const path = join(dir, `${name}_output.jsonl`);
    writeFileSync(path, Array.from({ length: ITEMS }, (_, i) => {
      const right = (i * 37) % 10 < rightEvery;
      return `${JSON.stringify({ data_id: i, parsed_pred: right ? answer(i) : LETTERS[((i * 7) + 1) % 4] })}\n`;
    }).join(''));
    return path;
  };
  const models = [model('alpha', 8), model('beta', 5), model('gamma', 3)];
  // A 300 MB predictions file: long enough to be read that Cancel lands while it is.
  const big = join(dir, 'delta_output.jsonl');
  const fd = openSync(big, 'w');
  const filler = 'The figure rotates by ninety degrees in each row. '.repeat(25_000);
  for (let i = 0; i < ITEMS; i += 1) {
    writeSync(fd, `${JSON.stringify({ data_id: i, category: CATEGORIES[i % 3], response: `${filler} The answer is ${answer(i)}.` })}\n`);
  }
  closeSync(fd);
  return { dir, key, models, big };
}

let env;
let made;
before(async () => { env = await start(); made = files(); });
// The folder holds a 300 MB file: removed after the run (it was left in the temp folder).
after(async () => { await env?.close(); if (made) rmSync(made.dir, { recursive: true, force: true }); });

const rows = (page) => page.locator('[data-testid=mmiq-computed-row]').evaluateAll(
  (rs) => rs.map((r) => r.dataset.model).sort());

/** The model page, a comparison (its second model set to `second`) and the item analysis each
 * answer "stale" with the restore button; returns the restore button of the model page. */
async function allStale(page, second) {
  // The model page of another row: a new request, answered stale.
  await page.getByTestId('model-pick').selectOption({ label: 'beta' });
  const model = page.getByTestId('model-items').locator('[data-stale=true]');
  await model.waitFor();
  assert.match(await model.innerText(), /stopped .*restore it to go on/s);
  // A comparison of another pair.
  await page.getByTestId('compare-b').selectOption({ label: second });
  await page.getByTestId('compare').locator('[data-stale=true]').waitFor();
  // The item analysis.
  const items = page.getByTestId('item-analysis');
  if (await items.getByTestId('items-open').count()) await items.getByTestId('items-open').click();
  else await items.getByTestId('items-run').click();
  await items.locator('[data-stale=true]').waitFor();
  return model.getByTestId('restore-worker-data');
}

/** After the restore: the same three rows, the model page, the comparison and the analysis. */
async function allWork(page) {
  await page.getByTestId('stale-rows').waitFor({ state: 'detached' });
  assert.deepEqual(await rows(page), ['alpha', 'beta', 'gamma']);
  const model = page.getByTestId('model-items');
  await model.getByTestId('item-row').first().waitFor();
  assert.equal(await model.locator('[data-stale]').count(), 0);
  assert.match(await model.getByTestId('item-count').innerText(), new RegExp(`${ITEMS}`));
  await page.getByTestId('compare-stats').first().waitFor();
  const items = page.getByTestId('item-analysis');
  await items.getByTestId('items-summary').waitFor({ timeout: 60_000 });
  assert.match(await items.getByTestId('items-summary').innerText(), new RegExp(`^3 respondents × ${ITEMS} items`));
}

test('rows outlive a cancelled worker and one ended from outside: stale in one notice, restored in one click',
  async () => {
    const { page, context, errors } = await newPage(env.browser);
    const app = new App(page, env.base);
    await app.goto('/leaderboard');
    await page.getByTestId('file-input').setInputFiles([made.key, ...made.models]);
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=staged-row]').length === 4);
    await page.getByTestId('lb-score').click();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=mmiq-computed-row]').length === 3,
      null, { timeout: 60_000 });
    await page.getByTestId('model-items').getByTestId('item-row').first().waitFor();
    assert.equal(await page.getByTestId('stale-rows').count(), 0);

    // 1. A second scoring, cancelled while it reads: the rows stay, marked stale.
    await page.getByTestId('file-input').setInputFiles([made.big]);
    await page.getByTestId('staged-row').first().waitFor();
    await page.getByTestId('lb-score').click();
    await page.getByTestId('lb-cancel').click();
    await page.getByTestId('stale-rows').waitFor();
    assert.deepEqual(await rows(page), ['alpha', 'beta', 'gamma']);
    assert.match(await page.getByTestId('stale-rows').innerText(), /item data of 3 rows/);
    assert.equal(await page.getByTestId('error-panel').count(), 0, 'a Cancel is not an error');
    await app.screenshot('worker-stale-rows');
    const restore = await allStale(page, 'gamma');
    await restore.click();
    await allWork(page);

    // 2. The worker ended from outside the page: the page learns it from the worker's lock.
    const worker = page.workers().find((w) => w.url().includes('coglab-worker'));
    assert.ok(worker, `workers: ${page.workers().map((w) => w.url())}`);
    await worker.evaluate(() => self.close()).catch(() => {});
    await page.getByTestId('stale-rows').waitFor();
    assert.match(await page.getByTestId('stale-rows').innerText(), /item data of 3 rows/);
    await page.getByTestId('model-pick').selectOption({ label: 'alpha' });
    await (await allStale(page, 'beta')).click();
    await allWork(page);

    assert.deepEqual(errors, []);
    await context.close();
  });
