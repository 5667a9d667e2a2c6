#!/usr/bin/env python3
"""Trunk post_build hook: the worker's loader shim calls wasm-bindgen's init the current way.

Trunk 0.21 writes the worker's loader (`data-loader-shim`, `coglab-worker_loader.js`) as

    importScripts("./coglab-worker.js");wasm_bindgen("./coglab-worker_bg.wasm");

and wasm-bindgen's init (0.2.130 here) takes an object: given a string it still works but
logs "using deprecated parameters for the initialization function; pass a single object
instead" in every tab that starts the worker (issue 42, defect 16). This hook rewrites the
call to `wasm_bindgen({ module_or_path: "./coglab-worker_bg.wasm" })`.

Reads TRUNK_STAGING_DIR. Python standard library only. Idempotent: a loader already in the
object form is left as it is. Fails (non-zero exit, the file untouched) when the loader is
missing or calls init neither way.

    TRUNK_STAGING_DIR=dist python3 scripts/worker-loader.py      # by hand on a built dist
"""
import os
import pathlib
import re
import sys

LOADER = "coglab-worker_loader.js"
OLD = re.compile(r'wasm_bindgen\(\s*("[^"\\]+")\s*\)')
NEW = re.compile(r'wasm_bindgen\(\s*\{\s*module_or_path:\s*"[^"\\]+"\s*\}\s*\)')


def rewritten(text):
    """The loader's text with its init call in the object form; raises ValueError when the
    text calls init neither as Trunk writes it nor in the object form."""
    if NEW.search(text):
        return text
    calls = OLD.findall(text)
    if len(calls) != 1:
        raise ValueError(
            f"expected one wasm_bindgen(\"...wasm\") call in {LOADER}, found {len(calls)}"
        )
    return OLD.sub(lambda m: f"wasm_bindgen({{ module_or_path: {m.group(1)} }})", text)


def main():
    stage = os.environ.get("TRUNK_STAGING_DIR")
    if not stage:
        sys.exit("worker-loader: TRUNK_STAGING_DIR is not set")
    path = pathlib.Path(stage) / LOADER
    if not path.is_file():
        sys.exit(f"worker-loader: {path} not found")
    text = path.read_text(encoding="utf-8")
    try:
        new = rewritten(text)
    except ValueError as e:
        sys.exit(f"worker-loader: {e}")
    if new != text:
        path.write_text(new, encoding="utf-8")


if __name__ == "__main__":
    main()
