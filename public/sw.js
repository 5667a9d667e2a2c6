// coglab service worker: keeps the app usable offline.
//
// The app shell (page, its wasm and glue, styles, bundled data, icons) is cached at install
// time in a cache named after the build's VERSION, a hash of the files' contents written by
// scripts/sw-precache.py (a Trunk post_build hook). Requests are answered from that cache
// first, so the page, its wasm and its data always come from one build.
//
// The install reuses what the page has just downloaded: names Trunk hashed by content
// (`coglab-app-<hash>_bg.wasm`) are taken from the browser's HTTP cache when there
// (`force-cache`: the same name is the same bytes), other files are revalidated (`no-cache`: a
// 304 costs no body). So the first visit downloads each file once.
//
// The scoring worker's module and the page module's chunks (LATER) are not part of the first
// download: each is cached when the page first fetches it (starts the worker, shows a page
// whose code is in a chunk), so what a visitor has used works offline. The rest is fetched
// only when the visitor asks for all of coglab offline ('precache-later': the page's "Make
// available offline" button, or installing the app), never by itself: a phone on mobile data
// does not pay for offline use it did not ask for (issue 42, defect 4). 'offline-status'
// answers how many LATER files are missing and their size (LATER_BYTES, written at build time).
//
// A new deploy changes VERSION, so the browser installs the new worker beside the old one;
// it waits until the page says "update" (the page shows "Update ready"), then takes over,
// deletes the old caches and the page reloads. Nothing the user stored (IndexedDB) is touched.
// No inline script anywhere: compatible with `script-src 'self'` and `worker-src 'self'`.

const VERSION = 'dev'; // coglab:version
const PRECACHE = []; // coglab:precache
const LATER = []; // coglab:later
const LATER_BYTES = {}; // coglab:later-bytes
// The published leaderboard's item chunks (scripts/published.py): not precached, cached when
// a visitor first opens a model, a comparison or the rank groups.
const PUBLISHED_ITEMS = 'published/items/'; // coglab:published
const PREFIX = 'coglab-';
const CACHE = PREFIX + VERSION;
// A name Trunk made from the file's content hash.
// (Modules are served gzipped, `.wasm.gz`: scripts/precompress.py.)
const HASHED = /-[0-9a-f]{8,16}(_bg)?\.(js|wasm|wasm\.gz|css)$/;

function requestFor(url) {
  return new Request(url, { cache: HASHED.test(url) ? 'force-cache' : 'no-cache' });
}

async function addAll(urls) {
  const cache = await caches.open(CACHE);
  await cache.addAll(urls.map(requestFor));
}

self.addEventListener('install', (event) => {
  event.waitUntil(addAll(PRECACHE));
});

/** The LATER files not cached yet. */
async function missingLater() {
  const cache = await caches.open(CACHE);
  const missing = [];
  for (const url of LATER) {
    if (!(await cache.match(url))) missing.push(url);
  }
  return missing;
}

/** How many LATER files are not cached yet, and their size in bytes as built. */
async function offlineStatus() {
  const missing = await missingLater();
  const bytes = missing.reduce((sum, url) => sum + (LATER_BYTES[url] || 0), 0);
  return { missing: missing.length, bytes, files: LATER.length };
}

/** Caches the LATER files not cached yet (asked by the visitor: "Make available offline"). */
async function precacheLater() {
  const missing = await missingLater();
  if (missing.length) {
    const cache = await caches.open(CACHE);
    await cache.addAll(missing.map(requestFor));
  }
}

self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    const names = await caches.keys();
    await Promise.all(names
      .filter((name) => name.startsWith(PREFIX) && name !== CACHE)
      .map((name) => caches.delete(name)));
    await self.clients.claim();
  })());
});

self.addEventListener('message', (event) => {
  if (event.data === 'skip-waiting') self.skipWaiting();
  if (event.data === 'version' && event.ports[0]) event.ports[0].postMessage(VERSION);
  const reply = event.ports[0];
  if (event.data === 'precache-later') {
    event.waitUntil(precacheLater()
      .then(offlineStatus)
      .then((status) => reply?.postMessage(status))
      .catch((e) => reply?.postMessage({ error: String(e) })));
  }
  if (event.data === 'offline-status' && reply) {
    event.waitUntil(offlineStatus().then((status) => reply.postMessage(status)));
  }
});

/** Whether `url` (absolute) is one of the LATER files of this build. */
function isLater(url) {
  const scope = self.registration.scope;
  return url.startsWith(scope) && LATER.includes(url.slice(scope.length));
}

/** Whether `url` (absolute) is an item chunk of the published bundle. */
function isPublishedItem(url) {
  const scope = self.registration.scope;
  return url.startsWith(scope + PUBLISHED_ITEMS) && url.endsWith('.json');
}

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    const hit = await cache.match(request);
    if (hit) return hit;
    if (request.mode === 'navigate') {
      // A route of the single-page app (/review, /leaderboard?...): the app shell.
      const shell = await cache.match(new URL('index.html', self.registration.scope).href);
      if (shell) return shell;
    }
    const response = await fetch(request);
    // The worker module or a page chunk, fetched when the page first needs it: kept for offline use.
    if (response.ok && (isLater(url.origin + url.pathname) || isPublishedItem(url.href))) {
      await cache.put(request, response.clone());
    }
    return response;
  })());
});
