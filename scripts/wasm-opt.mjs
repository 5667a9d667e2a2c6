#!/usr/bin/env node
// Optimizes WebAssembly files in place, each exactly as
//   wasm-opt -Os --low-memory-unused --enable-reference-types [-g] FILE -o FILE
// would (the same bytes: tests/scripts/wasm-opt.test.mjs compares them), for the page module
// and its chunks (scripts/wasm-split.sh).
//
// Why not that command once per file: the wasm-opt of npm's binaryen (tools/) is binaryen
// compiled to WebAssembly inside a Node.js script, so each run first loads and compiles all of
// binaryen before it reads a file, which for the split's small chunks is nearly all of the
// run. Here binaryen's JavaScript API (the same npm package and build) is loaded once per
// worker thread, one thread per core, and the files are handed out largest first.
//
// The options that make it the same as the command: optimize level 2 and shrink level 1
// (-Os), low memory unused, debug info only with -g (names kept), the features of the file's
// target_features section plus reference types, and Stack IR generated and optimized when the
// binary is written, which wasm-opt does by itself at -O2 and above.
//
// binaryen is the package of the `wasm-opt` on PATH (the one Trunk runs, which
// scripts/bootstrap.sh installs in tools/ and checks), else the one in tools/.
//
// Outputs are kept by content (issue 43: a rebuild with nothing changed redid every module):
// a file whose bytes, options and binaryen version were optimised before gets that output,
// copied. The cache is `split/` in COGLAB_WASM_OPT_CACHE, else in `wasm-opt-cache/` of
// CARGO_TARGET_DIR (else the repository's target/), beside scripts/bin/wasm-opt's; it keeps
// the 400 most recently used outputs (a build splits into about 70) and removes only its own
// files. COGLAB_WASM_OPT_CACHE=off turns it off.
//
//   node scripts/wasm-opt.mjs [-g] FILE...
import { createHash } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { createRequire } from 'node:module';
import {
  copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, renameSync, rmSync, statSync,
  utimesSync, writeFileSync,
} from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';

/** The entry file of npm's binaryen: beside the `wasm-opt` on PATH, else in tools/. */
export function binaryenEntry() {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    const bin = dir && join(dir, 'wasm-opt');
    if (!bin || !existsSync(bin)) continue;
    const pkg = dirname(dirname(realpathSync(bin)));
    const manifest = join(pkg, 'package.json');
    const meta = existsSync(manifest) ? JSON.parse(readFileSync(manifest, 'utf8')) : {};
    if (meta.name === 'binaryen') return join(pkg, meta.main ?? 'index.js');
    break; // a wasm-opt that is not npm's binaryen (e.g. Debian's): use tools/
  }
  const tools = join(dirname(fileURLToPath(import.meta.url)), '..', 'tools', 'package.json');
  try {
    return createRequire(tools).resolve('binaryen');
  } catch {
    throw new Error('npm binaryen not found (no wasm-opt from it on PATH, none in tools/): run scripts/bootstrap.sh');
  }
}

/** The folder of kept outputs, or null when COGLAB_WASM_OPT_CACHE=off. */
export function cacheDir(env = process.env) {
  if (env.COGLAB_WASM_OPT_CACHE === 'off') return null;
  const root = join(dirname(fileURLToPath(import.meta.url)), '..');
  const base = env.COGLAB_WASM_OPT_CACHE || join(env.CARGO_TARGET_DIR || join(root, 'target'), 'wasm-opt-cache');
  return join(base, 'split');
}

/** The version in the package.json of binaryen's entry file `entry`. */
function binaryenVersion(entry) {
  for (let dir = dirname(entry); dir !== dirname(dir); dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (!existsSync(manifest)) continue;
    const meta = JSON.parse(readFileSync(manifest, 'utf8'));
    if (meta.name === 'binaryen') return meta.version;
  }
  return 'unknown';
}

/** The key of an optimisation: the input's bytes, the options and binaryen's version. */
export function cacheKey(bytes, names, binaryenVersion) {
  const h = createHash('sha256');
  h.update(createHash('sha256').update(bytes).digest('hex'));
  h.update(`\n-Os --low-memory-unused --enable-reference-types${names ? ' -g' : ''}\nbinaryen ${binaryenVersion}\n`);
  return h.digest('hex');
}

/** Keeps the `keep` most recently used outputs in `dir` (only `<sha256>.wasm` files). */
function prune(dir, keep) {
  const kept = readdirSync(dir).filter((f) => /^[0-9a-f]{64}\.wasm$/.test(f))
    .map((f) => [statSync(join(dir, f)).mtimeMs, f]).sort((a, b) => b[0] - a[0]);
  for (const [, f] of kept.slice(keep)) rmSync(join(dir, f), { force: true });
}

if (isMainThread && process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const names = args.includes('-g');
  const files = args.filter((a) => a !== '-g');
  if (files.length === 0 || files.some((f) => f.startsWith('-'))) {
    console.error('usage: node scripts/wasm-opt.mjs [-g] FILE...');
    process.exit(2);
  }
  let binaryen;
  try {
    binaryen = binaryenEntry();
  } catch (e) {
    console.error(`wasm-opt: ${e.message}`);
    process.exit(1);
  }
  // Files optimised before are copied from the cache; the others are queued, and kept after.
  const cache = cacheDir();
  const version = binaryenVersion(binaryen);
  const keys = new Map();
  let reused = 0;
  const todo = [];
  for (const f of files) {
    if (!cache) { todo.push(f); continue; }
    const key = cacheKey(readFileSync(f), names, version);
    const kept = join(cache, `${key}.wasm`);
    if (existsSync(kept)) {
      copyFileSync(kept, `${f}.opt`);
      renameSync(`${f}.opt`, f);
      const now = new Date();
      utimesSync(kept, now, now);
      reused += 1;
    } else {
      keys.set(f, key);
      todo.push(f);
    }
  }
  if (cache && reused > 0) console.error(`wasm-opt: ${reused} of ${files.length} modules as optimised before`);
  const keep = (file) => {
    if (!cache || !keys.has(file)) return;
    mkdirSync(cache, { recursive: true });
    const kept = join(cache, `${keys.get(file)}.wasm`);
    copyFileSync(file, `${kept}.tmp${process.pid}`);
    renameSync(`${kept}.tmp${process.pid}`, kept);
  };
  // Largest first, so that the page's main module does not start last.
  const queue = todo.map((f) => [statSync(f).size, f]).sort((a, b) => b[0] - a[0]).map(([, f]) => f);
  const threads = Math.min(availableParallelism(), queue.length);
  let failed = false;
  let exited = 0;
  for (let i = 0; i < threads; i += 1) {
    const worker = new Worker(new URL(import.meta.url), { workerData: { names, binaryen } });
    const next = () => {
      const file = failed ? undefined : queue.shift();
      if (file === undefined) worker.postMessage(null);
      else worker.postMessage(file);
    };
    worker.on('message', (m) => {
      if (m.error) {
        console.error(`wasm-opt: ${m.file}: ${m.error}`);
        failed = true;
      } else if (m.file) {
        keep(m.file);
      }
      next();
    });
    worker.on('error', (e) => {
      console.error(`wasm-opt: ${e.stack ?? e}`);
      failed = true;
    });
    worker.on('exit', (code) => {
      if (code !== 0) failed = true;
      process.exitCode = failed ? 1 : process.exitCode;
      exited += 1;
      if (exited === threads && cache && existsSync(cache)) prune(cache, 400);
    });
  }
  if (threads === 0 && cache && existsSync(cache)) prune(cache, 400);
} else if (!isMainThread) {
  const binaryen = (await import(pathToFileURL(workerData.binaryen).href)).default;
  binaryen.setOptimizeLevel(2);
  binaryen.setShrinkLevel(1);
  binaryen.setLowMemoryUnused(true);
  binaryen.setDebugInfo(workerData.names);
  binaryen.setGenerateStackIR(true);
  binaryen.setOptimizeStackIR(true);
  parentPort.on('message', (file) => {
    if (file === null) {
      parentPort.close();
      return;
    }
    try {
      const module = binaryen.readBinary(readFileSync(file));
      try {
        module.setFeatures(module.getFeatures() | binaryen.Features.ReferenceTypes);
        if (!module.validate()) throw new Error('the input does not validate');
        module.optimize();
        writeFileSync(`${file}.opt`, module.emitBinary());
      } finally {
        module.dispose();
      }
      renameSync(`${file}.opt`, file);
      parentPort.postMessage({ file });
    } catch (e) {
      parentPort.postMessage({ file, error: String(e?.message ?? e) });
    }
  });
  parentPort.postMessage({ file: null });
}
