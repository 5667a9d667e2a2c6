// A minimal static file server for the release build (dist/), used by the end-to-end tests.
// Serves files with the right MIME types and falls back to index.html for app routes, as a
// static host configured for a single-page app does. Listens on a free loopback port.
import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';
import { gzipSync } from 'node:zlib';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.wasm': 'application/wasm',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.webmanifest': 'application/manifest+json',
};

/** Types sent gzip-compressed (-9) when the browser accepts it, as static hosts do. */
const COMPRESSED = new Set(['.html', '.js', '.wasm', '.css', '.json', '.svg', '.webmanifest']);

/**
 * Starts a server for `root`; resolves to { url, close }. Text and wasm go gzip-compressed to a
 * browser that accepts it (so the transfer sizes the browser records are what a visitor
 * downloads), with a Last-Modified validator answered by 304, as common static hosts do.
 */
export async function serve(root) {
  const gzipped = new Map();
  const server = createServer(async (req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url, 'http://x').pathname));
    let file = join(root, path);
    if (!file.startsWith(root)) { res.writeHead(403).end(); return; }
    try {
      if ((await stat(file)).isDirectory()) file = join(file, 'index.html');
    } catch {
      // Unknown path: app routes fall back to index.html; missing assets are 404s.
      file = extname(path) ? null : join(root, 'index.html');
    }
    if (!file) { res.writeHead(404).end('not found'); return; }
    try {
      const info = await stat(file);
      const modified = new Date(Math.floor(info.mtimeMs / 1000) * 1000);
      const since = req.headers['if-modified-since'];
      if (since && new Date(since) >= modified) { res.writeHead(304).end(); return; }
      let body = await readFile(file);
      const headers = {
        'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
        'last-modified': modified.toUTCString(),
      };
      if (COMPRESSED.has(extname(file)) && /\bgzip\b/.test(req.headers['accept-encoding'] ?? '')) {
        const key = `${file}:${info.mtimeMs}:${info.size}`;
        if (!gzipped.has(key)) gzipped.set(key, gzipSync(body, { level: 9 }));
        body = gzipped.get(key);
        headers['content-encoding'] = 'gzip';
        headers.vary = 'accept-encoding';
      }
      // The length on the wire (compressed when it is), as static hosts send it.
      headers['content-length'] = body.length;
      res.writeHead(200, headers);
      res.end(body);
    } catch {
      res.writeHead(404).end('not found');
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((r) => server.close(r)) };
}
