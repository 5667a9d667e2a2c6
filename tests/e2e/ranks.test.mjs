// End-to-end: paired ranks on the KiVA board (issue 20). The three released KiVA runs of
// ../shared/data (GPT-4V multi-image, GPT-4V single-image, MANTIS multi-image) are picked as
// folders and scored in the worker; the rank panel's groups, rank ranges, MDD sentence and
// Holm-adjusted p-values, and the table's rank cells, equal `coglab rank kiva ... --json` on
// the same folders; the Benjamini-Hochberg switch gives `--adjust bh`'s p-values; the
// extraction panel shows the three readings; the judge panel says why it is empty. Screenshot
// with the panels open.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { start, newPage, App, ROOT, cli } from './support.mjs';

const DATA = process.env.COGLAB_DATA ?? join(ROOT, '../shared/data');
if (!existsSync(DATA) && process.env.CI === 'true') {
  throw new Error(`${DATA} is absent: the ranks end-to-end test needs the real data in CI`);
}
const RUNS = ['gpt4_multi_image', 'gpt4_single_image', 'mantis_multi_image']
  .map((m) => [m, join(DATA, 'kiva/model_data/KiVA', m)]);


/** Page object: the KiVA tab's rank panel. */
class Ranks {
  constructor(page) { this.page = page; }
  async pickFolder(dir, n = 14) {
    await this.page.getByTestId('folder-input').setInputFiles(dir);
    await this.page.waitForFunction((k) => document.querySelectorAll('[data-testid=staged-row]').length >= k, n);
    await this.page.getByTestId('lb-score').click();
  }
  /** Waits until the panel ranks exactly `names` (its rows, in board order). */
  async waitRanked(names) {
    await this.page.waitForFunction((want) => {
      const got = [...document.querySelectorAll('[data-testid=kiva-rank-rows-row]')].map((r) => r.dataset.key);
      return got.length === want.length && want.every((m) => got.includes(m));
    }, names);
  }
  /** The panel's ranked rows: [{ model, range, group, leader }] in board order (cells: rank,
   *  group, model, score, coverage, leader group, ...; data-value holds the exact value). */
  async rows() {
    return this.page.locator('[data-testid=kiva-rank-rows-row]').evaluateAll((rs) => rs.map((r) => {
      const v = [...r.querySelectorAll('td')].map((td) => td.dataset.value);
      return { model: r.dataset.key, range: v[0], group: v[1], leader: v[5] };
    }));
  }
  /** The table's rank cell of a computed row: { range, group }. */
  async tableCell(model) {
    const td = this.page.locator(`[data-testid=kiva-computed-row][data-model="${model}"] td.lb-rank`);
    return { range: await td.getAttribute('data-rank-range'), group: await td.getAttribute('data-group') };
  }
  /** Opens a panel (a <details>) if closed. */
  async open(testid) {
    const d = this.page.getByTestId(testid);
    if (!(await d.evaluate((el) => el.open))) await d.locator('summary').click();
  }
  /** The pairs shown: [{ a, b, n, test, p, q }] (cells: A, B, shared, test, A − B, p,
   *  adjusted p). */
  async pairs() {
    await this.open('kiva-pairs');
    await this.page.locator('[data-testid=kiva-pairs-row]').first().waitFor();
    return this.page.locator('[data-testid=kiva-pairs-row]').evaluateAll((rs) => rs.map((r) => {
      const td = [...r.querySelectorAll('td')];
      return {
        a: td[0].innerText, b: td[1].innerText, n: Number(td[2].dataset.value), test: td[3].innerText,
        p: Number(td[5].dataset.value), q: Number(td[6].dataset.value),
      };
    }));
  }
}

/** Asserts that the pairs shown are the CLI's, adjusted p to 1e-12 relative. */
function samePairs(shown, json, what) {
  assert.equal(shown.length, json.pairs.length, what);
  for (const want of json.pairs) {
    const got = shown.find((p) => p.a === want.a && p.b === want.b);
    assert.ok(got, `${what}: pair ${want.a} / ${want.b} not shown`);
    assert.equal(got.n, want.n_shared, what);
    assert.equal(got.test, want.test, what);
    const rel = (x, y) => Math.abs(x - y) <= 1e-12 * Math.max(Math.abs(y), 1e-300);
    assert.ok(rel(got.p, want.p), `${what} ${want.a}/${want.b} p: ${got.p} vs ${want.p}`);
    assert.ok(rel(got.q, want.p_adjusted), `${what} ${want.a}/${want.b} adjusted: ${got.q} vs ${want.p_adjusted}`);
  }
}

let env;
before(async () => { env = await start(); });
after(async () => { await env?.close(); });

test('three KiVA runs: groups, ranges and adjusted p-values equal coglab rank --json',
  { skip: !existsSync(DATA) && 'needs ../shared/data' }, async () => {
    const { page, context, errors } = await newPage(env.browser);
    const app = new App(page, env.base);
    const ranks = new Ranks(page);
    await app.goto('/leaderboard?b=kiva');
    for (const [model, dir] of RUNS) {
      await ranks.pickFolder(dir);
      await page.locator(`[data-testid=kiva-computed-row][data-model="${model}"]`).waitFor();
    }
    await ranks.waitRanked(RUNS.map(([m]) => m));
    const dirs = RUNS.map(([, d]) => d);
    const holm = cli(['rank', 'kiva', ...dirs, '--json']);
    assert.equal(holm.adjust, 'holm');
    assert.equal(holm.test, 'wilcoxon');

    // Rows: the CLI's board order, rank ranges and letters, in the panel and in the table.
    const rows = await ranks.rows();
    assert.deepEqual(rows.map((r) => r.model), holm.models.map((m) => m.name));
    for (const m of holm.models) {
      const range = m.rank_low === m.rank_high ? `${m.rank_low}` : `${m.rank_low}–${m.rank_high}`;
      const got = rows.find((r) => r.model === m.name);
      assert.equal(got.range, range, m.name);
      assert.equal(got.group, m.group, m.name);
      assert.equal(got.leader, String(m.leader_group), m.name);
      assert.deepEqual(await ranks.tableCell(m.name), { range, group: m.group }, m.name);
    }
    // The released runs are 1, 2, 3 with letters a, b, c (every adjusted p below 0.05).
    assert.deepEqual(rows.map((r) => [r.range, r.group]), [['1', 'a'], ['2', 'b'], ['3', 'c']]);
    // Header: the test and Holm named, the MDD sentence as the CLI words it.
    const header = await page.getByTestId('kiva-rank-header').innerText();
    assert.ok(header.includes('Wilcoxon') && header.includes('Holm (default)'), header);
    assert.equal((await page.getByTestId('kiva-mdd').innerText()).trim(), holm.mdd.text);
    assert.ok((await page.getByTestId('kiva-rank-missing').innerText()).includes('missing items counted as wrong (default)'));
    samePairs(await ranks.pairs(), holm, 'holm');

    // Benjamini-Hochberg: the same pairs, BH-adjusted as `--adjust bh`.
    await page.getByTestId('kiva-adjust').selectOption('bh');
    await page.waitForFunction(() => document.querySelector('[data-testid=kiva-rank-header]')
      ?.innerText.includes('Benjamini-Hochberg'));
    const bh = cli(['rank', 'kiva', ...dirs, '--adjust', 'bh', '--json']);
    samePairs(await ranks.pairs(), bh, 'bh');
    const bhRows = await ranks.rows();
    assert.deepEqual(bhRows.map((r) => r.group), bh.models.map((m) => m.group));

    // Answered items only: every run covers all 700 trials, so the board is unchanged.
    await page.getByTestId('kiva-missing').selectOption('answered');
    await page.waitForFunction(() => document.querySelector('[data-testid=kiva-rank-missing]')
      ?.innerText.includes('answered items only'));
    assert.equal(await page.locator('[data-testid=coverage-mark]').count(), 0);

    // Extraction robustness: official, strict and lenient for the three runs; the judge panel
    // says it applies to MM-OPERA.
    await ranks.open('kiva-extraction');
    await page.getByTestId('kiva-extraction-table').waitFor();
    const heads = await page.locator('[data-testid=kiva-extraction-table] thead th').allInnerTexts();
    for (const h of ['official', 'strict', 'lenient']) assert.ok(heads.includes(h), heads.join('|'));
    assert.equal(await page.locator('[data-testid=kiva-extraction-table] tbody tr').count(), 3);
    const x = cli(['rank', 'kiva', ...dirs, '--json']).kiva_extraction;
    const single = x.rows.find((r) => r.name === 'gpt4_single_image');
    const flips = await page.locator('[data-testid=kiva-extraction-row][data-key=gpt4_single_image] td')
      .last().getAttribute('data-value');
    assert.equal(Number(flips), single.flip_count);
    await ranks.open('kiva-judges');
    assert.ok((await page.getByTestId('kiva-judges-message').innerText()).includes('MM-OPERA'));
    await ranks.open('kiva-rank-rows');
    await ranks.open('kiva-rank-glossary');
    assert.ok(await page.locator('[data-testid=kiva-rank-glossary] dt').count() >= 10);
    await app.screenshot('leaderboard-kiva-ranks');
    assert.deepEqual(errors.filter((e) => !e.includes('404')), []);
    await context.close();
  });
