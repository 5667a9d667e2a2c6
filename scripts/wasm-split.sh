#!/usr/bin/env bash
# Trunk post_build step: splits the app's page module at its split points (src/split.rs), the
# way cargo-leptos's `--split` does, since Trunk 0.21 cannot (trunk-rs/trunk#1022):
#   1. wasm-split-cli (crate wasm_split_cli_support, installed by scripts/bootstrap.sh) cuts
#      the linked module, built with `--emit-relocs` (build.rs), into a main module, one chunk
#      per split point (and chunks of code shared by several) and their loader __wasm_split.js;
#   2. wasm-bindgen (the version in Cargo.lock) generates the JS glue of the main module, with
#      the linker's exports kept (the chunks call into them);
#   3. scripts/wasm-opt.mjs optimizes the main module and every chunk, to the byte as
#      `wasm-opt -Os --low-memory-unused --enable-reference-types` does (what Trunk would have
#      run; index.html turns Trunk's own wasm-opt off for this module), with npm binaryen's
#      JavaScript API loaded once per core rather than that command once per file (see there);
#   4. the chunks and the loader get content-hashed names (a static host's cache never pairs a
#      new main module with an old chunk), the results replace Trunk's files of the same names
#      in the staging folder, and index.html's Subresource Integrity hashes are computed again.
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
python3 - "$TMP/split" "$STAGE" "$NAME" <<'PY'
import base64, hashlib, pathlib, re, shutil, sys
out, stage, name = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2]), sys.argv[3]
def tag(data):
    return hashlib.sha256(data).hexdigest()[:16]
# Chunks and their loader get content-hashed names, as Trunk's files have: a static host's
# cache can never pair a new main module with an old chunk.
loader = (out / "__wasm_split.js").read_text()
for chunk in sorted(out.glob("*.wasm")):
    if chunk.name == f"{name}_bg.wasm":
        continue
    hashed = f"{chunk.stem}-{tag(chunk.read_bytes())}.wasm"
    if loader.count(f'"./{chunk.name}"') != 1:
        sys.exit(f"wasm-split: expected one reference to {chunk.name} in __wasm_split.js")
    loader = loader.replace(f'"./{chunk.name}"', f'"./{hashed}"')
    chunk.rename(out / hashed)
(out / "__wasm_split.js").unlink()
loader_name = f"__wasm_split-{tag(loader.encode())}.js"
(out / loader_name).write_text(loader)
glue = (out / f"{name}.js").read_text()
if '"./__wasm_split.js"' not in glue:
    sys.exit("wasm-split: the main module's glue does not import ./__wasm_split.js")
# Only the import specifiers: the imports object stays keyed by the wasm's module name.
glue = re.sub(r'(import \* as \w+ from )"\./__wasm_split\.js"', r'\1"./' + loader_name + '"', glue)
(out / f"{name}.js").write_text(glue)
for f in out.iterdir():
    shutil.copyfile(f, stage / f.name)
index = stage / "index.html"
html = index.read_text()
for f in (f"{name}.js", f"{name}_bg.wasm"):
    digest = base64.b64encode(hashlib.sha384((stage / f).read_bytes()).digest()).decode()
    html, n = re.subn(r'(href="[^"]*' + re.escape(f) + r'"[^>]*integrity=")sha384-[^"]*"',
                      lambda m: m.group(1) + "sha384-" + digest + '"', html)
    if n != 1:
        sys.exit(f"wasm-split: expected one preload link of {f} in index.html, found {n}")
index.write_text(html)
PY
ls -l "$TMP"/split | awk 'NR>1 {print "wasm-split:", $5, $9}'
