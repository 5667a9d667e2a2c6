// Benchmark (not a test): the leaderboard's paired ranks for 50 MM-IQ models x 2,710 items
// (1,225 pairs, exact McNemar, Holm, paired bootstrap with 2,000 resamples) computed in the
// scoring worker in Chromium, through the page's Rank operation (issue 20's acceptance:
// <= 2 s in the worker, no main-thread task > 50 ms).
//
// Run after a build (`trunk build --release` into dist/, as the e2e tests):
//   node tests/e2e/bench-ranks.mjs [runs=5]
// It writes 50 synthetic prediction files for the real MM-IQ key of ../shared/data (model j
// right on item i when a fixed hash of (i, j) is below 0.25 + 0.5 j / 49) into a temp folder,
// picks them with the key on /leaderboard?b=mmiq, waits for the 50 ranked rows, then switches
// Holm / Benjamini-Hochberg `runs` times (each switch is one Rank request). It prints, per run,
// the worker's own compute time (`data-worker-ms` of the reply), the round trip from the click
// to the new header on the page, the main-thread long tasks (> 50 ms wall, PerformanceObserver
// "longtask") seen meanwhile, and from a Chromium trace of the same run the main thread's tasks
// over 10 ms with their wall and CPU time (support.mjs `traceMainThread`: on a loaded machine a
// task's wall time includes time other threads took the core; its CPU time is the page's own
// work); then the medians as JSON.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { start, newPage, App, ROOT, traceMainThread } from './support.mjs';

const DATA = process.env.COGLAB_DATA ?? join(ROOT, '../shared/data');
const KEY = join(DATA, 'mmiq/MMIQ_benchmark_answer_dict.jsonl');
const MODELS = 50;
const RUNS = Number(process.argv[2] ?? 5);

/** A fixed hash of (i, j) in [0, 1). */
function u(i, j) {
  let h = (i * 2654435761 + j * 40503 + 12345) >>> 0;
  h ^= h >>> 15; h = Math.imul(h, 2246822519) >>> 0; h ^= h >>> 13;
  // `^` gives a signed 32-bit integer: back to unsigned before scaling to [0, 1).
  return (h >>> 0) / 4294967296;
}

function writeModels(dir) {
  const key = readFileSync(KEY, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  const paths = [];
  for (let j = 0; j < MODELS; j++) {
    const p = 0.25 + (0.5 * j) / (MODELS - 1);
    const lines = key.map((k, i) => {
      const right = u(i, j) < p;
      const wrong = ['A', 'B', 'C', 'D'].find((l) => l !== k.answer);
      return JSON.stringify({ data_id: k.data_id, category: k.category, parsed_pred: right ? k.answer : wrong });
    });
    const path = join(dir, `bench_model_${String(j).padStart(2, '0')}.jsonl`);
    writeFileSync(path, `${lines.join('\n')}\n`);
    paths.push(path);
  }
  return paths;
}

const median = (v) => { const s = [...v].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };

const env = await start();
try {
  const dir = mkdtempSync(join(tmpdir(), 'coglab-bench-ranks-'));
  const files = [KEY, ...writeModels(dir)];
  const { page, context } = await newPage(env.browser);
  const app = new App(page, env.base);
  await app.goto('/leaderboard?b=mmiq');
  await page.getByTestId('file-input').setInputFiles(files);
  await page.waitForFunction((k) => document.querySelectorAll('[data-testid=staged-row]').length >= k, files.length);
  await page.getByTestId('lb-score').click();
  await page.waitForFunction((k) => document.querySelectorAll('[data-testid=mmiq-rank-rows-row]').length >= k,
    MODELS, { timeout: 120_000 });
  const first = Number(await page.getByTestId('mmiq-rank-header').getAttribute('data-worker-ms'));
  const pairs = await page.getByTestId('mmiq-pairs').locator('summary').innerText();
  console.log(`first board: worker ${first.toFixed(0)} ms; ${pairs}`);
  await page.evaluate(() => {
    window.__long = [];
    new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__long.push(e.duration); })
      .observe({ type: 'longtask', buffered: false });
  });
  const results = [];
  for (let r = 0; r < RUNS; r++) {
    const bh = r % 2 === 0;
    const want = bh ? 'Benjamini-Hochberg' : 'Holm';
    await page.evaluate(() => { window.__long = []; window.__t0 = performance.now(); });
    const tasks = await traceMainThread(env.browser, page, async () => {
      await page.getByTestId('mmiq-adjust').selectOption(bh ? 'bh' : 'holm');
      await page.waitForFunction((w) => {
        const h = document.querySelector('[data-testid=mmiq-rank-header]');
        if (h && h.innerText.includes(`adjusted by ${w}`)) { window.__t1 ??= performance.now(); return true; }
        return false;
      }, want, { timeout: 60_000, polling: 'raf' });
      // Let the tasks after the header (the table's and panel's rendering) finish.
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 200))));
    });
    const out = await page.evaluate(() => {
      const o = { roundTrip: window.__t1 - window.__t0, long: window.__long.slice() };
      window.__t1 = undefined;
      return o;
    });
    const worker = Number(await page.getByTestId('mmiq-rank-header').getAttribute('data-worker-ms'));
    results.push({ worker, roundTrip: out.roundTrip, longTasks: out.long, tasks });
    console.log(`run ${r + 1} (${want}): worker ${worker.toFixed(0)} ms, click to header ${out.roundTrip.toFixed(0)} ms, long tasks ${JSON.stringify(out.long.map((d) => Math.round(d)))}, traced tasks > 10 ms (wall/CPU) ${JSON.stringify(tasks.map((t) => `${t.wallMs}/${t.cpuMs}`))}`);
  }
  console.log(JSON.stringify({
    models: MODELS, items: 2710, pairs: MODELS * (MODELS - 1) / 2, resamples: 2000,
    worker_ms_median: median(results.map((x) => x.worker)),
    round_trip_ms_median: median(results.map((x) => x.roundTrip)),
    longest_main_thread_task_ms: Math.max(0, ...results.flatMap((x) => x.longTasks)),
    longest_main_thread_task_cpu_ms: Math.max(0, ...results.flatMap((x) => x.tasks.map((t) => t.cpuMs))),
  }, null, 1));
  await context.close();
} finally {
  await env.close();
}
