// End-to-end (issue 41, items 4-5): the self-test by keyboard alone, checked with axe-core
// (tools/node_modules/axe-core, injected through the DevTools protocol, which the page's
// Content-Security-Policy does not govern) on the start page, a stage-1 and a stage-3
// question, the results and the resume choice, at 1280 px light and 390 px dark: no serious or
// critical violation (the counts by impact are printed). Screenshots of the resume choice
// and of a finished session's results.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { start, newPage, App, ROOT, SHOTS } from './support.mjs';

const requireTools = createRequire(join(ROOT, 'tools/package.json'));
const AXE = readFileSync(requireTools.resolve('axe-core/axe.min.js'), 'utf8');

let env;
before(async () => { env = await start(); });
after(async () => { await env?.close(); });

/** axe-core's violations on the page, as [impact, id, count of nodes]. */
async function violations(page) {
  await page.evaluate(AXE);
  const found = await page.evaluate(async () => {
    // eslint-disable-next-line no-undef
    const r = await axe.run(document, { resultTypes: ['violations'] });
    return r.violations.map((v) => [v.impact, v.id, v.nodes.length, v.nodes[0]?.target?.join(' ')]);
  });
  return found;
}

function check(where, found) {
  const byImpact = {};
  for (const [impact] of found) byImpact[impact] = (byImpact[impact] ?? 0) + 1;
  console.log(`# axe ${where}: ${JSON.stringify(byImpact)} ${JSON.stringify(found)}`);
  const bad = found.filter(([impact]) => impact === 'serious' || impact === 'critical');
  assert.deepEqual(bad, [], `${where}: serious or critical violations`);
}

for (const [label, options] of [
  ['1280 light', { viewport: { width: 1280, height: 900 }, colorScheme: 'light' }],
  ['390 dark', { viewport: { width: 390, height: 844 }, colorScheme: 'dark' }],
]) {
  test(`self-test by keyboard alone, no serious or critical axe violation (${label})`, async () => {
    const { page, context, errors } = await newPage(env.browser, options);
    const app = new App(page, env.base);
    await app.goto('/self-test');
    check(`${label} start`, await violations(page));
    // Start a session by keyboard: Tab to the start link and Enter.
    await page.getByTestId('seed').fill('77');
    await page.getByTestId('start').focus();
    await page.keyboard.press('Enter');
    const trial = page.locator('[data-testid=trial][data-ready=true]');
    await trial.waitFor();
    check(`${label} stage 1`, await violations(page));
    // 14 trials: stage 1 by key 5 ("Doesn't apply", never right), so stage 2 is skipped;
    // stage 3 by key A.
    for (let t = 1; t <= 14; t++) {
      await page.locator(`[data-testid=trial][data-trial="${t}"][data-stage="1"][data-ready=true]`).waitFor();
      await page.keyboard.press('5');
      await page.locator(`[data-testid=trial][data-trial="${t}"][data-stage="3"][data-ready=true]`).waitFor();
      if (t === 1) check(`${label} stage 3`, await violations(page));
      await page.keyboard.press('a');
    }
    await page.getByRole('heading', { name: /result/i }).first().waitFor();
    check(`${label} results`, await violations(page));
    // Reopened from the list: finished, said so, results again.
    await app.goto('/self-test?kind=kiva&seed=77');
    await page.getByTestId('session-finished').waitFor();
    await page.screenshot({ path: join(SHOTS, `selftest-finished-${label.replace(' ', '-')}.png`) });
    // A session left three days ago: the choice, by keyboard.
    await page.evaluate(() => {
      const all = JSON.parse(localStorage.getItem('coglab.selftest.v1'));
      const s = all.find((x) => x.seed === 77);
      const old = { ...s, id: 'kiva|78', seed: 78, responses: [], started_ms: Date.now() - 3 * 86400000 };
      // One stage-1 answer, so the session is started but unfinished.
      old.responses = [{ cross: { choice: 4, rt_ms: 1000 }, within: null, extrapolation: null }];
      all.unshift(old);
      localStorage.setItem('coglab.selftest.v1', JSON.stringify(all));
    });
    await app.goto('/self-test?kind=kiva&seed=78');
    await page.getByTestId('resume-offer').waitFor();
    assert.match(await page.getByTestId('resume-offer').innerText(), /3 days ago/);
    check(`${label} resume choice`, await violations(page));
    await page.screenshot({ path: join(SHOTS, `selftest-resume-offer-${label.replace(' ', '-')}.png`) });
    await page.getByTestId('resume').focus();
    await page.keyboard.press('Enter');
    await page.locator('[data-testid=trial][data-trial="1"][data-stage="3"][data-ready=true]').waitFor();

    // The adaptive form (issue 41, item 2): chosen on the start page, one trial at a time until
    // it stops (at most 20), then the ability, its percentile, the domains and the models.
    await app.goto('/self-test');
    await page.getByTestId('kind').selectOption('adaptive');
    await page.getByTestId('seed').fill('79');
    await page.getByTestId('start').focus();
    await page.keyboard.press('Enter');
    let trials = 0;
    for (let t = 1; t <= 20; t++) {
      const q = page.locator(`[data-testid=trial][data-trial="${t}"][data-stage="1"][data-ready=true]`);
      const done = page.getByTestId('ability-summary');
      await Promise.race([q.waitFor(), done.waitFor()]);
      if (await done.isVisible()) break;
      if (t === 1) {
        assert.match(await page.locator('.kiva-progress').innerText(), /at most 20 trials/);
        await page.screenshot({ path: join(SHOTS, `selftest-adaptive-trial-${label.replace(' ', '-')}.png`) });
      }
      await page.keyboard.press('5');
      await page.locator(`[data-testid=trial][data-trial="${t}"][data-stage="3"][data-ready=true]`).waitFor();
      await page.keyboard.press('a');
      trials = t;
    }
    const summary = await page.getByTestId('ability-summary').innerText();
    console.log(`# adaptive session (${label}): ${trials} trials; ${summary}`);
    assert.match(summary, new RegExp(`from ${trials} trials`));
    assert.match(summary, /Percentile among KiVA's 250 adults: \d+/);
    assert.equal(await page.getByTestId('ability-models').locator('tbody tr').count(), 4);
    assert.ok(await page.getByTestId('ability-profile').locator('tbody tr').count() >= 1);
    check(`${label} adaptive results`, await violations(page));
    await page.getByTestId('ability').scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SHOTS, `selftest-adaptive-results-${label.replace(' ', '-')}.png`), fullPage: true });
    assert.deepEqual(errors, []);
    await context.close();
  });
}
