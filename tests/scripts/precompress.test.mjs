// scripts/precompress.py on a small synthetic build (Trunk's index.html, the chunk loader, the
// worker's loader shim, three modules), and its page helper run in Node on gzipped and plain
// bodies. The expected texts and bytes are made here, not by the script.
//
//   node --test tests/scripts/
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync, gzipSync } from 'node:zlib';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const SCRIPT = join(ROOT, 'scripts', 'precompress.py');
// The smallest valid module (magic, version 1), then a custom section making each distinct.
const module = (n) => Buffer.from([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0, 0, 3, 1, 0x78, n]);

const INDEX = [
  '<html><head>',
  '<link rel="preload" href="/coglab-app-0123_bg.wasm" crossorigin="anonymous" as="fetch" type="application/wasm">',
  '<link rel="modulepreload" href="/coglab-app-0123.js" crossorigin="anonymous">',
  '</head><body><script type="module">',
  "import init, * as bindings from '/coglab-app-0123.js';",
  "const wasm = await init({ module_or_path: '/coglab-app-0123_bg.wasm' });",
  '</script></body></html>',
].join('\n');
const SPLIT = [
  'const a = () => { const src = fetch(new URL("./chunk_1-aa.wasm", import.meta.url)); return src; };',
  'const b = () => { const src = fetch(new URL("./split_x-bb.wasm", import.meta.url)); return src; };',
].join('\n');
const SHIM = 'importScripts("./coglab-worker.js");wasm_bindgen({ module_or_path: "./coglab-worker_bg.wasm" });';

function build() {
  const dir = mkdtempSync(join(tmpdir(), 'coglab-precompress-'));
  writeFileSync(join(dir, 'index.html'), INDEX);
  writeFileSync(join(dir, '__wasm_split-cc.js'), SPLIT);
  writeFileSync(join(dir, 'coglab-worker_loader.js'), SHIM);
  const wasm = { 'coglab-app-0123_bg.wasm': module(1), 'chunk_1-aa.wasm': module(2), 'split_x-bb.wasm': module(3) };
  for (const [f, b] of Object.entries(wasm)) writeFileSync(join(dir, f), b);
  writeFileSync(join(dir, 'coglab-worker_bg.wasm'), module(4));
  wasm['coglab-worker_bg.wasm'] = module(4);
  return { dir, wasm };
}

// The zopfli outputs are kept in a cache folder of the test's own, never the repository's.
const run = (dir, env = {}) => spawnSync('python3', [SCRIPT, dir], {
  encoding: 'utf8',
  env: { ...process.env, COGLAB_WASM_OPT_CACHE: join(dir, '.cache'), ...env },
});
const hasZopfli = spawnSync('sh', ['-c', 'command -v zopfli']).status === 0;

test('every module becomes its .gz and every loader asks for the .gz through the helper', () => {
  const { dir, wasm } = build();
  const r = run(dir);
  assert.equal(r.status, 0, r.stderr);
  for (const [f, bytes] of Object.entries(wasm)) {
    assert.ok(!existsSync(join(dir, f)), `${f} removed`);
    assert.deepEqual(gunzipSync(readFileSync(join(dir, `${f}.gz`))), bytes, f);
  }
  const index = readFileSync(join(dir, 'index.html'), 'utf8');
  assert.ok(index.includes("init({ module_or_path: coglabWasm('/coglab-app-0123_bg.wasm.gz') })"));
  assert.ok(index.includes('<link rel="preload" href="/coglab-app-0123_bg.wasm.gz" crossorigin="anonymous" as="fetch">'));
  assert.ok(index.includes('<script type="module">\nfunction coglabWasm(url)'));
  const split = readFileSync(join(dir, '__wasm_split-cc.js'), 'utf8');
  assert.ok(split.includes('coglabWasm(new URL("./chunk_1-aa.wasm.gz", import.meta.url))'));
  assert.ok(split.includes('coglabWasm(new URL("./split_x-bb.wasm.gz", import.meta.url))'));
  assert.ok(!/fetch\(new URL/.test(split));
  const shim = readFileSync(join(dir, 'coglab-worker_loader.js'), 'utf8');
  assert.ok(shim.endsWith('wasm_bindgen({ module_or_path: coglabWasm("./coglab-worker_bg.wasm.gz") });'));
  // Run again: nothing changes.
  const before = [index, split, shim];
  assert.equal(run(dir).status, 0);
  assert.deepEqual(['index.html', '__wasm_split-cc.js', 'coglab-worker_loader.js']
    .map((f) => readFileSync(join(dir, f), 'utf8')), before);
});

test('a loader fetching its module another way is an error, and nothing is written', () => {
  const { dir } = build();
  writeFileSync(join(dir, 'index.html'), INDEX.replace('init({ module_or_path:', 'init({ path:'));
  const r = run(dir);
  assert.notEqual(r.status, 0);
  assert.match(r.stderr, /expected one init\(\{ module_or_path: '\.\.\.wasm' \}\)/);
  assert.ok(existsSync(join(dir, 'coglab-app-0123_bg.wasm')));
  assert.equal(readFileSync(join(dir, '__wasm_split-cc.js'), 'utf8'), SPLIT);
});

test('the helper gives the module from a gzipped body and from one the browser already decompressed', async () => {
  const { dir } = build();
  assert.equal(run(dir).status, 0);
  const index = readFileSync(join(dir, 'index.html'), 'utf8');
  const helper = index.slice(index.indexOf('function coglabWasm'), index.indexOf('\nimport init'));
  const bytes = module(7);
  for (const [what, body] of [['gzipped', gzipSync(bytes)], ['plain', bytes]]) {
    // eslint-disable-next-line no-new-func
    const coglabWasm = new Function('fetch', `${helper}; return coglabWasm;`)(
      async () => new Response(body));
    const res = await coglabWasm('/x.wasm.gz');
    assert.equal(res.headers.get('content-type'), 'application/wasm', what);
    const got = Buffer.from(await res.arrayBuffer());
    assert.deepEqual(got, bytes, what);
    await WebAssembly.instantiate(got);
  }
  const failing = new Function('fetch', `${helper}; return coglabWasm;`)(
    async () => new Response('gone', { status: 404 }));
  await assert.rejects(failing('/x.wasm.gz'), /\/x\.wasm\.gz: HTTP 404/);
});

// zopfli (scripts/bootstrap.sh installs it): a module larger than gzip -9 can shrink, written
// by zopfli, smaller than gzip -9 and giving the module back; kept by content, so a second
// build reuses it; with COGLAB_ZOPFLI=off, gzip -9 (Python's, larger than zopfli's).
test('zopfli writes smaller .gz files, kept by content; COGLAB_ZOPFLI=off gives gzip -9', { skip: !hasZopfli && 'zopfli not on PATH' }, () => {
  // A module with a long, repetitive custom section: room for zopfli to do better.
  const words = Array.from({ length: 4000 }, (_, i) => `item_${(i * 7919) % 613}_${i % 17}`).join(' ');
  const big = Buffer.concat([module(9).subarray(0, 8), Buffer.from([0, 0x83, 0xf9, 0x01, 1, 0x79]), Buffer.from(words).subarray(0, 31999)]);
  const { dir } = build();
  writeFileSync(join(dir, 'chunk_2-dd.wasm'), big);
  const r = run(dir);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /\(zopfli, 0 of 5 as compressed before\)/);
  const z = readFileSync(join(dir, 'chunk_2-dd.wasm.gz'));
  assert.deepEqual(gunzipSync(z), big);
  const g9 = gzipSync(big, { level: 9 });
  assert.ok(z.length < g9.length, `zopfli ${z.length} vs gzip -9 ${g9.length}`);
  assert.equal(readdirSync(join(dir, '.cache', 'gz')).filter((f) => f.endsWith('.gz')).length, 5);
  // A second build of the same modules reuses every one.
  const again = build();
  writeFileSync(join(again.dir, 'chunk_2-dd.wasm'), big);
  const r2 = run(again.dir, { COGLAB_WASM_OPT_CACHE: join(dir, '.cache') });
  assert.match(r2.stdout, /\(zopfli, 5 of 5 as compressed before\)/);
  assert.deepEqual(readFileSync(join(again.dir, 'chunk_2-dd.wasm.gz')), z);
  // Off: gzip -9.
  const off = build();
  writeFileSync(join(off.dir, 'chunk_2-dd.wasm'), big);
  const r3 = run(off.dir, { COGLAB_ZOPFLI: 'off' });
  assert.match(r3.stdout, /gzip -9 \(zopfli not found or COGLAB_ZOPFLI=off\)/);
  const plain = readFileSync(join(off.dir, 'chunk_2-dd.wasm.gz'));
  assert.deepEqual(gunzipSync(plain), big);
  assert.ok(plain.length > z.length, `gzip -9 ${plain.length} vs zopfli ${z.length}`);
});
