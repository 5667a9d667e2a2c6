// Shared set-up for the end-to-end tests: Debian's Chromium driven by playwright-core, a static
// server for dist/, page objects, and a guard that fails a test on any console or page error.
import { createRequire } from 'node:module';
import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { dirname, join, resolve } from 'node:path';
import { serve } from './server.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const requireTools = createRequire(join(here, '../../tools/package.json'));
const { chromium } = requireTools('playwright-core');

export const ROOT = resolve(here, '../..');
export const DIST = process.env.COGLAB_DIST ?? join(ROOT, 'dist');
export const SHOTS = join(here, 'screenshots');

/** Launches Chromium and a server for dist/. Returns { browser, base, close }. */
export async function start() {
  await mkdir(SHOTS, { recursive: true });
  const server = await serve(DIST);
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  return {
    browser,
    base: server.url,
    close: async () => { await browser.close(); await server.close(); },
  };
}

/** A page that records console errors and uncaught exceptions. */
export async function newPage(browser, options = {}) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, ...options });
  const page = await context.newPage();
  const errors = [];
  page.on('console', (msg) => { if (msg.type() === 'error') errors.push(`console: ${msg.text()}`); });
  page.on('pageerror', (err) => errors.push(`pageerror: ${err.message}`));
  return { page, context, errors };
}

/** Page object for the coglab app. */
export class App {
  constructor(page, base) { this.page = page; this.base = base; }

  /** Opens a route and waits until the app has mounted (the navigation is visible). */
  async goto(route) {
    await this.page.goto(this.base + route);
    await this.page.getByTestId('main-nav').waitFor();
  }

  /** Clicks a main navigation link by its text. */
  async navigate(text) {
    await this.page.getByTestId('main-nav').getByRole('link', { name: text, exact: true }).click();
  }

  /** Saves a full-page screenshot under tests/e2e/screenshots/. */
  async screenshot(name) {
    await this.page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
  }

  /** The leaderboard's table with the given id, as a locator. */
  table(id) { return this.page.getByTestId(`table-${id}`); }

  /** Text of every cell of a table's row, by row label. */
  async row(tableId, label) {
    const row = this.table(tableId).locator('tbody tr').filter({
      has: this.page.locator('th', { hasText: new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`) }),
    }).first();
    return row.locator('td').allInnerTexts();
  }

  /** Row labels of a table in display order. */
  async rowLabels(tableId) {
    return this.table(tableId).locator('tbody th[scope=row]').evaluateAll(
      (ths) => ths.map((th) => th.firstChild.textContent));
  }
}
