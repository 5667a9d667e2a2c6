// scripts/split-stage.py (the last step of scripts/wasm-split.sh) on a small synthetic folder:
// what wasm-split-cli, wasm-bindgen and wasm-opt leave, and a staging folder as Trunk leaves it.
// The expected names and hashes are computed here with Node's crypto, not by the script.
//
//   node --test tests/scripts/
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const SCRIPT = join(ROOT, 'scripts', 'split-stage.py');
const NAME = 'coglab-app-0123456789abcdef';

const tag = (data) => createHash('sha256').update(data).digest('hex').slice(0, 16);
const sri = (data) => `sha384-${createHash('sha384').update(data).digest('base64')}`;

const GLUE = [
  'import * as __wbg_star0 from "./__wasm_split.js";',
  'export function start() {}',
  'function __wbg_get_imports() {',
  '  const import0 = { __proto__: null };',
  '  return { __proto__: null, "./__wasm_split.js": __wbg_star0, "./coglab-app_bg.js": import0 };',
  '}',
  '',
].join('\n');
const LOADER = [
  'const chunks = {',
  '  review: () => load("./split_review.wasm"),',
  '  shared: () => load("./chunk_3_shared.wasm"),',
  '};',
  'export default chunks;',
  '',
].join('\n');
// As Trunk writes it (release), with a comment and a CSS link that must be left alone.
const INDEX = (js, wasm) => [
  '<!DOCTYPE html>',
  '<html lang="en"><head>',
  '<meta charset="utf-8" />',
  '<title>coglab – a test page</title>',
  '<!-- an old build: <link rel="modulepreload" href="/coglab-app-0123456789abcdef.js" integrity="sha384-old"> -->',
  '<link rel="stylesheet" href="/main-aaaa.css" integrity="sha384-css">',
  `<link rel="modulepreload" href="/${NAME}.js" crossorigin="anonymous" integrity="${js}">`,
  wasm === null
    ? `<link rel="preload" href="/${NAME}_bg.wasm" crossorigin="anonymous" as="fetch" type="application/wasm">`
    : `<link rel="preload" href="/${NAME}_bg.wasm" crossorigin="anonymous" integrity="${wasm}" as="fetch" type="application/wasm">`,
  `<script type="module">import init from '/${NAME}.js'; await init({ module_or_path: '/${NAME}_bg.wasm' });</script>`,
  '</head><body></body></html>',
  '',
].join('\r\n');

/** A fresh pair of folders: OUT (the split output) and STAGE (Trunk's staging folder). */
function folders({ loader = LOADER, glue = GLUE, index = INDEX('sha384-trunkjs', 'sha384-trunkwasm') } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'coglab-split-stage-'));
  const out = join(dir, 'out');
  const stage = join(dir, 'stage');
  mkdirSync(out);
  mkdirSync(stage);
  writeFileSync(join(out, `${NAME}.js`), glue);
  writeFileSync(join(out, `${NAME}_bg.wasm`), Buffer.from([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0, 42]));
  writeFileSync(join(out, 'split_review.wasm'), Buffer.from([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0, 1]));
  writeFileSync(join(out, 'chunk_3_shared.wasm'), Buffer.from([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0, 2]));
  writeFileSync(join(out, '__wasm_split.js'), loader);
  // Trunk's own files of the same names (to be replaced) and the rest of its build.
  writeFileSync(join(stage, `${NAME}.js`), 'trunk glue');
  writeFileSync(join(stage, `${NAME}_bg.wasm`), 'trunk wasm');
  writeFileSync(join(stage, 'main-aaaa.css'), 'body {}');
  writeFileSync(join(stage, 'index.html'), index);
  return { dir, out, stage };
}

const run = (f) => spawnSync('python3', [SCRIPT, f.out, f.stage, NAME], { encoding: 'utf8' });
const listing = (d) => readdirSync(d).sort();
const snapshot = (d) => Object.fromEntries(listing(d).map((f) => [f, readFileSync(join(d, f)).toString('hex')]));

test('chunks and loader get content-hashed names; glue, main module and integrity follow', () => {
  const f = folders();
  try {
    execFileSync('python3', [SCRIPT, f.out, f.stage, NAME]);
    const review = `split_review-${tag(readFileSync(join(f.out, 'split_review.wasm')))}.wasm`;
    const shared = `chunk_3_shared-${tag(readFileSync(join(f.out, 'chunk_3_shared.wasm')))}.wasm`;
    const loader = LOADER.replace('"./split_review.wasm"', `"./${review}"`)
      .replace('"./chunk_3_shared.wasm"', `"./${shared}"`);
    const loaderName = `__wasm_split-${tag(loader)}.js`;
    assert.deepEqual(listing(f.stage), [
      loaderName, shared, `${NAME}.js`, `${NAME}_bg.wasm`, 'index.html', 'main-aaaa.css', review,
    ].sort());
    assert.equal(readFileSync(join(f.stage, loaderName), 'utf8'), loader);
    assert.deepEqual(readFileSync(join(f.stage, review)), readFileSync(join(f.out, 'split_review.wasm')));
    // The import specifier follows the loader's new name; the imports object keeps the name
    // the wasm asks for.
    const glue = readFileSync(join(f.stage, `${NAME}.js`), 'utf8');
    assert.equal(glue, GLUE.replace('from "./__wasm_split.js"', `from "./${loaderName}"`));
    assert.match(glue, /"\.\/__wasm_split\.js": __wbg_star0/);
    const wasm = readFileSync(join(f.out, `${NAME}_bg.wasm`));
    assert.deepEqual(readFileSync(join(f.stage, `${NAME}_bg.wasm`)), wasm);
    // index.html: the glue's preload has the new integrity, the wasm's preload (as="fetch",
    // whose integrity Chromium ignores with a warning: issue 42, defect 16) none; the CRLF
    // endings, the comment, the CSS link's integrity and the non-ASCII title kept byte for byte.
    assert.equal(readFileSync(join(f.stage, 'index.html'), 'utf8'), INDEX(sri(glue), null));
  } finally {
    rmSync(f.dir, { recursive: true, force: true });
  }
});

test('a chunk the loader does not name once is refused, and the staging folder is left alone', () => {
  for (const loader of [
    LOADER.replace('"./chunk_3_shared.wasm"', '"./chunk_3_other.wasm"'),
    LOADER.replace('};', '  again: () => load("./split_review.wasm"),\n};'),
  ]) {
    const f = folders({ loader });
    try {
      const before = snapshot(f.stage);
      const r = run(f);
      assert.notEqual(r.status, 0);
      assert.match(r.stderr, /expected one reference to (chunk_3_shared|split_review)\.wasm in __wasm_split\.js, found [02]/);
      assert.deepEqual(snapshot(f.stage), before);
    } finally {
      rmSync(f.dir, { recursive: true, force: true });
    }
  }
});

test('a glue that does not import the loader is refused', () => {
  const f = folders({ glue: GLUE.replace('import * as __wbg_star0 from "./__wasm_split.js";', '') });
  try {
    const before = snapshot(f.stage);
    const r = run(f);
    assert.notEqual(r.status, 0);
    assert.match(r.stderr, /glue does not import \.\/__wasm_split\.js/);
    assert.deepEqual(snapshot(f.stage), before);
  } finally {
    rmSync(f.dir, { recursive: true, force: true });
  }
});

test('index.html without the preload link (a commented-out one does not count) is refused', () => {
  const index = INDEX('sha384-trunkjs', 'sha384-trunkwasm')
    .replace(/<link rel="modulepreload" href="\/coglab-app-0123456789abcdef\.js"[^>]*>\r\n/, '');
  const f = folders({ index });
  try {
    const before = snapshot(f.stage);
    const r = run(f);
    assert.notEqual(r.status, 0);
    assert.match(r.stderr, new RegExp(`expected one <link> of ${NAME}\\.js in index\\.html, found 0`));
    assert.deepEqual(snapshot(f.stage), before);
  } finally {
    rmSync(f.dir, { recursive: true, force: true });
  }
});
