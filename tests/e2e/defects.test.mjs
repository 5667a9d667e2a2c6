// End-to-end tests of the defects users found (issue 26), each named after its defect. Each
// failed on the main branch before its fix.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { start, newPage, App, ROOT, DIST, SHOTS, cli, parseCsv, pythonServer } from './support.mjs';

const DATA = process.env.COGLAB_DATA ?? join(ROOT, '../shared/data');
const HAVE_DATA = existsSync(DATA);
const KEY = join(DATA, 'mmiq/MMIQ_benchmark_answer_dict.jsonl');
const PREDS = join(DATA, 'mmiq/example_output_parsed.jsonl');



/** Clicks a download button and returns the file's name and text. */
async function download(page, testid) {
  const [dl] = await Promise.all([page.waitForEvent('download'), page.getByTestId(testid).click()]);
  return { name: dl.suggestedFilename(), text: readFileSync(await dl.path(), 'utf8') };
}

let env;
before(async () => { env = await start(); });
after(async () => { await env?.close(); });

test('defect 3: shared links open on a plain static host (python3 -m http.server)', async () => {
  const server = await pythonServer(DIST);
  try {
    // Every link of the main navigation, opened in a fresh browser (no service worker yet).
    const { page: home, context: c0 } = await newPage(env.browser);
    await new App(home, server.url).goto('/');
    const routes = await home.getByTestId('main-nav').locator('a').evaluateAll(
      (as) => as.map((a) => new URL(a.href).pathname));
    await c0.close();
    assert.ok(routes.length >= 5, `main navigation links: ${routes}`);
    for (const route of [...routes.filter((r) => r !== '/'), '/leaderboard?b=kiva']) {
      const { page, context, errors } = await newPage(env.browser);
      const res = await page.goto(server.url + route);
      assert.equal(res.status(), 200, `${route}: HTTP ${res.status()}`);
      await page.getByTestId('main-nav').waitFor();
      assert.equal(await page.getByTestId('page-not-found').count(), 0, `${route} shows the not-found page`);
      if (route.includes('b=kiva')) {
        await page.getByTestId('kiva-board').waitFor();
        assert.match(new URL(page.url()).search, /b=kiva/, 'the query survives the redirect');
      }
      assert.deepEqual(errors, [], route);
      await context.close();
    }
  } finally {
    server.close();
  }
});

test('defect 5: the page shows a loading state, not a blank page, until the app runs', async () => {
  // The served HTML itself (before any script runs) has the loading line and a <noscript> text.
  const html = readFileSync(join(DIST, 'index.html'), 'utf8');
  assert.match(html, /data-testid="boot-loading"/);
  assert.match(html, /<noscript>[\s\S]*needs JavaScript[\s\S]*<\/noscript>/);
  // Without JavaScript: the explanation shows, the loading line does not.
  const noJs = await env.browser.newContext({ javaScriptEnabled: false, viewport: { width: 1280, height: 800 } });
  const p1 = await noJs.newPage();
  await p1.goto(env.base + '/leaderboard');
  assert.ok(await p1.getByTestId('boot-noscript').isVisible());
  assert.equal(await p1.getByTestId('boot-loading').isVisible(), false);
  await p1.screenshot({ path: join(SHOTS, 'defect5-noscript-1280-light.png') });
  await noJs.close();
  // With JavaScript but the app's module held back: the loading line is what the visitor sees.
  const { page, context } = await newPage(env.browser);
  let release;
  const held = new Promise((r) => { release = r; });
  await page.route(/coglab-app-.*_bg\.wasm(\.gz)?$/, async (route) => { await held; await route.continue(); });
  await page.goto(env.base + '/leaderboard', { waitUntil: 'domcontentloaded' });
  await page.getByTestId('boot-loading').waitFor();
  assert.match(await page.getByTestId('boot-loading').innerText(), /Loading coglab/);
  await page.screenshot({ path: join(SHOTS, 'defect5-loading-1280-light.png') });
  await page.setViewportSize({ width: 390, height: 800 });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: join(SHOTS, 'defect5-loading-390-dark.png') });
  release();
  // Once the app has mounted, the placeholder is gone (one header, one navigation).
  await page.getByTestId('main-nav').waitFor();
  assert.equal(await page.locator('#boot').count(), 0);
  assert.equal(await page.locator('header.site-header').count(), 1);
  await context.close();
});

test('defect 8: p-values print as "p < 0.0001", never "0.0000"', { skip: !HAVE_DATA && `${DATA} absent` }, async () => {
  const { page, context, errors } = await newPage(env.browser);
  const app = new App(page, env.base);
  await app.goto('/leaderboard');
  // A second model that answers every item right: McNemar's exact p against the example
  // predictions is far below 1e-4 (the example is right on 27% of 2,710 items).
  const dir = mkdtempSync(join(tmpdir(), 'coglab-p-'));
  const perfect = join(dir, 'perfect_output.jsonl');
  writeFileSync(perfect, readFileSync(KEY, 'utf8').trim().split('\n')
    .map((l) => { const k = JSON.parse(l); return JSON.stringify({ data_id: k.data_id, response: `The answer is ${k.answer}.` }); })
    .join('\n') + '\n');
  await page.getByTestId('file-input').setInputFiles([KEY, PREDS, perfect]);
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=staged-row]').length >= 3);
  await page.getByTestId('lb-score').click();
  await page.locator('[data-testid=mmiq-computed-row][data-model=perfect]').waitFor();
  await page.getByTestId('compare-a').selectOption({ label: 'perfect' });
  // The second was 'perfect' by default: a model is not compared with itself, so it falls back
  // to the other row (before, 'perfect' against itself was computed and, still on screen when
  // the next pair was chosen, shown under the new pair's names: "perfect − example = 0.0").
  await page.waitForFunction(() => {
    const b = document.querySelector('[data-testid=compare-b]');
    return b && b.options[b.selectedIndex]?.textContent === 'example';
  });
  await page.getByTestId('compare-b').selectOption({ label: 'example' });
  await page.getByTestId('compare-stats').waitFor();
  await page.waitForFunction(() => /McNemar/.test(document.querySelector('[data-testid=compare-stats]')?.textContent ?? ''));
  const text = await page.getByTestId('compare-stats').innerText();
  assert.match(text, /McNemar exact p < 0\.0001/);
  assert.doesNotMatch(text, /0\.0000/);
  await page.getByTestId('compare-stats').screenshot({ path: join(SHOTS, 'defect8-p-value-1280-light.png') });
  assert.deepEqual(errors, []);
  await context.close();
});

test('defect 7: at 390 px the sticky header names the model column, the self-test fits, chart text keeps its size', async () => {
  const { page, context, errors } = await newPage(env.browser, { viewport: { width: 390, height: 800 } });
  const app = new App(page, env.base);
  // KiVA's table scrolled sideways: the header that stays at the left is "Model".
  await app.goto('/leaderboard?b=kiva');
  const table = page.getByTestId('kiva-table');
  await table.locator('tbody tr').first().waitFor();
  await table.evaluate((t) => { t.scrollIntoView({ block: 'center' }); t.closest('.table-scroll').scrollLeft = 400; });
  const stuck = await table.evaluate((t) => {
    const box = t.closest('.table-scroll').getBoundingClientRect();
    // Where the header row is shown: its cells stick to the top of the board's box while the
    // rows scroll under them (the row's own box stays where it is laid out).
    const head = t.querySelector('thead th').getBoundingClientRect();
    const el = document.elementFromPoint(box.left + 8, head.top + head.height / 2);
    return el?.closest('th')?.textContent.trim();
  });
  assert.match(stuck ?? '', /^Model/, `the sticky header reads ${stuck}`);
  await page.screenshot({ path: join(SHOTS, 'defect7-kiva-scrolled-390-light.png') });
  // Charts are drawn at the width they are shown, so 12 px text stays 12 px (not 900 px
  // drawn into 350: 4.7 px).
  for (const id of ['kiva-chart']) {
    const c = page.getByTestId(id);
    await c.waitFor();
    await page.waitForFunction((tid) => {
      const el = document.querySelector(`[data-testid=${tid}]`);
      return el && Math.abs(el.width / el.getBoundingClientRect().width - 1) < 0.05;
    }, id, { timeout: 5000 }).catch(() => {});
    const ratio = await c.evaluate((el) => el.width / el.getBoundingClientRect().width);
    assert.ok(Math.abs(ratio - 1) < 0.05, `${id}: drawn ${ratio.toFixed(2)}x its shown width`);
    await c.screenshot({ path: join(SHOTS, `defect7-${id}-390-light.png`) });
  }
  // The self-test start page fits the phone's width.
  await app.navigate('Self-test (KiVA)');
  await page.getByTestId('main-nav').waitFor();
  await page.waitForTimeout(500);
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 390, `the self-test page is ${width} px wide at 390`);
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: join(SHOTS, 'defect7-selftest-390-dark.png'), fullPage: true });
  assert.deepEqual(errors, []);
  await context.close();
});

test('defect 16: self-test pictures are click targets, the options stay in view, and the end reviews each trial', async () => {
  for (const [width, height, scheme] of [[1280, 800, 'light'], [390, 800, 'dark']]) {
    const { page, context, errors } = await newPage(env.browser, { viewport: { width, height }, colorScheme: scheme });
    const app = new App(page, env.base);
    await app.goto('/self-test');
    await page.getByTestId('kind').selectOption('short');
    await page.getByTestId('seed').fill('77');
    await page.getByTestId('participant').fill('defect16');
    await page.getByTestId('start').click();
    let answered = 0;
    const seen = new Set();
    for (;;) {
      if (await page.getByTestId('results').count()) break;
      const trial = page.locator('[data-testid=trial][data-ready=true]');
      await trial.waitFor();
      const stage = Number(await trial.getAttribute('data-stage'));
      const where = `${await trial.getAttribute('data-trial')}/${stage}`;
      // Every answer button is inside the window, without scrolling.
      const boxes = await trial.getByTestId('option').evaluateAll((bs) => bs.map((b) => {
        const r = b.getBoundingClientRect();
        return { top: r.top, bottom: r.bottom, left: r.left, right: r.right };
      }));
      for (const b of boxes) {
        assert.ok(b.bottom <= height && b.top >= 0 && b.right <= width,
          `${width}x${height} trial ${where}: an option at ${JSON.stringify(b)} is out of view`);
      }
      if (!seen.has(stage)) {
        seen.add(stage);
        await page.screenshot({ path: join(SHOTS, `defect16-stage${stage}-${width}-${scheme}.png`) });
      }
      if (stage === 3) {
        // The pictures (A)-(C) are buttons themselves: clicking the picture answers.
        const picks = trial.locator('.kiva-pick');
        assert.equal(await picks.count(), 3);
        await picks.nth(1).locator('.kiva-pic').last().click();
      } else {
        await trial.getByTestId('option').first().click();
      }
      answered += 1;
      await page.waitForFunction((w) => {
        const el = document.querySelector('[data-testid=trial]');
        return !el || `${el.dataset.trial}/${el.dataset.stage}` !== w;
      }, where);
    }
    assert.ok(seen.has(3), 'a stage-3 question was shown');
    // The end: one review row per question answered, each marked right or wrong.
    const review = page.getByTestId('trial-review');
    await review.locator('summary').click();
    const rows = review.getByTestId('review-answer');
    assert.equal(await rows.count(), answered);
    const marks = await rows.evaluateAll((rs) => rs.map((r) => r.dataset.correct));
    assert.ok(marks.every((m) => m === 'true' || m === 'false'));
    const first = await rows.first().locator('td').allInnerTexts();
    assert.match(first.at(-1), /^\d+\.\d s$/, `reaction time cell: ${first.at(-1)}`);
    await review.screenshot({ path: join(SHOTS, `defect16-review-${width}-${scheme}.png`) });
    assert.deepEqual(errors, []);
    await context.close();
  }
});

test('defect 10: a self-test CSV is scored under the name typed while staging', async () => {
  const { page, context, errors } = await newPage(env.browser);
  const app = new App(page, env.base);
  await app.goto('/leaderboard?b=kiva');
  // A self-test export (KiVA's human-data layout, one participant).
  const dir = mkdtempSync(join(tmpdir(), 'coglab-self-'));
  const csv = join(dir, 'kiva-selftest-short-77.csv');
  writeFileSync(csv, ['ParticipantID,Transformation,Variation,Task,Score,Reaction Time',
    'someone,Counting+2,1,Cross Domain,1,1760', 'someone,Counting+2,1,Within Domain,1,1110',
    'someone,Counting+2,1,Extrapolation,1,1270', 'someone,Resize2XY,2,Cross Domain,0,2400',
    'someone,Resize2XY,2,Extrapolation,0,2100'].join('\r\n') + '\r\n');
  await page.getByTestId('file-input').setInputFiles([csv]);
  await page.getByTestId('staged-row').first().waitFor();
  assert.equal(await page.getByTestId('staged-kind').first().inputValue(), 'kiva_human');
  // Typed, then Score clicked at once (as a person does: no Tab, no Enter).
  await page.getByTestId('staged-model').first().click();
  await page.getByTestId('staged-model').first().fill('');
  await page.keyboard.type('Alice');
  await page.getByTestId('lb-score').click();
  // A person's self-test is a human reference row (a baseline, like KiVA's adults).
  await page.locator('[data-testid=kiva-table] tbody tr[data-model=Alice]').waitFor();
  assert.equal(await page.locator('[data-testid=kiva-table] tbody tr[data-model="kiva-selftest-short-77"]').count(), 0);
  assert.equal(await page.locator('[data-testid=kiva-table] tbody tr[data-model="someone (self-test)"]').count(), 0);
  assert.deepEqual(errors, []);
  await context.close();
});

test('defect 1: a kept answer key pairs with predictions dropped later; predictions wait for their key', { skip: !HAVE_DATA && `${DATA} absent` }, async () => {
  const { page, context, errors } = await newPage(env.browser);
  const app = new App(page, env.base);
  await app.goto('/leaderboard');
  const stageAndScore = async (paths) => {
    await page.getByTestId('file-input').setInputFiles(paths);
    await page.waitForFunction((n) => document.querySelectorAll('[data-testid=staged-row]').length === n, paths.length);
    await page.getByTestId('lb-score').click();
    await page.getByTestId('lb-files-box').waitFor();
    await page.waitForFunction(() => !document.querySelector('[data-testid=lb-cancel]'));
  };
  // The key alone, then the predictions alone: the kept key scores them.
  await stageAndScore([KEY]);
  await page.getByTestId('lb-kept-count').filter({ hasText: /^1 file kept/ }).waitFor();
  await stageAndScore([PREDS]);
  const row = page.locator('[data-testid=mmiq-computed-row][data-model=example]');
  await row.waitFor();
  assert.equal(await page.getByTestId('error-panel').count(), 0);
  await page.reload();
  await page.getByTestId('main-nav').waitFor();
  await row.waitFor();
  // Another model's predictions alone, in a fresh profile: they wait (kept, with a notice),
  // and are scored when the key comes.
  const { page: p2, context: c2, errors: e2 } = await newPage(env.browser);
  const app2 = new App(p2, env.base);
  await app2.goto('/leaderboard');
  const dir = mkdtempSync(join(tmpdir(), 'coglab-wait-'));
  const other = join(dir, 'other_output.jsonl');
  writeFileSync(other, readFileSync(PREDS, 'utf8'));
  await p2.getByTestId('file-input').setInputFiles([other]);
  await p2.getByTestId('staged-row').first().waitFor();
  await p2.getByTestId('lb-score').click();
  const waiting = p2.getByTestId('lb-waiting');
  await waiting.waitFor();
  assert.match(await waiting.innerText(), /other_output\.jsonl waits for the MM-IQ answer key/);
  assert.equal(await p2.getByTestId('error-panel').count(), 0);
  await p2.screenshot({ path: join(SHOTS, 'defect1-waiting-1280-light.png') });
  await p2.reload();
  await p2.getByTestId('lb-waiting').waitFor();
  await p2.getByTestId('file-input').setInputFiles([KEY]);
  await p2.getByTestId('staged-row').first().waitFor();
  await p2.getByTestId('lb-score').click();
  await p2.locator('[data-testid=mmiq-computed-row][data-model=other]').waitFor();
  assert.equal(await p2.getByTestId('lb-waiting').count(), 0);
  assert.deepEqual(errors, []);
  assert.deepEqual(e2, []);
  await c2.close();
  await context.close();
});

test('defect 6: a report opened while the page loads is applied whole, and the Structure workspace survives a reload', async () => {
  const { page, context, errors } = await newPage(env.browser);
  const app = new App(page, env.base);
  // A saved report of Gold's Table 2 under another name, with pruning on.
  const gold = JSON.parse(readFileSync(join(DIST, 'data/gold.json'), 'utf8'));
  const t2 = gold.tables.find((t) => t.id === 'gold-table2');
  const cols = t2.columns.filter((c) => c !== 'Overall');
  const idx = cols.map((c) => t2.columns.indexOf(c));
  const text = [['model', ...cols].join(','),
    ...t2.rows.map((r) => [r.label, ...idx.map((i) => r.values[i] ?? '')].join(','))].join('\n') + '\n';
  // The default model, as the page builds it, from a first visit in another context.
  const { page: p0, context: c0 } = await newPage(env.browser);
  await new App(p0, env.base).goto('/structure');
  await p0.getByTestId('table-outer').waitFor({ timeout: 60000 });
  const spec = JSON.parse(await p0.getByTestId('spec-json').textContent());
  await c0.close();
  const dir = mkdtempSync(join(tmpdir(), 'coglab-report-'));
  const reportFile = join(dir, 'report.json');
  writeFileSync(reportFile, JSON.stringify({ kind: 'coglab-structure-report', spec, prune: true,
    data: { name: 'mine.csv', text, models: t2.rows.map((r) => r.label), columns: cols } }));
  // Gold's bundled table arrives 1.5 s late; the report is opened at once.
  await page.route(/data\/gold\.json$/, async (route) => {
    await new Promise((r) => setTimeout(r, 1500));
    await route.continue();
  });
  await app.goto('/structure');
  await page.getByTestId('report-file').setInputFiles(reportFile);
  const summary = page.getByTestId('data-summary');
  await summary.filter({ hasText: 'mine.csv' }).waitFor();
  await page.waitForTimeout(2500);
  assert.match(await summary.textContent(), /^mine\.csv: 10 models/);
  assert.equal(await page.getByTestId('prune').isChecked(), true);
  await page.getByTestId('table-outer').waitFor({ timeout: 60000 });
  // Reload: the workspace comes back (data, pruning), not the default table.
  await page.reload();
  await page.getByTestId('table-outer').waitFor({ timeout: 60000 });
  await summary.filter({ hasText: 'mine.csv' }).waitFor();
  assert.equal(await page.getByTestId('prune').isChecked(), true);
  await app.screenshot('defect6-structure-restored-1280-light');
  // The default is one click away.
  await page.getByTestId('load-default').click();
  await summary.filter({ hasText: 'gold-table2.csv' }).waitFor();
  assert.deepEqual(errors, []);
  await context.close();
});

test('defect 9: a binary file given a text format is named as what it is, not "the first line is \\"\\""', { skip: !HAVE_DATA && `${DATA} absent` }, async () => {
  const { page, context, errors } = await newPage(env.browser);
  const app = new App(page, env.base);
  await app.goto('/leaderboard');
  const dir = mkdtempSync(join(tmpdir(), 'coglab-bin-'));
  const png = join(dir, 'chart_output.jsonl');
  writeFileSync(png, Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), Buffer.alloc(64, 7)]));
  await page.getByTestId('file-input').setInputFiles([KEY, png]);
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=staged-row]').length === 2);
  const row = page.locator('[data-testid=staged-row][data-path$="chart_output.jsonl"]');
  await row.getByTestId('staged-kind').selectOption('mmiq_predictions');
  await page.getByTestId('lb-score').click();
  const panel = page.getByTestId('error-panel').filter({ hasText: 'chart_output.jsonl' });
  await panel.waitFor();
  const text = await panel.innerText();
  assert.match(text, /chart_output\.jsonl: the file is a PNG image, not text/);
  assert.doesNotMatch(text, /first line is ""/);
  await panel.screenshot({ path: join(SHOTS, 'defect9-binary-1280-light.png') });
  assert.deepEqual(errors, []);
  await context.close();
});

test('defect 12: one rank rule, said beside every board; baselines not ranked; "rank among shown" when filtered', async () => {
  const { page, context, errors } = await newPage(env.browser);
  const app = new App(page, env.base);
  for (const b of ['mmiq', 'kiva', 'mmopera', 'gold']) {
    await app.goto(`/leaderboard?b=${b}`);
    const table = page.getByTestId(`${b}-table`);
    await table.locator('tbody tr').first().waitFor();
    const rule = await page.getByTestId(`${b}-rank-rule`).innerText();
    assert.match(rule, /rows whose 95% intervals overlap share a rank, and a row never ranks above a row with a higher value; baselines are reference rows, not ranked/, b);
    // Baselines carry no rank.
    const baseRanks = await table.locator(`[data-testid=${b}-baseline-row] td:first-child`).allInnerTexts();
    assert.ok(baseRanks.every((t) => !/^\d/.test(t.trim())), `${b} baseline ranks: ${baseRanks}`);
    // Ranks never improve down the table (sorted by the ranked column by default).
    const ranks = await table.locator('tbody td[data-rank]').evaluateAll((tds) => tds.map((td) => Number(td.dataset.rank)));
    assert.ok(ranks.every((r, i) => i === 0 || r >= ranks[i - 1]), `${b} ranks ${ranks}`);
  }
  // Filtered: the header and the rule say the ranks are among the rows shown.
  await app.goto('/leaderboard?b=mmiq');
  await page.getByTestId('mmiq-table').locator('tbody tr').first().waitFor();
  assert.equal((await page.getByTestId('mmiq-table').locator('thead th').first().innerText()).trim(), 'Rank');
  await page.getByTestId('mmiq-filter').fill('GPT');
  await page.getByTestId('mmiq-table').locator('thead th').first().filter({ hasText: 'Rank among shown' }).waitFor();
  assert.match(await page.getByTestId('mmiq-rank-rule').innerText(), /Filters are on: ranks among the \d+ rows shown/);
  await app.screenshot('defect12-ranks-filtered-1280-light');
  assert.deepEqual(errors, []);
  await context.close();
});

test('defect 15: exports for analysis: empty missing cells, n and interval columns, a model\'s items, a comparison', { skip: !HAVE_DATA && `${DATA} absent` }, async () => {
  const { page, context, errors } = await newPage(env.browser);
  const app = new App(page, env.base);
  await app.goto('/leaderboard');
  // A second model that always answers A, to compare with the example predictions.
  const dir = mkdtempSync(join(tmpdir(), 'coglab-exports-'));
  const allA = join(dir, 'allA_output.jsonl');
  writeFileSync(allA, readFileSync(KEY, 'utf8').trim().split('\n')
    .map((l) => JSON.stringify({ data_id: JSON.parse(l).data_id, response: 'The answer is A.' }))
    .join('\n') + '\n');
  await page.getByTestId('file-input').setInputFiles([KEY, PREDS, allA]);
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=staged-row]').length >= 3);
  await page.getByTestId('lb-score').click();
  await page.locator('[data-testid=mmiq-computed-row][data-model=allA]').waitFor();
  const example = cli(['score', 'mmiq', '--answers', KEY, PREDS, '--json']);

  // The board: four columns per metric; the chance row's missing n and interval are empty
  // cells, and so are its missing per-paradigm values (on screen "–").
  // (After the paired ranks arrive: the export then has their column too.)
  await page.getByTestId('mmiq-paired-header').waitFor();
  const board = parseCsv((await download(page, 'mmiq-csv')).text);
  const col = (name) => board[0].indexOf(name);
  assert.deepEqual(board[0].slice(0, 9), ['Rank', 'Paired rank', 'Model', 'Kind', 'Source', 'Mean', 'Mean n', 'Mean ci_low', 'Mean ci_high']);
  const chance = board.find((r) => r[col('Model')] === 'Chance');
  assert.deepEqual(chance.slice(col('Mean'), col('Mean') + 4), ['25.00', '', '', '']);
  assert.ok(chance.slice(col('Mean') + 4).every((c) => c === ''), chance.join());
  assert.deepEqual(chance.slice(0, 2), ['', '']);
  assert.ok(board.every((r) => !r.includes('–')));
  const ex = board.find((r) => r[col('Model')] === 'example' && r[col('Kind')] === 'computed');
  // The reported rows have an interval-overlap rank but no paired rank (no item data).
  const reported = board.filter((r) => r[col('Kind')] === 'reported');
  assert.ok(reported.length > 5 && reported.every((r) => r[0] !== '' && r[1] === ''));
  assert.match(ex[1], /^\d+(–\d+)? [a-z]+$/);
  assert.equal(Number(ex[col('Mean n')]), example.overall.n);
  assert.deepEqual([ex[col('Mean ci_low')], ex[col('Mean ci_high')]],
    [(example.overall.ci_low * 100).toFixed(2), (example.overall.ci_high * 100).toFixed(2)]);

  // A model's items: every scored item, with the CLI's verdicts.
  await page.getByTestId('model-pick').selectOption({ label: 'example' });
  const items = await download(page, 'items-csv');
  assert.equal(items.name, 'example-items.csv');
  const rows = parseCsv(items.text);
  assert.deepEqual(rows[0], ['model', 'data_id', 'category', 'extracted', 'key', 'correct', 'line', 'response']);
  assert.equal(rows.length - 1, example.overall.n);
  assert.equal(rows.slice(1).filter((r) => r[5] === '1').length, example.overall.correct);
  assert.ok(rows.slice(1).every((r) => r[0] === 'example' && (r[5] === '1') === (r[3] === r[4])));

  // A comparison: the item lists per cell add up to the CLI's 2x2 table; the JSON has it all.
  const cmp = cli(['compare', 'mmiq', '--answers', KEY, PREDS, allA, '--json', '--resamples', '2000', '--seed', '1']);
  await page.getByTestId('compare-a').selectOption({ label: 'example' });
  await page.getByTestId('compare-b').selectOption({ label: 'allA' });
  await page.waitForFunction(() => /McNemar/.test(document.querySelector('[data-testid=compare-stats]')?.textContent ?? ''));
  const pairs = await download(page, 'compare-csv');
  assert.equal(pairs.name, 'example-vs-allA.csv');
  const lines = parseCsv(pairs.text);
  assert.deepEqual(lines[0], ['stage', 'item', 'first_model', 'first_right', 'second_model', 'second_right', 'cell']);
  const count = (cell) => lines.filter((r) => r[6] === cell).length;
  assert.deepEqual([count('both_correct'), count('first_only'), count('second_only'), count('both_wrong')],
    [cmp.table.both_correct, cmp.table.first_only, cmp.table.second_only, cmp.table.both_wrong]);
  const whole = JSON.parse((await download(page, 'compare-json')).text);
  assert.deepEqual([whole.first, whole.second], ['example', 'allA']);
  assert.equal(whole.comparison.comparison.mcnemar_p.toFixed(6), cmp.mcnemar_p.toFixed(6));
  await page.getByTestId('compare').screenshot({ path: join(SHOTS, 'defect15-compare-exports-1280-light.png') });
  assert.deepEqual(errors, []);
  await context.close();
});
