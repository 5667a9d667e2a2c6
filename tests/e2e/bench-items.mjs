// Benchmark (not a test): the item analysis of 300 MM-IQ models x 2,710 items in the scoring
// worker in Chromium (issue 22's acceptance: the 2PL fit <= 2 s in the worker, no main-thread
// task > 50 ms).
//
// Run after a build (`trunk build --release` into dist/, as the e2e tests):
//   node tests/e2e/bench-items.mjs [runs=3]
// It writes 300 prediction files for the real MM-IQ key of ../shared/data, simulated from a
// 2PL model with a fixed seed (item i: a in [0.5, 2.5], b in [-2, 2]; model j: theta from a
// normal quantile grid; right when a fixed hash of (i, j) is below P(right)), picks them with
// the key on /leaderboard?b=mmiq, scores them, then opens "Item analysis" (2PL) and runs it
// `runs` times (the Run button). Per run it prints the time from the click to the summary on
// the page (the worker's reading of the kept rows, the fit, flags, reduced subset and report,
// plus the reply) and, from a Chromium trace of the run, the page's main-thread tasks over
// 10 ms with their wall and CPU time (support.mjs `traceMainThread`); then the medians as JSON.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { start, newPage, App, ROOT, traceMainThread } from './support.mjs';

const DATA = process.env.COGLAB_DATA ?? join(ROOT, '../shared/data');
const KEY = join(DATA, 'mmiq/MMIQ_benchmark_answer_dict.jsonl');
const MODELS = 300;
const RUNS = Number(process.argv[2] ?? 3);

/** A fixed hash of (i, j) in [0, 1). */
function u(i, j) {
  let h = (i * 2654435761 + j * 40503 + 12345) >>> 0;
  h ^= h >>> 15; h = Math.imul(h, 2246822519) >>> 0; h ^= h >>> 13;
  // `^` gives a signed 32-bit integer: back to unsigned before scaling to [0, 1).
  return (h >>> 0) / 4294967296;
}

/** The standard normal quantile (Acklam's rational approximation, |error| < 1.2e-9). */
function qnorm(p) {
  const a = [-39.69683028665376, 220.9460984245205, -275.9285104469687, 138.357751867269, -30.66479806614716, 2.506628277459239];
  const b = [-54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972, -13.28068155288572];
  const c = [-0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734, 4.374664141464968, 2.938163982698783];
  const d = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416];
  const q = Math.min(p, 1 - p);
  let x;
  if (q < 0.02425) {
    const r = Math.sqrt(-2 * Math.log(q));
    x = (((((c[0] * r + c[1]) * r + c[2]) * r + c[3]) * r + c[4]) * r + c[5]) / ((((d[0] * r + d[1]) * r + d[2]) * r + d[3]) * r + 1);
    return p < 0.5 ? x : -x;
  }
  const r = (p - 0.5) ** 2;
  return (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * (p - 0.5)
    / (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
}

function writeModels(dir) {
  const key = readFileSync(KEY, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  const paths = [];
  for (let j = 0; j < MODELS; j++) {
    const theta = qnorm((j + 0.5) / MODELS);
    const lines = key.map((k, i) => {
      const a = 0.5 + 2 * u(i, 100_003);
      const b = -2 + 4 * u(i, 100_019);
      const right = u(i, j) < 1 / (1 + Math.exp(-a * (theta - b)));
      const wrong = ['A', 'B', 'C', 'D'].find((l) => l !== k.answer);
      return JSON.stringify({ data_id: k.data_id, parsed_pred: right ? k.answer : wrong });
    });
    const path = join(dir, `irt_model_${String(j).padStart(3, '0')}.jsonl`);
    writeFileSync(path, `${lines.join('\n')}\n`);
    paths.push(path);
  }
  return paths;
}

const median = (v) => { const s = [...v].sort((x, y) => x - y); return s[Math.floor(s.length / 2)]; };

const env = await start();
try {
  const dir = mkdtempSync(join(tmpdir(), 'coglab-bench-items-'));
  const files = [KEY, ...writeModels(dir)];
  const { page, context } = await newPage(env.browser);
  const app = new App(page, env.base);
  await app.goto('/leaderboard?b=mmiq');
  await page.getByTestId('file-input').setInputFiles(files);
  await page.waitForFunction((k) => document.querySelectorAll('[data-testid=staged-row]').length >= k, files.length,
    { timeout: 300_000 });
  await page.getByTestId('lb-score').click();
  // The board draws its first 50 rows; the item-analysis section counts the computed rows.
  await page.waitForFunction((k) => document.querySelector('[data-testid=item-analysis]')?.textContent
    .includes(`of the ${k} computed rows`), MODELS, { timeout: 300_000 });
  const section = page.getByTestId('item-analysis');
  const results = [];
  for (let r = 0; r < RUNS; r++) {
    let ms;
    const tasks = await traceMainThread(env.browser, page, async () => {
      const t0 = Date.now();
      await section.getByTestId(r === 0 ? 'items-open' : 'items-run').click();
      // The run is over when "Fitting…" has gone and the summary is shown (a run
      // again gives an equal report, so the summary itself need not change).
      await section.locator('[data-testid=items-busy][aria-busy=true]').waitFor({ timeout: 5_000 }).catch(() => {});
      await page.waitForFunction(() => {
        const s = document.querySelector('[data-testid=item-analysis]');
        return s && !s.querySelector('[data-testid=items-busy][aria-busy=true]') && s.querySelector('[data-testid=items-summary]');
      }, null, { timeout: 120_000, polling: 'raf' });
      ms = Date.now() - t0;
      await page.evaluate(() => new Promise((res) => requestAnimationFrame(() => setTimeout(res, 300))));
    });
    const summary = await section.getByTestId('items-summary').innerText();
    results.push({ ms, tasks });
    console.log(`run ${r + 1}: click to summary ${ms} ms; ${summary.split('\n')[0]}; traced tasks > 10 ms (wall/CPU) ${JSON.stringify(tasks.map((t) => `${t.wallMs}/${t.cpuMs}`))}`);
    for (const t of tasks.filter((x) => x.parts.length)) console.log(`  task ${t.wallMs}/${t.cpuMs} ms: ${t.parts.join(', ')}`);
  }
  // COGLAB_BENCH_SHOTS=DIR: the board's end (its first 50 rows of 300) and the report, to look at.
  if (process.env.COGLAB_BENCH_SHOTS) {
    const out = process.env.COGLAB_BENCH_SHOTS;
    await page.getByTestId('mmiq-more').scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(out, 'bench-board-more.png') });
    await section.screenshot({ path: join(out, 'bench-items-report.png') });
  }
  // What the page holds: elements in all, and in its largest parts.
  console.log(`elements: ${JSON.stringify(await page.evaluate(() => {
    const n = (sel) => [...document.querySelectorAll(sel)].reduce((a, e) => a + e.querySelectorAll('*').length, 0);
    return { all: document.querySelectorAll('*').length, board: n('[data-testid=mmiq-board]'),
      dropzone: n('[data-testid=dropzone]'), ranks: n('.rank-panel, [data-testid$=rank-panel]'),
      items: n('[data-testid=item-analysis]') };
  }))}`);
  console.log(JSON.stringify({
    models: MODELS, items: 2710, model: '2pl',
    click_to_summary_ms_median: median(results.map((x) => x.ms)),
    longest_main_thread_task_cpu_ms: Math.max(0, ...results.flatMap((x) => x.tasks.map((t) => t.cpuMs))),
    longest_main_thread_task_wall_ms: Math.max(0, ...results.flatMap((x) => x.tasks.map((t) => t.wallMs))),
  }, null, 1));
  await context.close();
} finally {
  await env.close();
}
