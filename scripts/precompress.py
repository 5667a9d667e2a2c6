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

The `.gz` files are written by zopfli (Debian's `zopfli`, installed by scripts/bootstrap.sh)
when it is on PATH: the same gzip format, about 4% smaller than gzip -9 (the page module 435
KB -> 417 KB), which is 0.1 s of a first visit on a 1.6 Mbps link (issue 42). It takes
seconds per module, so its outputs are kept by content in `gz/` of the wasm-opt cache
(COGLAB_WASM_OPT_CACHE, else `wasm-opt-cache/` in CARGO_TARGET_DIR or target/; `off` keeps
nothing) and modules are compressed in parallel. Without zopfli, or with COGLAB_ZOPFLI=off,
gzip -9 as before.

    TRUNK_STAGING_DIR=dist python3 scripts/precompress.py      # by hand on a built dist
"""
import concurrent.futures
import gzip
import hashlib
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile

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


def gz_cache(env=os.environ):
    """The folder of kept zopfli outputs, or None when COGLAB_WASM_OPT_CACHE=off."""
    if env.get("COGLAB_WASM_OPT_CACHE") == "off":
        return None
    root = pathlib.Path(__file__).resolve().parent.parent
    base = env.get("COGLAB_WASM_OPT_CACHE") or os.path.join(
        env.get("CARGO_TARGET_DIR") or root / "target", "wasm-opt-cache"
    )
    return pathlib.Path(base) / "gz"


def zopfli(data, tool, cache):
    """`data` gzipped by zopfli (from the cache when compressed before)."""
    key = hashlib.sha256(data).hexdigest()
    kept = cache / f"{key}.gz" if cache else None
    if kept and kept.is_file():
        return kept.read_bytes(), True
    with tempfile.TemporaryDirectory() as tmp:
        src = pathlib.Path(tmp) / "m.wasm"
        src.write_bytes(data)
        out = subprocess.run([tool, "--gzip", "-c", str(src)], check=True, capture_output=True).stdout
    if gzip.decompress(out) != data:
        raise Failure(f"{tool} wrote a gzip that does not give the module back")
    if kept:
        cache.mkdir(parents=True, exist_ok=True)
        part = kept.with_suffix(f".{os.getpid()}.part")
        part.write_bytes(out)
        part.replace(kept)
    return out, False


def compress_all(blobs):
    """The gzipped bytes of each module (zopfli when there, else gzip -9), and a summary."""
    tool = None if os.environ.get("COGLAB_ZOPFLI") == "off" else shutil.which("zopfli")
    if tool is None:
        return [gzipped(b) for b in blobs], "gzip -9 (zopfli not found or COGLAB_ZOPFLI=off)"
    cache = gz_cache()
    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        done = list(pool.map(lambda b: zopfli(b, tool, cache), blobs))
    reused = sum(1 for _, hit in done if hit)
    return [gz for gz, _ in done], f"zopfli, {reused} of {len(blobs)} as compressed before"


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
    modules = sorted(root.glob("*.wasm"))
    blobs = [m.read_bytes() for m in modules]
    try:
        gzs, how = compress_all(blobs)
    except (Failure, OSError, subprocess.CalledProcessError) as e:
        sys.exit(f"precompress: {e}")
    for wasm, gz in zip(modules, gzs):
        wasm.with_name(wasm.name + ".gz").write_bytes(gz)
        wasm.unlink()
    for path, text in texts.items():
        path.write_text(text, encoding="utf-8")
    before, after = sum(map(len, blobs)), sum(map(len, gzs))
    print(f"precompress: wasm {before} -> {after} bytes gzipped ({how}); {len(texts)} loaders fetch .gz")


if __name__ == "__main__":
    main()
