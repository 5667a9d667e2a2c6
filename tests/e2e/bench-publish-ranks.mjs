// Benchmark (not a test): the Paired ranks panel of a published board of 300 MM-IQ models x
// 2,710 items (issue 21: the rank groups need one request per board), before and after the
// bundle's rank file, in one build.
//
// Run after a build (`trunk build --release` into dist/, as the e2e tests) and with the CLI
// (COGLAB_BIN, else `cargo run -p coglab-cli`):
//   node tests/e2e/bench-publish-ranks.mjs [runs=3]
// It writes the 300-model leaderboard of publish.test.mjs's scale test (a key with the real
// key's category counts, predictions from the same fixed-seed generator), publishes it with
// `coglab publish` and copies it into two copies of dist/ as the build does:
// - "rank file": the bundle as published (the worker fetches `items/ranks-mmiq.json` once);
// - "chunks": the same bundle with `ranks` removed from index.json and the rank files deleted,
//   so the worker takes the path it took before the rank files (every ranked published row's
//   model chunk, plus the key chunk).
// Per run, in a fresh browser context (empty HTTP and service-worker caches), it opens
// /leaderboard (the MM-IQ board, whose rank panel asks the worker as soon as the published rows
// are in) and prints: the time from the load event to the 300 ranked rows shown in the panel,
// the worker's own rank time (`data-worker-ms`), and the requests under /published/items/ made
// meanwhile with their bytes on the wire (the test server gzips -9, as static hosts do); then
// the medians per mode as JSON.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { start, newPage, ROOT, writeScaleBoard, publishedSite } from './support.mjs';
import { serve } from './server.mjs';

const RUNS = Number(process.argv[2] ?? 3);
const MODELS = 300;
const SRC_DIST = process.env.COGLAB_DIST ?? join(ROOT, 'dist');

function cli(args) {
  return process.env.COGLAB_BIN
    ? execFileSync(process.env.COGLAB_BIN, args, { encoding: 'utf8', maxBuffer: 1 << 28 })
    : execFileSync('cargo', ['run', '-q', '--release', '-p', 'coglab-cli', '--', ...args],
      { cwd: ROOT, encoding: 'utf8', maxBuffer: 1 << 28 });
}

const median = (v) => { const s = [...v].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };

const work = mkdtempSync(join(tmpdir(), 'coglab-bench-publish-ranks-'));
const board = join(work, 'board');
mkdirSync(board);
writeScaleBoard(board, MODELS);
const withRanks = join(work, 'with-ranks');
cli(['publish', board, '--out', withRanks]);
// The same bundle without its rank files: the worker's path before them.
const chunksOnly = join(work, 'chunks-only');
cpSync(withRanks, chunksOnly, { recursive: true });
const index = JSON.parse(readFileSync(join(chunksOnly, 'index.json'), 'utf8'));
for (const r of index.ranks ?? []) rmSync(join(chunksOnly, r.path));
delete index.ranks;
writeFileSync(join(chunksOnly, 'index.json'), JSON.stringify(index));
const modes = [['rank file', publishedSite(SRC_DIST, join(work, 'a'), withRanks)], ['chunks', publishedSite(SRC_DIST, join(work, 'b'), chunksOnly)]];

const env = await start();
const summary = {};
try {
  for (const [mode, dist] of modes) {
    const server = await serve(dist);
    const runs = [];
    try {
      for (let r = 0; r < RUNS; r++) {
        const { page, context } = await newPage(env.browser);
        const items = [];
        page.on('response', async (res) => {
          if (!res.url().includes('/published/items/')) return;
          try {
            const h = await res.allHeaders();
            items.push({ url: res.url(), bytes: Number(h['content-length'] ?? (await res.body()).length) });
          } catch { /* the page has closed */ }
        });
        await page.goto(`${server.url}/leaderboard`, { waitUntil: 'load' });
        const loaded = Date.now();
        // The ranked rows panel draws its first 50 rows; ranked when they are there.
        await page.waitForFunction((n) => document.querySelectorAll('[data-testid=mmiq-rank-rows-row]').length === n,
          Math.min(MODELS, 50), { timeout: 600_000, polling: 100 });
        const ms = Date.now() - loaded;
        const worker = Number(await page.getByTestId('mmiq-rank-header').getAttribute('data-worker-ms'));
        const bytes = items.reduce((a, x) => a + x.bytes, 0);
        runs.push({ ms, worker, requests: items.length, bytes });
        console.log(`${mode}, run ${r + 1}: ranks of ${MODELS} rows shown ${ms} ms after load (worker ${worker.toFixed(0)} ms); ` +
          `${items.length} requests under /published/items/, ${bytes} bytes on the wire (gzip -9)`);
        await context.close();
      }
    } finally {
      await server.close();
    }
    summary[mode] = {
      load_to_ranks_ms_median: median(runs.map((x) => x.ms)),
      worker_ms_median: median(runs.map((x) => x.worker)),
      requests: median(runs.map((x) => x.requests)),
      bytes_gzip: median(runs.map((x) => x.bytes)),
    };
  }
  console.log(JSON.stringify({ models: MODELS, items: 2710, runs: RUNS, ...summary }, null, 1));
} finally {
  await env.close();
}
