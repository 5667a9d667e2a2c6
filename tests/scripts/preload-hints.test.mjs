// scripts/preload-hints.py on a small synthetic chunk loader (the shape wasm-split-cli writes,
// after precompress.py) and index.html; the inline script it writes is run in a stand-in
// document for several addresses, and the links it adds are compared with the files listed
// here by hand.
//
//   node --test tests/scripts/
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const SCRIPT = join(ROOT, 'scripts', 'preload-hints.py');

const chunk = (n, deps = []) => [
  `const __chunk_${n} = makeLoad(() => {`,
  `    const src = coglabWasm(new URL("./chunk_${n}-${n}${n}.wasm.gz", import.meta.url));`,
  '    return async (imports) => (WebAssembly.instantiateStreaming(src, imports));',
  '}',
  `, [${deps.join(', ')}]);`,
].join('\n');
const point = (name, deps) => [
  `export const __wasm_split_load_${name}_123456789 = wrapAsyncCb(makeLoad(() => {`,
  `    const src = coglabWasm(new URL("./split_${name}_123456789-ab.wasm.gz", import.meta.url));`,
  '    return async (imports) => (WebAssembly.instantiateStreaming(src, imports));',
  '}',
  `, [${deps.join(', ')}]));`,
].join('\n');
const LOADER = [
  'import { initSync } from "./coglab-app-0123.js";',
  chunk(1), chunk(2), chunk(3),
  point('kiva_tab', ['__chunk_1', '__chunk_2']),
  point('mmopera_tab', ['__chunk_2']),
  point('gold_tab', []),
  point('self_test', ['__chunk_3']),
  point('review', []),
  point('structure', []),
  // A split point of wasm_split's own naming (no hash suffix: the worker codec) is no view's.
  'export const __wasm_split_load_worker_codec = wrapAsyncCb(makeLoad(() => {',
  '    const src = coglabWasm(new URL("./split_worker_codec-cd.wasm.gz", import.meta.url));',
  '}', ', [__chunk_3]));',
].join('\n');
const INDEX = [
  '<html><head>',
  '<meta http-equiv="Content-Security-Policy" content="script-src \'self\'" />',
  '<title>t</title>',
  '<base href="/site/" />',
  '<link rel="stylesheet" href="/site/main.css">',
  '</head><body></body></html>',
].join('\n');

function build(loader = LOADER) {
  const dir = mkdtempSync(join(tmpdir(), 'coglab-hints-'));
  writeFileSync(join(dir, '__wasm_split-ee.js'), loader);
  writeFileSync(join(dir, 'index.html'), INDEX);
  return dir;
}

/** Runs the page's inline hint script at `address` (below https://h.test), returns the links. */
function linksAt(html, address) {
  const scripts = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]);
  assert.equal(scripts.length, 1);
  const url = new URL(address, 'https://h.test');
  const added = [];
  const document = {
    baseURI: 'https://h.test/site/',
    head: { appendChild: (l) => added.push(l) },
    createElement: (tag) => ({ tag }),
  };
  vm.runInNewContext(scripts[0], { document, location: url, URL, URLSearchParams });
  return added;
}

test('each view preloads its split point, the chunks it needs and its data, once, at low priority', () => {
  const dir = build();
  const run = spawnSync('python3', [SCRIPT, dir], { encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  const html = readFileSync(join(dir, 'index.html'), 'utf8');
  // After <base>, whose address the script resolves against.
  assert.ok(html.indexOf('<script>') > html.indexOf('<base href="/site/" />'));
  const kiva = linksAt(html, '/site/leaderboard?b=kiva');
  assert.deepEqual(kiva.map((l) => l.href), [
    'https://h.test/site/chunk_1-11.wasm.gz',
    'https://h.test/site/chunk_2-22.wasm.gz',
    'https://h.test/site/split_kiva_tab_123456789-ab.wasm.gz',
    'https://h.test/site/data/kiva-baselines.json',
  ]);
  for (const l of kiva) {
    assert.deepEqual([l.tag, l.rel, l.as, l.crossOrigin, l.fetchPriority], ['link', 'preload', 'fetch', 'anonymous', 'low']);
  }
  // KiVA-adults (`v=adults`): the same code, its own figures; another `v` is plain KiVA.
  assert.deepEqual(linksAt(html, '/site/leaderboard?b=kiva&v=adults').map((l) => l.href), [
    'https://h.test/site/chunk_1-11.wasm.gz',
    'https://h.test/site/chunk_2-22.wasm.gz',
    'https://h.test/site/split_kiva_tab_123456789-ab.wasm.gz',
    'https://h.test/site/data/kiva-adults-baselines.json',
  ]);
  assert.equal(linksAt(html, '/site/leaderboard?v=x&b=kiva').at(-1).href, 'https://h.test/site/data/kiva-baselines.json');
  assert.deepEqual(linksAt(html, '/site/leaderboard/?b=gold').map((l) => l.href), [
    'https://h.test/site/split_gold_tab_123456789-ab.wasm.gz',
    'https://h.test/site/data/gold.json',
  ]);
  // MM-IQ (the default tab) has its code in the page module: only its data.
  assert.deepEqual(linksAt(html, '/site/leaderboard').map((l) => l.href), ['https://h.test/site/data/mmiq.json']);
  assert.deepEqual(linksAt(html, '/site/self-test').map((l) => l.href), [
    'https://h.test/site/chunk_3-33.wasm.gz',
    'https://h.test/site/split_self_test_123456789-ab.wasm.gz',
  ]);
  // Home and unknown addresses: nothing.
  assert.deepEqual(linksAt(html, '/site/'), []);
  assert.deepEqual(linksAt(html, '/site/nowhere'), []);
  // Run again: still one script.
  assert.equal(spawnSync('python3', [SCRIPT, dir]).status, 0);
  assert.equal(linksAt(readFileSync(join(dir, 'index.html'), 'utf8'), '/site/review').length, 1);
});

test('a split point the views name but the loader lacks fails the build, with nothing written', () => {
  const dir = build(LOADER.replace(/kiva_tab/g, 'kiva_tabs'));
  const run = spawnSync('python3', [SCRIPT, dir], { encoding: 'utf8' });
  assert.notEqual(run.status, 0);
  assert.match(run.stderr, /split point kiva_tab \(route leaderboard\) not found/);
  assert.equal(readFileSync(join(dir, 'index.html'), 'utf8'), INDEX);
});
