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

The copies are byte-identical to `index.html`, which works because Trunk writes absolute asset
URLs under the public URL and a `<base href>`; they must be written after `csp-hash.py` has put
the inline script's hash into the CSP (scripts/post-build.sh runs the steps in order).
Idempotent. Python standard library only.

    python3 scripts/static-routes.py dist      # by hand on a built dist
"""
import os
import shutil
import sys

# The app's routes below the base path (the `<Route>`s of `App` in src/lib.rs); the e2e test
# tests/e2e/static-host.test.mjs opens every link of the main navigation on a plain server.
ROUTES = ["leaderboard", "self-test", "review", "structure"]


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("TRUNK_STAGING_DIR")
    if not root:
        sys.exit("static-routes: give the build directory (or run as a Trunk hook)")
    index = os.path.join(root, "index.html")
    if not os.path.exists(index):
        sys.exit(f"static-routes: {index} not found")
    for route in ROUTES:
        os.makedirs(os.path.join(root, route), exist_ok=True)
        shutil.copyfile(index, os.path.join(root, route, "index.html"))
    shutil.copyfile(index, os.path.join(root, "404.html"))
    print(f"static-routes: {len(ROUTES)} route pages and 404.html")


if __name__ == "__main__":
    main()
