// Offline and installable (issue 9): the service worker caches the build, the app and its
// bundled data load with the network off, the manifest and icons are served, and a new build's
// worker replaces the old cache after the page shows "Update ready".
//
// The served directory is a copy of the build, so the test can make a "second deploy" by
// changing one unhashed file (the worker module's loader) and re-running the precache hook on the copy.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cp, mkdtemp, readFile, appendFile, rm } from 'node:fs/promises';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { DIST, ROOT, SHOTS, App, newPage } from './support.mjs';
import { serve } from './server.mjs';

const requireTools = createRequire(join(ROOT, 'tools/package.json'));
const { chromium } = requireTools('playwright-core');

async function swVersion(dir) {
  const text = await readFile(join(dir, 'sw.js'), 'utf8');
  return /const VERSION = '([^']+)'/.exec(text)[1];
}

/** Waits until a service worker controls the page. */
async function controlled(page) {
  await page.waitForFunction(() => navigator.serviceWorker && navigator.serviceWorker.controller !== null,
    null, { timeout: 30000 });
}

async function cacheNames(page) {
  return page.evaluate(() => caches.keys());
}

test('offline: cached build loads without network; a new build replaces the cache', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'coglab-offline-'));
  await cp(DIST, dir, { recursive: true });
  const server = await serve(dir);
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run'],
  });
  try {
    const { page, context, errors } = await newPage(browser);
    const app = new App(page, server.url);
    await app.goto('/');
    await controlled(page);
    const v1 = await swVersion(dir);
    assert.deepEqual(await cacheNames(page), [`coglab-${v1}`]);

    // Installable: the manifest is linked and names 192 and 512 px PNG icons that are served.
    const manifest = await page.evaluate(async () => {
      const href = document.querySelector('link[rel=manifest]').href;
      return (await fetch(href)).json();
    });
    assert.equal(manifest.display, 'standalone');
    const sizes = manifest.icons.filter((i) => i.type === 'image/png').map((i) => i.sizes);
    assert.ok(sizes.includes('192x192') && sizes.includes('512x512'));
    for (const icon of manifest.icons) {
      const status = await page.evaluate((src) => fetch(src).then((r) => r.status), icon.src);
      assert.equal(status, 200, icon.src);
    }

    // The worker module is not part of the first download, nor fetched by itself: the
    // visitor asks for all of coglab offline in the footer (issue 42, defect 4).
    await page.getByTestId('offline-all').click();
    await page.getByTestId('offline-ready').waitFor({ timeout: 60000 });
    for (let tries = 0; ; tries += 1) {
      const cached = await page.evaluate(async () => {
        const keys = await (await caches.open((await caches.keys())[0])).keys();
        return keys.some((r) => /coglab-worker_bg\.wasm(\.gz)?$/.test(r.url));
      });
      if (cached) break;
      if (tries > 60) throw new Error('the worker module was not cached within 30 s');
      await page.waitForTimeout(500);
    }

    // Network off: the app, a deep route and the bundled data still load.
    await context.setOffline(true);
    await page.reload();
    await page.getByTestId('main-nav').waitFor();
    await page.goto(server.url + '/leaderboard');
    await page.getByTestId('mmiq-table').waitFor({ timeout: 20000 });
    const o3 = await page.locator('[data-testid=mmiq-reported-row][data-model="OpenAI-o3"] td[data-col=mean]').innerText();
    assert.match(o3, /^33\.17/, 'bundled data read offline');
    await app.screenshot('offline-leaderboard-offline');
    // The worker runs offline too: the Structure page fits Gold's Table 2 in it.
    await app.navigate('Structure (Gold)');
    await page.getByTestId('table-outer').waitFor({ timeout: 60000 });
    await context.setOffline(false);

    // A second deploy: one unhashed file changes, the hook writes a new version.
    await appendFile(join(dir, 'coglab-worker_loader.js'), '\n// second deploy\n');
    execFileSync('python3', [join(ROOT, 'scripts/sw-precache.py'), dir]);
    const v2 = await swVersion(dir);
    assert.notEqual(v2, v1);
    await page.reload();
    await page.getByTestId('update-ready').waitFor({ timeout: 30000 });
    // Both caches exist while the new worker waits.
    assert.deepEqual((await cacheNames(page)).sort(), [`coglab-${v1}`, `coglab-${v2}`].sort());
    await app.screenshot('offline-update-ready');
    await page.setViewportSize({ width: 390, height: 800 });
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.getByTestId('update-ready').screenshot({ path: join(SHOTS, 'offline-update-ready-390-dark.png') });
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.emulateMedia({ colorScheme: 'light' });
    await Promise.all([
      page.waitForEvent('load'),
      page.getByTestId('update-apply').click(),
    ]);
    await page.getByTestId('main-nav').waitFor();
    await page.waitForFunction((v) => caches.keys().then((k) => k.length === 1 && k[0] === `coglab-${v}`),
      v2, { timeout: 30000, polling: 200 });
    assert.equal(await page.getByTestId('update-ready').count(), 0);
    const served = await page.evaluate(() => fetch('coglab-worker_loader.js').then((r) => r.text()));
    assert.ok(served.includes('// second deploy'), 'the new build is served from the new cache');
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
    await server.close();
    await rm(dir, { recursive: true, force: true });
  }
});
