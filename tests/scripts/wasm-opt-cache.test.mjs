// The kept outputs of wasm-opt (issue 43: a rebuild with nothing changed re-optimised every
// module): scripts/wasm-opt.mjs's cache of the split modules, and scripts/bin/wasm-opt, the
// caching stand-in for the command Trunk runs on the worker's module. The stand-in is run with
// a fake wasm-opt behind it that counts its calls, so a cache hit is seen, not assumed.
//
//   node --test tests/scripts/
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { binaryenEntry } from '../../scripts/wasm-opt.mjs';
import { chunk } from './chunk.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const SCRIPT = join(ROOT, 'scripts', 'wasm-opt.mjs');
const STAND_IN = join(ROOT, 'scripts', 'bin', 'wasm-opt');
const WASM_OPT = join(dirname(binaryenEntry()), 'bin', 'wasm-opt');

test('wasm-opt.mjs gives a module optimised before from its cache, and keeps what it optimises', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'coglab-wasm-opt-cache-'));
  try {
    const cache = join(dir, 'cache');
    const env = { ...process.env, COGLAB_WASM_OPT_CACHE: cache };
    const input = await chunk();
    writeFileSync(join(dir, 'in.wasm'), input);
    execFileSync(WASM_OPT, ['-Os', '--low-memory-unused', '--enable-reference-types', join(dir, 'in.wasm'), '-o', join(dir, 'expected.wasm')]);
    const expected = readFileSync(join(dir, 'expected.wasm'));
    writeFileSync(join(dir, 'a.wasm'), input);
    let r = spawnSync('node', [SCRIPT, join(dir, 'a.wasm')], { encoding: 'utf8', env });
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(readFileSync(join(dir, 'a.wasm')), expected);
    const kept = readdirSync(join(cache, 'split'));
    assert.equal(kept.length, 1);
    assert.match(kept[0], /^[0-9a-f]{64}\.wasm$/);
    // The same input again: the kept output, said on stderr. (The kept file is replaced by a
    // marker first, so that a copy is told from a fresh optimisation.)
    writeFileSync(join(cache, 'split', kept[0]), Buffer.from('kept'));
    writeFileSync(join(dir, 'b.wasm'), input);
    r = spawnSync('node', [SCRIPT, join(dir, 'b.wasm')], { encoding: 'utf8', env });
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stderr, /1 of 1 modules as optimised before/);
    assert.equal(readFileSync(join(dir, 'b.wasm'), 'utf8'), 'kept');
    // With -g the key differs: optimised, not copied.
    writeFileSync(join(dir, 'c.wasm'), input);
    r = spawnSync('node', [SCRIPT, '-g', join(dir, 'c.wasm')], { encoding: 'utf8', env });
    assert.equal(r.status, 0, r.stderr);
    assert.notEqual(readFileSync(join(dir, 'c.wasm'), 'utf8'), 'kept');
    assert.equal(readdirSync(join(cache, 'split')).length, 2);
    // Off: no cache read or written.
    writeFileSync(join(dir, 'd.wasm'), input);
    r = spawnSync('node', [SCRIPT, join(dir, 'd.wasm')], { encoding: 'utf8', env: { ...process.env, COGLAB_WASM_OPT_CACHE: 'off' } });
    assert.deepEqual(readFileSync(join(dir, 'd.wasm')), expected);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/** A folder with a fake `wasm-opt` that counts its calls and writes its input plus "!". */
function fake(dir, { fail = false } = {}) {
  const bin = join(dir, 'fake-bin');
  mkdirSync(bin, { recursive: true });
  writeFileSync(join(bin, 'wasm-opt'), [
    '#!/usr/bin/env bash',
    `echo call >> "${join(dir, 'calls')}"`,
    'if [ "$1" = --version ]; then echo "wasm-opt version 132 (fake)"; exit 0; fi',
    fail ? 'exit 3' : '',
    'out=""; in=""',
    'for a in "$@"; do case "$a" in --output=*) out="${a#--output=}";; -*) ;; *) in="$a";; esac; done',
    '{ cat "$in"; printf "!"; } > "$out"',
  ].join('\n'));
  chmodSync(join(bin, 'wasm-opt'), 0o755);
  return bin;
}

const calls = (dir) => {
  try { return readFileSync(join(dir, 'calls'), 'utf8').split('\n').filter(Boolean).length; } catch { return 0; }
};

test('the wasm-opt stand-in copies what it optimised before for the same bytes and arguments', () => {
  const dir = mkdtempSync(join(tmpdir(), 'coglab-wasm-opt-stand-in-'));
  try {
    const env = { ...process.env, PATH: `${dirname(STAND_IN)}:${fake(dir)}:${process.env.PATH}`, COGLAB_WASM_OPT_CACHE: join(dir, 'cache') };
    const run = (...args) => spawnSync('wasm-opt', args, { encoding: 'utf8', env });
    writeFileSync(join(dir, 'in.wasm'), 'module');
    // Trunk's call: --output=OUT -O3 IN --low-memory-unused.
    let r = run(`--output=${join(dir, 'out.wasm')}`, '-O3', join(dir, 'in.wasm'), '--low-memory-unused');
    assert.equal(r.status, 0, r.stderr);
    assert.equal(readFileSync(join(dir, 'out.wasm'), 'utf8'), 'module!');
    const first = calls(dir);
    assert.equal(first, 2, 'the optimisation and the version asked for the key');
    rmSync(join(dir, 'out.wasm'));
    r = run(`--output=${join(dir, 'out.wasm')}`, '-O3', join(dir, 'in.wasm'), '--low-memory-unused');
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stderr, /in\.wasm as optimised before/);
    assert.equal(readFileSync(join(dir, 'out.wasm'), 'utf8'), 'module!');
    assert.equal(calls(dir), first + 1, 'only the version asked, no optimisation');
    // Other arguments or other bytes: optimised again.
    run(`--output=${join(dir, 'out.wasm')}`, '-Oz', join(dir, 'in.wasm'), '--low-memory-unused');
    assert.equal(calls(dir), first + 3);
    writeFileSync(join(dir, 'in.wasm'), 'module 2');
    run(`--output=${join(dir, 'out.wasm')}`, '-O3', join(dir, 'in.wasm'), '--low-memory-unused');
    assert.equal(readFileSync(join(dir, 'out.wasm'), 'utf8'), 'module 2!');
    // Off: every call optimises.
    const before = calls(dir);
    spawnSync('wasm-opt', [`--output=${join(dir, 'out.wasm')}`, '-O3', join(dir, 'in.wasm')],
      { encoding: 'utf8', env: { ...env, COGLAB_WASM_OPT_CACHE: 'off' } });
    assert.equal(calls(dir), before + 1);
    // Anything else goes to the command behind it.
    r = run('--version');
    assert.match(r.stdout, /wasm-opt version 132 \(fake\)/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a failed optimisation is not kept', () => {
  const dir = mkdtempSync(join(tmpdir(), 'coglab-wasm-opt-stand-in-'));
  try {
    const env = { ...process.env, PATH: `${dirname(STAND_IN)}:${fake(dir, { fail: true })}:${process.env.PATH}`, COGLAB_WASM_OPT_CACHE: join(dir, 'cache') };
    writeFileSync(join(dir, 'in.wasm'), 'module');
    const r = spawnSync('wasm-opt', [`--output=${join(dir, 'out.wasm')}`, '-O3', join(dir, 'in.wasm')], { encoding: 'utf8', env });
    assert.equal(r.status, 3);
    let kept = [];
    try { kept = readdirSync(join(dir, 'cache')); } catch { /* no folder: nothing kept */ }
    assert.deepEqual(kept, []);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
