#!/usr/bin/env bash
# Installs whatever is missing, then runs every test of coglab:
#   0. lint:     cargo fmt --check; cargo clippy -D warnings, natively and for wasm32, the app
#                also with the `split` feature Trunk builds it with (a failure fails the run);
#                then the independent reference figures (Python, in git-ignored venvs under
#                .tools/)
#   1. native:   cargo test --workspace (core library, CLI, app logic)
#   2. python:   scripts/python-tests.sh: the Python package's abi3 wheel (maturin, release)
#                installed in a git-ignored venv (.tools/py-venv), then pytest
#                (crates/coglab-py/tests: the same JSON as the CLI stage 1 built, Dask fan-out)
#   3. browser:  wasm-bindgen-test in headless Chromium (tests/web*.rs)
#   4. release:  the post-build step's own tests (tests/scripts/*.test.mjs: scripts/wasm-opt.mjs
#                against the wasm-opt command, scripts/split-stage.py on a synthetic folder),
#                then trunk build --release (the page module, its chunks and the worker module;
#                sizes printed)
#   5. end-to-end: Playwright (playwright-core + Debian's Chromium) against dist/ on a free
#                loopback port (tests/e2e/*.test.mjs), screenshots in tests/e2e/screenshots/;
#                among them the download budget (tests/e2e/budget.test.mjs: what the first page
#                fetches, at most 600 KB gzipped)
# Ends with one line "N passed, N failed" and exits non-zero on any failure.
set -uo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
"$ROOT/scripts/bootstrap.sh" --tests || { echo "0 passed, 1 failed"; exit 1; }
# scripts/bin first: its wasm-opt keeps optimised modules by content (scripts/bin/wasm-opt).
export PATH="$ROOT/scripts/bin:$HOME/.cargo/bin:$ROOT/tools/node_modules/.bin:$PATH"
export CHROMEDRIVER=/usr/bin/chromedriver
export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner
# Disk: a clean run once filled CI's disk (target/ grew past 10 GB: 64 test binaries with full
# debug info, plus incremental caches a one-off run never reuses). Tests keep line tables (file
# and line in a backtrace) and build without incremental caches; the footprint is printed at
# the end of each stage (BENCHMARKS.md, "Test run footprint").
export CARGO_INCREMENTAL=0
export CARGO_PROFILE_DEV_DEBUG=line-tables-only
LOGS="$ROOT/target/test-logs"
mkdir -p "$LOGS"

PASSED=0
FAILED=0
stage() { printf '\n==== %s ====\n' "$*"; }

# Adds the counts from cargo's "test result: ... N passed; M failed" lines of a log.
count_cargo() {
  local log=$1 rc=$2 p f
  p=$(awk '/^test result:/ { for (i = 1; i <= NF; i++) if ($(i+1) ~ /^passed/) s += $i } END { print s + 0 }' "$log")
  f=$(awk '/^test result:/ { for (i = 1; i <= NF; i++) if ($(i+1) ~ /^failed/) s += $i } END { print s + 0 }' "$log")
  PASSED=$((PASSED + p))
  FAILED=$((FAILED + f))
  # A build failure or crash with no failed test counted still fails the run.
  if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then FAILED=$((FAILED + 1)); echo "stage failed (exit $rc)"; fi
}

footprint() { du -sh "$ROOT/target" 2>/dev/null | awk '{ printf "target/: %s", $1 }'; df -h "$ROOT" | awk 'NR == 2 { printf "; disk free: %s\n", $4 }'; }
time_stage() { local start=$SECONDS; "$@"; local rc=$?; echo "(took $((SECONDS - start)) s; $(footprint))"; return $rc; }

stage "0/5 lint: cargo fmt --check, cargo clippy -D warnings (native, wasm32, wasm32 with split)"
lint() {
  cargo fmt --all -- --check || { echo "cargo fmt: unformatted code (run cargo fmt --all)"; return 1; }
  cargo clippy --workspace --all-targets --color never -- -D warnings || return 1
  cargo clippy --target wasm32-unknown-unknown -p coglab -p coglab-worker --all-targets --color never -- -D warnings || return 1
  # The page module as Trunk builds it: with the split points' `#[lazy]` code (src/split.rs).
  cargo clippy --target wasm32-unknown-unknown -p coglab --features split --all-targets --color never -- -D warnings || return 1
  # The worker module as Trunk builds it: with Parquet input (coglab-core's `parquet`).
  cargo clippy --target wasm32-unknown-unknown -p coglab-worker --features parquet --color never -- -D warnings || return 1
}
if time_stage lint; then PASSED=$((PASSED + 1)); else FAILED=$((FAILED + 1)); echo "lint failed"; fi

stage "0/5 independent reference figures (Python)"
if [ -x scripts/plspm-reference.sh ]; then
  if ! time_stage scripts/plspm-reference.sh; then
    echo "plspm reference could not be produced; the comparison test will report it"
  fi
fi
if [ -x scripts/items-reference.sh ]; then
  if ! time_stage scripts/items-reference.sh; then
    echo "items reference (girth) could not be produced; the comparison test will report it"
  fi
fi

stage "0/5 independent leaderboard-rank reference figures (statsmodels, scipy, krippendorff)"
if [ -x scripts/ranks-reference.sh ]; then
  if ! time_stage scripts/ranks-reference.sh; then
    echo "ranks reference could not be produced; the comparison tests will report it"
  fi
fi

stage "1/5 native tests: cargo test --workspace"
time_stage cargo test --workspace --color never 2>&1 | tee "$LOGS/native.log"
count_cargo "$LOGS/native.log" "${PIPESTATUS[0]}"

stage "2/5 Python package: maturin wheel + pytest"
# Reuses target/ (the default CARGO_TARGET_DIR) and the debug `coglab` stage 1 built (building
# it again with only the CLI's features would compile the core a second time).
[ -x target/debug/coglab ] && export COGLAB_BIN="$ROOT/target/debug/coglab"
time_stage scripts/python-tests.sh 2>&1 | tee "$LOGS/python.log"
rc=${PIPESTATUS[0]}
p=$(awk '/^python tests:/ { print $3 }' "$LOGS/python.log" | tail -1)
f=$(awk '/^python tests:/ { print $5 }' "$LOGS/python.log" | tail -1)
PASSED=$((PASSED + ${p:-0}))
FAILED=$((FAILED + ${f:-0}))
if [ "$rc" -ne 0 ] && [ "${f:-0}" -eq 0 ]; then FAILED=$((FAILED + 1)); echo "stage failed (exit $rc)"; fi

stage "3/5 in-browser tests: wasm-bindgen-test in headless Chromium"
web_tests=()
for f in tests/web*.rs; do web_tests+=(--test "$(basename "$f" .rs)"); done
time_stage cargo test --target wasm32-unknown-unknown -p coglab "${web_tests[@]}" --color never 2>&1 | tee "$LOGS/browser.log"
count_cargo "$LOGS/browser.log" "${PIPESTATUS[0]}"

stage "4/5 release build: the post-build step's tests, then trunk build --release --offline"
time_stage node --test --test-reporter=spec tests/scripts/ 2>&1 | tee "$LOGS/scripts.log"
rc=${PIPESTATUS[0]}
p=$(awk '/^ℹ pass/ { print $3 }' "$LOGS/scripts.log" | tail -1)
f=$(awk '/^ℹ fail/ { print $3 }' "$LOGS/scripts.log" | tail -1)
PASSED=$((PASSED + ${p:-0}))
FAILED=$((FAILED + ${f:-0}))
if [ "$rc" -ne 0 ] && [ "${f:-0}" -eq 0 ]; then FAILED=$((FAILED + 1)); fi
rm -rf dist
if time_stage trunk build --release --offline 2>&1 | tee "$LOGS/trunk.log"; [ "${PIPESTATUS[0]}" -eq 0 ]; then
  # Sizes of what Trunk emits (the budget itself is what a visitor's first page fetches,
  # measured in the browser by tests/e2e/budget.test.mjs).
  for f in dist/coglab-*.wasm dist/coglab-*.js; do
    printf '  %-42s %9d bytes raw %8d bytes gzipped\n' "$(basename "$f")" "$(wc -c < "$f")" "$(gzip -9 -c "$f" | wc -c)"
  done
  # The page module's chunks (scripts/wasm-split.sh), fetched when their page is first shown.
  n=0; raw=0; gz=0
  for f in dist/split_*.wasm dist/chunk_*.wasm dist/__wasm_split-*.js; do
    [ -f "$f" ] || continue
    n=$((n + 1)); raw=$((raw + $(wc -c < "$f"))); gz=$((gz + $(gzip -9 -c "$f" | wc -c)))
  done
  printf '  %-42s %9d bytes raw %8d bytes gzipped\n' "$n page chunks and their loader" "$raw" "$gz"
  PASSED=$((PASSED + 1))
else
  FAILED=$((FAILED + 1)); echo "release build failed"
fi

stage "5/5 end-to-end tests: Playwright in Chromium"
if [ -f dist/index.html ]; then
  # Tests that compare the page with the CLI use the binary stage 1 built.
  if [ -x target/debug/coglab ]; then
    export COGLAB_BIN="$ROOT/target/debug/coglab" COGLAB_CLI="$ROOT/target/debug/coglab"
  fi
  time_stage node --test --test-reporter=spec --test-concurrency=1 tests/e2e/ 2>&1 | tee "$LOGS/e2e.log"
  rc=${PIPESTATUS[0]}
  p=$(awk '/^ℹ pass/ { print $3 }' "$LOGS/e2e.log" | tail -1)
  f=$(awk '/^ℹ fail/ { print $3 }' "$LOGS/e2e.log" | tail -1)
  PASSED=$((PASSED + ${p:-0}))
  FAILED=$((FAILED + ${f:-0}))
  if [ "$rc" -ne 0 ] && [ "${f:-0}" -eq 0 ]; then FAILED=$((FAILED + 1)); fi
  echo "screenshots: tests/e2e/screenshots/"
else
  FAILED=$((FAILED + 1)); echo "no dist/: end-to-end tests not run"
fi

echo
echo "$PASSED passed, $FAILED failed"
[ "$FAILED" -eq 0 ]
