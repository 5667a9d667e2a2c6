#!/usr/bin/env bash
# Trunk post_build hook: the steps that rewrite the staged build, in the order they depend on
# each other (Trunk runs the hooks of one stage concurrently, so they are one hook):
#   0. wasm-split.sh    the page module cut at its split points (src/split.rs);
#      worker-loader.py the worker's loader shim calling init with an object, not a string;
#      precompress.py  every wasm module as .wasm.gz, decompressed by its loader (any host);
#      preload-hints.py the first view's chunks and data preloaded from the start (an inline
#                      script reading the address);
#      minify.mjs      the page's and the worker's JavaScript minified (terser), SRI set again,
#                      the bundled data without indentation;
#   1. csp-hash.py      the inline loader script's hash into the Content-Security-Policy;
#   2. published.py copy   the published leaderboard bundle (public/published) into the build;
#   3. static-routes.py a copy of index.html per route and as 404.html (deep links on any host);
#   4. published.py inline a static board per benchmark (the bundle's, else public/boards/)
#                      into the leaderboard's route page;
#   5. sw-precache.py   the service worker's file list and version, over the final files.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# By hand on a built dist: scripts/post-build.sh dist
if [ $# -gt 0 ]; then export TRUNK_STAGING_DIR="$1"; fi
bash "$here/wasm-split.sh"
python3 "$here/worker-loader.py"
python3 "$here/precompress.py"
python3 "$here/preload-hints.py"
node "$here/minify.mjs"
python3 "$here/csp-hash.py"
python3 "$here/published.py" copy
python3 "$here/static-routes.py"
python3 "$here/published.py" inline
python3 "$here/sw-precache.py"
