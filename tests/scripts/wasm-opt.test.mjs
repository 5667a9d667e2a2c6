// scripts/wasm-opt.mjs against the command it stands in for: on a chunk of the page module
// (fixtures/chunk.wat, with the target_features section rustc writes), its output must be the
// bytes `wasm-opt -Os --low-memory-unused --enable-reference-types [-g]` writes (the wasm-opt
// of the same npm binaryen), and a file it cannot read must fail the run and be left as it was.
//
//   node --test tests/scripts/
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { binaryenEntry } from '../../scripts/wasm-opt.mjs';
import { chunk } from './chunk.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, '..', '..');
const SCRIPT = join(ROOT, 'scripts', 'wasm-opt.mjs');
// The wasm-opt of the binaryen the script uses (the package's own command-line tool).
const WASM_OPT = join(dirname(binaryenEntry()), 'bin', 'wasm-opt');
const FLAGS = ['-Os', '--low-memory-unused', '--enable-reference-types'];
// Without the cache of outputs (tests/scripts/wasm-opt-cache.test.mjs tests it).
const NO_CACHE = { ...process.env, COGLAB_WASM_OPT_CACHE: 'off' };
for (const names of [false, true]) {
  test(`the same bytes as wasm-opt ${FLAGS.join(' ')}${names ? ' -g' : ''}`, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'coglab-wasm-opt-'));
    try {
      const input = await chunk();
      const ours = join(dir, 'a.wasm');
      const theirs = join(dir, 'b.wasm');
      const other = join(dir, 'c.wasm');
      writeFileSync(ours, input);
      writeFileSync(other, input);
      writeFileSync(join(dir, 'in.wasm'), input);
      const g = names ? ['-g'] : [];
      execFileSync(WASM_OPT, [...FLAGS, ...g, join(dir, 'in.wasm'), '-o', theirs], { stdio: 'pipe' });
      // Two files, so that two threads run where there are two cores.
      execFileSync('node', [SCRIPT, ...g, ours, other], { stdio: 'pipe', env: NO_CACHE });
      const expected = readFileSync(theirs);
      assert.notDeepEqual(expected, input, 'wasm-opt changed the module');
      assert.deepEqual(readFileSync(ours), expected);
      assert.deepEqual(readFileSync(other), expected);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}

test('a file that is not a valid module fails the run and is left as it was', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'coglab-wasm-opt-'));
  try {
    const good = join(dir, 'good.wasm');
    const bad = join(dir, 'bad.wasm');
    writeFileSync(good, await chunk());
    // A valid header, then a function section for functions with no type section.
    writeFileSync(bad, Buffer.from([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0, 3, 2, 1, 0]));
    copyFileSync(bad, join(dir, 'bad.orig'));
    const r = spawnSync('node', [SCRIPT, good, bad], { encoding: 'utf8', env: NO_CACHE });
    assert.notEqual(r.status, 0);
    assert.match(r.stderr, /wasm-opt: .*bad\.wasm: /);
    assert.deepEqual(readFileSync(bad), readFileSync(join(dir, 'bad.orig')));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
