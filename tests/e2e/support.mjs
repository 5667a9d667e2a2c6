// Shared set-up for the end-to-end tests: Debian's Chromium driven by playwright-core, a static
// server for dist/, page objects, and a guard that fails a test on any console or page error.
import { execFileSync, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { createRequire } from 'node:module';
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { dirname, join, resolve } from 'node:path';
import { serve } from './server.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const requireTools = createRequire(join(here, '../../tools/package.json'));
const { chromium } = requireTools('playwright-core');

export const ROOT = resolve(here, '../..');
export const DIST = process.env.COGLAB_DIST ?? join(ROOT, 'dist');
export const SHOTS = join(here, 'screenshots');

/** Launches Chromium and a server for dist/. Returns { browser, base, close }. */
export async function start() {
  await mkdir(SHOTS, { recursive: true });
  const server = await serve(DIST);
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  return {
    browser,
    base: server.url,
    close: async () => { await browser.close(); await server.close(); },
  };
}

/** A page that records console errors and uncaught exceptions. */
export async function newPage(browser, options = {}) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, ...options });
  const page = await context.newPage();
  const errors = [];
  page.on('console', (msg) => { if (msg.type() === 'error') errors.push(`console: ${msg.text()}`); });
  page.on('pageerror', (err) => errors.push(`pageerror: ${err.message}`));
  return { page, context, errors };
}

/** Page object for the coglab app. */
export class App {
  constructor(page, base) { this.page = page; this.base = base; }

  /** Opens a route and waits until the app has mounted (the navigation is visible). */
  async goto(route) {
    await this.page.goto(this.base + route);
    await this.page.getByTestId('main-nav').waitFor();
  }

  /** Clicks a main navigation link by its text. */
  async navigate(text) {
    await this.page.getByTestId('main-nav').getByRole('link', { name: text, exact: true }).click();
  }

  /** Saves a full-page screenshot under tests/e2e/screenshots/. */
  async screenshot(name) {
    await this.page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
  }

  /** The leaderboard's table with the given id, as a locator. */
  table(id) { return this.page.getByTestId(`table-${id}`); }

  /** Text of every cell of a table's row, by row label. */
  async row(tableId, label) {
    const row = this.table(tableId).locator('tbody tr').filter({
      has: this.page.locator('th', { hasText: new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`) }),
    }).first();
    return row.locator('td').allInnerTexts();
  }

  /** Row labels of a table in display order. */
  async rowLabels(tableId) {
    return this.table(tableId).locator('tbody th[scope=row]').evaluateAll(
      (ths) => ths.map((th) => th.firstChild.textContent));
  }
}

/**
 * Runs `action` while Chromium traces the page, and returns the page's main-thread tasks that
 * took over 10 ms of wall time, longest first: `{ wallMs, cpuMs }` each.
 *
 * Why CPU time as well as wall time: the Long Tasks API measures wall time, so on a loaded
 * two-core machine (the test run's own Chromium processes, the scoring worker's thread, other
 * jobs) a 10 ms layout preempted by other threads is reported as a 60 ms task. A task's CPU
 * time (the trace's thread duration) is the work the page itself put on its main thread, which
 * is what the "no main-thread task over 50 ms" targets are about. Tests assert on `cpuMs` and
 * print both.
 */
export async function traceMainThread(browser, page, action) {
  await browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'toplevel'] });
  let buffer;
  try {
    await action();
  } finally {
    buffer = await browser.stopTracing();
  }
  // COGLAB_TRACE_DIR=dir keeps each trace (open it in chrome://tracing or Perfetto).
  if (process.env.COGLAB_TRACE_DIR) {
    await writeFile(join(process.env.COGLAB_TRACE_DIR, `trace-${Date.now()}.json`), buffer);
  }
  const parsed = JSON.parse(buffer.toString('utf8'));
  const events = Array.isArray(parsed) ? parsed : parsed.traceEvents;
  const url = page.url();
  const pids = new Set();
  for (const e of events) {
    if (e.name !== 'TracingStartedInBrowser') continue;
    for (const f of e.args?.data?.frames ?? []) {
      if (f.isOutermostMainFrame && url.startsWith(new URL(f.url).origin)) pids.add(f.processId);
    }
  }
  const mainThreads = new Set(events
    .filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain' && pids.has(e.pid))
    .map((e) => `${e.pid}:${e.tid}`));
  if (mainThreads.size === 0) throw new Error('the trace has no main thread for the page');
  // A task may be recorded twice, nested (RunTask inside ThreadControllerImpl::RunTask):
  // keep the outermost.
  const runs = events
    .filter((e) => e.ph === 'X' && (e.name === 'RunTask' || e.name === 'ThreadControllerImpl::RunTask')
      && mainThreads.has(`${e.pid}:${e.tid}`))
    .sort((a, b) => a.ts - b.ts || b.dur - a.dur);
  const outer = [];
  for (const e of runs) {
    const last = outer[outer.length - 1];
    if (last && last.tid === e.tid && e.ts + e.dur <= last.ts + last.dur) continue;
    outer.push(e);
  }
  // What each task spent its time on: the trace events inside it by name (Layout,
  // UpdateLayoutTree, PrePaint, Paint, FunctionCall, HandlePostMessage, V8 GC phases ...), the
  // three longest, as "Layout 209.7 ms" (nested events counted in each of their names).
  const inside = events.filter((e) => e.ph === 'X' && mainThreads.has(`${e.pid}:${e.tid}`)
    && e.name !== 'RunTask' && e.name !== 'ThreadControllerImpl::RunTask');
  const parts = (t) => {
    const by = new Map();
    for (const e of inside) {
      if (e.tid === t.tid && e.ts >= t.ts && e.ts + e.dur <= t.ts + t.dur) by.set(e.name, (by.get(e.name) ?? 0) + e.dur);
    }
    return [...by].sort((a, b) => b[1] - a[1]).slice(0, 3).map(([n, d]) => `${n} ${(d / 1000).toFixed(1)} ms`);
  };
  return outer
    .filter((e) => e.dur > 10_000)
    .map((e) => ({ wallMs: Math.round(e.dur / 100) / 10, cpuMs: Math.round((e.tdur ?? e.dur) / 100) / 10,
      parts: e.dur > 40_000 ? parts(e) : [] }))
    .sort((a, b) => b.wallMs - a.wallMs);
}

/**
 * The coglab CLI's JSON for the given arguments: the binary in COGLAB_CLI or COGLAB_BIN (the
 * test command sets both to the debug build), else `cargo run`.
 */
export function cli(args) {
  const bin = process.env.COGLAB_CLI ?? process.env.COGLAB_BIN;
  const out = bin
    ? execFileSync(bin, args, { encoding: 'utf8', maxBuffer: 1 << 28 })
    : execFileSync('cargo', ['run', '-q', '-p', 'coglab-cli', '--', ...args],
      { cwd: ROOT, encoding: 'utf8', maxBuffer: 1 << 28 });
  return JSON.parse(out);
}

/** Parses RFC 4180 CSV (quoted fields may hold commas, quotes and line breaks). */
export function parseCsv(text) {
  const rows = [];
  let row = [], field = '', quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') { field += '"'; i++; }
      else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') { row.push(field); field = ''; }
    else if (c === '\n') { row.push(field); rows.push(row); row = []; field = ''; }
    else field += c;
  }
  if (field !== '' || row.length) { row.push(field); rows.push(row); }
  return rows;
}

/**
 * Writes the leaderboard folder of the publishing scale test into `dir`: a key with the real
 * MM-IQ key's category counts (2,710 items) and `models` prediction files from a fixed-seed
 * generator (model m right with probability 0.25 + (m mod 36) / 100), with its manifest.
 */
export function writeScaleBoard(dir, models = 300) {
  const runs = join(dir, 'runs');
  mkdirSync(runs, { recursive: true });
  let seed = 0x9e3779b9;
  const rnd = () => { seed = (Math.imul(seed ^ (seed >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0; return seed / 2 ** 32; };
  const cats = [['Logical Operation', 393], ['Mathematical', 936], ['2D-Geometry', 365], ['3D-Geometry', 398],
    ['Visual Instruction', 47], ['Temporal Movement', 415], ['Spatial Relationship', 118], ['Concrete Object', 38]];
  const L = ['A', 'B', 'C', 'D'];
  const key = [];
  for (const [c, n] of cats) for (let i = 0; i < n; i++) key.push({ category: c, data_id: key.length, answer: L[Math.floor(rnd() * 4)] });
  writeFileSync(join(dir, 'key.jsonl'), key.map((k) => JSON.stringify(k)).join('\n') + '\n');
  let manifest = '[keys]\nmmiq = "key.jsonl"\n';
  for (let m = 0; m < models; m++) {
    const p = 0.25 + (m % 36) / 100;
    const lines = key.map((k) => JSON.stringify({ data_id: k.data_id, parsed_pred: rnd() < p ? k.answer : L[Math.floor(rnd() * 4)] }));
    writeFileSync(join(runs, `m${m}.jsonl`), lines.join('\n') + '\n');
    manifest += `\n[[model]]\nname = "Model-${String(m).padStart(3, '0')}"\n[[model.run]]\nbenchmark = "mmiq"\nfiles = ["runs/m${m}.jsonl"]\n`;
  }
  writeFileSync(join(dir, 'leaderboard.toml'), manifest);
}

/** A copy of `srcDist` in `dir/dist` with the published `bundle` in it, as the build's
 * post_build steps make it; returns its path. */
export function publishedSite(srcDist, dir, bundle) {
  const dist = join(dir, 'dist');
  cpSync(srcDist, dist, { recursive: true });
  const env = { ...process.env, COGLAB_PUBLISHED_SRC: bundle };
  for (const step of [['published.py', 'copy'], ['static-routes.py'], ['published.py', 'inline'], ['sw-precache.py']]) {
    execFileSync('python3', [join(ROOT, 'scripts', step[0]), ...step.slice(1), dist], { env });
  }
  return dist;
}

/** A free loopback port. */
function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => resolve(port)); });
  });
}

/** The README's one-line server, `python3 -m http.server -d dist`, on a free port. */
export async function pythonServer(dir) {
  const port = await freePort();
  const child = spawn('python3', ['-m', 'http.server', '-d', dir, '--bind', '127.0.0.1', String(port)],
    { stdio: 'ignore' });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i += 1) {
    try { await fetch(url + '/'); break; } catch (e) {
      if (i > 100) { child.kill(); throw new Error(`python3 -m http.server did not start: ${e}`); }
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return { url, close: () => child.kill() };
}
