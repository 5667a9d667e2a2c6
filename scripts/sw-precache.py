#!/usr/bin/env python3
"""Trunk post_build hook: writes the build's file list and version into the service worker.

Reads every file of the staged build (TRUNK_STAGING_DIR, or the directory given as the first
argument), and rewrites the marked lines of `sw.js` there:

    const VERSION = '<hash>'; // coglab:version
    const PRECACHE = ['./', 'index.html', ...]; // coglab:precache
    const LATER = ['coglab-worker.js', ...]; // coglab:later
    const LATER_BYTES = {'coglab-worker.js': 12345, ...}; // coglab:later-bytes

PRECACHE is the app shell, cached at install; LATER is the scoring worker's module
(`coglab-worker*`) and the page module's chunks (`split_*.wasm`, `chunk_*.wasm`, see
scripts/wasm-split.sh), cached when first used or when the visitor asks for all of coglab
offline (see public/sw.js); LATER_BYTES their sizes as built, for the page to say what that
costs.

VERSION is the first 16 hex digits of a SHA-256 over every file's path and contents. Trunk's
hashed names (`coglab-app-<hash>.js`) change with their content anyway, but the worker's
module (`coglab-worker*`) and the bundled data are not renamed, so their contents must be in
the version. In index.html, the Content-Security-Policy `<meta>` is
left out of the hash: it only depends on the inline script, which is hashed as part of the page
anyway. Copies of index.html (the route pages and 404.html that scripts/static-routes.py
writes) are neither precached nor hashed: offline, the worker answers every navigation with
index.html. Runs last in scripts/post-build.sh.

Idempotent (the marked lines are replaced whatever they hold), so it can be re-run on a
built dist:  python3 scripts/sw-precache.py dist
Python standard library only.
"""
import hashlib
import json
import os
import re
import sys

CSP = re.compile(r'<meta\s+http-equiv="Content-Security-Policy"[^>]*>', re.IGNORECASE)
SKIP = {"sw.js"}
# The page module's chunks (scripts/wasm-split.sh): fetched when their page is first shown, so
# cached then or when the idle page asks, like the worker's module, not at install.
SPLIT_CHUNK = re.compile(r"^(split|chunk)_[^/]*\.wasm(\.gz)?$")


def build_files(root):
    out = []
    for folder, dirs, files in os.walk(root):
        dirs.sort()
        for name in sorted(files):
            path = os.path.join(folder, name)
            rel = os.path.relpath(path, root).replace(os.sep, "/")
            if rel in SKIP or name.startswith("."):
                continue
            out.append(rel)
    return sorted(out)


def is_copy(root, rel, shell):
    """Whether `rel` is a byte-identical copy of index.html (a route page or 404.html)."""
    if not rel.endswith(".html") or os.path.getsize(os.path.join(root, rel)) != len(shell):
        return False
    with open(os.path.join(root, rel), "rb") as f:
        return f.read() == shell


def version_of(root, files):
    digest = hashlib.sha256()
    for rel in files:
        with open(os.path.join(root, rel), "rb") as f:
            data = f.read()
        if rel == "index.html":
            data = CSP.sub("", data.decode("utf-8")).encode("utf-8")
        digest.update(rel.encode("utf-8") + b"\0" + str(len(data)).encode() + b"\0" + data)
    return digest.hexdigest()[:16]


def published_items():
    """The URL prefix of the published bundle's item chunks (scripts/published.py)."""
    path = os.environ.get("COGLAB_PUBLISHED", "published").strip().strip("/") or "published"
    return f"{path}/items/"


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("TRUNK_STAGING_DIR")
    if not root:
        sys.exit("sw-precache: give the build directory (or run as a Trunk hook)")
    sw = os.path.join(root, "sw.js")
    if not os.path.exists(sw):
        sys.exit(f"sw-precache: {sw} not found (is public/sw.js copied by index.html?)")
    files = build_files(root)
    with open(os.path.join(root, "index.html"), "rb") as f:
        shell = f.read()
    files = [f for f in files if f == "index.html" or not is_copy(root, f, shell)]
    version = version_of(root, files)
    later = [f for f in files if f.startswith("coglab-worker") or SPLIT_CHUNK.match(f)]
    # The published bundle's item chunks (scripts/published.py): cached when first opened,
    # not at install (public/sw.js, PUBLISHED_ITEMS).
    items = published_items()
    precache = ["./"] + [f for f in files if f not in later and not f.startswith(items)]
    with open(sw, encoding="utf-8") as f:
        text = f.read()
    text, n1 = re.subn(
        r"^const VERSION = .*// coglab:version$",
        f"const VERSION = '{version}'; // coglab:version",
        text,
        flags=re.M,
    )
    text, n2 = re.subn(
        r"^const PRECACHE = .*// coglab:precache$",
        lambda _m: f"const PRECACHE = {json.dumps(precache)}; // coglab:precache",
        text,
        flags=re.M,
    )
    text, n3 = re.subn(
        r"^const LATER = .*// coglab:later$",
        lambda _m: f"const LATER = {json.dumps(later)}; // coglab:later",
        text,
        flags=re.M,
    )
    sizes = {f: os.path.getsize(os.path.join(root, f)) for f in later}
    text, n5 = re.subn(
        r"^const LATER_BYTES = .*// coglab:later-bytes$",
        lambda _m: f"const LATER_BYTES = {json.dumps(sizes)}; // coglab:later-bytes",
        text,
        flags=re.M,
    )
    text, n4 = re.subn(
        r"^const PUBLISHED_ITEMS = .*// coglab:published$",
        lambda _m: f"const PUBLISHED_ITEMS = {json.dumps(items)}; // coglab:published",
        text,
        flags=re.M,
    )
    if n1 != 1 or n2 != 1 or n3 != 1 or n4 != 1 or n5 != 1:
        sys.exit(
            "sw-precache: the marked VERSION / PRECACHE / LATER / LATER_BYTES lines are "
            "missing from sw.js"
        )
    with open(sw, "w", encoding="utf-8") as f:
        f.write(text)
    print(f"sw-precache: version {version}, {len(precache)} files at install, {len(later)} later")


if __name__ == "__main__":
    main()
