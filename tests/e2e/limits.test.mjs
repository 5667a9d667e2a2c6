// End-to-end tests of the limits and input checks of issue 27 as the browser shows them: an
// over-limit bootstrap count typed on the Structure page, over-limit counts sent straight to the
// worker (as any page's worker client or a crafted message could), a UTF-16 file dropped on the
// leaderboard, and a zip archive given as a text score matrix. The messages are the command
// line's (coglab_core::limits, coglab_core::encoding), so each assertion names the exact text.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { start, newPage, App } from './support.mjs';

let env;
before(async () => { env = await start(); });
after(async () => { await env?.close(); });

const dir = mkdtempSync(join(tmpdir(), 'coglab-limits-'));

/** `text` as UTF-16 LE bytes, with a byte-order mark when `bom`. */
function utf16le(text, bom) {
  const body = Buffer.from(text, 'utf16le');
  return bom ? Buffer.concat([Buffer.from([0xff, 0xfe]), body]) : body;
}

test('Structure page: a bootstrap count above the limit is refused with the limit named', async () => {
  const { page, context, errors } = await newPage(env.browser);
  const app = new App(page, env.base);
  await app.goto('/structure');
  // Gold's Table 2 is fitted on arrival; wait until the fit is done.
  await page.getByTestId('table-outer').waitFor({ timeout: 60000 });
  await page.waitForFunction(() => document.querySelector('[data-testid=results]')?.getAttribute('aria-busy') === 'false');

  // 1,000,000 resamples: above MAX_BOOTSTRAP (100,000). The page used to clamp it silently.
  await page.getByTestId('boot-n').fill('1000000');
  await page.getByTestId('boot-n').blur();
  await page.getByTestId('run-bootstrap').click();
  const err = page.getByTestId('boot-n-error');
  await err.waitFor({ timeout: 10000 });
  assert.equal((await err.textContent()).trim(), 'bootstrap: at most 100000 allowed, found 1000000');
  // Nothing was started.
  assert.equal(await page.getByTestId('boot-summary').count(), 0);
  assert.equal(await page.getByTestId('boot-progress').count(), 0);

  // One resample: below MIN_BOOTSTRAP (2).
  await page.getByTestId('boot-n').fill('1');
  await page.getByTestId('boot-n').blur();
  // Typing a new count clears the old message.
  await page.getByTestId('boot-n-error').waitFor({ state: 'detached', timeout: 10000 });
  await page.getByTestId('run-bootstrap').click();
  await page.getByTestId('boot-n-error').waitFor({ timeout: 10000 });
  assert.equal((await page.getByTestId('boot-n-error').textContent()).trim(), 'bootstrap: at least 2 needed, found 1');

  // A count beyond 32 bits (usize in wasm32) is refused the same way, not dropped.
  await page.getByTestId('boot-n').fill('1000000000000');
  await page.getByTestId('boot-n').blur();
  await page.getByTestId('boot-n-error').waitFor({ state: 'detached', timeout: 10000 });
  await page.getByTestId('run-bootstrap').click();
  await page.getByTestId('boot-n-error').waitFor({ timeout: 10000 });
  assert.equal((await page.getByTestId('boot-n-error').textContent()).trim(),
    'bootstrap: at most 100000 allowed, found 1000000000000');
  assert.deepEqual(errors, []);
  await context.close();
});

test('the worker refuses over-limit counts in any request, before looking anything up', async () => {
  const { page, context, errors } = await newPage(env.browser);
  const app = new App(page, env.base);
  await app.goto('/');
  // The requests name rows and a matrix the worker does not hold: the limits are checked
  // first, so the reply is the limit's message, not "no longer kept".
  const done = await page.evaluate(async () => {
    const worker = new Worker('coglab-worker_loader.js');
    const seen = [];
    const requests = [
      { id: 1n, request: { Compare: { first: { generation: 1, n: 1 }, second: { generation: 1, n: 2 }, resamples: 2000000n, seed: 1n } } },
      { id: 2n, request: { Compare: { first: { generation: 1, n: 1 }, second: { generation: 1, n: 2 }, resamples: 0n, seed: 1n } } },
      { id: 3n, request: { MmoperaCompare: { first: { generation: 1, n: 1 }, second: { generation: 1, n: 2 }, task: 'ria', resamples: 1000000000000n, seed: 1n } } },
      { id: 4n, request: { SemAnalyze: { matrix: { generation: 1, n: 1 }, spec: {}, prune: false, bootstrap: { resamples: 100001, seed: 1n }, mean_impute: false } } },
      { id: 5n, request: { SemAnalyze: { matrix: { generation: 1, n: 1 }, spec: {}, prune: false, bootstrap: { resamples: 1, seed: 1n }, mean_impute: false } } },
    ];
    await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`timed out; replies: ${JSON.stringify(seen, (k, v) => (typeof v === 'bigint' ? Number(v) : v))}`)), 30000);
      worker.onerror = (e) => { clearTimeout(timer); reject(new Error(`worker error: ${e.message}`)); };
      worker.onmessage = (e) => {
        seen.push(e.data);
        if (e.data === 'Ready') requests.forEach((r) => worker.postMessage(r));
        if (seen.filter((m) => m?.Done ?? (m instanceof Map && m.has('Done'))).length === requests.length) {
          clearTimeout(timer);
          resolve();
        }
      };
    });
    worker.terminate();
    // Maps (serde-wasm-bindgen's form of a struct-like enum variant) as plain objects.
    const plain = (v) => (v instanceof Map ? Object.fromEntries([...v].map(([k, x]) => [k, plain(x)]))
      : typeof v === 'bigint' ? Number(v)
        : Array.isArray(v) ? v.map(plain)
          : v && typeof v === 'object' ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plain(x)]))
            : v);
    return seen.map(plain).filter((m) => m?.Done).map((m) => m.Done);
  });
  const byId = Object.fromEntries(done.map((d) => [d.id, d.result]));
  assert.deepEqual(byId, {
    1: { Err: { OverLimit: 'resamples: at most 1000000 allowed, found 2000000' } },
    2: { Err: { OverLimit: 'resamples: at least 1 needed, found 0' } },
    3: { Err: { OverLimit: 'resamples: at most 1000000 allowed, found 1000000000000' } },
    4: { Err: { OverLimit: 'bootstrap: at most 100000 allowed, found 100001' } },
    5: { Err: { OverLimit: 'bootstrap: at least 2 needed, found 1' } },
  });
  assert.deepEqual(errors, []);
  await context.close();
});

test('leaderboard: a dropped UTF-16 file is named as UTF-16, when staged and when scored', async () => {
  const line = `${JSON.stringify({ data_id: 0, response: 'The answer is B' })}\n`;
  const withBom = join(dir, 'model_output.jsonl');
  writeFileSync(withBom, utf16le(line.repeat(20), true));
  const noBom = join(dir, 'other_output.jsonl');
  writeFileSync(noBom, utf16le(line.repeat(20), false));
  const { page, context, errors } = await newPage(env.browser);
  const app = new App(page, env.base);
  await app.goto('/leaderboard');
  await page.getByTestId('mmiq-table').waitFor();
  await page.getByTestId('file-input').setInputFiles([withBom, noBom]);
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=staged-row]').length === 2,
    null, { timeout: 30000 });
  // Not recognised as any format, and the reason is shown under it.
  const kinds = await page.locator('[data-testid=staged-kind]').evaluateAll((s) => s.map((x) => x.value));
  assert.deepEqual(kinds, ['unknown', 'unknown']);
  const notes = await page.getByTestId('staged-note').allTextContents();
  assert.deepEqual(notes.map((n) => n.trim()), [
    'model_output.jsonl: the file is UTF-16 LE text (with a byte-order mark), not UTF-8: save it as UTF-8',
    'other_output.jsonl: the file is UTF-16 LE text (without a byte-order mark), not UTF-8: save it as UTF-8',
  ]);
  // Scored anyway (ticked by hand), it gets the same message as its error.
  await page.getByRole('checkbox', { name: 'score model_output.jsonl' }).check();
  await page.getByTestId('lb-score').click();
  const panel = page.getByTestId('error-panel').filter({ hasText: 'Could not score model_output.jsonl' });
  await panel.waitFor({ timeout: 30000 });
  assert.equal((await panel.locator('pre').textContent()).trim(),
    'model_output.jsonl: the file is UTF-16 LE text (with a byte-order mark), not UTF-8: save it as UTF-8');
  assert.deepEqual(errors, []);
  await context.close();
});

test('Structure page: a zip archive given as a text score matrix is named as a zip archive', async () => {
  // A zip's local-file header and some bytes after it: what an .xlsx renamed to .csv starts with.
  const zip = join(dir, 'scores.csv');
  writeFileSync(zip, Buffer.concat([Buffer.from('PK\x03\x04', 'latin1'), Buffer.alloc(200, 7)]));
  const { page, context, errors } = await newPage(env.browser);
  const app = new App(page, env.base);
  await app.goto('/structure');
  await page.getByTestId('table-outer').waitFor({ timeout: 60000 });
  await page.getByTestId('data-file').setInputFiles(zip);
  const panel = page.getByTestId('error-panel').filter({ hasText: 'Could not read the score matrix' });
  await panel.waitFor({ timeout: 30000 });
  assert.equal((await panel.locator('pre').textContent()).trim(),
    'scores.csv: the file is a zip archive (e.g. an .xlsx workbook), not text: export the sheet as CSV');
  assert.deepEqual(errors, []);
  await context.close();
});

test('Structure page: a score matrix above the 1 GiB file limit is refused before it is read', async () => {
  const { closeSync, ftruncateSync, openSync } = await import('node:fs');
  const path = join(dir, 'huge_scores.csv');
  const fd = openSync(path, 'w');
  ftruncateSync(fd, 1_100_000_000); // sparse: no disk used
  closeSync(fd);
  const { page, context, errors } = await newPage(env.browser);
  const app = new App(page, env.base);
  await app.goto('/structure');
  await page.getByTestId('table-outer').waitFor({ timeout: 60000 });
  const t0 = Date.now();
  await page.getByTestId('data-file').setInputFiles(path);
  const panel = page.getByTestId('error-panel').filter({ hasText: 'Could not read the score matrix' });
  await panel.waitFor({ timeout: 30000 });
  assert.equal((await panel.locator('pre').textContent()).trim(),
    'huge_scores.csv: 1100.0 MB (1100000000 bytes) is above the 1073.7 MB (1073741824 bytes) this page '
    + 'reads in the browser. Fit it with the command line instead, which reads files of any size: '
    + 'coglab sem --spec SPEC.json "huge_scores.csv"');
  assert.ok(Date.now() - t0 < 10000, `refused after ${Date.now() - t0} ms`);
  // Gold's Table 2 stays loaded.
  assert.match(await page.getByTestId('data-summary').textContent(), /gold-table2\.csv/);
  assert.deepEqual(errors, []);
  await context.close();
});
