#!/usr/bin/env bash
# Trunk post_build step: splits the app's page module at its split points (the `#[lazy]`
# functions beside the pages, see src/split.rs), the way cargo-leptos's `--split` does, since
# Trunk 0.21 cannot (trunk-rs/trunk#1022):
#   1. wasm-split-cli (crate wasm_split_cli_support, installed by scripts/bootstrap.sh) cuts
#      the linked module, built with `--emit-relocs` (build.rs), into a main module, one chunk
#      per split point (and chunks of code shared by several) and their loader __wasm_split.js;
#   2. wasm-bindgen (the version in Cargo.lock) generates the JS glue of the main module, with
#      the linker's exports kept (the chunks call into them);
#   3. scripts/wasm-opt.mjs optimizes the main module and every chunk, to the byte as
#      `wasm-opt -Os --low-memory-unused --enable-reference-types` does (what Trunk would have
#      run; index.html turns Trunk's own wasm-opt off for this module), with npm binaryen's
#      JavaScript API loaded once per core rather than that command once per file (see there);
#   4. scripts/split-stage.py gives the chunks and the loader content-hashed names (a static
#      host's cache never pairs a new main module with an old chunk), copies the results over
#      Trunk's files of the same names in the staging folder and sets index.html's Subresource
#      Integrity hashes again (tested on its own: tests/scripts/split-stage.test.mjs).
#
# Why wasm-bindgen runs twice on the page module (once in Trunk, once here): wasm-split-cli
# moves code by the linker's relocations, which hold byte offsets into the code as the linker
# wrote it. wasm-bindgen rewrites the code and copies those sections unchanged, so they no
# longer match (wasm-split-cli stops on Trunk's output: "Invalid relocation entry ... no
# function contains its relocation range"): the split must come between cargo and wasm-bindgen.
# Trunk 0.21's rust pipeline runs cargo, wasm-bindgen, wasm-opt and the integrity digest in
# one go: its hooks run before it (pre_build), beside it (build) or after it (post_build),
# never in between, and `data-trunk-skip` drops the whole pipeline, Trunk's loader script and
# file names with it. So Trunk's run stays, for its loader script and file names, and its glue
# and main module are replaced here (BENCHMARKS.md has what each step takes).
#
# Without the `split` feature (no __wasm_split_unstable section) Trunk's files are kept as they are.
# COGLAB_WASM_NAMES=1 keeps the function names in every module (wasm-opt -g), for a CPU profile
# of the page that names Rust functions; e.g. `COGLAB_WASM_NAMES=1 trunk build --release
# --offline --dist /tmp/dist-names`, then the e2e scripts with COGLAB_DIST=/tmp/dist-names.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
STAGE="${TRUNK_STAGING_DIR:?run by Trunk, or scripts/post-build.sh DIR}"
case "${TRUNK_PROFILE:-release}" in
  release) PROFILE=wasm-release ;;   # index.html: data-cargo-profile-release
  *) PROFILE=debug ;;
esac
TARGET="${CARGO_TARGET_DIR:-$ROOT/target}"
IN="$TARGET/wasm32-unknown-unknown/$PROFILE/coglab-app.wasm"
JS=$(cd "$STAGE" && ls coglab-app-*.js 2>/dev/null | grep -v '_loader' | head -1 || true)
[ -n "$JS" ] || { echo "wasm-split: no coglab-app-*.js in $STAGE" >&2; exit 1; }
NAME="${JS%.js}"
[ -f "$IN" ] || { echo "wasm-split: $IN not found" >&2; exit 1; }
if ! grep -q "__wasm_split_unstable" "$IN"; then
  echo "wasm-split: $IN has no split points (built without the split feature); left as Trunk built it"
  exit 0
fi
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
wasm-split-cli "$IN" "$TMP/split" --target web --out-name "$NAME"
wasm-bindgen --target web --keep-lld-exports --no-demangle --no-typescript \
  --out-dir "$TMP/bg" --out-name "$NAME" "$TMP/split/$NAME.wasm"
rm "$TMP/split/$NAME.wasm"
mv "$TMP/bg/${NAME}_bg.wasm" "$TMP/bg/$NAME.js" "$TMP/split/"
if [ "${TRUNK_PROFILE:-release}" = release ]; then
  NAMES=()
  [ "${COGLAB_WASM_NAMES:-0}" = 1 ] && NAMES=(-g)
  node "$ROOT/scripts/wasm-opt.mjs" "${NAMES[@]}" "$TMP"/split/*.wasm
fi
python3 "$ROOT/scripts/split-stage.py" "$TMP/split" "$STAGE" "$NAME"
