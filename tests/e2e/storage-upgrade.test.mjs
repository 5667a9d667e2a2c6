// Issue 19: stored data survives the move of the app's storage to kept crates (IndexedDB
// through `idb`, localStorage through `gloo-storage`). Before the app is opened, this test
// writes what the earlier version (454ce21, hand-written IndexedDB wrappers) stored, with the
// browser's own IndexedDB and localStorage calls and in that version's layout:
//   - database `coglab` version 1, object stores `files` (key `[area, name]`) and `kv`;
//   - the leaderboard's kept files: `{ area, name, model, kind, blob }` (an MM-IQ answer key
//     and predictions);
//   - the review page's files `{ area, name, model, bytes: Uint8Array }` and its workspace
//     under `review-workspace` (a sample, two scores and a note);
//   - the self-test's sessions (`coglab.selftest.v1`, a JSON array) and the theme
//     (`coglab-theme`, a plain string).
// Then it opens each page and reads them back: the same scores, note and answers, and the
// leaderboard row equal to the CLI's figure for the same files.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { start, newPage, App, ROOT, cli } from './support.mjs';

const DATA = process.env.COGLAB_DATA ?? join(ROOT, '../shared/data');
const KEY = join(DATA, 'mmiq/MMIQ_benchmark_answer_dict.jsonl');
const PREDS = join(DATA, 'mmiq/example_output_parsed.jsonl');
const HAVE_DATA = existsSync(KEY) && existsSync(PREDS);
if (!HAVE_DATA) {
  if (process.env.CI === 'true') throw new Error(`${DATA} absent (CI=true): the upgrade test needs ../shared/data`);
  console.log(`# storage-upgrade: ${DATA} absent; test skipped`);
}

const SET = 'gpt-4o · MM-OPERA RIA holistic · gpt-4o_RIA_regular_scoring.json';

/** MM-OPERA RIA files of 6 items as the released evaluation code writes them. */
function operaFiles() {
  const meta = [];
  const results = {};
  const regular = {};
  const domains = ['Nature', 'Culture', 'Art'];
  for (let i = 0; i < 6; i++) {
    const id = `ria_${String(i + 1).padStart(3, '0')}`;
    meta.push({
      id, foldername: id, domain: domains[i % 3], type: 'Relation', culture: 'Global',
      language: 'English', hop_count: 1, perception: "['Visual Similarity']",
      conception: "['Functional Links']", relation: `Relation ${i + 1}`,
      explanation: `Both share property ${i + 1}.`, reasoning: `Image A → Concept ${i + 1} → Image B`,
      description1: `Object ${i + 1}.`, description2: `Thing ${i + 1}.`,
    });
    results[id] = `Both relate through concept ${i + 1}.`;
    regular[id] = { score_judge: String([4, 3, 2, 1, 0, 3][i]), score_reason: `Reason ${i + 1}.` };
  }
  return {
    'metadata.json': JSON.stringify(meta),
    'gpt-4o_RIA_results.json': JSON.stringify(results),
    'gpt-4o_RIA_regular_scoring.json': JSON.stringify(regular),
  };
}

/** The earlier version's workspace JSON (core `review::Workspace`, serde's field names). */
const WORKSPACE = {
  current: SET,
  sets: {
    [SET]: {
      sample: { n: 4, seed: 7, stratify: null },
      keys: ['ria_002', 'ria_005', 'ria_001', 'ria_004'],
      position: 1,
      records: {
        ria_002: { key: 'ria_002', score: 3, note: 'Too literal.' },
        ria_005: { key: 'ria_005', score: 1 },
      },
    },
  },
};

const SESSIONS = [{
  id: 'kiva|4242', kind: 'kiva', seed: 4242, participant: 'p-old', created: '26/11/2026, 09:30:00',
  responses: [
    { cross: { choice: 1, rt_ms: 1500 }, within: { choice: 0, rt_ms: 900 }, extrapolation: { choice: 2, rt_ms: 1100 } },
    { cross: { choice: 0, rt_ms: 1200 }, within: null, extrapolation: { choice: 1, rt_ms: 800 } },
  ],
}];

/** Writes the old layout in the page's origin, the way the earlier version did. */
async function writeOldSchema(page, leaderboardFiles, reviewFiles) {
  await page.evaluate(async ({ leaderboardFiles, reviewFiles, workspace, sessions }) => {
    const done = (req) => new Promise((ok, err) => { req.onsuccess = () => ok(req.result); req.onerror = () => err(req.error); });
    const open = indexedDB.open('coglab', 1);
    open.onupgradeneeded = () => {
      open.result.createObjectStore('files');
      open.result.createObjectStore('kv');
    };
    const db = await done(open);
    const tx = db.transaction(['files', 'kv'], 'readwrite');
    const files = tx.objectStore('files');
    for (const f of leaderboardFiles) {
      const blob = new File([f.text], f.name, { type: 'application/octet-stream' });
      files.put({ area: 'leaderboard', name: f.name, model: null, kind: null, blob }, ['leaderboard', f.name]);
    }
    for (const f of reviewFiles) {
      const bytes = new TextEncoder().encode(f.text);
      files.put({ area: 'review', name: f.name, model: null, bytes }, ['review', f.name]);
    }
    tx.objectStore('kv').put(JSON.stringify(workspace), 'review-workspace');
    await new Promise((ok, err) => { tx.oncomplete = ok; tx.onabort = () => err(tx.error); tx.onerror = () => err(tx.error); });
    db.close();
    localStorage.setItem('coglab.selftest.v1', JSON.stringify(sessions));
    localStorage.setItem('coglab-theme', 'dark');
  }, { leaderboardFiles, reviewFiles, workspace: WORKSPACE, sessions: SESSIONS });
}

let env;
before(async () => { env = await start(); });
after(async () => { await env?.close(); });

test('data stored by the earlier version is read back after the upgrade', { skip: !HAVE_DATA && 'no data' }, async () => {
  const { page, context, errors } = await newPage(env.browser);
  const app = new App(page, env.base);
  // A page of the origin that does not open the store (the not-found page), to write in.
  await app.goto('/no-such-page');
  await page.getByTestId('page-not-found').waitFor();
  const leaderboardFiles = [KEY, PREDS].map((p) => ({ name: p.split('/').pop(), text: readFileSync(p, 'utf8') }));
  const reviewFiles = Object.entries(operaFiles()).map(([name, text]) => ({ name, text }));
  await writeOldSchema(page, leaderboardFiles, reviewFiles);

  // The theme: a plain string, read as before.
  await app.goto('/');
  assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'dark');

  // Leaderboard: both kept files are scored again; the row equals the CLI's.
  await app.goto('/leaderboard');
  const row = page.locator('[data-testid=mmiq-computed-row][data-model=example]');
  await row.waitFor({ timeout: 60000 });
  const mean = Number(await row.locator('td[data-col=mean]').getAttribute('data-value'));
  const want = cli(['score', 'mmiq', '--answers', KEY, PREDS, '--json']);
  assert.ok(Math.abs(mean - want.overall.accuracy) < 1e-9, `${mean} vs ${want.overall.accuracy}`);
  assert.match(await page.getByTestId('lb-kept-count').innerText(), /^2 files kept in this browser/);

  // Review: the files, the sample, the position, the scores and the note are back.
  await app.goto('/review');
  await page.getByTestId('review-pos').waitFor();
  assert.equal(await page.getByTestId('review-pos').innerText(), 'Item 2 of 4');
  assert.equal(await page.getByTestId('set-select').locator('option:checked').innerText().then((t) => t.startsWith(SET)), true);
  const pressed = () => page.locator('.score-row button[aria-pressed=true]').innerText();
  assert.equal(await page.getByTestId('item-key').innerText(), 'Item ria_005');
  assert.equal(await pressed(), '1');
  await page.evaluate(() => document.activeElement?.blur());
  await page.keyboard.press('ArrowLeft');
  assert.equal(await page.getByTestId('item-key').innerText(), 'Item ria_002');
  assert.equal(await pressed(), '3');
  assert.equal(await page.getByTestId('note').inputValue(), 'Too literal.');

  // Self-test: the session is listed with its answers (2 trials with the last stage).
  await app.goto('/self-test');
  const sessions = page.getByTestId('sessions');
  await sessions.waitFor();
  const text = await sessions.textContent();
  assert.match(text, /seed 4242 · p-old · 26\/11\/2026, 09:30:00/);
  assert.match(text, /2 of 14 trials/);

  // And the new version writes the same layout: a score given now is stored as before.
  await app.goto('/review');
  await page.getByTestId('review-pos').waitFor();
  await page.evaluate(() => document.activeElement?.blur());
  await page.keyboard.press('ArrowRight');
  assert.equal(await page.getByTestId('item-key').innerText(), 'Item ria_005');
  await page.keyboard.press('4');
  await page.waitForFunction(async () => {
    const db = await new Promise((ok, err) => { const r = indexedDB.open('coglab'); r.onsuccess = () => ok(r.result); r.onerror = () => err(r.error); });
    const tx = db.transaction('kv');
    const text = await new Promise((ok) => { const r = tx.objectStore('kv').get('review-workspace'); r.onsuccess = () => ok(r.result); });
    db.close();
    const ws = JSON.parse(text);
    return db.version === 1 && ws.sets[ws.current].records.ria_005?.score === 4;
  }, null, { timeout: 10000 });
  assert.deepEqual(errors, []);
  await context.close();
});
