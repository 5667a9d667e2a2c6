// Issue 19: the URL is the one source of truth for a page's view. For each page with view
// state: set the view with the controls, copy the address, open it in a fresh browser context
// (no storage shared), and see the same view; Back and Forward between pages restore views.
// The Review page's address picks within the workspace kept in this browser, so its link is
// opened in a new tab of the same browser.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { start, newPage, App } from './support.mjs';

let env;
before(async () => { env = await start(); });
after(async () => { await env?.close(); });

/** Opens `url` in a new context and returns `view(page)` once `ready(page)` resolves. */
async function fresh(url, ready, view) {
  const { page, context, errors } = await newPage(env.browser);
  await page.goto(url);
  await ready(page);
  const v = await view(page);
  assert.deepEqual(errors, []);
  await context.close();
  return v;
}

const table = (page, stem) => page.getByTestId(`${stem}-table`);

/** The MM-OPERA tab's view: task, settings, the board's columns, sort, filter and rows. */
async function operaView(page) {
  const t = table(page, 'mmopera');
  return {
    tab: await page.locator('[role=tab][aria-selected=true]').getAttribute('data-testid'),
    caption: await t.locator('caption').innerText(),
    decay: await page.getByTestId('mmopera-decay').inputValue(),
    average: await page.getByTestId('mmopera-average').inputValue(),
    filter: await page.getByTestId('mmopera-filter').inputValue(),
    cols: await t.locator('thead th[data-col]').evaluateAll((ths) => ths.map((th) => th.dataset.col)),
    sorts: await t.locator('thead th[aria-sort]').evaluateAll((ths) => ths.map((th) => `${th.dataset.col}:${th.getAttribute('aria-sort')}`)),
    rows: await t.locator('tbody tr[data-model]').evaluateAll((trs) => trs.map((tr) => tr.dataset.model)),
  };
}
const operaReady = (page) => page.locator('[data-testid=mmopera-reported-row]').first().waitFor();

/** The KiVA tab's view: the variant and stage switches and the rows in order. */
async function kivaView(page) {
  const t = table(page, 'kiva');
  return {
    adults: await page.getByTestId('kiva-adults').isChecked(),
    joint: await page.getByTestId('kiva-joint').isChecked(),
    sorts: await t.locator('thead th[aria-sort]').evaluateAll((ths) => ths.map((th) => `${th.dataset.col}:${th.getAttribute('aria-sort')}`)),
    rows: await t.locator('tbody tr[data-model]').evaluateAll((trs) => trs.map((tr) => tr.dataset.model)),
  };
}
const kivaReady = (page) => table(page, 'kiva').locator('tbody tr[data-model]').first().waitFor();

test('leaderboard, MM-OPERA tab: task, settings, sort and filter round-trip through the URL', async () => {
  const { page, context, errors } = await newPage(env.browser);
  const app = new App(page, env.base);
  await app.goto('/leaderboard?b=mmopera');
  await operaReady(page);
  await page.getByTestId('mmopera-task-ica').check();
  await page.getByTestId('mmopera-decay').selectOption('paper');
  await page.getByTestId('mmopera-filter').fill('gpt');
  await table(page, 'mmopera').locator('th[data-col=sr] button.lb-sort').click();
  await table(page, 'mmopera').locator('th[data-col=sr] button.lb-sort').click();
  await page.waitForURL(/t=ica/);
  await page.waitForURL(/decay=paper/);
  const want = await operaView(page);
  assert.match(want.caption, /ICA/);
  assert.equal(want.decay, 'paper');
  assert.ok(want.rows.length > 0 && want.rows.every((m) => /gpt/i.test(m)), want.rows.join(', '));
  assert.ok(want.sorts.some((s) => s.startsWith('sr:') && !s.endsWith('none')), want.sorts.join(', '));
  const url = page.url();
  assert.deepEqual(await fresh(url, operaReady, operaView), want, url);

  // Back and Forward between pages: the leaderboard's view comes back as it was.
  await page.getByTestId('main-nav').getByText('Self-test (KiVA)').click();
  await page.getByTestId('page-self-test').waitFor();
  await page.goBack();
  await operaReady(page);
  assert.equal(page.url(), url);
  assert.deepEqual(await operaView(page), want);
  await page.goForward();
  await page.getByTestId('page-self-test').waitFor();
  assert.match(page.url(), /\/self-test$/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('leaderboard, KiVA tab: variant, stage rule and sort round-trip through the URL', async () => {
  const { page, context, errors } = await newPage(env.browser);
  const app = new App(page, env.base);
  await app.goto('/leaderboard?b=kiva');
  await kivaReady(page);
  await page.getByTestId('kiva-adults').check();
  await page.getByTestId('kiva-joint').check();
  await page.waitForURL(/v=adults/);
  await page.waitForURL(/j=1/);
  await kivaReady(page);
  const first = await table(page, 'kiva').locator('thead th[data-col] button.lb-sort').first();
  await first.click();
  const want = await kivaView(page);
  assert.deepEqual([want.adults, want.joint], [true, true]);
  const url = page.url();
  assert.deepEqual(await fresh(url, kivaReady, kivaView), want, url);
  assert.deepEqual(errors, []);
  await context.close();
});

test('self-test: a session link opens the same trials in a fresh browser; Back returns to the start', async () => {
  const { page, context, errors } = await newPage(env.browser);
  const app = new App(page, env.base);
  await app.goto('/self-test');
  await page.getByTestId('start').waitFor();
  const seedInput = page.locator('input[aria-describedby=seed-help]');
  await seedInput.fill('8086');
  await page.getByTestId('start').click();
  await page.waitForURL(/kind=kiva&seed=8086/);
  const trial = (p) => p.locator('.kiva-trial').first();
  const view = async (p) => ({ text: await trial(p).innerText(), images: await trial(p).locator('img').evaluateAll((is) => is.map((i) => i.getAttribute('alt'))) });
  await trial(page).waitFor();
  const want = await view(page);
  const url = page.url();
  assert.deepEqual(await fresh(url, (p) => trial(p).waitFor(), view), want, url);
  await page.goBack();
  await page.getByTestId('start').waitFor();
  await page.goForward();
  await trial(page).waitFor();
  assert.deepEqual(await view(page), want);
  assert.deepEqual(errors, []);
  await context.close();
});

test('home and an unknown address: the same page in a fresh browser', async () => {
  for (const [path, testid] of [['/', 'page-home'], ['/no/such/page?x=1', 'page-not-found']]) {
    const url = `${env.base}${path}`;
    const got = await fresh(url, (p) => p.getByTestId(testid).waitFor(), (p) => p.getByTestId(testid).count());
    assert.equal(got, 1, path);
  }
});

test('structure: the weighted-scores order round-trips through the URL', async () => {
  const { page, context, errors } = await newPage(env.browser);
  const app = new App(page, env.base);
  await app.goto('/structure');
  const scores = (p) => p.getByTestId('table-scores');
  const ready = (p) => scores(p).locator('tbody tr').first().waitFor({ timeout: 60000 });
  const view = async (p) => ({
    sorts: await scores(p).locator('thead th[aria-sort]').evaluateAll((ths) => ths.map((th) => `${th.textContent}:${th.getAttribute('aria-sort')}`)),
    rows: await scores(p).locator('tbody tr').evaluateAll((trs) => trs.map((tr) => tr.dataset.model)),
  });
  await ready(page);
  const before = await view(page);
  // "Weighted overall", twice: descending.
  await scores(page).locator('thead th', { hasText: 'Weighted overall' }).locator('button').click();
  await scores(page).locator('thead th', { hasText: 'Weighted overall' }).locator('button').click();
  await page.waitForURL(/sort=overall&desc=1/);
  const want = await view(page);
  assert.ok(want.sorts.includes('Weighted overall:descending'), want.sorts.join(', '));
  assert.equal(want.rows.length, before.rows.length);
  const url = page.url();
  assert.deepEqual(await fresh(url, ready, view), want, url);
  assert.deepEqual(errors, []);
  await context.close();
});

test('review: the set and item on screen round-trip through the URL (in the browser that holds the workspace)', async () => {
  const { page, context, errors } = await newPage(env.browser);
  const app = new App(page, env.base);
  await app.goto('/review');
  const dir = mkdtempSync(join(tmpdir(), 'coglab-url-review-'));
  const meta = [];
  const regular = {};
  const results = {};
  for (let i = 0; i < 5; i++) {
    const id = `ria_${String(i + 1).padStart(3, '0')}`;
    meta.push({ id, foldername: id, domain: 'Nature', type: 'Relation', culture: 'Global', language: 'English',
      hop_count: 1, perception: "['Visual Similarity']", conception: "['Functional Links']", relation: `R${i}`,
      explanation: `E${i}`, reasoning: `A → C${i} → B`, description1: `a${i}`, description2: `b${i}` });
    results[id] = `Answer ${i}.`;
    regular[id] = { score_judge: String(i % 5), score_reason: `r${i}` };
  }
  const files = { 'metadata.json': meta, 'gpt-4o_RIA_results.json': results, 'gpt-4o_RIA_regular_scoring.json': regular };
  const paths = Object.entries(files).map(([name, v]) => { const p = join(dir, name); writeFileSync(p, JSON.stringify(v)); return p; });
  await page.getByTestId('review-file-input').setInputFiles(paths);
  await page.getByTestId('set-select').waitFor();
  await page.getByTestId('sample-n').fill('5');
  await page.getByTestId('draw-sample').click();
  await page.getByTestId('review-pos').waitFor();
  await page.evaluate(() => document.activeElement?.blur());
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  const key = await page.getByTestId('item-key').innerText();
  await page.waitForURL((u) => u.searchParams.get('item') === key.replace(/^Item /, ''));
  const url = page.url();
  assert.match(url, /set=/);
  // Another item on screen, then the copied address in a new tab of the same browser.
  await page.keyboard.press('ArrowLeft');
  const tab = await context.newPage();
  await tab.goto(url);
  await tab.getByTestId('review-pos').waitFor();
  await tab.waitForFunction((k) => document.querySelector('[data-testid=item-key]')?.innerText === k, key);
  assert.equal(await tab.getByTestId('review-pos').innerText(), 'Item 3 of 5');
  assert.deepEqual(errors, []);
  await context.close();
});
