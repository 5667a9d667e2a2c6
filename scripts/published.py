#!/usr/bin/env python3
"""Trunk post_build steps for the published leaderboard (`coglab publish DIR --out OUT`).

A maintainer publishes into `public/published` (or any folder named by COGLAB_PUBLISHED_SRC)
and builds:

    coglab publish leaderboard/ --out public/published
    trunk build --release --offline

Two steps, run by scripts/post-build.sh:

- `published.py copy`: copies the bundle into the staged build under the URL path
  COGLAB_PUBLISHED (default `published`) and names it in index.html
  (`<meta name="coglab-published" content="published/">`: the app asks for a bundle only when
  this is there, so a site without one fetches nothing and logs no 404). Without a bundle (no
  `index.json` in the source folder) nothing is written. Runs before static-routes.py, so the
  route pages carry the same `<meta>`.
- `published.py inline`: puts a static board per benchmark into the leaderboard's route page
  (`leaderboard/index.html`), inside the loading screen: readers without JavaScript and
  search engines see the boards, every visitor on any host sees rows before the wasm has run
  (issue 42, defect 3), and the app replaces them when it has loaded (src/main.rs removes
  `#boot`). A benchmark's board is the bundle's (`boards/<benchmark>.html`, rendered by
  `coglab publish`) when the bundle has one, else the papers' reported board
  (`public/boards/<benchmark>.html`, or COGLAB_BOARDS_SRC: written by `cargo run --bin
  coglab-boards` from the bundled data, as the app's tables show it). A line of links above
  them leads to each. Runs after static-routes.py and before sw-precache.py (the page is then
  no longer a copy of index.html, so it is precached and hashed).

The service worker precaches the bundle's index and boards with the build; the item chunks
(`items/`) are left out of the precache list and cached when first fetched (public/sw.js,
sw-precache.py). Idempotent. Python standard library only.

    python3 scripts/published.py copy dist && python3 scripts/published.py inline dist
"""
import os
import re
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
BOARDS = ["mmiq", "kiva", "kiva-adults", "mmopera-ria", "mmopera-ica", "gold"]
LABELS = {
    "mmiq": "MM-IQ",
    "kiva": "KiVA",
    "kiva-adults": "KiVA-adults",
    "mmopera-ria": "MM-OPERA RIA",
    "mmopera-ica": "MM-OPERA ICA",
    "gold": "Gold",
}
MARK_START = "<!-- coglab:published -->"
MARK_END = "<!-- /coglab:published -->"


def url_path():
    return os.environ.get("COGLAB_PUBLISHED", "published").strip().strip("/") or "published"


def reported_source():
    src = os.environ.get("COGLAB_BOARDS_SRC")
    if src:
        return src
    return os.path.join(os.path.dirname(HERE), "public", "boards")


def source():
    src = os.environ.get("COGLAB_PUBLISHED_SRC")
    if src:
        return src
    return os.path.join(os.path.dirname(HERE), "public", "published")


def copy(root):
    src = source()
    dest = os.path.join(root, url_path())
    if not os.path.exists(os.path.join(src, "index.json")):
        print(f"published: no bundle in {src} (run `coglab publish DIR --out {src}`)")
        return
    if os.path.exists(dest):
        shutil.rmtree(dest)
    # source.txt names the maintainer's folder for `coglab verify`; the site does not need it.
    shutil.copytree(src, dest, ignore=shutil.ignore_patterns("source.txt", ".*"))
    index = os.path.join(root, "index.html")
    with open(index, encoding="utf-8") as f:
        text = f.read()
    meta = f'<meta name="coglab-published" content="{url_path()}/" />'
    text = re.sub(r'\s*<meta name="coglab-published"[^>]*>', "", text)
    text = text.replace("</head>", f"  {meta}\n  </head>", 1)
    with open(index, "w", encoding="utf-8") as f:
        f.write(text)
    n = sum(len(files) for _, _, files in os.walk(dest))
    print(f"published: {n} files of {src} copied to {url_path()}/")


def inline(root):
    boards_dir = os.path.join(root, url_path(), "boards")
    page = os.path.join(root, "leaderboard", "index.html")
    if not os.path.exists(page):
        return
    parts = []
    for b in BOARDS:
        html = None
        path = os.path.join(boards_dir, f"{b}.html")
        if os.path.exists(path):
            with open(path, encoding="utf-8") as f:
                html = f.read()
            # The board's own policy tag is for the board opened alone; the page has its own.
            html = re.sub(r'\A<meta http-equiv="Content-Security-Policy"[^>]*>\n?', "", html)
            if 'data-source="published"' not in html and 'data-source="reported"' not in html:
                html = None
        if html is None:
            path = os.path.join(reported_source(), f"{b}.html")
            if not os.path.exists(path):
                continue
            with open(path, encoding="utf-8") as f:
                html = f.read()
        parts.append((b, html))
    if not parts:
        return
    links = " · ".join(f'<a href="#static-{b}">{LABELS[b]}</a>' for b, _ in parts)
    block = (
        f"{MARK_START}\n<div class=\"static-boards\" data-testid=\"static-boards\">\n"
        f'<nav class="static-toc" aria-label="Boards">Boards: {links}</nav>\n'
        + "".join(f'<div id="static-{b}">{html}</div>\n' for b, html in parts)
        + f"</div>\n{MARK_END}"
    )
    with open(page, encoding="utf-8") as f:
        text = f.read()
    text = re.sub(re.escape(MARK_START) + r".*?" + re.escape(MARK_END) + r"\n?", "", text, flags=re.S)
    if "</main>" not in text:
        sys.exit(f"published: no </main> in {page}")
    text = text.replace("</main>", block + "\n      </main>", 1)
    with open(page, "w", encoding="utf-8") as f:
        f.write(text)
    print(f"published: {len(parts)} static boards in leaderboard/index.html")


def main():
    if len(sys.argv) < 2 or sys.argv[1] not in ("copy", "inline"):
        sys.exit("usage: published.py copy|inline [BUILD_DIR]")
    root = sys.argv[2] if len(sys.argv) > 2 else os.environ.get("TRUNK_STAGING_DIR")
    if not root:
        sys.exit("published: give the build directory (or run as a Trunk hook)")
    if sys.argv[1] == "copy":
        copy(root)
    else:
        inline(root)


if __name__ == "__main__":
    main()
