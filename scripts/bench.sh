#!/usr/bin/env bash
# Runs every benchmark of coglab in one go and prints the figures for BENCHMARKS.md:
#   1. criterion benches of the core's parsers, scorers and SEM engine (cargo bench -p coglab-core);
#   2. the in-browser timings read by Playwright from a release build: 100,000 MM-IQ responses
#      scored in the worker (time to the row, longest main-thread task), the Structure page's fit
#      and 5,000 bootstrap resamples;
#   3. with COGLAB_LARGE=1, the 1 GB MM-IQ file read in chunks and scored in the browser worker.
# Run it on an idle machine; the figures are printed, not asserted (the tests assert correctness).
# Arguments are passed to `cargo bench` (e.g. `scripts/bench.sh mmiq` for the MM-IQ benches).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
"$ROOT/scripts/bootstrap.sh" --tests
export PATH="$HOME/.cargo/bin:$ROOT/tools/node_modules/.bin:$PATH"

echo "== machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), load $(cut -d' ' -f1-3 /proc/loadavg); commit $(git rev-parse --short HEAD); $(date -u +%FT%TZ)"

echo "== 1. criterion (cargo bench -p coglab-core)"
cargo bench -p coglab-core --benches -- "$@" 2>&1 | grep -E '^[a-z_]+/|time:|thrpt:'

echo "== 2. in-browser timings (release build)"
cargo build -q -p coglab-cli
export COGLAB_BIN="$ROOT/target/debug/coglab" COGLAB_CLI="$ROOT/target/debug/coglab"
trunk build --release --offline >/dev/null
COGLAB_BENCH=1 node --test --test-concurrency=1 --test-name-pattern='100' \
  tests/e2e/leaderboard.test.mjs 2>&1 | grep -E 'benchmark:|^not ok|^# (pass|fail)'
node --test --test-concurrency=1 tests/e2e/structure.test.mjs 2>&1 \
  | grep -iE 'fit|bootstrap|long task|lag|^not ok|^# (pass|fail)' | grep -v '^# Subtest'

if [ "${COGLAB_LARGE:-0}" = 1 ]; then
  echo "== 3. 1 GB MM-IQ file in the browser worker"
  COGLAB_LARGE=1 node --test --test-concurrency=1 tests/e2e/largefile.test.mjs 2>&1 \
    | grep -vE '^# Subtest|^\s*$' | grep -iE 'ms|MB|task|^not ok|^# (pass|fail)'
fi
