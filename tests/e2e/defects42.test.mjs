// End-to-end tests of the defects of issue 42 ("What users hit, round two"), each named after
// its defect; each failed on main before its fix. (Defects 7 and 16's rank export are
// in-browser tests in tests/web_defects42.rs; 10 is in publish.test.mjs, 15 in
// selftest.test.mjs and harness.test.mjs, 16's Review quotas in review.test.mjs.)
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { start, newPage, App, SHOTS, DIST, pythonServer } from './support.mjs';

let env;
before(async () => { env = await start(); });
after(async () => { await env?.close(); });

/** The Rank column of a tab's table, top to bottom ('' for an unranked row). */
async function ranks(page, stem) {
  return page.locator(`[data-testid=${stem}-table] tbody tr`).evaluateAll(
    (trs) => trs.map((tr) => tr.querySelector('td[data-rank]')?.dataset.rank ?? ''));
}

test('defect 1: a sort chosen on MM-IQ leaves the other tabs in rank order, said under the table', async () => {
  const { page, context, errors } = await newPage(env.browser);
  const app = new App(page, env.base);
  await app.goto('/leaderboard');
  const mean = page.locator('[data-testid=mmiq-table] th[data-col=mean] button.lb-sort');
  await mean.click();
  await mean.click();
  await page.waitForURL(/s=mean/);
  for (const tab of ['kiva', 'mmopera', 'gold']) {
    await page.getByTestId(`tab-${tab}`).click();
    await page.locator(`[data-testid=${tab}-table] td[data-rank]`).first().waitFor();
    const r = (await ranks(page, tab)).filter((x) => x !== '').map(Number);
    assert.ok(r.length >= 3, `${tab}: ${r}`);
    assert.deepEqual(r, [...r].sort((a, b) => a - b), `${tab}: the ranks read down the table: ${r}`);
    assert.match(await page.getByTestId(`${tab}-rank-rule`).innerText(), /no “mean” column to sort by/, tab);
  }
  // Back on MM-IQ the sort still applies.
  await page.getByTestId('tab-mmiq').click();
  await page.locator('[data-testid=mmiq-table] th[data-col=mean][aria-sort=ascending]').waitFor();
  await app.screenshot('defect42-1-gold-rank-order');
  assert.deepEqual(errors, []);
  await context.close();
});

test('defect 16: JSONL text in a file named as a workbook is said not to be a workbook', async () => {
  const { page, context, errors } = await newPage(env.browser);
  const app = new App(page, env.base);
  await app.goto('/leaderboard');
  const dir = mkdtempSync(join(tmpdir(), 'coglab-d42-'));
  const key = join(dir, 'key.jsonl');
  writeFileSync(key, '{"category": "Mathematical", "MD5": "x", "data_id": 0, "answer": "B"}\n');
  // Predictions JSONL saved under a VLMEvalKit workbook's name: read as a workbook.
  const preds = join(dir, 'm_MMIQ.xlsx');
  writeFileSync(preds, '{"data_id": 0, "parsed_pred": "B"}\n');
  await page.getByTestId('file-input').setInputFiles([key, preds]);
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=staged-row]').length >= 2);
  assert.equal(await page.locator('[data-testid=staged-row][data-path="m_MMIQ.xlsx"] [data-testid=staged-kind]')
    .inputValue(), 'mmiq_table');
  await page.getByTestId('lb-score').click();
  const status = page.getByTestId('error-panel').filter({ hasText: 'Could not score m_MMIQ.xlsx' });
  await status.filter({ hasText: 'not an .xlsx workbook' }).waitFor();
  const text = await status.innerText();
  assert.match(text, /it is JSON or JSONL text, starting "\{\\"data_id\\": 0, \\"parsed_pred\\": \\"B\\"\}": choose the format it is in/);
  assert.doesNotMatch(text, /_rels/);
  assert.deepEqual(errors, []);
  await context.close();
});

/** The Structure editor's construct names, in order. */
async function constructs(page) {
  return page.locator('[data-testid=constructs] li[data-testid^=construct-] input[type=text]')
    .evaluateAll((inputs) => inputs.map((i) => i.value));
}

test('defect 14: the Structure page keeps its construct order across a reload', async () => {
  const { page, context, errors } = await newPage(env.browser);
  const app = new App(page, env.base);
  await app.goto('/structure');
  await page.getByTestId('table-outer').waitFor({ timeout: 60000 });
  // Gold's layers in the paper's order (not alphabetical).
  const want = ['Perception', 'Memory', 'Reasoning'];
  assert.deepEqual(await constructs(page), want);
  const specKeys = async () => Object.keys(JSON.parse(await page.getByTestId('spec-json').textContent()).constructs);
  assert.deepEqual(await specKeys(), want);
  // The workspace is kept in this browser as it changes; give the write a moment.
  await page.waitForTimeout(1500);
  await page.reload();
  await page.getByTestId('table-outer').waitFor({ timeout: 60000 });
  assert.deepEqual(await constructs(page), want);
  assert.deepEqual(await specKeys(), want);
  assert.deepEqual(errors, []);
  await context.close();
});

test('defect 8: lm-eval files of another task say so, naming the task', async () => {
  const { page, context, errors } = await newPage(env.browser);
  const app = new App(page, env.base);
  await app.goto('/leaderboard');
  const dir = mkdtempSync(join(tmpdir(), 'coglab-d42-'));
  const results = join(dir, '20240601_120000_results.json');
  writeFileSync(results, JSON.stringify({
    results: { mmmu_val: { alias: 'mmmu_val', 'mmmu_acc,none': 0.41, 'mmmu_acc_stderr,none': 0.016 } },
    configs: { mmmu_val: { task: 'mmmu_val' } },
    'n-samples': { mmmu_val: { original: 900, effective: 900 } },
    config: { model: 'llava_onevision' },
    lmms_eval_version: '0.3.0',
  }, null, 2));
  const key = join(dir, 'key.jsonl');
  writeFileSync(key, '{"category": "Mathematical", "MD5": "x", "data_id": 0, "answer": "B"}\n');
  // lm-evaluation-harness names its samples files samples_<task>_<timestamp>.jsonl.
  const samples = join(dir, 'samples_mmmu_val_2024-06-01T12-00-00.123456.jsonl');
  writeFileSync(samples, [0, 1].map((i) => JSON.stringify({
    doc_id: i, doc: { id: `validation_Art_${i}`, question: 'Which?' }, target: 'A',
    resps: [['A']], filtered_resps: ['A'], mmmu_acc: { id: `validation_Art_${i}` },
  })).join('\n') + '\n');
  await page.getByTestId('file-input').setInputFiles([results, key, samples]);
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=staged-row]').length >= 3);
  await page.getByTestId('lb-score').click();
  const status = (name) => page.getByTestId('error-panel').filter({ hasText: `Could not score ${name}` });
  await status('20240601_120000_results.json').filter({ hasText: 'no MM-IQ task' }).waitFor();
  assert.match(await status('20240601_120000_results.json').innerText(), /no MM-IQ task among its results \(its tasks: mmmu_val\)/);
  const samplesName = 'samples_mmmu_val_2024-06-01T12-00-00.123456.jsonl';
  await status(samplesName).filter({ hasText: 'expected an MM-IQ task' }).waitFor();
  assert.match(await status(samplesName).innerText(), /output for task "mmmu_val", expected an MM-IQ task/);
  assert.deepEqual(errors, []);
  await context.close();
});

/** How far the page is wider than the window (0: it does not pan sideways). */
const overflow = (page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

test('defect 5: at 390 px, opening Columns or Response length does not pan the page', async () => {
  const { page, context, errors } = await newPage(env.browser, {
    viewport: { width: 390, height: 800 }, colorScheme: 'dark', isMobile: true, hasTouch: true });
  const app = new App(page, env.base);
  await app.goto('/leaderboard');
  for (const tab of ['mmiq', 'kiva', 'mmopera', 'gold']) {
    await page.getByTestId(`tab-${tab}`).click();
    const columns = page.getByTestId(`${tab}-columns`);
    await columns.locator('summary').click();
    await columns.locator('.lb-columns-list label').first().waitFor();
    assert.equal(await overflow(page), 0, `${tab}: Columns open`);
    if (tab === 'mmiq') await app.screenshot('defect42-5-columns-390-dark');
    await columns.locator('summary').click();
  }
  await page.getByTestId('tab-mmiq').click();
  // A computed MM-IQ row with free-form responses: the response-length section.
  const dir = mkdtempSync(join(tmpdir(), 'coglab-d42-'));
  const key = join(dir, 'MMIQ_benchmark_answer_dict.jsonl');
  writeFileSync(key, [0, 1, 2].map((i) => JSON.stringify({ category: 'Mathematical', MD5: `m${i}`, data_id: i, answer: 'B' })).join('\n') + '\n');
  const preds = join(dir, 'a_rather_long_model_name_for_a_phone_output.jsonl');
  writeFileSync(preds, [0, 1, 2].map((i) => JSON.stringify({ data_id: i, response: `Looking at the grid, the answer is ${'AB'[i % 2]}.` })).join('\n') + '\n');
  await page.getByTestId('file-input').setInputFiles([key, preds]);
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=staged-row]').length >= 2);
  await page.getByTestId('lb-score').click();
  const lengths = page.getByTestId('mmiq-lengths');
  await lengths.locator('summary').click();
  await lengths.locator('table').waitFor();
  assert.equal(await overflow(page), 0, 'Response length open');
  await app.screenshot('defect42-5-lengths-390-dark');
  assert.deepEqual(errors, []);
  await context.close();
});

test('defect 13: charts on a 2x phone screen are drawn with its device pixels', async () => {
  const { page, context, errors } = await newPage(env.browser, {
    viewport: { width: 390, height: 800 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
  const app = new App(page, env.base);
  await app.goto('/leaderboard?b=kiva');
  const canvas = page.getByTestId('kiva-chart');
  await canvas.waitFor();
  await page.waitForFunction(() => {
    const c = document.querySelector('[data-testid=kiva-chart]');
    return c && c.clientWidth > 0 && c.width === 2 * Math.round(c.clientWidth);
  }, null, { timeout: 10000 }).catch(() => {});
  const size = await canvas.evaluate((c) => ({ buffer: c.width, shown: c.clientWidth, h: c.height, hs: c.clientHeight }));
  assert.ok(Math.abs(size.buffer - 2 * size.shown) <= 2, `buffer ${size.buffer} px for ${size.shown} CSS px`);
  assert.ok(Math.abs(size.h - 2 * size.hs) <= 2, `buffer height ${size.h} px for ${size.hs} CSS px`);
  await canvas.scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(SHOTS, 'defect42-13-kiva-chart-390-2x.png') });
  assert.deepEqual(errors, []);
  await context.close();
});

test('defect 6: KiVA rows from the released data cite the paper and repository, not coglab functions', async () => {
  const { page, context, errors } = await newPage(env.browser);
  const app = new App(page, env.base);
  await app.goto('/leaderboard?b=kiva');
  const rows = page.locator('[data-testid=kiva-table] tbody tr:not([data-kind=computed])');
  await rows.first().waitFor();
  const n = await rows.count();
  assert.ok(n >= 4, `${n} bundled rows`);
  for (let i = 0; i < n; i += 1) {
    const src = rows.nth(i).getByTestId('row-source');
    assert.equal(await src.getAttribute('href'), 'https://github.com/ey242/KiVA', `row ${i}`);
    const title = await src.getAttribute('title');
    assert.match(title, /KiVA/);
    assert.doesNotMatch(title, /score_model|score_human|selftest::|scripts\//, title);
  }
  assert.deepEqual(errors, []);
  await context.close();
});

test('defect 16: a page load and the worker start warn of nothing (no ignored integrity, no deprecated init)', async () => {
  const { page, context, errors } = await newPage(env.browser);
  const warnings = [];
  const warn = (msg) => { if (msg.type() === 'warning') warnings.push(msg.text()); };
  page.on('console', warn);
  page.on('worker', (w) => w.on('console', warn));
  const app = new App(page, env.base);
  await app.goto('/leaderboard');
  // Staging a file starts the worker (its loader shim calls wasm-bindgen's init).
  const dir = mkdtempSync(join(tmpdir(), 'coglab-d42-'));
  const key = join(dir, 'key.jsonl');
  writeFileSync(key, '{"category": "Mathematical", "MD5": "x", "data_id": 0, "answer": "B"}\n');
  await page.getByTestId('file-input').setInputFiles([key]);
  await page.getByTestId('staged-row').first().waitFor();
  await page.getByTestId('lb-score').click();
  await page.locator('[data-testid=lb-files] li[data-status=ok]', { hasText: 'key.jsonl' }).waitFor({ state: 'attached' });
  const workers = page.workers();
  assert.ok(workers.length >= 1, 'the scoring worker started');
  const relevant = warnings.filter((w) => /integrity|deprecated/i.test(w));
  assert.deepEqual(relevant, []);
  assert.deepEqual(errors, []);
  await context.close();
});

test('defect 16: on a phone the answer letters of question 3 sit clear of their pictures', async () => {
  const { page, context, errors } = await newPage(env.browser, {
    viewport: { width: 390, height: 800 }, colorScheme: 'dark', isMobile: true, hasTouch: true });
  const app = new App(page, env.base);
  await app.goto('/self-test?kind=short&seed=4242');
  // Questions 1 and 2 by keyboard (a stage-2 question is skipped when stage 1 was wrong).
  for (let i = 0; i < 2; i += 1) {
    const t = page.locator('[data-testid=trial][data-ready=true]');
    await t.waitFor();
    if (await t.getAttribute('data-stage') === '3') break;
    const before = await t.getAttribute('data-stage');
    await page.keyboard.press('1');
    await page.waitForFunction((b) => document.querySelector('[data-testid=trial]')?.dataset.stage !== b, before);
  }
  const trial = page.locator('[data-testid=trial][data-ready=true][data-stage="3"]');
  await trial.waitFor();
  const picks = trial.locator('.kiva-pick');
  assert.equal(await picks.count(), 3);
  for (let k = 0; k < 3; k += 1) {
    const label = await picks.nth(k).locator('.kiva-label').boundingBox();
    // The picture shown on phones: the pair's second (the first is hidden there).
    const pic = await picks.nth(k).locator('.kiva-pic').last().boundingBox();
    const apart = label.y + label.height <= pic.y + 0.5 || label.x + label.width <= pic.x + 0.5;
    assert.ok(apart, `pick ${k}: label ${JSON.stringify(label)} over picture ${JSON.stringify(pic)}`);
  }
  await app.screenshot('defect42-16-stage3-390-dark');
  assert.deepEqual(errors, []);
  await context.close();
});

test('defect 2: on a phone a header definition and a figure with its interval open by tap', async () => {
  const { page, context, errors } = await newPage(env.browser, {
    viewport: { width: 390, height: 800 }, colorScheme: 'dark', isMobile: true, hasTouch: true });
  const app = new App(page, env.base);
  await app.goto('/leaderboard');
  const table = page.getByTestId('mmiq-table');
  await table.locator('td[data-value]').first().waitFor();
  await table.locator('th[data-col="Logical Operation"] [data-testid=def-toggle]').tap();
  const def = page.getByTestId('mmiq-definition');
  await def.waitFor();
  assert.match(await def.innerText(), /^LO: /);
  const inView = async (loc) => {
    const b = await loc.locator('div').first().boundingBox();
    return b.x >= -1 && b.x + b.width <= 391;
  };
  assert.ok(await inView(def), 'the definition is on the screen');
  await app.screenshot('defect42-2-definition-390-dark');
  // A reported figure: the value with its interval, its column's definition and its source.
  const cell = table.locator('tbody tr[data-kind=reported] td[data-col=mean]').first();
  await cell.tap();
  const detail = page.getByTestId('mmiq-cell-detail');
  await detail.waitFor();
  assert.equal(await def.count(), 0, 'one expanded row at a time');
  const text = await detail.innerText();
  assert.match(text, /· Mean: \d+\.\d+ ± \d/);
  assert.match(text, /Source: /);
  assert.ok(await inView(detail), 'the figure is on the screen');
  await app.screenshot('defect42-2-cell-390-dark');
  await cell.tap();
  await detail.waitFor({ state: 'detached' });
  assert.deepEqual(errors, []);
  await context.close();
});

test('defect 4: a first visit fetches nothing for offline use by itself; the footer offers it with its size', async () => {
  const { page, context, errors } = await newPage(env.browser);
  const app = new App(page, env.base);
  // Requests the service worker makes are the context's too.
  const fetched = [];
  context.on('request', (r) => fetched.push(new URL(r.url()).pathname));
  await app.goto('/');
  await page.waitForFunction(() => navigator.serviceWorker?.controller, null, { timeout: 30000 });
  const sw = readFileSync(join(DIST, 'sw.js'), 'utf8');
  const later = JSON.parse(/const LATER_BYTES = (\{.*\}); \/\/ coglab:later-bytes/.exec(sw)[1]);
  const total = Object.values(later).reduce((a, b) => a + b, 0);
  assert.ok(Object.keys(later).length > 10 && total > 1e6, `${Object.keys(later).length} files, ${total} bytes`);
  // Idle for longer than the old automatic precache waited (3 s): nothing left for later came.
  await page.waitForTimeout(5000);
  const extras = fetched.filter((p) => p.slice(1) in later);
  assert.deepEqual(extras, [], 'no offline extras fetched unasked');
  const offer = page.getByTestId('offline-offer');
  await offer.waitFor();
  const mb = Number(/\(([\d.]+) MB more\)/.exec(await offer.innerText())[1]);
  assert.ok(Math.abs(mb - total / 1e6) < 0.051, `offered ${mb} MB, LATER holds ${total} bytes`);
  await app.screenshot('defect42-4-offline-offer');
  // Asked: every file left for later is kept, and the footer says so.
  await page.getByTestId('offline-all').click();
  await page.getByTestId('offline-ready').waitFor({ timeout: 60000 });
  const kept = await page.evaluate(async (names) => {
    const cache = await caches.open((await caches.keys()).find((k) => k.startsWith('coglab-')));
    const urls = (await cache.keys()).map((r) => new URL(r.url).pathname.slice(1));
    return names.filter((n) => urls.includes(n)).length;
  }, Object.keys(later));
  assert.equal(kept, Object.keys(later).length);
  assert.deepEqual(errors, []);
  await context.close();
});

/** The static board `key`'s rows: [{ model, kind, rank }] top to bottom. */
async function staticRows(page, key) {
  return page.locator(`[data-testid=static-board-${key}] tbody tr`).evaluateAll((trs) => trs.map((tr) => ({
    model: tr.dataset.model, kind: tr.dataset.source, rank: tr.querySelector('td').textContent.trim(),
  })));
}

test('defects 3 and 11: every board is on the page before the app, ranked and labelled as the app shows it', async () => {
  const { page, context } = await newPage(env.browser, { javaScriptEnabled: false });
  await page.goto(`${env.base}/leaderboard`);
  for (const key of ['mmiq', 'kiva', 'kiva-adults', 'mmopera-ria', 'mmopera-ica', 'gold']) {
    const rows = await staticRows(page, key);
    assert.ok(rows.length >= 3, `${key}: ${rows.length} rows`);
    // Ranks read down the table; baselines (humans, chance) are not ranked.
    const ranked = rows.filter((r) => r.kind !== 'baseline').map((r) => Number(r.rank));
    assert.ok(ranked.every((r) => r >= 1), `${key}: ${JSON.stringify(rows)}`);
    assert.deepEqual(ranked, [...ranked].sort((a, b) => a - b), `${key}: ranks ${ranked}`);
    assert.ok(rows.filter((r) => r.kind === 'baseline').every((r) => r.rank === 'ref'), key);
  }
  const mmiq = await staticRows(page, 'mmiq');
  assert.deepEqual(mmiq.find((r) => r.model === 'Human'), { model: 'Human', kind: 'baseline', rank: 'ref' });
  // KiVA's board holds the paper's models, not only a published row.
  assert.ok((await staticRows(page, 'kiva')).some((r) => r.kind === 'reported' && r.model.startsWith('GPT-4V')));
  // At 1280 px the board's box takes the page's width (it was a 688-px box that cut the source).
  const box = await page.locator('[data-testid=static-board-mmiq] .table-scroll').evaluate((el) => ({
    width: el.getBoundingClientRect().width, cut: el.scrollWidth > el.clientWidth + 1,
  }));
  assert.ok(box.width > 1000 && !box.cut, `the MM-IQ board's box: ${JSON.stringify(box)}`);
  await page.screenshot({ path: join(SHOTS, 'defect11-static-boards-1280-light.png') });
  await context.close();
  // The app's own table, once loaded, gives the same models the same ranks.
  const app = await newPage(env.browser);
  await new App(app.page, env.base).goto('/leaderboard');
  const table = app.page.getByTestId('mmiq-table');
  await table.locator('tbody tr td[data-rank]').first().waitFor();
  const shown = await table.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => ({
    model: tr.dataset.model, rank: tr.querySelector('td[data-rank]')?.dataset.rank ?? '–',
  })));
  for (const r of mmiq.filter((x) => x.kind !== 'baseline')) {
    const s = shown.find((x) => x.model === r.model);
    assert.ok(s, `${r.model} in the app's table`);
    assert.equal(s.rank === '' ? '–' : s.rank, r.rank, `${r.model}: static ${r.rank}, app ${s.rank}`);
  }
  assert.deepEqual(app.errors, []);
  await app.context.close();
  // At 390 px, dark: each board scrolls in its box, the page does not.
  const phone = await newPage(env.browser, { javaScriptEnabled: false, viewport: { width: 390, height: 800 }, colorScheme: 'dark' });
  await phone.page.goto(`${env.base}/leaderboard`);
  await phone.page.getByTestId('static-board-mmiq').waitFor();
  await phone.page.screenshot({ path: join(SHOTS, 'defect11-static-boards-390-dark.png') });
  assert.ok(await phone.page.evaluate(() => document.documentElement.scrollWidth) <= 390);
  await phone.context.close();
});

// Issue 42's Fast 3G figures on the README's plain server (`python3 -m http.server`, no gzip),
// from an empty cache, per tab: when the first static board row is visible, when the app's own
// table for the tab is (the app is interactive), and the bytes fetched until then. Benchmark
// figures, printed (targets: rows 1.0 s, interactive 4 s); the test asserts that both happen.
test('defect 3: on Fast 3G from a plain python server, a board shows before the app, on every tab (times printed)', async () => {
  const server = await pythonServer(DIST);
  try {
    for (const tab of ['mmiq', 'kiva', 'mmopera', 'gold']) {
      const { page, context, errors } = await newPage(env.browser);
      const cdp = await context.newCDPSession(page);
      await cdp.send('Network.enable');
      await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
      // Lighthouse's mobile profile, as the issue measured: 150 ms round trip, 1.6 Mbps down.
      await cdp.send('Network.emulateNetworkConditions', {
        offline: false, latency: 150, downloadThroughput: 1.6e6 / 8, uploadThroughput: 750e3 / 8,
      });
      const bytes = new Map();
      cdp.on('Network.loadingFinished', (e) => bytes.set(e.requestId, e.encodedDataLength));
      const t0 = Date.now();
      await page.goto(`${server.url}/leaderboard/?b=${tab}`, { waitUntil: 'commit' });
      await page.locator('[data-testid^=static-board-] tbody tr').first().waitFor({ state: 'visible', timeout: 30000 });
      const rowsMs = Date.now() - t0;
      await page.locator(`[data-testid=${tab}-table] tbody tr`).first().waitFor({ state: 'visible', timeout: 90000 });
      const appMs = Date.now() - t0;
      const total = [...bytes.values()].reduce((s, n) => s + n, 0);
      console.log(`# Fast 3G, python3 -m http.server, empty cache, ${tab}: static rows ${rowsMs} ms (target 1,000), `
        + `app's table ${appMs} ms (target 4,000), ${(total / 1024).toFixed(1)} KB fetched until then`);
      assert.deepEqual(errors, []);
      await context.close();
    }
  } finally {
    server.close();
  }
});

// Issue 42 (the 4 s first view): the self-test, review and structure stylesheets are not read
// by the leaderboard's page (scripts/static-routes.py holds them in a template), even once
// it has settled; a page that needs one, reached by a link, has its rules (src/later_css.rs).
test('defect 3: other pages\' stylesheets are left out of the first view, and a page reached by a link has its own', async () => {
  const { page, context, errors } = await newPage(env.browser);
  const css = [];
  page.on('request', (r) => {
    const m = /\/([a-z]+)-[0-9a-f]{1,16}\.css$/.exec(new URL(r.url()).pathname);
    if (m) css.push(m[1]);
  });
  await page.goto(`${env.base}/leaderboard/`);
  await page.locator('[data-testid=mmiq-table] tbody tr').first().waitFor();
  await page.waitForTimeout(1500);
  assert.deepEqual(css.slice().sort(), ['leaderboard', 'main']);
  assert.equal(await page.evaluate(() => document.getElementById('coglab-later-css')?.content.children.length), 3);
  // A link to the structure page: its stylesheet comes with its chunk, and applies
  // (`.structure .lead { max-width: 70ch }`, style/structure.css).
  await page.getByTestId('main-nav').getByRole('link', { name: 'Structure (Gold)' }).click();
  await page.locator('.structure .lead').first().waitFor();
  await page.waitForFunction(() => getComputedStyle(document.querySelector('.structure .lead')).maxWidth !== 'none');
  assert.deepEqual(css.slice().sort(), ['leaderboard', 'main', 'review', 'selftest', 'structure']);
  assert.equal(await page.evaluate(() => document.getElementById('coglab-later-css')), null);
  // A page opened directly has its stylesheet (in its own HTML, render-blocking:
  // tests/scripts/static-routes.test.mjs).
  await page.goto(`${env.base}/self-test/`);
  await page.getByTestId('page-self-test').waitFor();
  await page.waitForFunction(() => [...document.styleSheets].some((s) => /\/selftest-[0-9a-f]{1,16}\.css$/.test(s.href ?? '')));
  assert.deepEqual(errors, []);
  await context.close();
});

// Issue 42's acceptance: the bytes a first visit fetches when it does not ask for offline use
// (the page, what its first board needs, and the service worker's copy of the app shell), on
// the README's plain server. The service worker's requests are the context's too. A figure,
// printed; the test asserts that nothing left for later (LATER: the worker module, the other
// pages' chunks) came.
test('defect 4: the bytes of a first visit that does not ask for offline use (printed)', async () => {
  const server = await pythonServer(DIST);
  try {
    const { page, context, errors } = await newPage(env.browser);
    const got = [];
    context.on('requestfinished', async (r) => {
      try {
        const s = await r.sizes();
        got.push({ path: new URL(r.url()).pathname, n: s.responseBodySize + s.responseHeadersSize });
      } catch { /* the context has closed */ }
    });
    await page.goto(`${server.url}/leaderboard/`);
    await page.locator('[data-testid=mmiq-table] tbody tr').first().waitFor();
    await page.waitForFunction(() => navigator.serviceWorker?.controller, null, { timeout: 30000 });
    await page.waitForTimeout(5000);
    const sw = readFileSync(join(DIST, 'sw.js'), 'utf8');
    const later = JSON.parse(/const LATER_BYTES = (\{.*\}); \/\/ coglab:later-bytes/.exec(sw)[1]);
    assert.deepEqual(got.filter((g) => g.path.slice(1) in later).map((g) => g.path), []);
    const total = got.reduce((s, g) => s + g.n, 0);
    const by = (re) => got.filter((g) => re.test(g.path)).reduce((s, g) => s + g.n, 0);
    const kb = (n) => (n / 1024).toFixed(1);
    console.log(`# first visit, python3 -m http.server, no offline asked: ${kb(total)} KB in ${got.length} requests `
      + `(wasm ${kb(by(/\.wasm(\.gz)?$/))} KB, js ${kb(by(/\.js$/))} KB, html ${kb(by(/(\/|\.html)$/))} KB, `
      + `css ${kb(by(/\.css$/))} KB, data ${kb(by(/\.json$/))} KB); offline extras not fetched: `
      + `${Object.keys(later).length} files, ${kb(Object.values(later).reduce((a, b) => a + b, 0))} KB`);
    assert.deepEqual(errors, []);
    await context.close();
  } finally {
    server.close();
  }
});

// Defect 12: with one computed row the comparison and item-analysis sections were absent with
// no word why; the tab says what they need.
test('defect 12: one computed row: the tab says the comparison and item analysis need two', async () => {
  const { page, context, errors } = await newPage(env.browser);
  const app = new App(page, env.base);
  await app.goto('/leaderboard');
  await page.locator('[data-testid=mmiq-reported-row]').first().waitFor();
  const dir = mkdtempSync(join(tmpdir(), 'coglab-one-row-'));
  writeFileSync(join(dir, 'key.jsonl'), [0, 1, 2, 3]
    .map((i) => JSON.stringify({ category: 'Mathematical', data_id: i, answer: 'A' })).join('\n') + '\n');
  writeFileSync(join(dir, 'solo_output.jsonl'), [0, 1, 2, 3]
    .map((i) => JSON.stringify({ data_id: i, parsed_pred: i % 2 ? 'A' : 'B' })).join('\n') + '\n');
  await page.getByTestId('file-input').setInputFiles([join(dir, 'key.jsonl'), join(dir, 'solo_output.jsonl')]);
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=staged-row]').length >= 2);
  await page.getByTestId('lb-score').click();
  await page.locator('[data-testid=mmiq-computed-row]').first().waitFor();
  const notice = page.getByTestId('needs-two-rows');
  await notice.waitFor();
  assert.match(await notice.innerText(), /need two computed rows or more/);
  await notice.scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(SHOTS, 'defect42-12-one-row-1280-light.png') });
  assert.equal(await page.getByTestId('item-analysis').count(), 0);
  assert.deepEqual(errors, []);
  await context.close();
});
