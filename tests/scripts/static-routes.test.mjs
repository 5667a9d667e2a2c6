// scripts/static-routes.py on a small synthetic build: every route gets its page, each page
// keeps render-blocking only the stylesheets its route needs and holds the others in the
// `coglab-later-css` template (which src/later_css.rs moves into the document later), and a
// second run changes nothing. The expected pages are written out here by hand.
//
//   node --test tests/scripts/
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const SCRIPT = join(ROOT, 'scripts', 'static-routes.py');

// Trunk writes its 64-bit hash in hex without leading zeros: 16 digits or fewer (review's here).
const hash = (stem) => (stem === 'review' ? '123456789abcdef' : '0123456789abcdef');
const link = (stem) => `<link rel="stylesheet" href="/site/${stem}-${hash(stem)}.css" integrity="sha384-${stem}"/>`;
// The head's stylesheets in order: a stem is a render-blocking link, an array the template
// holding those stems' links (in the place of the first of them).
const page = (head) => [
  '<!DOCTYPE html><html><head>',
  ...head.map((h) => (Array.isArray(h) ? `<template id="coglab-later-css">${h.map(link).join('')}</template>` : link(h))),
  '<noscript><link rel="stylesheet" href="noscript.css" /></noscript>',
  '</head><body></body></html>',
  '',
].join('\n');
const INDEX = page(['main', 'leaderboard', 'selftest', 'structure', 'review']);

function run(dir) {
  const r = spawnSync('python3', [SCRIPT, dir], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /static-routes: 4 route pages and 404\.html/);
}

test('each page blocks on its own stylesheets only and holds the others for later', () => {
  const dir = mkdtempSync(join(tmpdir(), 'coglab-routes-'));
  writeFileSync(join(dir, 'index.html'), INDEX);
  run(dir);
  const all = page(['main', 'leaderboard', ['selftest', 'structure', 'review']]);
  const expected = {
    'index.html': all,
    '404.html': all,
    'leaderboard/index.html': all,
    'self-test/index.html': page(['main', 'leaderboard', 'selftest', ['structure', 'review']]),
    'review/index.html': page(['main', 'leaderboard', ['selftest', 'structure'], 'review']),
    'structure/index.html': page(['main', 'leaderboard', ['selftest', 'review'], 'structure']),
  };
  for (const [name, html] of Object.entries(expected)) {
    assert.equal(readFileSync(join(dir, name), 'utf8'), html, name);
  }
  // Again, on its own output (post-build and the publish step both run it): the same pages.
  run(dir);
  for (const [name, html] of Object.entries(expected)) {
    assert.equal(readFileSync(join(dir, name), 'utf8'), html, `${name}, second run`);
  }
});

test('a page without the later stylesheets is copied as it is', () => {
  const dir = mkdtempSync(join(tmpdir(), 'coglab-routes-'));
  const plain = page(['main', 'leaderboard']);
  writeFileSync(join(dir, 'index.html'), plain);
  run(dir);
  for (const name of ['index.html', '404.html', 'leaderboard/index.html', 'review/index.html']) {
    assert.equal(readFileSync(join(dir, name), 'utf8'), plain, name);
  }
});
