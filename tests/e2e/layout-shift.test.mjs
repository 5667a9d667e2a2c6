// End-to-end: no layout shift when results arrive (issue 6, quality bar). The Layout Instability
// API reports every shift of visible content; shifts within 500 ms of a click or key press are
// marked `hadRecentInput` and are the user's own doing. The rest, summed as Cumulative Layout
// Shift, must stay under 0.1 (the "good" threshold of Core Web Vitals) while the leaderboard
// loads its bundled tables and while dropped files are staged, scored and shown, at desktop and
// phone width.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { start, newPage, App, ROOT } from './support.mjs';

const DATA = process.env.COGLAB_DATA ?? join(ROOT, '../shared/data');
const HAVE_DATA = existsSync(DATA);
if (!HAVE_DATA && process.env.CI === 'true') {
  throw new Error(`${DATA} is absent: the layout-shift test needs the real data in CI`);
}
const KEY = join(DATA, 'mmiq/MMIQ_benchmark_answer_dict.jsonl');
const PREDS = join(DATA, 'mmiq/example_output_parsed.jsonl');
const GPT4 = join(DATA, 'kiva/model_data/KiVA/gpt4_multi_image');

let env;
before(async () => { env = await start(); });
after(async () => { await env?.close(); });

/** Records layout shifts from the first paint on (buffered), split by recent input. */
async function watchShifts(page) {
  await page.addInitScript(() => {
    window.__shifts = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) {
        window.__shifts.push({
          value: e.value,
          input: e.hadRecentInput,
          at: Math.round(e.startTime),
          nodes: (e.sources || []).map((s) => s.node?.dataset?.testid || s.node?.nodeName || '?'),
        });
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
}

async function shifts(page) {
  const all = await page.evaluate(() => window.__shifts);
  const unexpected = all.filter((s) => !s.input);
  return { cls: unexpected.reduce((a, s) => a + s.value, 0), unexpected, all };
}

for (const [label, viewport] of [['desktop', { width: 1280, height: 800 }], ['phone', { width: 390, height: 844 }]]) {
  test(`leaderboard (${label}): results arrive without layout shift`, { skip: !HAVE_DATA && 'no ../shared/data' }, async () => {
    const { page, context, errors } = await newPage(env.browser, { viewport });
    await watchShifts(page);
    const app = new App(page, env.base);
    await app.goto('/leaderboard');
    await page.locator('[data-testid=mmiq-reported-row], [data-testid=board-row], table tbody tr').first().waitFor();
    await page.waitForTimeout(300);
    const load = await shifts(page);

    // MM-IQ files: staged (detected formats appear), then scored; the computed row arrives
    // after the click's 500 ms window when the worker is slower, so wait past it either way.
    await page.getByTestId('file-input').setInputFiles([KEY, PREDS]);
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=staged-row]').length >= 2);
    await page.waitForTimeout(600);
    await page.getByTestId('lb-score').click();
    await page.locator('[data-testid=mmiq-computed-row]').first().waitFor({ timeout: 60000 });
    await page.waitForTimeout(800);
    const mmiq = await shifts(page);

    // A KiVA folder on its tab.
    await page.getByRole('tab', { name: /KiVA/ }).click();
    await page.waitForTimeout(600);
    await page.getByTestId('folder-input').setInputFiles(GPT4);
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=staged-row]').length >= 14);
    await page.waitForTimeout(600);
    await page.getByTestId('lb-score').click();
    await page.locator('[data-testid=kiva-computed-row], [data-kind=computed]').first().waitFor({ timeout: 60000 });
    await page.waitForTimeout(800);
    const kiva = await shifts(page);

    const where = kiva.unexpected.map((s) => `${s.value.toFixed(4)} at ${s.at} ms (${s.nodes.join(" ")})`).join("; ");
    console.log(`layout shift (${label}): CLS after load ${load.cls.toFixed(4)}, after MM-IQ ${mmiq.cls.toFixed(4)}, after KiVA ${kiva.cls.toFixed(4)}; ${kiva.all.length} shifts in all, ${kiva.unexpected.length} without recent input${where ? `: ${where}` : ""}`);
    assert.ok(kiva.cls < 0.1, `cumulative layout shift ${kiva.cls.toFixed(4)} >= 0.1: ${JSON.stringify(kiva.unexpected)}`);
    assert.deepEqual(errors, []);
    await context.close();
  });
}
