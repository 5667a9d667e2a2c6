#!/usr/bin/env bash
# Installs whatever is missing, builds the app (release) and serves it with its bundled default
# data on http://127.0.0.1:8080 (set PORT for another port). Stop with Ctrl-C.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$ROOT/scripts/bootstrap.sh"
# scripts/bin first: its wasm-opt keeps optimised modules by content, so a restart with nothing
# changed does not optimise the worker's module again (issue 43).
export PATH="$ROOT/scripts/bin:$HOME/.cargo/bin:$ROOT/tools/node_modules/.bin:$PATH"
cd "$ROOT"
echo "[serve] building and serving on http://127.0.0.1:${PORT:-8080}/ (first build takes a few minutes)"
exec trunk serve --release --offline --address 127.0.0.1 --port "${PORT:-8080}" --no-autoreload
