// Opt-in benchmark (issue 24 acceptance: "a 500 MB .eval is read as a stream in the worker with
// progress, at memory <= 2x its largest sample"). With COGLAB_LARGE=1: the ~500 MB Inspect
// `.eval` of scripts/eval_bench_gen.py (2,600 samples of ~250 KB, deflate) and `small.eval` (the
// same 2,600 samples with one-letter outputs and empty inputs: read whole, as it is under 64 MiB,
// its records hold what big.eval's lean records hold), written to /tmp/evalbench unless COGLAB_EVAL_DIR
// names a folder holding them and key.jsonl. Each is picked with the key and posted to a fresh
// scoring worker as one typed Score request (crates/coglab-worker/src/api.rs); the worker's wasm linear memory
// is asked before and after (api::WorkerMemory; linear memory never shrinks, so "after" is the
// peak of the read). Prints time, progress replies, memory before and after, and the largest
// sample's size; asserts the row equals the CLI's for the same files and that big.eval grew the
// memory by at most 2 x its largest sample (plus one 64 KiB page) more than small.eval did
// (what the records, the key and the scoring need whatever the samples' size).
//
//   COGLAB_LARGE=1 node --test tests/e2e/evalbench.test.mjs
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { start, newPage, App, ROOT, cli } from './support.mjs';

const LARGE = process.env.COGLAB_LARGE === '1';
const DIR = process.env.COGLAB_EVAL_DIR ?? '/tmp/evalbench';

/**
 * In the page: a fresh scoring worker, its wasm memory (api::WorkerMemory), one typed Score
 * request of the picked files named `names` (counting its progress replies), and its memory
 * again.
 */
async function measure(page, names) {
  return page.evaluate(async (names) => {
    const plain = (v) => (v instanceof Map ? Object.fromEntries([...v].map(([k, x]) => [k, plain(x)]))
      : typeof v === 'bigint' ? Number(v)
        : Array.isArray(v) ? v.map(plain)
          : v && typeof v === 'object' ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plain(x)]))
            : v);
    const worker = new Worker('coglab-worker_loader.js');
    await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('the worker did not say Ready in 20 s')), 20000);
      worker.onerror = (e) => { clearTimeout(timer); reject(new Error(`worker error: ${e.message}`)); };
      worker.onmessage = (e) => { if (e.data === 'Ready') { clearTimeout(timer); resolve(); } };
    });
    let progress = 0;
    const pending = new Map();
    worker.onmessage = (e) => {
      const m = plain(e.data);
      if (m.Progress) progress += 1;
      if (m.Done) {
        const r = m.Done.result;
        pending.get(m.Done.id)('Ok' in r ? { ok: r.Ok } : { err: r.Err });
      }
    };
    let next = 1n;
    const call = (request) => new Promise((resolve) => {
      const id = next;
      next += 1n;
      pending.set(Number(id), resolve);
      worker.postMessage({ id, request });
    });
    const memory = async () => (await call({ WorkerMemory: null })).ok.WorkerMemory;
    const before = await memory();
    const files = [...document.getElementById('e2e-files').files]
      .filter((f) => names.includes(f.name))
      .map((f) => ({ name: f.name, blob: f }));
    const started = performance.now();
    const scored = await call({ Score: { files, models: {}, kinds: {} } });
    const ms = performance.now() - started;
    const progressReplies = progress;
    const after = await memory();
    worker.terminate();
    return { before, after, ms, progressReplies, scored };
  }, names);
}

let env;
before(async () => { if (LARGE) env = await start(); });
after(async () => { await env?.close(); });

test('a 500 MB Inspect .eval is read as a stream in the worker, memory bounded by its largest sample',
  { skip: !LARGE && 'set COGLAB_LARGE=1', timeout: 30 * 60 * 1000 }, async () => {
    const log = join(DIR, 'big.eval');
    const small = join(DIR, 'small.eval');
    const key = join(DIR, 'key.jsonl');
    if (![log, small, key].every(existsSync)) {
      assert.equal(DIR, '/tmp/evalbench', `${DIR} lacks big.eval, small.eval or key.jsonl`);
      execFileSync('python3', [join(ROOT, 'scripts/eval_bench_gen.py')], { stdio: 'inherit' });
    }
    const bytes = statSync(log).size;
    // The largest member, decompressed (zipfile reads the central directory).
    const largest = Number(execFileSync('python3', ['-c',
      'import sys, zipfile; print(max(i.file_size for i in zipfile.ZipFile(sys.argv[1]).infolist()))', log],
    { encoding: 'utf8' }).trim());

    const { page, context, errors } = await newPage(env.browser);
    await new App(page, env.base).goto('/');
    await page.evaluate(() => {
      const input = document.createElement('input');
      input.type = 'file';
      input.multiple = true;
      input.id = 'e2e-files';
      input.hidden = true;
      document.body.append(input);
    });
    await page.locator('#e2e-files').setInputFiles([key, log, small]);
    // In a fresh worker each: the key with `small.eval` (the same records with one-letter
    // outputs: the memory the records, the key and the scoring need), then with `big.eval`.
    const baseline = await measure(page, ['key.jsonl', 'small.eval']);
    const run = await measure(page, ['key.jsonl', 'big.eval']);
    assert.ok(baseline.scored.ok, baseline.scored.err);
    assert.ok(run.scored.ok, run.scored.err);
    const row = run.scored.ok.Score.mmiq[0];
    const growth = run.after - run.before;
    const baseGrowth = baseline.after - baseline.before;
    const figures = {
      file_bytes: bytes,
      largest_sample_bytes: largest,
      seconds: +(run.ms / 1000).toFixed(1),
      progress_replies: run.progressReplies,
      wasm_memory_before: run.before,
      wasm_memory_after: run.after,
      growth,
      small_eval_growth: baseGrowth,
      growth_over_small: growth - baseGrowth,
      ratio_to_largest_sample: +((growth - baseGrowth) / largest).toFixed(2),
      correct: row?.report.overall.correct,
      n: row?.report.overall.n,
    };
    console.log(`eval-bench figures: ${JSON.stringify(figures)}`);
    assert.ok(row, JSON.stringify(run.scored.ok.Score.files));
    assert.equal(row.report.harness.harness_label, 'Inspect');
    assert.ok(run.progressReplies >= 2, `${run.progressReplies} progress replies`);
    // The same figures as the command line (517 of 2,600 in BENCHMARKS.md).
    const want = cli(['score', 'mmiq', '--answers', key, log, '--json']);
    assert.deepEqual([row.report.overall.correct, row.report.overall.n],
      [want.overall.correct, want.overall.n]);
    // Beyond what the same records need, at most 2 x the largest sample (plus one 64 KiB page
    // of the memory's growth step).
    assert.ok(growth - baseGrowth <= 2 * largest + 65536,
      `wasm memory grew by ${growth} bytes (small.eval: ${baseGrowth}); the largest sample is ${largest} bytes`);
    assert.deepEqual(errors, []);
    await context.close();
  });
