#!/usr/bin/env bash
# Installs whatever coglab needs that is missing, from the package registries only
# (crates.io, npm, Debian apt). Idempotent: skips tools that are present at the right version.
#
#   scripts/bootstrap.sh          build tools: wasm32 target, trunk, wasm-bindgen-cli, wasm-split-cli,
#                                 wasm-opt
#   scripts/bootstrap.sh --tests  also Chromium + chromedriver (apt) and playwright-core (npm)
#
# Sourced by scripts/serve.sh and scripts/test.sh; prints what it does.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TRUNK_VERSION="0.21.14"   # 0.22.x needs a newer rustc than this toolchain
WANT_TESTS=0
[ "${1:-}" = "--tests" ] && WANT_TESTS=1

export PATH="$HOME/.cargo/bin:$ROOT/tools/node_modules/.bin:$PATH"
log() { printf '[bootstrap] %s\n' "$*"; }
apt_install() {
  local sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "$@"
}

# 1. Rust target for the browser.
if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  log "adding rust target wasm32-unknown-unknown"
  rustup target add wasm32-unknown-unknown
fi

# 2. trunk, built from crates.io (its own downloads of prebuilt binaries fail here).
if [ "$(trunk --version 2>/dev/null || true)" != "trunk $TRUNK_VERSION" ]; then
  log "installing trunk $TRUNK_VERSION with cargo (about 9 minutes on 2 cores)"
  cargo install --locked trunk --version "$TRUNK_VERSION"
fi

# 3. wasm-bindgen-cli at exactly the wasm-bindgen version in Cargo.lock (trunk refuses others).
#    Without --locked: with it, a pinned dependency is missing from the index.
WBG_VERSION="$(awk '/^name = "wasm-bindgen"$/{getline; gsub(/version = |"/,""); print; exit}' "$ROOT/Cargo.lock")"
if [ "$(wasm-bindgen --version 2>/dev/null || true)" != "wasm-bindgen $WBG_VERSION" ]; then
  log "installing wasm-bindgen-cli $WBG_VERSION with cargo (about 3 minutes)"
  cargo install --force wasm-bindgen-cli --version "$WBG_VERSION"
fi
if ! grep -q "^wasm_bindgen = \"$WBG_VERSION\"" "$ROOT/Trunk.toml"; then
  echo "Trunk.toml must pin wasm_bindgen = \"$WBG_VERSION\" (the version in Cargo.lock)" >&2
  exit 1
fi

# 3b. wasm-split-cli (crate wasm_split_cli_support): cuts the page module at its split points
#     after the build (scripts/wasm-split.sh), since Trunk 0.21 does not split.
SPLIT_VERSION="0.2.3"
if ! cargo install --list | grep -qx "wasm_split_cli_support v$SPLIT_VERSION:"; then
  log "installing wasm-split-cli $SPLIT_VERSION with cargo (about 2 minutes)"
  cargo install --locked wasm_split_cli_support --version "$SPLIT_VERSION" --features build-binary
fi

# 4. Node tools from npm: binaryen@132 (wasm-opt; Debian's 108 breaks the wasm), terser and
#    lightningcss (the page's JavaScript and stylesheets minified, scripts/minify.mjs) and
#    playwright-core (driver only; it never downloads a browser).
if [ "$(wasm-opt --version 2>/dev/null || true)" != "wasm-opt version 132 (version_132)" ] \
  || [ ! -d "$ROOT/tools/node_modules/playwright-core" ] \
  || [ ! -d "$ROOT/tools/node_modules/terser" ] \
  || [ ! -d "$ROOT/tools/node_modules/lightningcss" ]; then
  if ! command -v npm >/dev/null 2>&1; then
    log "installing nodejs and npm with apt"
    apt_install nodejs npm
  fi
  log "installing node tools (binaryen, terser, lightningcss, playwright-core) with npm ci"
  (cd "$ROOT/tools" && npm ci --no-audit --no-fund)
fi

# 4b. zopfli (Debian): the wasm modules gzipped about 4% smaller than gzip -9, in the same
#     format (scripts/precompress.py; without it the build uses gzip -9 and says so).
if ! command -v zopfli >/dev/null 2>&1; then
  log "installing zopfli with apt"
  apt_install zopfli
fi

# 5. For tests: Debian's Chromium and chromedriver.
if [ "$WANT_TESTS" = 1 ]; then
  if [ ! -x /usr/bin/chromium ] || [ ! -x /usr/bin/chromedriver ]; then
    log "installing chromium and chromium-driver with apt"
    apt_install chromium chromium-driver
  fi
fi
log "tools ready: $(trunk --version), $(wasm-bindgen --version), $(wasm-opt --version | cut -d' ' -f1-3)"
