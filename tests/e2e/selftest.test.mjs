// End-to-end: the KiVA self-test. A short session answered by keyboard with a reload halfway,
// the exported CSV checked against the answers given, and screenshots of every stage and of the
// results (light 1280 and dark phone width).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { existsSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { start, newPage, App, ROOT } from './support.mjs';

const KIVA = join(ROOT, '../shared/data/kiva');
const HAVE_KIVA = existsSync(join(KIVA, 'stimuli/KiVA')) && existsSync(join(KIVA, 'trial_tracker/KiVA'));
if (!HAVE_KIVA && process.env.CI === 'true') throw new Error(`${KIVA} is missing (required under CI=true)`);
const trialFiles = () => (HAVE_KIVA
  ? readdirSync(join(KIVA, 'trial_tracker/KiVA')).map((f) => join(KIVA, 'trial_tracker/KiVA', f)) : []);

let env;
before(async () => { env = await start(); });
after(async () => { await env?.close(); });

// The right stage-1 and stage-2 wordings of each KiVA subdomain (KiVA repository's texts).
const WHAT = { '2DRotation': 'Orientation of objects', Reflect: 'Orientation of objects',
  Colour: 'Color of objects', Counting: 'Number of objects', Resize: 'Size of objects' };
const HOW = { '2DRotation+90': 'Objects rotate by 90 degrees', '2DRotation-90': 'Objects rotate by 90 degrees',
  '2DRotation180': 'Objects rotate by 180 degrees', ColourRed: 'Objects turn Red', ColourGreen: 'Objects turn Green',
  ColourBlue: 'Objects turn Blue', 'Counting+1': 'Things go up by 1', 'Counting+2': 'Things go up by 2',
  'Counting-1': 'Things go down by 1', 'Counting-2': 'Things go down by 2', ReflectX: 'Objects flip upside down',
  ReflectY: 'Objects flip sideways', 'Resize0.5XY': 'Objects become smaller', 'Resize2XY': 'Objects become bigger' };
const domainOf = (s) => Object.keys(WHAT).find((d) => s.startsWith(d));

/** Page-object helpers for the runner. */
class Runner {
  constructor(page) { this.page = page; }
  trial() { return this.page.getByTestId('trial'); }
  /** Waits for a question whose stimulus onset has been taken; returns its state. */
  async current() {
    const t = this.page.locator('[data-testid=trial][data-ready=true]');
    await t.waitFor();
    const options = await t.getByTestId('option').allInnerTexts();
    return {
      trial: Number(await t.getAttribute('data-trial')),
      stage: Number(await t.getAttribute('data-stage')),
      subdomain: await t.getAttribute('data-subdomain'),
      options: options.map((o) => o.replace(/^\(\d\)\s*/, '')),
    };
  }
  async press(key) {
    const before = await this.trial().evaluate((el) => `${el.dataset.trial}/${el.dataset.stage}`);
    await this.page.keyboard.press(key);
    // Wait until the question changed (or the results appeared).
    await this.page.waitForFunction((b) => {
      const el = document.querySelector('[data-testid=trial]');
      return !el || `${el.dataset.trial}/${el.dataset.stage}` !== b;
    }, before);
  }
}

/** Decodes a data: URL's text. */
const dataText = (href) => decodeURIComponent(href.slice(href.indexOf(',') + 1));

test('a short session by keyboard, resumed after a reload, exports the answers given', async () => {
  const { page, context, errors } = await newPage(env.browser);
  const app = new App(page, env.base);
  await app.goto('/self-test');
  await page.getByTestId('kind').selectOption('short');
  await page.getByTestId('seed').fill('4242');
  await page.getByTestId('participant').fill('e2e-person');
  await app.screenshot('selftest-start');
  await page.getByTestId('start').click();
  const run = new Runner(page);
  // expected[`${variation}|${task}`] = score, for stages 1 and 2; stage 3 letter pressed.
  const expected = new Map();
  const letters = new Map();
  const shots = new Set();
  let reloaded = false;
  for (;;) {
    if (await page.getByTestId('results').count()) break;
    const q = await run.current();
    if (!shots.has(q.stage)) { shots.add(q.stage); await app.screenshot(`selftest-stage${q.stage}`); }
    if (q.trial === 5 && q.stage === 1 && !reloaded) {
      // Reload halfway: the session resumes at the same question.
      reloaded = true;
      await page.reload();
      const again = await run.current();
      assert.equal(again.trial, 5);
      assert.equal(again.stage, 1);
    }
    if (q.stage === 1) {
      const right = WHAT[domainOf(q.subdomain)];
      const wantRight = q.trial % 2 === 1;
      const idx = wantRight ? q.options.indexOf(right) : q.options.findIndex((o, i) => i < 3 && o !== right);
      assert.ok(idx >= 0, `${q.subdomain}: ${q.options}`);
      expected.set(`${q.trial}|Cross Domain`, wantRight ? 1 : 0);
      await run.press(String(idx + 1));
    } else if (q.stage === 2) {
      assert.equal(q.trial % 2, 1, 'stage 2 only after a right stage 1');
      const idx = q.options.indexOf(HOW[q.subdomain]);
      assert.ok(idx >= 0 && idx < 2, `${q.subdomain}: ${q.options}`);
      expected.set(`${q.trial}|Within Domain`, 1);
      await run.press(String(idx + 1));
    } else {
      const letter = q.trial % 3 === 0 ? 'D' : 'A';
      letters.set(q.trial, letter);
      await run.press(letter.toLowerCase());
    }
  }
  assert.ok(reloaded);
  await page.getByTestId('results-table').waitFor();
  await page.getByTestId('rt-table').waitFor();
  await page.getByTestId('selftest-chart').waitFor();
  await app.screenshot('selftest-results');
  // The chart's stage picker redraws without errors.
  await page.getByRole('radio', { name: 'Apply to a new object' }).check();
  await app.screenshot('selftest-results-apply');
  const csv = dataText(await page.getByTestId('export-csv').getAttribute('href'));
  const json = JSON.parse(dataText(await page.getByTestId('export-json').getAttribute('href')));
  // Kept for reading back with the CLI: coglab score kiva <tmp>/coglab-selftest-e2e.csv
  const csvFile = join(tmpdir(), 'coglab-selftest-e2e.csv');
  await writeFile(csvFile, csv);
  const cli = process.env.COGLAB_CLI;
  if (cli) {
    // Round trip: the CLI reads the export as a participant of KiVA's human data, and its
    // overall figures are the ones the page shows (row "All domains", column "You").
    const { execFileSync } = await import('node:child_process');
    const out = JSON.parse(execFileSync(cli, ['score', 'kiva', csvFile, '--json']).toString());
    assert.equal(out.rows.trials, 10);
    const rows = page.locator('[data-testid=results-table] tbody tr');
    const fmt = (m) => `${(m.mean * 100).toFixed(1)}% ± ${(m.se * 100).toFixed(1)}`;
    for (const [k, key] of [[0, 'cross'], [1, 'within_conditional'], [2, 'extrapolation']]) {
      const you = (await rows.nth(15 + k).locator('td').nth(1).innerText()).trim();
      assert.equal(you, fmt(out.overall[key]), key);
    }
  }
  const lines = csv.trim().split('\n');
  assert.equal(lines[0], 'ParticipantID,Transformation,Variation,Task,Score,Reaction Time');
  // 10 trials: 5 with three rows (right stage 1), 5 with two (stage 2 skipped).
  assert.equal(lines.length - 1, 5 * 3 + 5 * 2);
  for (const line of lines.slice(1)) {
    const [pid, sub, variation, task, score, rt] = line.split(',');
    assert.equal(pid, 'e2e-person');
    const v = Number(variation);
    assert.equal(json.trials[v - 1].trial.subdomain, sub);
    assert.ok(Number(rt) >= 0 && Number.isInteger(Number(rt)), line);
    if (task === 'Extrapolation') {
      const letter = letters.get(v);
      const kinds = json.trials[v - 1].trial.test_kinds;
      const want = letter === 'D' ? 0 : (kinds[0] === 'correct' ? 1 : 0);
      assert.equal(Number(score), want, line);
    } else {
      assert.equal(Number(score), expected.get(`${v}|${task}`), line);
    }
  }
  // Round trip through the leaderboard: the downloaded CSV dropped on the KiVA tab is a
  // participant row whose figures are the results page's (domain x stage, same mean).
  const you = await page.locator('[data-testid=results-table] td.you[data-value]').evaluateAll(
    (tds) => tds.map((td) => [td.dataset.domain, td.dataset.stage, Number(td.dataset.value)]));
  // 5 domains and all domains x 3 questions, less any domain whose stage 2 was never asked.
  assert.ok(you.length >= 15 && you.length <= 18, `${you.length} figures`);
  const [dl] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-csv').click()]);
  assert.equal(dl.suggestedFilename(), 'kiva-selftest-short-4242.csv');
  const downloaded = join(tmpdir(), dl.suggestedFilename());
  await dl.saveAs(downloaded);
  await app.goto('/leaderboard?b=kiva');
  await page.getByTestId('file-input').setInputFiles(downloaded);
  await page.getByTestId('lb-score').click();
  // A person is a reference row, not ranked among the models (issue 42, defect 15).
  const prow = page.locator('[data-testid=kiva-baseline-row][data-model="e2e-person (self-test)"]');
  await prow.waitFor();
  assert.equal(await prow.locator('td[data-rank]').count(), 0, 'the participant has no rank');
  // Leaderboard cells are named "<domain>/<stage key>" (data-col), with the value in data-value.
  const lb = await prow.locator('td[data-value]').evaluateAll(
    (tds) => tds.map((td) => [...td.dataset.col.split('/'), Number(td.dataset.value)]));
  assert.ok(lb.length >= 12, `${lb.length} leaderboard figures`);
  for (const [d, st, v] of lb) {
    const mine = you.find(([d2, s2]) => d2 === d && s2 === st);
    assert.ok(mine, `${d} ${st} on the results page`);
    assert.ok(Math.abs(mine[2] - v) < 1e-12, `${d} ${st}: ${mine[2]} vs ${v}`);
  }
  await app.screenshot('selftest-leaderboard-participant');
  // The session is listed, with its results, and can be deleted.
  await app.goto('/self-test');
  const sessions = page.getByTestId('sessions');
  await sessions.getByText('10 of 10 trials').waitFor();
  await sessions.getByTestId('delete-session').click();
  await page.getByText('No sessions yet.').waitFor();
  assert.deepEqual(errors, []);
  await context.close();
});

test('dark mode at phone width: a stage and the results', async () => {
  const { page, context, errors } = await newPage(env.browser,
    { colorScheme: 'dark', viewport: { width: 390, height: 844 } });
  const app = new App(page, env.base);
  await app.goto('/self-test?kind=domain:Colour&seed=7');
  const run = new Runner(page);
  let q = await run.current();
  await app.screenshot('selftest-dark-phone-stage1');
  let shot3 = false;
  for (;;) {
    if (await page.getByTestId('results').count()) break;
    q = await run.current();
    if (q.stage === 3 && !shot3) { shot3 = true; await app.screenshot('selftest-dark-phone-stage3'); }
    await run.press(q.stage === 3 ? 'b' : '1');
  }
  await page.getByTestId('results-table').waitFor();
  await app.screenshot('selftest-dark-phone-results');
  assert.deepEqual(errors, []);
  await context.close();
});

test('a bad session link shows a located error', async () => {
  const { page, context, errors } = await newPage(env.browser);
  const app = new App(page, env.base);
  await app.goto('/self-test?kind=kiva&seed=abc');
  await page.getByTestId('error-panel').getByText('seed "abc": expected a whole number').waitFor();
  assert.deepEqual(errors, []);
  await context.close();
});

/** Every image of the question on screen: [src, naturalWidth]. */
// The images on screen (a copy laid out for phones only is hidden at desktop width).
const images = (page) => page.locator('[data-testid=trial] img').evaluateAll(
  (imgs) => imgs.filter((i) => i.offsetParent !== null).map((i) => [i.getAttribute('src'), i.naturalWidth]));

test("KiVA's own images: the real folder and trial files, two trials by keyboard, resumed after a reload",
  { skip: !HAVE_KIVA && `${KIVA} absent` }, async () => {
    const { page, context, errors } = await newPage(env.browser);
    const app = new App(page, env.base);
    await app.goto('/self-test');
    await page.getByTestId('seed').fill('77');
    await page.getByTestId('participant').fill('e2e-images');
    // A folder without the KiVA layout (the trial files' folder): a located error, nothing starts.
    await page.getByTestId('stimuli-folder').setInputFiles(join(KIVA, 'trial_tracker/KiVA'));
    await page.getByTestId('stimuli-start').click();
    const panel = page.getByTestId('stimuli').getByTestId('error-panel');
    await panel.waitFor();
    assert.match(await panel.textContent(),
      /none of the 14 picked files is a KiVA stimulus image: expected <Domain>\/<Subdomain>_<variation>_<role>\.png/);
    // The images without their trial files: the error names the file to add.
    await page.getByTestId('stimuli-folder').setInputFiles(join(KIVA, 'stimuli'));
    await page.getByTestId('stimuli-start').click();
    await panel.getByText(/pick its trial file output_.*\.txt/).waitFor();
    await app.screenshot('selftest-stimuli-error');
    await page.getByTestId('stimuli-trials').setInputFiles(trialFiles());
    await page.getByTestId('stimuli-start').click();
    await page.waitForURL(/kind=stimuli&seed=77/);
    const run = new Runner(page);
    const seen = [];
    for (let n = 0; n < 2; n++) {
      let q = await run.current();
      assert.equal(q.trial, n + 1);
      // The given pair and the question are KiVA's images, loaded from object URLs.
      const imgs = await images(page);
      assert.equal(imgs.length, 2);
      for (const [src, w] of imgs) { assert.match(src, /^blob:/); assert.ok(w > 0, 'image drawn'); }
      if (n === 0) await app.screenshot('selftest-stimuli-stage1');
      seen.push(q.subdomain);
      await run.press(String(q.options.indexOf(WHAT[domainOf(q.subdomain)]) + 1));
      q = await run.current();
      assert.equal(q.stage, 2);
      await run.press(String(q.options.indexOf(HOW[q.subdomain]) + 1));
      q = await run.current();
      assert.equal(q.stage, 3);
      // Stage 3: the new object before and after in (A)-(C), six images plus the given two.
      const all = await images(page);
      assert.equal(all.length, 8);
      for (const [src, w] of all) { assert.match(src, /^blob:/); assert.ok(w > 0); }
      if (n === 0) await app.screenshot('selftest-stimuli-stage3');
      await run.press('a');
    }
    // Two trials saved, with the images' variation numbers (0-9) and subdomains.
    const saved = await page.evaluate(() => JSON.parse(localStorage.getItem('coglab.selftest.v1')));
    const rec = saved.find((r) => r.id === 'stimuli|77');
    assert.equal(rec.participant, 'e2e-images');
    assert.equal(rec.responses.filter((r) => r.extrapolation).length, 2);
    assert.ok(rec.responses[0].cross.rt_ms > 0);
    // A reload keeps the answers; picking the folder again resumes at trial 3.
    await page.reload();
    await page.getByTestId('stimuli-needed').getByText('2 of 14 trials answered').waitFor();
    await page.getByTestId('stimuli-folder').setInputFiles(join(KIVA, 'stimuli'));
    await page.getByTestId('stimuli-trials').setInputFiles(trialFiles());
    await page.getByTestId('stimuli-start').click();
    const q = await run.current();
    assert.equal(q.trial, 3);
    assert.equal(q.stage, 1);
    assert.ok(!seen.includes(q.subdomain), 'one trial per subdomain');
    await page.setViewportSize({ width: 390, height: 844 });
    await app.screenshot('selftest-stimuli-phone');
    assert.deepEqual(errors, []);
    await context.close();
  });
