// End-to-end: Parquet files dropped on the leaderboard (issue 39). The worker tells a Parquet
// file's format from its footer and reads an MM-IQ key or predictions file a row group at a
// time (crates/coglab-worker/src/parquet_input.rs); the files are written here by pyarrow
// (scripts/mmiq_parquet.py, in the test command's .tools/py-venv).
//
// Always: MM-IQ's 100 real parsed predictions as Parquet (zstd, row groups of 30) score as the
// CLI scores their JSONL (33 of 100) with "reading" progress; a Parquet file cut short is
// staged with its located reason. Screenshots of the dropped file's row and of the model
// page's Hub export at 1280 light and 390 dark.
//
// With COGLAB_BENCH=1 (the benchmark): a 100 MB Parquet file of 100,000 responses
// (row groups of 10,000; written once into target/bench-mmiq-parquet) with its key, from the
// click on Score to the computed row, the main thread's longest task, the progress labels
// seen; and beside it, in the same run, a plain JS worker reading the same file as a stream
// (the limit the time is compared with).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { start, newPage, App, ROOT, SHOTS, traceMainThread, cli } from './support.mjs';

const DATA = process.env.COGLAB_DATA ?? join(ROOT, '../shared/data');
const KEY = join(DATA, 'mmiq/MMIQ_benchmark_answer_dict.jsonl');
const PREDS = join(DATA, 'mmiq/example_output_parsed.jsonl');
const PY = join(ROOT, '.tools/py-venv/bin/python');
const SCRIPT = join(ROOT, 'scripts/mmiq_parquet.py');

/** Why the test cannot run here (printed as its skip), or nothing; under CI=true a missing input fails. */
function missing(paths) {
  const absent = paths.filter((p) => !existsSync(p));
  if (absent.length === 0) return false;
  const why = `${absent.join(', ')} absent`;
  if (process.env.CI === 'true') throw new Error(`${why} (CI=true: the data and the venv must be there)`);
  console.log(`skipped: ${why}`);
  return why;
}

let env;
let dir;
before(async () => {
  env = await start();
  dir = mkdtempSync(join(tmpdir(), 'coglab-parquet-'));
});
after(async () => {
  await env?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Records every text the scoring progress shows (the heading beside the bar). */
async function watchProgress(page) {
  await page.evaluate(() => {
    window.__progress = [];
    new MutationObserver(() => {
      const t = document.querySelector('[data-testid=lb-progress] > span')?.textContent;
      if (t && window.__progress.at(-1) !== t) window.__progress.push(t);
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
}

test('a dropped Parquet file of the 100 real MM-IQ responses scores as the CLI scores its JSONL',
  { skip: missing([KEY, PREDS, PY]) }, async () => {
    const pq = join(dir, 'example_output_parsed.parquet');
    execFileSync(PY, [SCRIPT, 'convert', PREDS, pq, '--rows-per-group', '30', '--compression', 'zstd']);
    const want = cli(['score', 'mmiq', '--answers', KEY, PREDS, '--json']);
    assert.equal(want.overall.correct, 33);
    const { page, context, errors } = await newPage(env.browser);
    const app = new App(page, env.base);
    await app.goto('/leaderboard');
    await watchProgress(page);
    await page.getByTestId('file-input').setInputFiles([KEY, pq]);
    const staged = page.locator('[data-testid=staged-row][data-path="example_output_parsed.parquet"]');
    await staged.waitFor();
    await page.waitForFunction(() => document.querySelector(
      '[data-testid=staged-row][data-path="example_output_parsed.parquet"]')?.dataset.kind === 'MmiqPredictions');
    await page.getByTestId('lb-score').click();
    const row = page.locator('[data-testid=mmiq-computed-row][data-model=example]');
    await row.waitFor();
    const values = await row.locator('td[data-value]').evaluateAll((tds) => tds.map((td) => Number(td.dataset.value)));
    assert.ok(Math.abs(values[0] - want.overall.accuracy) < 1e-12, `${values[0]} vs ${want.overall.accuracy}`);
    assert.ok(Math.abs(values[0] - 0.33) < 1e-12);
    const seen = await page.evaluate(() => window.__progress);
    assert.ok(seen.some((t) => t.startsWith('Reading example_output_parsed.parquet: ')), JSON.stringify(seen));
    // The files' statuses opened, the Parquet file named as MM-IQ predictions; the shots cover
    // the drop zone, the statuses and the table's first rows.
    await page.getByTestId('lb-files-box').locator('summary').click();
    assert.match(await page.getByTestId('lb-files').innerText(), /example_output_parsed\.parquet · MM-IQ predictions/);
    await page.screenshot({ path: join(SHOTS, 'issue39-parquet-1280-light.png'), fullPage: true, clip: { x: 0, y: 0, width: 1280, height: 1400 } });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.screenshot({ path: join(SHOTS, 'issue39-parquet-390-dark.png'), fullPage: true, clip: { x: 0, y: 0, width: 390, height: 1800 } });
    // The model page's Hub export, on a phone in the dark.
    await page.getByTestId('model-pick').selectOption({ label: 'example' });
    await page.getByTestId('hf-model').fill('coglab-test/model-x');
    await page.getByTestId('hf-model').scrollIntoViewIfNeeded();
    const top = await page.getByTestId('model-items').evaluate((e) => e.getBoundingClientRect().top + window.scrollY);
    await page.screenshot({ path: join(SHOTS, 'issue39-hf-export-390-dark.png'), fullPage: true,
      clip: { x: 0, y: top, width: 390, height: 560 } });
    assert.deepEqual(errors, []);
    await context.close();
  });

test('a Parquet file cut short is staged with its located reason, and the others still score',
  { skip: missing([KEY, PREDS, PY]) }, async () => {
    const whole = join(dir, 'whole.parquet');
    execFileSync(PY, [SCRIPT, 'convert', PREDS, whole]);
    const bytes = readFileSync(whole);
    const cut = join(dir, 'cut_output.parquet');
    writeFileSync(cut, bytes.subarray(0, bytes.length - 5));
    const { page, context, errors } = await newPage(env.browser);
    await new App(page, env.base).goto('/leaderboard');
    await page.getByTestId('file-input').setInputFiles([KEY, cut, PREDS]);
    const note = page.locator('[data-testid=staged-row][data-path="cut_output.parquet"] [data-testid=staged-note]');
    await note.waitFor();
    assert.match(await note.textContent(), /^cut_output\.parquet: the file is cut short: the last 4 bytes are .*\(expected a footer ending in PAR1\)$/);
    await page.getByTestId('lb-score').click();
    await page.locator('[data-testid=mmiq-computed-row][data-model=example]').waitFor();
    assert.deepEqual(errors, []);
    await context.close();
  });

test('benchmark: a 100 MB Parquet file of 100,000 MM-IQ responses scored in the worker',
  { skip: (process.env.COGLAB_BENCH !== '1' && 'set COGLAB_BENCH=1 to run') || missing([PY]), timeout: 900_000 },
  async () => {
    const folder = join(process.env.CARGO_TARGET_DIR ?? join(ROOT, 'target'), 'bench-mmiq-parquet');
    execFileSync(PY, [SCRIPT, 'bench', folder]);
    const pq = join(folder, 'bench100k.parquet');
    const key = join(folder, 'MMIQ_benchmark_answer_dict.jsonl');
    const { page, context } = await newPage(env.browser);
    await page.addInitScript(() => {
      window.__longest = 0;
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) window.__longest = Math.max(window.__longest, e.duration);
      }).observe({ type: 'longtask', buffered: true });
      document.addEventListener('click', (e) => {
        if (e.target.closest && e.target.closest('[data-testid=lb-score]')) window.__clickAt = performance.now();
      }, true);
      new MutationObserver((_, obs) => {
        if (window.__clickAt === undefined) return;
        if (document.querySelector('[data-testid=mmiq-computed-row][data-model=bench100k]')) {
          window.__rowAt = performance.now();
          obs.disconnect();
        }
      }).observe(document, { subtree: true, childList: true });
    });
    const app = new App(page, env.base);
    await app.goto('/leaderboard');
    await watchProgress(page);
    await page.getByTestId('file-input').setInputFiles([key, pq]);
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=staged-row]').length >= 2);
    await page.waitForTimeout(1000);
    await page.evaluate(() => { window.__longest = 0; });
    const tasks = await traceMainThread(env.browser, page, async () => {
      await page.getByTestId('lb-score').click();
      await page.locator('[data-testid=mmiq-computed-row][data-model=bench100k]').waitFor({ timeout: 600_000 });
    });
    const ms = await page.evaluate(() => window.__rowAt - window.__clickAt);
    const longest = await page.evaluate(() => window.__longest);
    const cpu = Math.max(0, ...tasks.map((t) => t.cpuMs));
    const seen = await page.evaluate(() => window.__progress);
    // The limit: a plain JS worker reading the same File as a stream, in the same browser (a
    // blank page: the app's CSP allows no worker made from a blob).
    const blank = await context.newPage();
    await blank.setContent('<input type="file" id="f">');
    await blank.locator('#f').setInputFiles(pq);
    const plain = await blank.evaluate(async () => {
      const file = document.getElementById('f').files[0];
      const src = 'onmessage = async (e) => { const t0 = performance.now(); let n = 0;'
        + ' const r = e.data.stream().getReader();'
        + ' for (;;) { const { done, value } = await r.read(); if (done) break; n += value.length; }'
        + ' postMessage({ ms: performance.now() - t0, n }); };';
      const w = new Worker(URL.createObjectURL(new Blob([src], { type: 'text/javascript' })));
      const t0 = performance.now();
      const got = await new Promise((resolve, reject) => {
        w.onmessage = (e) => resolve(e.data);
        w.onerror = (e) => reject(new Error(`plain worker: ${e.message}`));
        w.postMessage(file);
      });
      w.terminate();
      return { ...got, wall: performance.now() - t0 };
    });
    const mb = (statSync(pq).size / 1e6).toFixed(1);
    console.log(`parquet benchmark: ${mb} MB Parquet, 100000 responses in 10 row groups, with the 10.8 MB JSONL key: `
      + `scored and shown ${ms.toFixed(0)} ms after the click on "Score"; a plain JS worker's stream read of the same file ${plain.wall.toFixed(0)} ms `
      + `(ratio ${(ms / plain.wall).toFixed(2)}); longest main-thread task ${longest.toFixed(0)} ms wall (Long Tasks API), most CPU in one main-thread task ${cpu} ms (trace); `
      + `${seen.length} progress texts, e.g. ${JSON.stringify(seen.slice(0, 3))} ... ${JSON.stringify(seen.slice(-2))}`);
    assert.equal(plain.n, statSync(pq).size);
    assert.ok(seen.some((t) => /decoding, \d+%/.test(t)), JSON.stringify(seen));
    await context.close();
  });
