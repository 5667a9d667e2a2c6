// scripts/minify.mjs on a small synthetic build: the page's glue, the chunk loader, the
// worker's scripts and the bundled data are minified, the glue still works, and the
// `integrity` of its <link> is the SHA-384 of the new text (computed here, not by the script).
//
//   node --test tests/scripts/
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const SCRIPT = join(ROOT, 'scripts', 'minify.mjs');

const GLUE = `// wasm-bindgen glue (a stand-in)
let cachedTextDecoder = null;

/**
 * Adds two numbers, the long way.
 */
export function add_numbers(first_number, second_number) {
    const result_of_adding = first_number + second_number;
    return result_of_adding;
}

export default async function init(options) {
    return { options_were: options };
}
`;
const LOADER = `import { initSync } from "./coglab-app-0123.js";
export const __wasm_split_load_x_1 = async function load_the_chunk() { return 1; };
`;
const WORKER = `// classic script
var wasm_bindgen = (function () { function inner_helper(value) { return value * 2; } return inner_helper; })();
`;
const DATA = { note: 'Computed by coglab-core.', values: [1.5, 0.1, 2, -3e-7], nested: { key: 'ü' } };
const INDEX = [
  '<html><head>',
  '<link rel="modulepreload" href="/coglab-app-0123.js" crossorigin="anonymous" integrity="sha384-OLD">',
  '<link rel="stylesheet" href="/main-1.css" integrity="sha384-CSS">',
  '</head><body></body></html>',
].join('\n');

function build() {
  const dir = mkdtempSync(join(tmpdir(), 'coglab-minify-'));
  writeFileSync(join(dir, 'coglab-app-0123.js'), GLUE);
  writeFileSync(join(dir, '__wasm_split-cc.js'), LOADER);
  writeFileSync(join(dir, 'coglab-worker.js'), WORKER);
  writeFileSync(join(dir, 'index.html'), INDEX);
  writeFileSync(join(dir, '404.html'), INDEX);
  mkdirSync(join(dir, 'data'));
  writeFileSync(join(dir, 'data', 'x.json'), JSON.stringify(DATA, null, 2));
  return dir;
}

const sha384 = (text) => `sha384-${createHash('sha384').update(text).digest('base64')}`;

test('scripts and data get smaller, the glue works, and integrity follows the new text', async () => {
  const dir = build();
  const run = spawnSync('node', [SCRIPT, dir], { encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  assert.match(run.stdout, /minify: 4 files/);
  const glue = readFileSync(join(dir, 'coglab-app-0123.js'), 'utf8');
  assert.ok(glue.length < GLUE.length / 2, glue);
  assert.ok(!glue.includes('the long way'));
  // The exports keep their names and behaviour.
  writeFileSync(join(dir, 'glue.mjs'), glue);
  const mod = await import(pathToFileURL(join(dir, 'glue.mjs')).href);
  assert.equal(mod.add_numbers(2, 40), 42);
  assert.deepEqual(await mod.default(7), { options_were: 7 });
  for (const page of ['index.html', '404.html']) {
    const html = readFileSync(join(dir, page), 'utf8');
    assert.ok(html.includes(`integrity="${sha384(glue)}"`), html);
    // Other links are untouched.
    assert.ok(html.includes('href="/main-1.css" integrity="sha384-CSS"'));
  }
  assert.ok(readFileSync(join(dir, '__wasm_split-cc.js'), 'utf8').length < LOADER.length);
  assert.ok(readFileSync(join(dir, 'coglab-worker.js'), 'utf8').length < WORKER.length);
  const data = readFileSync(join(dir, 'data', 'x.json'), 'utf8');
  assert.ok(!data.includes('\n'));
  assert.deepEqual(JSON.parse(data), DATA);
});

test('a file that does not parse fails the step, and nothing is written', () => {
  const dir = build();
  writeFileSync(join(dir, 'data', 'broken.json'), '{"a": ');
  const run = spawnSync('node', [SCRIPT, dir], { encoding: 'utf8' });
  assert.equal(run.status, 1);
  assert.match(run.stderr, /minify: data\/broken\.json: /);
  assert.equal(readFileSync(join(dir, 'coglab-app-0123.js'), 'utf8'), GLUE);
  assert.equal(readFileSync(join(dir, 'index.html'), 'utf8'), INDEX);
});

// Trunk's hashed stylesheets (`<stem>-<16 hex>.css`) are minified by lightningcss; the rules
// keep their order, values and syntax (`max-width`, not the range syntax older browsers
// ignore; the expected text is written out by hand), and every page's
// `integrity` for the file follows the new text.
const CSS = `/* Leaderboard page. */
.hint {
  color: var(--fg-muted);
  font-size: 0.92rem;
}

.button:focus-visible, .link-button:focus-visible {
  outline: 3px solid var(--focus); outline-offset: 2px;
}
@media (max-width: 40rem) { .hint { font-size: 0.85rem; } }
`;
const CSS_MIN = '.hint{color:var(--fg-muted);font-size:.92rem}'
  // :focus-visible is newer than Chrome 80: each selector gets its own rule, so a browser
  // that does not know one still applies the others.
  + '.button:focus-visible{outline:3px solid var(--focus);outline-offset:2px}'
  + '.link-button:focus-visible{outline:3px solid var(--focus);outline-offset:2px}'
  + '@media (max-width:40rem){.hint{font-size:.85rem}}';

test('hashed stylesheets are minified with their rules unchanged, and integrity follows', () => {
  const dir = build();
  // Trunk's hash is hex without leading zeros: 15 digits here.
  const name = 'leaderboard-123456789abcdef.css';
  writeFileSync(join(dir, name), CSS);
  const page = INDEX.replace('</head>', `<link rel="stylesheet" href="/${name}" integrity="sha384-OLDCSS"/>\n</head>`);
  writeFileSync(join(dir, 'index.html'), page);
  const run = spawnSync('node', [SCRIPT, dir], { encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  assert.match(run.stdout, /minify: 5 files/);
  const css = readFileSync(join(dir, name), 'utf8');
  assert.equal(css, CSS_MIN);
  const html = readFileSync(join(dir, 'index.html'), 'utf8');
  assert.ok(html.includes(`href="/${name}" integrity="${sha384(css)}"`), html);
  // A stylesheet Trunk did not hash (copied as it is, e.g. noscript.css) is left alone.
  assert.ok(html.includes('href="/main-1.css" integrity="sha384-CSS"'));
});

test('a stylesheet that does not parse fails the step, and nothing is written', () => {
  const dir = build();
  writeFileSync(join(dir, 'review-0123456789abcdef.css'), '.a { color: red; }\n..b { color: blue; }\n');
  const run = spawnSync('node', [SCRIPT, dir], { encoding: 'utf8' });
  assert.equal(run.status, 1);
  assert.match(run.stderr, /minify: review-0123456789abcdef\.css: /);
  assert.equal(readFileSync(join(dir, 'coglab-app-0123.js'), 'utf8'), GLUE);
});
