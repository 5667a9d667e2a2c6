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
import { fileURLToPath, pathToFileURL } from 'node:url';
import { binaryenEntry } from '../../scripts/wasm-opt.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, '..', '..');
const SCRIPT = join(ROOT, 'scripts', 'wasm-opt.mjs');
// The wasm-opt of the binaryen the script uses (the package's own command-line tool).
const WASM_OPT = join(dirname(binaryenEntry()), 'bin', 'wasm-opt');
const FLAGS = ['-Os', '--low-memory-unused', '--enable-reference-types'];
// The features rustc's wasm32 output declares (its target_features section) for this app.
const FEATURES = ['bulk-memory', 'bulk-memory-opt', 'call-indirect-overlong', 'multivalue',
  'mutable-globals', 'nontrapping-fptoint', 'reference-types', 'sign-ext', 'simd128'];

const leb = (n) => {
  const out = [];
  do {
    let b = n & 0x7f;
    n >>>= 7;
    if (n) b |= 0x80;
    out.push(b);
  } while (n);
  return out;
};
const str = (s) => [...leb(Buffer.byteLength(s)), ...Buffer.from(s)];

/** The fixture as a binary module with a target_features custom section. */
async function chunk() {
  const binaryen = (await import(pathToFileURL(binaryenEntry()).href)).default;
  const module = binaryen.parseText(readFileSync(join(HERE, 'fixtures', 'chunk.wat'), 'utf8'));
  const F = binaryen.Features;
  module.setFeatures(F.BulkMemory | F.BulkMemoryOpt | F.CallIndirectOverlong | F.Multivalue
    | F.MutableGlobals | F.NontrappingFPToInt | F.ReferenceTypes | F.SignExt | F.SIMD128);
  const bytes = Buffer.from(module.emitBinary());
  module.dispose();
  const body = [...str('target_features'), ...leb(FEATURES.length), ...FEATURES.flatMap((f) => [0x2b, ...str(f)])];
  return Buffer.concat([bytes, Buffer.from([0, ...leb(body.length), ...body])]);
}

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
      execFileSync('node', [SCRIPT, ...g, ours, other], { stdio: 'pipe' });
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
    const r = spawnSync('node', [SCRIPT, good, bad], { encoding: 'utf8' });
    assert.notEqual(r.status, 0);
    assert.match(r.stderr, /wasm-opt: .*bad\.wasm: /);
    assert.deepEqual(readFileSync(bad), readFileSync(join(dir, 'bad.orig')));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
