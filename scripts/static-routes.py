#!/usr/bin/env python3
"""Trunk post_build step: makes the app's deep links work on any static host.

The app is a single page whose routes (`/leaderboard?b=kiva`, `/structure`, ...) exist only in
the browser. A plain static server (`python3 -m http.server -d dist`, an S3 bucket, nginx with
no rewrite rule) answers such a link with 404 when it is opened in a fresh browser. This step
writes, next to the built `index.html`:

- `<route>/index.html` for every route of the app (ROUTES below, the paths of
  the `<Route>`s of `src/lib.rs`'s `App`): a static server serves `/leaderboard/` from it and redirects
  `/leaderboard?b=kiva` to `/leaderboard/?b=kiva` (the query is kept; the app's router ignores
  a trailing slash);
- `404.html`, the same page, which GitHub Pages, Netlify, Cloudflare Pages and others serve for
  any unknown path, so a link to a route this list misses still boots the app (which then shows
  its own "not found" page).

The copies are `index.html` but for one thing, which works because Trunk writes absolute asset
URLs under the public URL and a `<base href>`; they must be written after `csp-hash.py` has put
the inline script's hash into the CSP (scripts/post-build.sh runs the steps in order).

The one thing: each page keeps render-blocking only the stylesheets its route needs (main
and leaderboard everywhere, `selftest`, `review` or `structure` on their own route); the
others' `<link rel="stylesheet">`s go into a `<template id="coglab-later-css">` in their place,
which a browser does not fetch, and the app adds them when a page that needs them starts
(src/later_css.rs). On a plain host they were 14 KB
read before the leaderboard's first view (issue 42). `index.html` (the home page) and
`404.html` hold all three back.

Idempotent (a template already written is put back first). Python standard library only.

    python3 scripts/static-routes.py dist      # by hand on a built dist
"""
import os
import re
import sys

# The app's routes below the base path (the `<Route>`s of `App` in src/lib.rs); the e2e test
# tests/e2e/static-host.test.mjs opens every link of the main navigation on a plain server.
ROUTES = ["leaderboard", "self-test", "review", "structure"]

# Stylesheets held back until the app asks (Trunk's `<stem>-<hash>.css`), by the route that
# needs each at once.
LATER = {"selftest": "self-test", "review": "review", "structure": "structure"}
TEMPLATE_ID = "coglab-later-css"  # src/later_css.rs
TEMPLATE = re.compile(r'<template id="' + TEMPLATE_ID + r'">(.*?)</template>\n?', re.S)
LINK = re.compile(
    r'<link rel="stylesheet" href="(?:[^"]*/)?(' + "|".join(LATER) + r')-[0-9a-f]{1,16}\.css"[^>]*>\n?'
)


def for_route(html, route):
    """`html` with the stylesheets `route` does not need moved into the later template, which
    takes the place of the first of them (so a second run puts them back where they were)."""
    html = TEMPLATE.sub(lambda m: m.group(1).replace("><link", ">\n<link") + "\n", html)
    later = []

    def take(m):
        if LATER[m.group(1)] == route:
            return m.group(0)
        later.append(m.group(0).strip())
        return "\0later\0" if len(later) == 1 else ""

    out = LINK.sub(take, html)
    if not later:
        return out
    template = f'<template id="{TEMPLATE_ID}">' + "".join(later) + "</template>\n"
    return out.replace("\0later\0", template, 1)


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("TRUNK_STAGING_DIR")
    if not root:
        sys.exit("static-routes: give the build directory (or run as a Trunk hook)")
    index = os.path.join(root, "index.html")
    if not os.path.exists(index):
        sys.exit(f"static-routes: {index} not found")
    with open(index, encoding="utf-8") as f:
        html = f.read()
    pages = {os.path.join(root, r, "index.html"): r for r in ROUTES}
    pages[os.path.join(root, "404.html")] = None
    pages[index] = ""  # the home page, last: the others are made from it as it was
    for path, route in pages.items():
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            f.write(for_route(html, route))
    print(f"static-routes: {len(ROUTES)} route pages and 404.html")


if __name__ == "__main__":
    main()
