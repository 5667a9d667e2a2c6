// Review mode (issue 9): load MM-OPERA judge outputs (generated in the released formats),
// review a seeded stratified sample with the keyboard, reload (and reload offline): everything
// is restored; live agreement equals the figures worked out here from the same scores;
// export, forget, import: identical; a conflicting import is reported and resolved; a bad
// import shows a located error and keeps the work.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, writeFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { start, newPage, App, SHOTS } from './support.mjs';

let env;
let dir;
before(async () => {
  env = await start();
  dir = await mkdtemp(join(tmpdir(), 'coglab-review-'));
  await writeOperaFiles(dir);
});
after(async () => {
  await env?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const DOMAINS = ['Nature', 'Culture', 'Art'];
const N = 12;
const judgeScore = (i) => [4, 3, 2, 1, 0, 3, 4, 2, 3, 1, 4, 2][i];

/** MM-OPERA RIA files as the released evaluation code writes them. */
async function writeOperaFiles(d) {
  const meta = [];
  const results = {};
  const regular = {};
  const reasoning = {};
  for (let i = 0; i < N; i++) {
    const id = `ria_${String(i + 1).padStart(3, '0')}`;
    meta.push({
      id, foldername: id, domain: DOMAINS[i % 3], type: i % 2 ? 'Metaphor' : 'Relation',
      culture: 'Global', language: 'English', hop_count: 1 + (i % 3),
      perception: "['Visual Similarity']", conception: "['Functional Links']",
      relation: `Relation ${i + 1}`, explanation: `Both images share property ${i + 1}.`,
      reasoning: `Image A → Concept ${i + 1} → Image B`,
      description1: `A photo of object ${i + 1}.`, description2: `A drawing of thing ${i + 1}.`,
    });
    results[id] = `Both relate through concept ${i + 1}, because each one shows it.`;
    regular[id] = { score_judge: String(judgeScore(i)), score_reason: `Reason for item ${i + 1}.` };
    reasoning[id] = {
      path: `Image A → Concept ${i + 1} → Image B`,
      hop_quality: { [`Image A → Concept ${i + 1}`]: [1, 0.5, 1], [`Concept ${i + 1} → Image B`]: [0.8, 0.5, 0] },
      explanation: `Two hops, item ${i + 1}.`,
    };
  }
  await writeFile(join(d, 'metadata.json'), JSON.stringify(meta, null, 1));
  await writeFile(join(d, 'gpt-4o_RIA_results.json'), JSON.stringify(results, null, 1));
  await writeFile(join(d, 'gpt-4o_RIA_regular_scoring.json'), JSON.stringify(regular, null, 1));
  await writeFile(join(d, 'gpt-4o_RIA_reasoning_scoring.json'), JSON.stringify(reasoning, null, 1));
  await writeFile(join(d, 'bad-review.csv'), 'set,key,hop,r,d,k,score,note\ns,ria_001,,,,,9,\n');
}

const files = () => ['metadata.json', 'gpt-4o_RIA_results.json', 'gpt-4o_RIA_regular_scoring.json',
  'gpt-4o_RIA_reasoning_scoring.json'].map((f) => join(dir, f));

/** Page object for the review page. */
class ReviewPage extends App {
  async load(paths) {
    await this.page.getByTestId('review-file-input').setInputFiles(paths);
    await this.page.getByTestId('set-select').waitFor();
  }
  async itemKey() { return (await this.page.getByTestId('item-key').innerText()).replace(/^Item /, ''); }
  async position() { return this.page.getByTestId('review-pos').innerText(); }
  async pressed() {
    const b = this.page.locator('.score-row button[aria-pressed=true]');
    return (await b.count()) ? b.innerText() : null;
  }
  /** Moves keyboard focus off any field, so shortcuts apply. */
  async unfocus() { await this.page.evaluate(() => document.activeElement?.blur()); }
  async saved() {
    await this.page.getByTestId('save-status').filter({ hasText: 'All changes saved' }).waitFor();
  }
  /** [pairs, exact, MAD, r, kappa] of one measure of the agreement panel. */
  async agreementRow(id) {
    const out = [];
    for (const stat of ['n', 'exact', 'mad', 'r', 'kappa']) {
      out.push(await this.page.getByTestId(`agree-${id}-${stat}`).innerText());
    }
    return out;
  }
  async download(testid) {
    const [dl] = await Promise.all([this.page.waitForEvent('download'), this.page.getByTestId(testid).click()]);
    return readFile(await dl.path(), 'utf8');
  }
}

test('review: keyboard scoring survives reloads (also offline); agreement; export, forget, import', async () => {
  const { page, context, errors } = await newPage(env.browser);
  const app = new ReviewPage(page, env.base);
  await app.goto('/review');
  await page.waitForFunction(() => navigator.serviceWorker?.controller, null, { timeout: 30000 });
  await app.load(files());
  const options = await page.getByTestId('set-select').locator('option').allInnerTexts();
  assert.equal(options.length, 2);
  assert.match(options[0], /^gpt-4o · MM-OPERA RIA holistic · gpt-4o_RIA_regular_scoring\.json \(12 items/);
  assert.match(options[1], /process/);

  // The MM-IQ paper's quotas are not offered for an MM-OPERA set (issue 42, defect 16).
  assert.equal(await page.getByTestId('sample-paper-quota').count(), 0);
  // A stratified sample of 6 of 12 (4 per domain): 2 per domain.
  await page.getByTestId('sample-n').fill('6');
  await page.getByTestId('sample-seed').fill('7');
  await page.getByTestId('sample-stratify').selectOption('domain');
  await page.getByTestId('draw-sample').click();
  assert.equal(await app.position(), 'Item 1 of 6');
  // This walk moves by itself: "advance after a key score" (on by default) is turned off.
  await page.getByTestId('auto-advance').uncheck();
  await app.unfocus();

  // Review four items with the keyboard; a note on the second.
  const mine = [3, 3, 0, 4];
  const keys = [];
  for (let i = 0; i < mine.length; i++) {
    keys.push(await app.itemKey());
    await page.keyboard.press(String(mine[i]));
    assert.equal(await app.pressed(), String(mine[i]));
    if (i === 1) {
      await page.getByTestId('note').fill('Too literal: "concept" is vague.');
      await app.unfocus();
    }
    await page.keyboard.press(i % 2 ? 'j' : 'ArrowRight');
  }
  assert.equal(await app.position(), 'Item 5 of 6');
  await page.keyboard.press('k');
  assert.equal(await app.position(), 'Item 4 of 6');
  const domains = new Set(keys.map((k) => DOMAINS[(Number(k.slice(4)) - 1) % 3]));
  assert.ok(domains.size >= 2, 'stratified sample spans domains');

  // Agreement, worked out here from the same scores.
  const judge = keys.map((k) => judgeScore(Number(k.slice(4)) - 1));
  const exact = judge.filter((j, i) => j === mine[i]).length / judge.length;
  const mad = judge.reduce((s, j, i) => s + Math.abs(j - mine[i]), 0) / judge.length;
  const row = await app.agreementRow('score');
  assert.equal(row[0], '4');
  assert.equal(row[1], `${(exact * 100).toFixed(1)}%`);
  assert.equal(row[2], mad.toFixed(3));
  assert.match(await page.getByTestId('agree-reviewed').innerText(), /^4 of 6 sampled items reviewed/);
  await app.saved();
  await app.screenshot('review-1280-light');

  // Reload: position, scores and note are back.
  const check = async () => {
    await page.getByTestId('review-pos').waitFor();
    assert.equal(await app.position(), 'Item 4 of 6');
    assert.equal(await app.itemKey(), keys[3]);
    assert.equal(await app.pressed(), '4');
    assert.equal(await page.getByTestId('note').inputValue(), '', 'each item has its own note');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    assert.equal(await app.itemKey(), keys[1]);
    assert.equal(await page.getByTestId('note').inputValue(), 'Too literal: "concept" is vague.');
    assert.equal(await app.pressed(), '3');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await app.saved();
  };
  await page.reload();
  await check();
  // Offline: the app and the workspace load from this browser alone.
  await context.setOffline(true);
  await page.reload();
  await check();
  await context.setOffline(false);

  // Export, forget, import: identical.
  const exported = await app.download('export-json');
  const csv = await app.download('export-csv');
  assert.match(csv.split('\n')[0], /^set,key,id,hop,hop_name,judge,judge_r,judge_d,judge_k,score,r,d,k,note,error_type/);
  const data = JSON.parse(exported);
  assert.deepEqual(data.records.map((r) => [r.key, r.score]), keys.map((k, i) => [k, mine[i]]));
  await writeFile(join(dir, 'review.json'), exported);
  await page.getByTestId('forget').click();
  await page.getByTestId('forget-confirm').click();
  await page.getByTestId('forgotten').waitFor();
  assert.equal(await page.getByTestId('set-select').count(), 0);
  await page.reload();
  await page.getByTestId('review-dropzone').waitFor();
  await app.saved();
  assert.equal(await page.getByTestId('set-select').count(), 0, 'nothing comes back after forget');
  await app.load(files());
  await page.getByTestId('review-start-hint').waitFor();
  await page.getByTestId('import-input').setInputFiles(join(dir, 'review.json'));
  await page.getByTestId('merge-report').filter({ hasText: '4 added, 0 identical, 0 conflicting' }).waitFor();
  await app.saved();
  assert.equal(await app.download('export-json'), exported);

  // A conflicting import: change item 1 here, import the file again, take the imported scores.
  await app.unfocus();
  while (await app.position() !== 'Item 1 of 6') await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('1');
  await page.getByTestId('import-input').setInputFiles(join(dir, 'review.json'));
  await page.getByTestId('conflicts').waitFor();
  assert.match(await page.getByTestId('conflicts').innerText(), new RegExp(`${keys[0]}: yours 1 · imported 3`));
  await page.getByTestId('take-theirs').click();
  assert.equal(await app.pressed(), '3');
  assert.equal(await app.download('export-json'), exported);

  // A bad import: located error, work kept.
  await page.getByTestId('import-input').setInputFiles(join(dir, 'bad-review.csv'));
  const panel = page.getByTestId('error-panel').filter({ hasText: 'Import failed' });
  await panel.waitFor();
  assert.match(await panel.innerText(), /bad-review\.csv: line 2, field "score": expected a whole number 0-4, found "9"/);
  assert.equal(await app.pressed(), '3');

  // Process judge outputs: per-hop R, D, K.
  const processName = (await page.getByTestId('set-select').locator('option').nth(1).getAttribute('value'));
  await page.getByTestId('set-select').selectOption(processName);
  await page.getByTestId('sample-n').fill('');
  await page.getByTestId('sample-stratify').selectOption('');
  await page.getByTestId('draw-sample').click();
  assert.equal(await app.position(), 'Item 1 of 12');
  await page.getByTestId('hop-0-r').fill('1');
  await page.getByTestId('hop-0-d').fill('0.5');
  await page.getByTestId('hop-0-k').selectOption('1');
  await page.getByTestId('hop-1-r').fill('0.4');
  await page.getByTestId('hop-1-d').fill('0.5');
  await page.getByTestId('hop-1-k').selectOption('1');
  // Judge hops (1, .5, 1) and (.8, .5, 0): R exact 1/2, MAD 0.2; D exact 2/2; K exact 1/2.
  assert.deepEqual((await app.agreementRow('r')).slice(0, 3), ['2', '50.0%', '0.200']);
  assert.deepEqual((await app.agreementRow('d')).slice(0, 3), ['2', '100.0%', '0.000']);
  assert.deepEqual((await app.agreementRow('k')).slice(0, 3), ['2', '50.0%', '0.500']);
  await app.saved();
  await page.reload();
  await page.getByTestId('hop-1-r').waitFor();
  assert.equal(await page.getByTestId('hop-1-r').inputValue(), '0.4');
  assert.equal(await page.getByTestId('hop-1-k').inputValue(), '1');
  await app.screenshot('review-process-1280-light');

  // Back to the holistic set: its review is still there.
  await page.getByTestId('set-select').selectOption({ index: 0 });
  assert.equal(await app.position(), 'Item 1 of 6');
  for (const [scheme, width] of [['dark', 1280], ['light', 390], ['dark', 390]]) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.setViewportSize({ width, height: 800 });
    await app.screenshot(`review-${width}-${scheme}`);
  }
  assert.deepEqual(errors, []);
  await context.close();
});

test('review: MM-IQ predictions with the key and a KiVA run are reviewable sets', async () => {
  const key = '/work/shared/data/mmiq/MMIQ_benchmark_answer_dict.jsonl';
  const preds = '/work/shared/data/mmiq/example_output_parsed.jsonl';
  const run = '/work/shared/data/kiva/model_data/KiVA/gpt4_multi_image/output_Colour/ColourRed.csv';
  const { page, context, errors } = await newPage(env.browser);
  const app = new ReviewPage(page, env.base);
  await app.goto('/review');
  await app.load([key, preds, run]);
  const options = await page.getByTestId('set-select').locator('option').allInnerTexts();
  assert.ok(options.some((o) => /· KiVA ColourRed · ColourRed\.csv \(\d+ items, 1 right \/ 0 wrong\)$/.test(o)),
    options.join('\n'));
  const mmiq = options.findIndex((o) => /MM-IQ · example_output_parsed\.jsonl \(100 items/.test(o));
  assert.ok(mmiq >= 0, options.join('\n'));
  await page.getByTestId('set-select').selectOption({ index: mmiq });
  // Ten items stratified by category; agree with the extraction on each: exact match 100%.
  await page.getByTestId('sample-n').fill('10');
  await page.getByTestId('sample-stratify').selectOption('category');
  await page.getByTestId('draw-sample').click();
  assert.equal(await app.position(), 'Item 1 of 10');
  const lines = (await readFile(preds, 'utf8')).trim().split('\n').map((l) => JSON.parse(l));
  const keyLines = (await readFile(key, 'utf8')).trim().split('\n').map((l) => JSON.parse(l));
  const answer = new Map(keyLines.map((k) => [String(k.data_id), k.answer]));
  const parsed = new Map(lines.map((p) => [String(p.data_id), p.parsed_pred]));
  let agree = 0;
  for (let i = 0; i < 10; i++) {
    const id = await app.itemKey();
    const right = parsed.get(id) === answer.get(id);
    assert.equal(await page.getByTestId('judge-score').innerText(), right ? '1 (right)' : '0 (wrong)');
    // Agree on the first seven, disagree on the last three.
    const mine = i < 7 ? right : !right;
    if (mine === right) agree++;
    // A key score moves on to the next item ("advance after a key score", on by default).
    await page.keyboard.press(mine ? '1' : '0');
  }
  assert.deepEqual((await app.agreementRow('right')).slice(0, 3), ['10', `${(agree * 10).toFixed(1)}%`,
    ((10 - agree) / 10).toFixed(3)]);
  await app.saved();
  assert.deepEqual(errors, []);
  await context.close();
});

test('defect 14: score and advance, keyboard scoring on the process set, why pairs < reviewed, the storage line', async () => {
  const d = await mkdtemp(join(tmpdir(), 'coglab-review14-'));
  await writeOperaFiles(d);
  // Item ria_002's judge verdict is unusable (no score): reviewed, but not a pair.
  const regular = JSON.parse(await readFile(join(d, 'gpt-4o_RIA_regular_scoring.json'), 'utf8'));
  regular.ria_002.score_judge = 'N/A';
  await writeFile(join(d, 'gpt-4o_RIA_regular_scoring.json'), JSON.stringify(regular, null, 1));
  const paths = ['metadata.json', 'gpt-4o_RIA_results.json', 'gpt-4o_RIA_regular_scoring.json',
    'gpt-4o_RIA_reasoning_scoring.json'].map((f) => join(d, f));
  const { page, context, errors } = await newPage(env.browser);
  const app = new ReviewPage(page, env.base);
  await app.goto('/review');
  await app.load(paths);
  // All 12 items (no sample size): a digit scores and moves on.
  await page.getByTestId('draw-sample').click();
  assert.equal(await app.position(), 'Item 1 of 12');
  assert.equal(await page.getByTestId('auto-advance').isChecked(), true);
  await app.unfocus();
  for (const [i, score] of [[1, '3'], [2, '2'], [3, '4']]) {
    assert.equal(await app.position(), `Item ${i} of 12`);
    await page.keyboard.press(score);
    await page.getByTestId('review-pos').filter({ hasText: `Item ${i + 1} of 12` }).waitFor();
  }
  await page.keyboard.press('ArrowLeft');
  assert.equal(await app.pressed(), '4', 'the score stayed on the item scored');
  // ria_002 was reviewed but its judge verdict is unusable: 3 reviewed, 2 pairs, and why.
  assert.match(await page.getByTestId('agree-reviewed').innerText(), /^3 of 12/);
  assert.equal(await page.getByTestId('agree-score-n').innerText(), '2');
  assert.match(await page.getByTestId('agree-unpaired').innerText(), /1 reviewed item has no usable judge verdict/);
  await app.screenshot('defect14-review-pairs-1280-light');
  // The process set: A takes the judge's R / D / K for every hop, and moves on.
  await page.getByTestId('set-select').selectOption({ index: 1 });
  await page.getByTestId('draw-sample').click();
  await page.getByTestId('hops').waitFor();
  const first = await app.itemKey();
  await app.unfocus();
  await page.keyboard.press('a');
  await page.waitForFunction((k) => document.querySelector('[data-testid=item-key]')?.textContent !== `Item ${k}`, first);
  await page.keyboard.press('ArrowLeft');
  assert.equal(await app.itemKey(), first);
  assert.equal(await page.getByTestId('hop-0-r').inputValue(), '1');
  assert.equal(await page.getByTestId('hop-0-d').inputValue(), '0.5');
  assert.equal(await page.getByTestId('hop-1-r').inputValue(), '0.8');
  assert.equal(await page.getByTestId('hop-1-k').inputValue(), '0');
  // The storage line names the user's data apart from the app's offline copy.
  await app.saved();
  const line = page.getByTestId('storage-line');
  await line.waitFor();
  assert.match(await line.innerText(), /^Your files, scores and notes: /);
  await page.setViewportSize({ width: 390, height: 800 });
  await page.emulateMedia({ colorScheme: 'dark' });
  await app.screenshot('defect14-review-process-390-dark');
  assert.deepEqual(errors, []);
  await context.close();
  await rm(d, { recursive: true, force: true });
});
