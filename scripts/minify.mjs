// Trunk post_build step: the page's JavaScript minified with terser and the bundled data
// written without indentation (issue 42: on a plain static host nothing is compressed on the
// wire; wasm-bindgen's glue for the page module was 89 KB, the chunk loader 23 KB and the KiVA
// tab's data 41 KB, each read before a tab's table shows, about 0.2 s apiece at 1.6 Mbps).
// Runs after precompress.py and preload-hints.py (which read the chunk loader's text by
// pattern) and before csp-hash.py; the inline scripts in index.html are left as they are
// (their CSP hashes are taken next). Every `integrity` of a `<link>` naming a minified file
// is set again, in every HTML file of the folder (index.html; the route copies come later).
//
//   node scripts/minify.mjs DIR        # or as a hook: TRUNK_STAGING_DIR
//
// Files: the page module's glue (coglab-app-*.js), the split chunks' loader (__wasm_split-*.js),
// the worker's glue and loader shim (coglab-worker*.js), the stylesheets Trunk hashed
// (`<name>-<hash>.css`, the hash Trunk's up to 16 hex digits, minified by lightningcss, the minifier Trunk itself would use: 41 KB of
// CSS read before the first view, sent as written), and data/*.json (parsed and written
// again by JSON.stringify: the same values, as every reader parses them). Names are kept: a
// content-hashed name still names one text, as the minified text is a function of it. Fails,
// with nothing written, when a file cannot be parsed.
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const toolsRequire = createRequire(join(here, '../tools/package.json'));
const { minify } = toolsRequire('terser');
const { transform: transformCss } = toolsRequire('lightningcss');

/**
 * The oldest browsers whose syntax the minified CSS keeps (lightningcss's targets, major << 16
 * | minor << 8): the ones the app runs in at all (DecompressionStream, which loads every wasm
 * module: Chrome 80, Firefox 113, Safari 16.4). Without targets lightningcss writes the
 * newest syntax, e.g. `(max-width: 40rem)` as `(width<=40rem)`, which Chrome before 104 ignores.
 */
export const CSS_TARGETS = { chrome: 80 << 16, firefox: 113 << 16, safari: (16 << 16) | (4 << 8) };

/** Which files are minified, and whether each is an ES module (the worker's are classic scripts). */
export function targets(names) {
  const out = [];
  for (const name of names) {
    if (/^coglab-app-[0-9a-f]+\.js$/.test(name) || /^__wasm_split-[0-9a-f]+\.js$/.test(name)) {
      out.push({ name, module: true });
    } else if (name === 'coglab-worker.js' || name === 'coglab-worker_loader.js') {
      out.push({ name, module: false });
    }
  }
  return out;
}

/** A file's Subresource Integrity value (sha384, as Trunk writes it). */
export function sri(bytes) {
  return `sha384-${createHash('sha384').update(bytes).digest('base64')}`;
}

/**
 * `html` with the integrity attribute of each `<link>` whose href ends in a key of `digests`
 * replaced by its value. Other tags and text are unchanged.
 */
export function withIntegrity(html, digests) {
  return html.replace(/<link\b[^>]*>/g, (tag) => {
    const href = /\shref="([^"]*)"/.exec(tag)?.[1];
    const file = href?.split('/').pop();
    if (!file || !(file in digests) || !/\sintegrity="[^"]*"/.test(tag)) return tag;
    return tag.replace(/(\sintegrity=")[^"]*(")/, `$1${digests[file]}$2`);
  });
}

/** Minifies the folder's scripts and data in place; returns [{ name, before, after }]. */
export async function minifyDir(dir) {
  const files = targets(readdirSync(dir));
  const results = [];
  for (const { name, module } of files) {
    const text = readFileSync(join(dir, name), 'utf8');
    let out;
    try {
      out = await minify(text, {
        module,
        compress: { passes: 2 },
        mangle: true,
        format: { comments: false },
      });
    } catch (e) {
      throw new Error(`minify: ${name}: ${e.message}`);
    }
    results.push({ name, text: out.code, before: Buffer.byteLength(text), after: Buffer.byteLength(out.code) });
  }
  for (const name of readdirSync(dir).filter((n) => /^[\w-]+-[0-9a-f]{1,16}\.css$/.test(n)).sort()) {
    const text = readFileSync(join(dir, name));
    let out;
    try {
      out = transformCss({ filename: name, code: text, minify: true, targets: CSS_TARGETS }).code.toString('utf8');
    } catch (e) {
      throw new Error(`minify: ${name}: ${e.message}`);
    }
    results.push({ name, text: out, before: text.length, after: Buffer.byteLength(out) });
  }
  const data = join(dir, 'data');
  for (const name of existsSync(data) ? readdirSync(data).filter((n) => n.endsWith('.json')).sort() : []) {
    const text = readFileSync(join(data, name), 'utf8');
    let out;
    try {
      out = JSON.stringify(JSON.parse(text));
    } catch (e) {
      throw new Error(`minify: data/${name}: ${e.message}`);
    }
    results.push({ name: `data/${name}`, text: out, before: Buffer.byteLength(text), after: Buffer.byteLength(out) });
  }
  const digests = Object.fromEntries(results.map((r) => [r.name, sri(Buffer.from(r.text))]));
  const pages = readdirSync(dir).filter((n) => n.endsWith('.html'));
  const html = pages.map((n) => [n, withIntegrity(readFileSync(join(dir, n), 'utf8'), digests)]);
  // Every file parsed: write.
  for (const r of results) writeFileSync(join(dir, r.name), r.text);
  for (const [n, text] of html) writeFileSync(join(dir, n), text);
  return results.map(({ name, before, after }) => ({ name, before, after }));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const dir = process.argv[2] ?? process.env.TRUNK_STAGING_DIR;
  if (!dir) {
    console.error('minify: give the build directory (or run as a Trunk hook)');
    process.exit(2);
  }
  try {
    const done = await minifyDir(dir);
    const [b, a] = done.reduce(([x, y], r) => [x + r.before, y + r.after], [0, 0]);
    console.log(`minify: ${done.length} files (scripts, styles, data), ${b} -> ${a} bytes`);
  } catch (e) {
    console.error(e.message);
    process.exit(1);
  }
}
