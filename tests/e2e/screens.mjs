// Screenshots of every page as a person meets it, for looking at before and after a change:
// each route at 1280x800 and 390x800, light and dark (the system colour scheme the app follows),
// full page, after the page's own content is on screen (a page in a split chunk has loaded).
// Not a test (it asserts nothing but the absence of console errors): run by hand,
//
//   node tests/e2e/screens.mjs [OUT_DIR]        (default tests/e2e/screenshots/pages)
//
// against dist/ (or COGLAB_DIST). Prints each file and the console errors seen, if any.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { start, newPage, SHOTS } from './support.mjs';

const out = process.argv[2] ?? join(SHOTS, 'pages');
mkdirSync(out, { recursive: true });
// Each route and what shows that its page is there.
const ROUTES = [
  ['home', '/', '[data-testid=main-nav]'],
  ['leaderboard-mmiq', '/leaderboard', '[data-testid=mmiq-reported-row]'],
  ['leaderboard-kiva', '/leaderboard?b=kiva', '[data-testid=kiva-reported-row]'],
  ['leaderboard-mmopera', '/leaderboard?b=mmopera', '[data-testid=mmopera-reported-row]'],
  ['leaderboard-gold', '/leaderboard?b=gold', '[data-testid=gold-reported-row]'],
  ['self-test', '/self-test', 'main h1'],
  ['review', '/review', 'main h1'],
  ['structure', '/structure', '[data-testid=table-outer]'],
  ['not-found', '/no-such-page', 'main h1'],
];
const env = await start();
let failed = 0;
try {
  for (const [width, label] of [[1280, '1280'], [390, '390']]) {
    for (const scheme of ['light', 'dark']) {
      const { page, context, errors } = await newPage(env.browser, {
        viewport: { width, height: 800 }, colorScheme: scheme });
      for (const [name, route, ready] of ROUTES) {
        await page.goto(env.base + route);
        await page.locator(ready).first().waitFor({ timeout: 30000 });
        await page.waitForTimeout(300);
        const file = join(out, `${name}-${label}-${scheme}.png`);
        await page.screenshot({ path: file, fullPage: true });
        const wide = await page.evaluate(() => document.documentElement.scrollWidth);
        console.log(`${file}${wide > width ? ` (page ${wide} px wide at ${width})` : ''}`);
      }
      if (errors.length) { failed += errors.length; console.log(`console errors: ${errors.join('; ')}`); }
      await context.close();
    }
  }
} finally {
  await env.close();
}
process.exitCode = failed ? 1 : 0;
