// End-to-end tests of the release build in real Chromium: every route, the reported tables,
// sorting, deep links, dark mode. Any console error or uncaught exception fails the test.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start, newPage, App } from './support.mjs';

let env;
before(async () => { env = await start(); });
after(async () => { await env?.close(); });

const ROUTES = [
  ['/', 'page-home', 'home'],
  ['/leaderboard', 'page-leaderboard', 'leaderboard-mmiq'],
  ['/self-test', 'page-self-test', 'self-test'],
  ['/review', 'page-review', 'review'],
  ['/structure', 'page-structure', 'structure'],
  ['/no/such/page', 'page-not-found', 'not-found'],
];

test('every route loads without console or page errors', async () => {
  const { page, context, errors } = await newPage(env.browser);
  const app = new App(page, env.base);
  for (const [route, testid, shot] of ROUTES) {
    await app.goto(route);
    await page.getByTestId(testid).waitFor();
    if (route === '/leaderboard') await page.getByTestId('mmiq-table').waitFor();
    await app.screenshot(shot);
  }
  assert.deepEqual(errors, []);
  await context.close();
});

test('navigation links reach every page and mark the current one', async () => {
  const { page, context, errors } = await newPage(env.browser);
  const app = new App(page, env.base);
  await app.goto('/');
  for (const [text, testid] of [['Leaderboard', 'page-leaderboard'], ['Self-test (KiVA)', 'page-self-test'],
    ['Review', 'page-review'], ['Structure (Gold)', 'page-structure'], ['Home', 'page-home']]) {
    await app.navigate(text);
    await page.getByTestId(testid).waitFor();
    const current = page.getByTestId('main-nav').locator('[aria-current=page]');
    assert.equal(await current.innerText(), text);
  }
  assert.deepEqual(errors, []);
  await context.close();
});

test('the MM-IQ board shows the paper\'s o3 row at 33.17 and sorts by a clicked column', async () => {
  const { page, context, errors } = await newPage(env.browser);
  const app = new App(page, env.base);
  await app.goto('/leaderboard');
  await page.getByTestId('mmiq-table').waitFor();
  // MM-IQ Table 2: OpenAI-o3 mean 33.17, Logical Operation 35.11 ... Concrete Object 50.00.
  const cells = (model) => page.locator(`[data-testid=mmiq-reported-row][data-model="${model}"] td[data-col]:not([data-col=""])`)
    .allInnerTexts();
  const o3 = (await cells('OpenAI-o3')).map((t) => t.trim().split(/\s/)[0]);
  assert.deepEqual(o3, ['33.17', '35.11', '35.04', '30.96', '29.39', '36.17', '31.56', '30.50', '50.00']);
  // The row is marked as reported.
  const kind = await page.locator('[data-testid=mmiq-reported-row][data-model="OpenAI-o3"]').innerText();
  assert.match(kind, /reported/i);
  const order = () => page.locator('[data-testid=mmiq-table] tbody tr').evaluateAll((rs) => rs.map((r) => r.dataset.model));
  await page.getByTestId('mmiq-table').getByRole('button', { name: /^Mean/ }).first().click();
  const first = await order();
  await page.getByTestId('mmiq-table').getByRole('button', { name: /^Mean/ }).first().click();
  const second = await order();
  // One click sorts by the mean one way, the next the other way: the human baseline (51.3) and
  // o3 (33.17) lead the descending order, chance (25) leads the ascending one.
  const desc = first[0] === 'Human' ? first : second;
  const asc = first[0] === 'Human' ? second : first;
  assert.deepEqual(desc.slice(0, 2), ['Human', 'OpenAI-o3']);
  assert.equal(asc.at(-1), 'Human');
  assert.deepEqual(errors, []);
  await context.close();
});

test('benchmark tabs show MM-OPERA, Gold and the KiVA reported and baseline rows; deep links restore the tab', async () => {
  const { page, context, errors } = await newPage(env.browser);
  const app = new App(page, env.base);
  await app.goto('/leaderboard');
  await page.getByTestId('tab-mmopera').click();
  await app.table('mmopera-table2-ria').waitFor();
  await app.table('mmopera-table2-ica').waitFor();
  await app.screenshot('leaderboard-mmopera');
  await page.getByTestId('tab-gold').click();
  await app.table('gold-table3').waitFor();
  await app.screenshot('leaderboard-gold');
  await page.getByTestId('tab-kiva').click();
  await page.locator('[data-testid=kiva-reported-row]').first().waitFor();
  await page.locator('[data-testid=kiva-baseline-row]').first().waitFor();
  // A shared link opens the same tab.
  await app.goto('/leaderboard?b=gold');
  await app.table('gold-table2').waitFor();
  assert.equal(await page.getByTestId('tab-gold').getAttribute('aria-selected'), 'true');
  assert.deepEqual(errors, []);
  await context.close();
});

test('dark mode and phone width render the leaderboard', async () => {
  const { page, context, errors } = await newPage(env.browser, {
    colorScheme: 'dark', viewport: { width: 390, height: 844 },
  });
  const app = new App(page, env.base);
  await app.goto('/leaderboard');
  await page.getByTestId('mmiq-table').waitFor();
  const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  assert.equal(bg, 'rgb(20, 23, 28)');
  // The page itself does not scroll sideways; wide tables scroll inside their box.
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `page overflows horizontally by ${overflow}px`);
  await app.screenshot('leaderboard-dark-phone');
  assert.deepEqual(errors, []);
  await context.close();
});
