// coglab service worker: keeps the app usable offline.
//
// Every file of the build (app shell, wasm, styles, the scoring worker, bundled data) is
// cached at install time in a cache named after the build's VERSION, a hash of the files'
// contents written by scripts/sw-precache.py (a Trunk post_build hook). Requests are answered
// from that cache first, so the page, its wasm and its data always come from one build.
//
// A new deploy changes VERSION, so the browser installs the new worker beside the old one;
// it waits until the page says "update" (the page shows "Update ready"), then takes over,
// deletes the old caches and the page reloads. Nothing the user stored (IndexedDB) is touched.
// No inline script anywhere: compatible with `script-src 'self'` and `worker-src 'self'`.

const VERSION = 'dev'; // coglab:version
const PRECACHE = []; // coglab:precache
const PREFIX = 'coglab-';
const CACHE = PREFIX + VERSION;

self.addEventListener('install', (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    // `reload`: bypass the HTTP cache, so the files are this build's.
    await cache.addAll(PRECACHE.map((url) => new Request(url, { cache: 'reload' })));
  })());
});

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
});

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
    return fetch(request);
  })());
});
