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
//   node scripts/wasm-opt.mjs [-g] FILE...
import { availableParallelism } from 'node:os';
import { createRequire } from 'node:module';
import { existsSync, readFileSync, realpathSync, renameSync, statSync, writeFileSync } from 'node:fs';
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

if (isMainThread && process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const names = args.includes('-g');
  const files = args.filter((a) => a !== '-g');
  if (files.length === 0 || files.some((f) => f.startsWith('-'))) {
    console.error('usage: node scripts/wasm-opt.mjs [-g] FILE...');
    process.exit(2);
  }
  // Largest first, so that the page's main module does not start last.
  const queue = files.map((f) => [statSync(f).size, f]).sort((a, b) => b[0] - a[0]).map(([, f]) => f);
  let binaryen;
  try {
    binaryen = binaryenEntry();
  } catch (e) {
    console.error(`wasm-opt: ${e.message}`);
    process.exit(1);
  }
  const threads = Math.min(availableParallelism(), queue.length);
  let failed = false;
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
    });
  }
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
