// Screenshots of every page at desktop (1280x800) and phone (390x844) width, light and dark,
// from the release build in dist/ (or COGLAB_DIST), into tests/e2e/screenshots/pages/.
//
//   node scripts/screenshots.mjs [OUT_DIR]   (after trunk build --release)
//
// OUT_DIR lets two builds be shot side by side (before and after a change: COGLAB_DIST=... for
// the other build). Says when a page is wider than the window, and exits non-zero on a console
// error.
// Each page is shown after its main content has loaded (the leaderboard's reported rows, the
// Structure page's fitted tables). Uses the same Chromium and server as the end-to-end tests.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { start, newPage, SHOTS } from '../tests/e2e/support.mjs';

const PAGES = [
  ['home', '/', 'page-home'],
  ['leaderboard-mmiq', '/leaderboard', 'mmiq-reported-row'],
  ['leaderboard-kiva', '/leaderboard?b=kiva', 'page-leaderboard'],
  ['leaderboard-mmopera', '/leaderboard?b=mmopera', 'page-leaderboard'],
  ['leaderboard-gold', '/leaderboard?b=gold', 'page-leaderboard'],
  ['self-test', '/self-test', 'page-self-test'],
  ['review', '/review', 'page-review'],
  ['structure', '/structure', 'table-outer'],
  ['not-found', '/no-such-page', 'main-nav'],
];
const SIZES = [['desktop', 1280, 800], ['phone', 390, 844]];
const out = process.argv[2] ?? join(SHOTS, 'pages');
let failed = 0;
await mkdir(out, { recursive: true });
const env = await start();
try {
  for (const scheme of ['light', 'dark']) {
    for (const [size, width, height] of SIZES) {
      const { page, context, errors } = await newPage(env.browser, { viewport: { width, height }, colorScheme: scheme });
      for (const [name, route, testid] of PAGES) {
        await page.goto(env.base + route);
        await page.getByTestId(testid).first().waitFor({ timeout: 60000 });
        await page.waitForTimeout(400);
        await page.screenshot({ path: join(out, `${name}-${size}-${scheme}.png`), fullPage: true });
        const wide = await page.evaluate(() => document.documentElement.scrollWidth);
        if (wide > width) console.log(`${name} ${size} ${scheme}: the page is ${wide} px wide at ${width}`);
      }
      if (errors.length) {
        failed += errors.length;
        console.log(`${scheme} ${size}: ${errors.join('; ')}`);
      }
      await context.close();
    }
  }
  console.log(`screenshots in ${out}`);
} finally {
  await env.close();
}
process.exitCode = failed ? 1 : 0;
