#!/usr/bin/env python3
"""Trunk post_build step: every wasm module is served gzipped and decompressed by the page.

A static host that sends files as they are (the README's `python3 -m http.server`, many
object stores) sent the page's module as 1.6 MB, not the 0.6 MB a compressing host sends: on
a 1.6 Mbps link the app could not be interactive before 8 s (issue 42, defect 3). So each
`*.wasm` of the build is replaced by `*.wasm.gz` (gzip -9, no name or time in the header, so
a build is reproducible) and every place that fetches one asks for the `.gz` and pipes it
through the browser's `DecompressionStream` before `WebAssembly.instantiateStreaming`:

- index.html: Trunk's inline loader script (`init({ module_or_path: '/X_bg.wasm' })`) and
  the `<link rel="preload">` of the module;
- `__wasm_split-*.js`, the page module's chunk loader (scripts/wasm-split.sh): each
  `fetch(new URL("./chunk.wasm", import.meta.url))`;
- `coglab-worker_loader.js`, the worker's loader shim (after scripts/worker-loader.py).

The helper (FETCH_WASM) reads the first bytes: a body that does not start with gzip's magic
number (a host that sent the `.gz` with `Content-Encoding: gzip`, so the browser already
decompressed it) is passed on as it is. On a host that compresses by itself nothing changes:
the `.gz` is sent once, as the wasm was sent gzipped before. Runs before csp-hash.py (the
inline script changes, and its hash is taken after). Python standard library only. Fails,
with nothing written, when a loader does not fetch a module the way expected.

    TRUNK_STAGING_DIR=dist python3 scripts/precompress.py      # by hand on a built dist
"""
import gzip
import os
import pathlib
import re
import sys

# The page's helper: a Response of the decompressed module, typed for instantiateStreaming.
FETCH_WASM = (
    "function coglabWasm(url) {"
    " return fetch(url).then(async (r) => {"
    " if (!r.ok) throw new Error(`${url}: HTTP ${r.status}`);"
    " const reader = r.body.getReader();"
    " const first = await reader.read();"
    " const head = first.value || new Uint8Array(0);"
    " const body = new ReadableStream({"
    " start(c) { if (first.done) c.close(); else c.enqueue(head); },"
    " async pull(c) { const n = await reader.read(); if (n.done) c.close(); else c.enqueue(n.value); },"
    " cancel(why) { return reader.cancel(why); } });"
    " const gz = head[0] === 0x1f && head[1] === 0x8b;"
    " return new Response(gz ? body.pipeThrough(new DecompressionStream('gzip')) : body,"
    " { headers: { 'Content-Type': 'application/wasm' } }); }); }\n"
)

INIT = re.compile(r"""init\(\{ module_or_path: '([^']+\.wasm)' \}\)""")
PRELOAD = re.compile(r"""<link rel="preload" href="[^"]+\.wasm"[^>]*>""")
CHUNK = re.compile(r"""fetch\((new URL\("\./[^"]+\.wasm)("\s*,\s*import\.meta\.url\))\)""")
WORKER = re.compile(r"""wasm_bindgen\(\{ module_or_path: ("[^"]+\.wasm)(") \}\)""")


class Failure(Exception):
    """A loader that does not fetch its module as expected."""


def gzipped(data):
    return gzip.compress(data, compresslevel=9, mtime=0)


def rewrite(root):
    """The new texts of the files that fetch wasm ({path: text}); raises Failure."""
    out = {}
    index = root / "index.html"
    text = index.read_text(encoding="utf-8")
    if "coglabWasm(" not in text:
        if len(INIT.findall(text)) != 1:
            raise Failure(f"expected one init({{ module_or_path: '...wasm' }}) in {index}")
        text = INIT.sub(lambda m: f"init({{ module_or_path: coglabWasm('{m.group(1)}.gz') }})", text)
        text = text.replace('<script type="module">', '<script type="module">\n' + FETCH_WASM, 1)
        # The preload fetches what the loader fetches (and `type` names the wasm it no longer is).
        text = PRELOAD.sub(
            lambda m: m.group(0).replace('.wasm"', '.wasm.gz"', 1).replace(' type="application/wasm"', ""),
            text,
        )
    out[index] = text
    for split in root.glob("__wasm_split*.js"):
        text = split.read_text(encoding="utf-8")
        if "coglabWasm(" not in text:
            if not CHUNK.search(text):
                raise Failure(f"no fetch(new URL(\"./...wasm\", import.meta.url)) in {split}")
            text = FETCH_WASM + CHUNK.sub(lambda m: f"coglabWasm({m.group(1)}.gz{m.group(2)})", text)
        out[split] = text
    loader = root / "coglab-worker_loader.js"
    if loader.exists():
        text = loader.read_text(encoding="utf-8")
        if "coglabWasm(" not in text:
            if len(WORKER.findall(text)) != 1:
                raise Failure(f"expected one wasm_bindgen({{ module_or_path: \"...wasm\" }}) in {loader}")
            text = FETCH_WASM + WORKER.sub(
                lambda m: f"wasm_bindgen({{ module_or_path: coglabWasm({m.group(1)}.gz{m.group(2)}) }})", text
            )
        out[loader] = text
    return out


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("TRUNK_STAGING_DIR")
    if not root:
        sys.exit("precompress: give the build directory (or run as a Trunk hook)")
    root = pathlib.Path(root)
    try:
        texts = rewrite(root)
    except Failure as e:
        sys.exit(f"precompress: {e}")
    before = after = 0
    for wasm in sorted(root.glob("*.wasm")):
        data = wasm.read_bytes()
        gz = gzipped(data)
        wasm.with_name(wasm.name + ".gz").write_bytes(gz)
        wasm.unlink()
        before += len(data)
        after += len(gz)
    for path, text in texts.items():
        path.write_text(text, encoding="utf-8")
    print(f"precompress: wasm {before} -> {after} bytes gzipped; {len(texts)} loaders fetch .gz")


if __name__ == "__main__":
    main()
