#!/usr/bin/env python3
"""Trunk post_build step: the first page's chunks and data start downloading with the page.

Without hints, a leaderboard tab whose code is in a chunk (KiVA, MM-OPERA, Gold; src/split.rs)
asks for its chunks only once the page module has run, and for its data once the chunk has:
on a slow link (Fast 3G, 150 ms round trip) that is a chain of round trips after the page
module, about 1.3 s for the KiVA tab's 33 files (issue 42). This step writes a small inline
script into index.html, before the module loader, that reads the address (route and `b`
query parameter) and adds a `<link rel="preload" as="fetch" crossorigin>` for each file the
first view will fetch: the route's or tab's split-point chunk and every chunk it depends on,
and the tab's bundled data. The loaders fetch the same URLs in the same mode (`fetch`,
same-origin credentials), so each file is downloaded once, while the page module is.

The chunk sets are read from the chunk loader (`__wasm_split-*.js`, after precompress.py
named the `.wasm.gz` files; before minify-js.mjs) and the split points are named below by
their Rust function names (`#[lazy] fn kiva_tab`); a split point that is not found fails the
build. Runs before csp-hash.py, which authorises the script by its hash. Python standard
library only.

    TRUNK_STAGING_DIR=dist python3 scripts/preload-hints.py      # by hand on a built dist
"""
import json
import os
import pathlib
import re
import sys

# What each first view fetches: route -> { value of `b` ('' for any) -> (split point, data) }.
# A key `b~v` is the view with that `v` too (KiVA's `v=adults`, whose figures are a file of
# their own), taken before `b` alone. The data files are the ones `load_reported` /
# `fetch_text` ask for (src/pages/leaderboard; KiVA's are `Baselines::file_name`).
VIEWS = {
    "leaderboard": {
        "mmiq": (None, "data/mmiq.json"),
        "": (None, "data/mmiq.json"),
        "kiva": ("kiva_tab", "data/kiva-baselines.json"),
        "kiva~adults": ("kiva_tab", "data/kiva-adults-baselines.json"),
        "mmopera": ("mmopera_tab", "data/mmopera.json"),
        "gold": ("gold_tab", "data/gold.json"),
    },
    "self-test": {"": ("self_test", None)},
    "review": {"": ("review", None)},
    "structure": {"": ("structure", None)},
}

LOAD = re.compile(
    r"(?:export )?const (__wasm_split_load_(\w+?)_\d+|__chunk_\d+) = (?:wrapAsyncCb\()?makeLoad\(\(\) => \{\s*"
    r"const src = coglabWasm\(new URL\(\"\./([^\"]+)\", import\.meta\.url\)\);.*?\n\}\s*,\s*\[([^\]]*)\]",
    re.DOTALL,
)
MARK = "<!-- coglab:preload-hints -->"
BASE = re.compile(r"<base\b[^>]*>", re.IGNORECASE)


class Failure(Exception):
    """A loader or page that is not as expected."""


def chunk_sets(loader):
    """{split point name: [files it fetches, its own last]} from the chunk loader's text."""
    files, deps, points = {}, {}, {}
    for m in LOAD.finditer(loader):
        var, point, file, dep = m.group(1), m.group(2), m.group(3), m.group(4)
        files[var] = file
        deps[var] = [d.strip() for d in dep.split(",") if d.strip()]
        if point:
            points[point] = var
    if not points:
        raise Failure("no split point loaders (__wasm_split_load_...) in the chunk loader")
    out = {}
    for point, var in points.items():
        missing = [d for d in deps[var] if d not in files]
        if missing:
            raise Failure(f"split point {point} depends on unknown loaders {missing}")
        out[point] = [files[d] for d in deps[var]] + [files[var]]
    return out


def hints(sets):
    """{route: {b: [paths relative to the base]}} for the views in VIEWS."""
    out = {}
    for route, tabs in VIEWS.items():
        for b, (point, data) in tabs.items():
            paths = []
            if point is not None:
                if point not in sets:
                    raise Failure(f"split point {point} (route {route}) not found in the chunk loader")
                paths += sets[point]
            if data is not None:
                paths.append(data)
            out.setdefault(route, {})[b] = paths
    return out


def compact(table):
    """The table with each file named once: ([files], {route: {b: [indices into files]}})."""
    files = sorted({f for tabs in table.values() for paths in tabs.values() for f in paths})
    index = {f: i for i, f in enumerate(files)}
    views = {r: {b: [index[f] for f in paths] for b, paths in tabs.items()} for r, tabs in table.items()}
    return files, views


def script(table):
    """The inline script: the route below the base, `b`, and a preload link per file, at low
    priority so that the page module and its glue, which every view needs first, keep the
    connections they ask for (HTTP/1.1 hosts open six)."""
    files, views = compact(table)
    return (
        "<script>(function () {"
        f" var f = {json.dumps(files, separators=(',', ':'))};"
        f" var v = {json.dumps(views, separators=(',', ':'))};"
        " var base = new URL(document.baseURI);"
        " var rest = location.pathname.slice(base.pathname.length).replace(/\\/+$/, '').split('/')[0];"
        " var tabs = v[rest]; if (!tabs) return;"
        " var q = new URLSearchParams(location.search), b = q.get('b') || '';"
        " var want = tabs[b + '~' + q.get('v')] || tabs[b] || tabs[''] || [];"
        " for (var i = 0; i < want.length; i++) {"
        " var l = document.createElement('link'); l.rel = 'preload'; l.as = 'fetch';"
        " l.crossOrigin = 'anonymous'; l.fetchPriority = 'low'; l.href = new URL(f[want[i]], base).href;"
        " document.head.appendChild(l); } })();</script>"
    )


def with_script(html, text):
    """index.html with the hints right after the `<base>` element, whose address they resolve
    against (an earlier run's hints replaced). The CSP `<meta>` comes before it."""
    html = re.sub(re.escape(MARK) + r"<script>.*?</script>\n?", "", html, flags=re.DOTALL)
    m = BASE.search(html)
    if m is None:
        raise Failure("index.html has no <base> element to put the hints after")
    return html[: m.end()] + "\n" + MARK + text + "\n" + html[m.end() :].lstrip("\n")


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("TRUNK_STAGING_DIR")
    if not root:
        sys.exit("preload-hints: give the build directory (or run as a Trunk hook)")
    root = pathlib.Path(root)
    loaders = sorted(root.glob("__wasm_split*.js"))
    if not loaders:
        print("preload-hints: no chunk loader (a build without split points); nothing hinted")
        return
    try:
        if len(loaders) != 1:
            raise Failure(f"expected one chunk loader, found {[p.name for p in loaders]}")
        table = hints(chunk_sets(loaders[0].read_text(encoding="utf-8")))
        index = root / "index.html"
        html = with_script(index.read_text(encoding="utf-8"), script(table))
    except Failure as e:
        sys.exit(f"preload-hints: {e}")
    index.write_text(html, encoding="utf-8")
    n = sum(len(p) for tabs in table.values() for p in tabs.values())
    print(f"preload-hints: {n} hinted files over {sum(len(t) for t in table.values())} views")


if __name__ == "__main__":
    main()
