// scripts/worker-loader.py: the worker's loader shim calls wasm-bindgen's init with an object
// (issue 42, defect 16: the string form logged a deprecation warning in every tab).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const SCRIPT = resolve(dirname(fileURLToPath(import.meta.url)), '../../scripts/worker-loader.py');
const TRUNK = 'importScripts("./coglab-worker.js");wasm_bindgen("./coglab-worker_bg.wasm");';
const WANT = 'importScripts("./coglab-worker.js");wasm_bindgen({ module_or_path: "./coglab-worker_bg.wasm" });';

/** Runs the script on a staging folder holding `loader` (none when null). */
function run(loader) {
  const dir = mkdtempSync(join(tmpdir(), 'coglab-worker-loader-'));
  const file = join(dir, 'coglab-worker_loader.js');
  if (loader !== null) writeFileSync(file, loader);
  const r = spawnSync('python3', [SCRIPT], { env: { ...process.env, TRUNK_STAGING_DIR: dir }, encoding: 'utf8' });
  const text = loader === null ? null : readFileSync(file, 'utf8');
  rmSync(dir, { recursive: true, force: true });
  return { ...r, text };
}

test("Trunk's loader is rewritten to the object form, and a second run leaves it so", () => {
  const once = run(TRUNK);
  assert.equal(once.status, 0, once.stderr);
  assert.equal(once.text, WANT);
  const twice = run(WANT);
  assert.equal(twice.status, 0, twice.stderr);
  assert.equal(twice.text, WANT);
});

test('a loader without the call, or without the file, fails and is left alone', () => {
  const other = 'importScripts("./coglab-worker.js");';
  const r = run(other);
  assert.notEqual(r.status, 0);
  assert.match(r.stderr, /expected one wasm_bindgen\("\.\.\.wasm"\) call in coglab-worker_loader\.js, found 0/);
  assert.equal(r.text, other);
  const none = run(null);
  assert.notEqual(none.status, 0);
  assert.match(none.stderr, /coglab-worker_loader\.js not found/);
});
