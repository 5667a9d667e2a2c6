// End-to-end: the leaderboard's staging step and what outlives a reload. A staged file's format
// is a real choice (a KiVA run renamed .txt is not recognised until "KiVA model run" is chosen;
// predictions read as a KiVA human file fail with a located error) and the model name is
// guessed from the file name; scored files are kept in this browser (IndexedDB) and re-scored
// on reload with the same numbers, until forgotten; the selected models live in the URL; the
// KiVA model page. Numbers are compared with the coglab CLI's JSON on the same files.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { start, newPage, App, ROOT, SHOTS, cli } from './support.mjs';

const DATA = process.env.COGLAB_DATA ?? join(ROOT, '../shared/data');
const HAVE_DATA = existsSync(DATA);
const KEY = join(DATA, 'mmiq/MMIQ_benchmark_answer_dict.jsonl');
const PREDS = join(DATA, 'mmiq/example_output_parsed.jsonl');
const GPT4 = join(DATA, 'kiva/model_data/KiVA/gpt4_multi_image');
const MANTIS = join(DATA, 'kiva/model_data/KiVA/mantis_multi_image');
const skip = !HAVE_DATA && `${DATA} absent`;


const close = (a, b) => Math.abs(a - b) < 1e-9;
/** Same columns, equal values up to rounding (restored files are summed in another order). */
function sameCells(got, want) {
  assert.deepEqual(Object.keys(got).sort(), Object.keys(want).sort());
  for (const [k, v] of Object.entries(want)) assert.ok(close(got[k], v), `${k}: ${got[k]} vs ${v}`);
}

/** Page-object helpers for the staging step. */
class Staging {
  constructor(page) { this.page = page; }
  async stage(paths, n = paths.length, input = 'file-input') {
    await this.page.getByTestId(input).setInputFiles(paths);
    await this.page.waitForFunction((k) => document.querySelectorAll('[data-testid=staged-row]').length >= k, n);
  }
  row(pathEnd) { return this.page.locator(`[data-testid=staged-row][data-path$="${pathEnd}"]`); }
  async score() { await this.page.getByTestId('lb-score').click(); }
  /** data-value of a computed row's cells, by data-col. */
  async cells(kind, model) {
    return Object.fromEntries(await this.page.locator(`[data-testid=${kind}-computed-row][data-model="${model}"] td[data-value]`)
      .evaluateAll((tds) => tds.map((td) => [td.dataset.col, Number(td.dataset.value)])));
  }
}

let env;
before(async () => { env = await start(); });
after(async () => { await env?.close(); });

test('staged files: the format is a choice, the model name is guessed from the file name',
  { skip }, async () => {
    const { page, context, errors } = await newPage(env.browser);
    const app = new App(page, env.base);
    const st = new Staging(page);
    await app.goto('/leaderboard?b=kiva');
    // A KiVA run renamed .txt inside its model folder: not recognised by its name.
    const dir = mkdtempSync(join(tmpdir(), 'coglab-staging-'));
    mkdirSync(join(dir, 'renamed_run/output_Colour'), { recursive: true });
    copyFileSync(join(GPT4, 'output_Colour/ColourRed.csv'), join(dir, 'renamed_run/output_Colour/ColourRed.txt'));
    const preds = join(dir, 'gpt-4o_MMIQ_preds.jsonl');
    copyFileSync(PREDS, preds);
    await st.stage([join(dir, 'renamed_run/output_Colour/ColourRed.txt'), preds]);
    const txt = st.row('ColourRed.txt');
    assert.equal(await txt.getAttribute('data-kind'), 'Unknown');
    assert.equal(await txt.locator('[data-testid=staged-model]').inputValue(), 'ColourRed');
    assert.equal(await st.row('gpt-4o_MMIQ_preds.jsonl').locator('[data-testid=staged-model]').inputValue(), 'gpt-4o');
    // Every format the leaderboard scores is offered, score matrices, MM-OPERA and other
    // harnesses' files (issue 24) included.
    const options = await txt.locator('[data-testid=staged-kind] option').evaluateAll((os) => os.map((o) => o.value));
    assert.deepEqual(options, ['unknown', 'mmiq_key', 'mmiq_predictions', 'mmiq_table', 'mmiq_acc',
      'kiva_run', 'kiva_human', 'mmopera', 'score_matrix', 'harness']);
    await txt.locator('[data-testid=staged-kind]').selectOption('kiva_run');
    await txt.locator('[data-testid=staged-model]').fill('renamed_run');
    await txt.locator('[data-testid=staged-model]').dispatchEvent('change');
    await st.row('gpt-4o_MMIQ_preds.jsonl').locator('[data-testid=staged-kind]').selectOption('kiva_human');
    await app.screenshot('staging-formats-light');
    await st.score();
    // Read as a KiVA run, it scores like the CLI on the .csv.
    await page.locator('[data-testid=kiva-computed-row][data-model=renamed_run]').waitFor();
    const kv = cli(['score', 'kiva', join(GPT4, 'output_Colour/ColourRed.csv'), '--json']);
    const cells = await st.cells('kiva', 'renamed_run');
    assert.ok(close(cells['All/cross'], kv.overall.cross.mean), `${cells['All/cross']} vs ${kv.overall.cross.mean}`);
    assert.ok(close(cells['Colour/extrapolation'], kv.by_domain.Colour.extrapolation.mean));
    // Read as KiVA human data, the predictions fail with a located error saying what was chosen.
    const panel = page.getByTestId('error-panel').filter({ hasText: 'gpt-4o_MMIQ_preds.jsonl' });
    await panel.waitFor();
    assert.match(await panel.innerText(), /read as KiVA adult human data, as chosen; its content was detected as MM-IQ predictions/);
    assert.deepEqual(errors, []);
    await context.close();
  });

test('scored files are kept in this browser: reload re-scores them with the same numbers; defect 13: "Forget these files" asks first',
  { skip }, async () => {
    const { page, context, errors } = await newPage(env.browser);
    const app = new App(page, env.base);
    const st = new Staging(page);
    await app.goto('/leaderboard');
    await st.stage([KEY, PREDS]);
    await st.score();
    const mrow = page.locator('[data-testid=mmiq-computed-row][data-model=example]');
    await mrow.waitFor();
    const mmiqBefore = await st.cells('mmiq', 'example');
    const want = cli(['score', 'mmiq', '--answers', KEY, PREDS, '--json']);
    assert.ok(close(mmiqBefore.mean, want.overall.accuracy));
    await page.getByTestId('tab-kiva').click();
    await st.stage(GPT4, 14, 'folder-input');
    await st.score();
    const krow = page.locator('[data-testid=kiva-computed-row][data-model=gpt4_multi_image]');
    await krow.waitFor();
    const kivaBefore = await st.cells('kiva', 'gpt4_multi_image');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=kept-file]').length === 16);

    // Reload: the 16 files come back from IndexedDB, are scored again in the worker, and the
    // rows have the same numbers.
    await page.reload();
    await page.getByTestId('main-nav').waitFor();
    await krow.waitFor();
    sameCells(await st.cells('kiva', 'gpt4_multi_image'), kivaBefore);
    assert.match(await page.getByTestId('lb-kept-count').innerText(),
      /^16 files kept in this browser \(16 scored again from this browser's storage\)/);
    await page.getByTestId('tab-mmiq').click();
    await mrow.waitFor();
    sameCells(await st.cells('mmiq', 'example'), mmiqBefore);
    const statuses = await page.locator('[data-testid=lb-files] li').allTextContents();
    assert.equal(statuses.length, 16);
    assert.ok(statuses.every((t) => t.includes("from this browser's storage")), statuses.join('\n'));
    await app.screenshot('staging-restored-light');

    // Remove one file: the predictions go (and their row), the rest is scored again.
    await page.getByTestId('lb-kept').locator('summary').click();
    await page.locator('[data-testid=kept-file][data-path="example_output_parsed.jsonl"] button').click();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=kept-file]').length === 15);
    await mrow.waitFor({ state: 'detached' });
    await page.getByTestId('tab-kiva').click();
    await krow.waitFor();
    sameCells(await st.cells('kiva', 'gpt4_multi_image'), kivaBefore);

    // Forget all (issue 26, defect 13): the button asks first; "Keep them" keeps everything.
    await page.getByTestId('lb-forget').click();
    await page.getByTestId('lb-forget-ask').waitFor();
    assert.match(await page.getByTestId('lb-forget-ask').innerText(), /Forget all 15 kept files\?/);
    await page.getByTestId('lb-forget-keep').click();
    await page.getByTestId('lb-forget-ask').waitFor({ state: 'detached' });
    assert.equal(await krow.count(), 1);
    assert.equal(await page.locator('[data-testid=kept-file]').count(), 15);
    // Confirmed: rows and kept files gone, and still gone after a reload.
    await page.getByTestId('lb-forget').click();
    await page.getByTestId('lb-forget-confirm').click();
    await krow.waitFor({ state: 'detached' });
    assert.equal(await page.getByTestId('lb-kept').count(), 0);
    await page.reload();
    await page.getByTestId('main-nav').waitFor();
    await page.locator('[data-testid=kiva-reported-row]').first().waitFor();
    await page.waitForTimeout(1000);
    assert.equal(await page.locator('[data-testid=kiva-computed-row]').count(), 0);
    assert.equal(await page.getByTestId('lb-kept').count(), 0);
    assert.deepEqual(errors, []);
    await context.close();
  });

test('the model page and the compared models live in the URL and survive a reload',
  { skip }, async () => {
    const { page, context, errors } = await newPage(env.browser);
    const app = new App(page, env.base);
    const st = new Staging(page);
    await app.goto('/leaderboard');
    // A second model: always answers "A".
    const dir = mkdtempSync(join(tmpdir(), 'coglab-url-'));
    const allA = join(dir, 'allA_output.jsonl');
    writeFileSync(allA, readFileSync(PREDS, 'utf8').trim().split('\n')
      .map((l) => JSON.stringify({ data_id: JSON.parse(l).data_id, response: 'The answer is A.' }))
      .join('\n') + '\n');
    await st.stage([KEY, PREDS, allA]);
    await st.score();
    await page.locator('[data-testid=mmiq-computed-row][data-model=allA]').waitFor();
    await page.getByTestId('compare-table').waitFor();
    await page.getByTestId('model-pick').selectOption({ label: 'allA' });
    await page.waitForURL(/model=allA/);
    await page.getByTestId('compare-a').selectOption({ label: 'allA' });
    await page.getByTestId('compare-b').selectOption({ label: 'example' });
    await page.waitForURL(/cmp=allA%2Cexample/);
    await page.getByTestId('compare-stats').waitFor();
    const cmp = cli(['compare', 'mmiq', '--answers', KEY, allA, PREDS, '--json', '--resamples', '2000', '--seed', '1']);
    const cells = async () => (await page.getByTestId('compare-table').locator('td').allInnerTexts()).map(Number);
    await page.waitForFunction((want) => {
      const t = [...document.querySelectorAll('[data-testid=compare-table] td')].map((td) => Number(td.textContent));
      return JSON.stringify(t) === JSON.stringify(want);
    }, [cmp.table.both_correct, cmp.table.first_only, cmp.table.second_only, cmp.table.both_wrong]);
    const url = page.url();

    // Reload (and open the shared URL in a fresh page of the same browser profile): the kept
    // files are scored again, then the URL's models are selected.
    await page.reload();
    await page.getByTestId('main-nav').waitFor();
    await page.locator('[data-testid=mmiq-computed-row][data-model=allA]').waitFor();
    const selectedLabel = (id) => page.getByTestId(id).evaluate((s) => s.selectedOptions[0]?.textContent);
    await page.waitForFunction(() => document.querySelector('[data-testid=model-pick]')?.selectedOptions[0]?.textContent === 'allA');
    assert.equal(await selectedLabel('compare-a'), 'allA');
    assert.equal(await selectedLabel('compare-b'), 'example');
    await page.waitForFunction((want) => {
      const t = [...document.querySelectorAll('[data-testid=compare-table] td')].map((td) => Number(td.textContent));
      return JSON.stringify(t) === JSON.stringify(want);
    }, [cmp.table.both_correct, cmp.table.first_only, cmp.table.second_only, cmp.table.both_wrong]);
    assert.deepEqual(await cells(), [cmp.table.both_correct, cmp.table.first_only, cmp.table.second_only, cmp.table.both_wrong]);
    assert.equal(page.url(), url);
    const other = await context.newPage();
    await other.goto(url);
    await other.locator('[data-testid=mmiq-computed-row][data-model=allA]').waitFor();
    await other.waitForFunction(() => document.querySelector('[data-testid=compare-a]')?.selectedOptions[0]?.textContent === 'allA');
    await other.close();
    assert.deepEqual(errors, []);
    await context.close();
  });

test('KiVA model page: trials by stage against the CLI; the comparison follows the "how" switch',
  { skip }, async () => {
    const { page, context, errors } = await newPage(env.browser);
    const app = new App(page, env.base);
    const st = new Staging(page);
    await app.goto('/leaderboard?b=kiva');
    await st.stage(GPT4, 14, 'folder-input');
    await st.score();
    await page.locator('[data-testid=kiva-computed-row][data-model=gpt4_multi_image]').waitFor();
    await st.stage(MANTIS, 14, 'folder-input');
    await st.score();
    await page.locator('[data-testid=kiva-computed-row][data-model=mantis_multi_image]').waitFor();
    const trials = page.getByTestId('kiva-trials');
    await trials.getByTestId('trial-count').waitFor().catch(async (e) => { console.log(await trials.innerText()); throw e; });
    assert.equal(await trials.getByTestId('trial-count').innerText(), 'Trials 1–200 of 700');
    const kv = cli(['score', 'kiva', GPT4, '--json', '--trials']);
    const pm = (m) => `${(100 * m.mean).toFixed(1)} ± ${(100 * m.se).toFixed(1)}`;
    const summaryRow = async (d) => trials.locator(`[data-testid=trial-summary] tr[data-domain="${d}"] td`).allInnerTexts();
    for (const d of Object.keys(kv.by_domain)) {
      const cells = await summaryRow(d);
      const b = kv.by_domain[d];
      assert.deepEqual(cells.slice(0, 3), [pm(b.cross), pm(b.within_conditional), pm(b.extrapolation)], d);
      // Trials counted right: stage score above one half (the page's stated rule).
      const ts = kv.trials.filter((t) => t.domain === d);
      const right = (k) => ts.filter((t) => t[k] != null && t[k] > 0.5).length;
      const n = (k) => ts.filter((t) => t[k] != null).length;
      assert.equal(cells[3], `${right('cross')} of ${n('cross')} · ${right('within_conditional')} of ${n('within_conditional')} · ${right('extrapolation')} of ${n('extrapolation')}`, d);
    }
    assert.deepEqual((await summaryRow('All')).slice(0, 3), [pm(kv.overall.cross), pm(kv.overall.within_conditional), pm(kv.overall.extrapolation)]);
    // Wrong only, in Counting: the trials with a stage at or below one half.
    await trials.getByTestId('trial-domain').selectOption('Counting');
    await trials.getByTestId('trial-wrong-only').check();
    const wrongCounting = kv.trials.filter((t) => t.domain === 'Counting'
      && [t.cross, t.within_conditional, t.extrapolation].some((x) => x != null && x <= 0.5));
    await page.waitForFunction((n) => document.querySelector('[data-testid=kiva-trials] [data-testid=trial-count]')?.textContent === `Trials 1–${Math.min(n, 200)} of ${n}`, wrongCounting.length);
    const rows = await trials.getByTestId('trial-row').evaluateAll((rs) => rs.map((r) => [r.dataset.domain, r.dataset.wrong]));
    assert.ok(rows.every(([d, w]) => d === 'Counting' && w === 'true'));
    // The first wrong trial's stage scores equal the CLI's trial row.
    const first = wrongCounting[0];
    const scores = await trials.getByTestId('trial-row').first().locator('td[data-score]').evaluateAll((tds) => tds.map((td) => Number(td.dataset.score)));
    assert.deepEqual(scores, [first.cross, first.within_conditional, first.extrapolation].filter((x) => x != null));
    await app.screenshot('staging-kiva-model-page-light');

    // Joint "how": the model page's stage 2 and the comparison switch to the joint score.
    const compare = page.getByTestId('kiva-compare');
    await compare.locator('[data-stage=cross]').waitFor();
    assert.equal(await compare.locator('[data-stage=within_joint]').count(), 0);
    assert.equal(await compare.locator('[data-stage=within_conditional]').count(), 1);
    await page.getByTestId('kiva-joint').check();
    await page.waitForURL(/j=1/);
    await compare.locator('[data-stage=within_joint]').waitFor();
    assert.equal(await compare.locator('[data-stage=within_conditional]').count(), 0);
    await page.waitForFunction((want) => [...document.querySelectorAll('[data-testid=trial-summary] tr[data-domain=All] td')][1]?.textContent === want, pm(kv.overall.within_joint));
    // Model page follows the URL: pick MANTIS.
    await trials.getByTestId('kiva-model-pick').selectOption({ label: 'mantis_multi_image' });
    await page.waitForURL(/model=mantis_multi_image/);
    const km = cli(['score', 'kiva', MANTIS, '--json']);
    await page.waitForFunction((want) => [...document.querySelectorAll('[data-testid=trial-summary] tr[data-domain=All] td')][0]?.textContent === want, pm(km.overall.cross));
    await app.screenshot('staging-kiva-joint-light');
    assert.deepEqual(errors, []);
    await context.close();
  });

for (const [name, opts] of [['dark-1280', { colorScheme: 'dark' }],
  ['light-390', { viewport: { width: 390, height: 844 } }],
  ['dark-390', { viewport: { width: 390, height: 844 }, colorScheme: 'dark' }]]) {
  test(`staging, kept files and the KiVA model page: ${name}`, { skip }, async () => {
    const { page, context, errors } = await newPage(env.browser, opts);
    const app = new App(page, env.base);
    const st = new Staging(page);
    await app.goto('/leaderboard?b=kiva');
    await st.stage(GPT4, 14, 'folder-input');
    await page.getByTestId('lb-staged').scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SHOTS, `staging-staged-${name}.png`) });
    await st.score();
    await page.locator('[data-testid=kiva-computed-row][data-model=gpt4_multi_image]').waitFor();
    await page.reload();
    await page.getByTestId('main-nav').waitFor();
    await page.getByTestId('kiva-trials').getByTestId('trial-row').first().waitFor();
    await app.screenshot(`staging-kiva-${name}`);
    // What is on screen (full pages are long): the kept-files note, and the model page.
    await page.getByTestId('lb-kept').scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SHOTS, `staging-kept-view-${name}.png`) });
    await page.getByTestId('trial-summary').scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SHOTS, `staging-kiva-view-${name}.png`) });
    assert.deepEqual(errors, []);
    await context.close();
  });
}

test('a full storage is reported, and the scored rows stay', { skip }, async () => {
  const { page, context, errors } = await newPage(env.browser);
  // The browser refuses every write to IndexedDB as over quota.
  await page.addInitScript(() => {
    IDBObjectStore.prototype.put = function put() {
      throw new DOMException('the quota has been exceeded', 'QuotaExceededError');
    };
  });
  const app = new App(page, env.base);
  const st = new Staging(page);
  await app.goto('/leaderboard');
  await st.stage([KEY, PREDS]);
  await st.score();
  await page.locator('[data-testid=mmiq-computed-row][data-model=example]').waitFor();
  const panel = page.getByTestId('error-panel').filter({ hasText: 'Could not keep the files in this browser' });
  await panel.waitFor();
  assert.match(await panel.innerText(), /storage for this site is full \(QuotaExceededError/);
  assert.equal(await page.getByTestId('lb-kept').count(), 0);
  const want = cli(['score', 'mmiq', '--answers', KEY, PREDS, '--json']);
  assert.ok(close((await st.cells('mmiq', 'example')).mean, want.overall.accuracy));
  assert.deepEqual(errors, []);
  await context.close();
});

/** The records of a CSV text (quoted fields with "" escapes and line breaks), header first. */
function csvRecords(text) {
  const out = [];
  let row = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') { field += '"'; i += 1; } else if (c === '"') quoted = false; else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') { row.push(field); field = ''; } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i += 1;
      row.push(field); out.push(row); row = []; field = '';
    } else field += c;
  }
  if (field !== '' || row.length) { row.push(field); out.push(row); }
  return out;
}

test('KiVA model page: a trial\'s answers are the run file\'s, stage by stage', { skip }, async () => {
  const { page, context, errors } = await newPage(env.browser);
  const app = new App(page, env.base);
  const st = new Staging(page);
  await app.goto('/leaderboard?b=kiva');
  await st.stage(GPT4, 14, 'folder-input');
  await st.score();
  await page.locator('[data-testid=kiva-computed-row][data-model=gpt4_multi_image]').waitFor();
  const trials = page.getByTestId('kiva-trials');
  await trials.getByTestId('trial-count').waitFor();
  const row = trials.locator('[data-testid=trial-row][data-trial="Counting+1#2"]');
  await row.getByTestId('trial-answers-toggle').click();
  const shown = trials.getByTestId('trial-answers');
  await shown.getByTestId('answer-regeneration').first().waitFor();
  // The file read in node: variation 0's rows, Full#1..3 and MCResponse#1..3.
  const [header, ...records] = csvRecords(readFileSync(join(GPT4, 'output_Counting/Counting+1.csv'), 'utf8'));
  const col = (name) => header.indexOf(name);
  const want = records.filter((r) => r[col('Variation')] === '2');
  const regs = shown.getByTestId('answer-regeneration');
  assert.equal(await regs.count(), want.length);
  for (let i = 0; i < want.length; i += 1) {
    const texts = await regs.nth(i).locator('.lb-response').evaluateAll((els) => els.map((e) => e.textContent));
    assert.deepEqual(texts, [1, 2, 3].map((k) => want[i][col(`Full#${k}`)]), `regeneration ${i}`);
    const marks = await regs.nth(i).locator('li > span.ok, li > span.bad, li > span.lb-muted').allInnerTexts();
    const expected = [1, 2, 3].map((k) => {
      const v = want[i][col(`MCResponse#${k}`)];
      if (v === '1' || v === '1.0') return '✓ right';
      if (v === '0' || v === '0.0') return '✗ wrong';
      if (v === 'Null') return '✗ no option named';
      return 'not asked';
    });
    assert.deepEqual(marks, expected, `regeneration ${i}`);
  }
  await page.screenshot({ path: join(SHOTS, 'staging-kiva-answers.png') });
  await row.getByTestId('trial-answers-toggle').click();
  assert.equal(await trials.getByTestId('trial-answers').count(), 0);
  assert.deepEqual(errors, []);
  await context.close();
});
