#!/usr/bin/env bash
# Builds the Python package (crates/coglab-py, maturin + PyO3, one abi3 wheel for CPython 3.9+)
# and runs its tests (pytest, crates/coglab-py/tests/).
#
# 1. Creates or updates a git-ignored virtual environment at .tools/py-venv with pinned
#    maturin, pytest, pandas, pyarrow and dask[distributed] from PyPI (reinstalled only when the
#    pins below change).
# 2. Builds the `coglab` CLI (debug, as `cargo test` builds it) unless COGLAB_BIN is set: the
#    tests compare every Python result with the CLI's --json output.
# 3. `maturin build --release` writes the wheel to $CARGO_TARGET_DIR/wheels (target/wheels by
#    default), which is installed into the venv with --force-reinstall.
# 4. Runs pytest; the last line is "python tests: N passed, M failed, K skipped" (what
#    scripts/test.sh counts). Exits non-zero when a test fails or anything before it does.
#
# Shared data (../shared/data) is optional: tests that need it are skipped with a notice, and
# fail when CI=true.
#
# Usage: scripts/python-tests.sh [PYTEST ARGS...]   (from anywhere)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
export PATH="$HOME/.cargo/bin:$PATH"
VENV="$ROOT/.tools/py-venv"
TARGET="${CARGO_TARGET_DIR:-$ROOT/target}"
WHEELS="$TARGET/wheels"
PYTHON="${PYTHON:-python3}"
PINS="maturin==1.16.0 pytest==9.2.0 pandas==3.1.1 pyarrow==26.0.1 dask[distributed]==2026.8.0"

fail() { echo "python-tests: $*" >&2; echo "python tests: 0 passed, 1 failed, 0 skipped"; exit 1; }

# ---- 1. the venv
stamp="$VENV/.coglab-pins"
if [ ! -x "$VENV/bin/python" ] || [ "$(cat "$stamp" 2>/dev/null)" != "$PINS" ]; then
  rm -rf "$VENV"
  "$PYTHON" -m venv "$VENV" || fail "cannot create $VENV"
  # shellcheck disable=SC2086
  "$VENV/bin/pip" install --quiet --disable-pip-version-check $PINS || fail "pip install failed"
  echo "$PINS" > "$stamp"
fi

# ---- 2. the CLI the tests compare with
if [ -z "${COGLAB_BIN:-}" ]; then
  cargo build --quiet -p coglab-cli || fail "cargo build -p coglab-cli failed"
  export COGLAB_BIN="$TARGET/debug/coglab"
fi

# ---- 3. the wheel
rm -f "$WHEELS"/coglab-*.whl
"$VENV/bin/maturin" build --release --quiet -m crates/coglab-py/Cargo.toml \
  -i "$VENV/bin/python" --out "$WHEELS" || fail "maturin build failed"
wheel=$(ls "$WHEELS"/coglab-*-abi3-*.whl 2>/dev/null | head -1 || true)
[ -n "$wheel" ] || fail "no abi3 wheel in $WHEELS"
echo "wheel: $wheel ($(wc -c < "$wheel") bytes)"
"$VENV/bin/pip" install --quiet --disable-pip-version-check --force-reinstall --no-deps "$wheel" \
  || fail "pip install $wheel failed"

# ---- 4. the tests (run from outside the source tree, so `import coglab` is the installed wheel)
log="$TARGET/python-tests.log"
set +e
(cd "$ROOT/crates/coglab-py/tests" && "$VENV/bin/python" -m pytest -q -p no:cacheprovider \
  -o console_output_style=classic "$@") 2>&1 | tee "$log"
rc=${PIPESTATUS[0]}
set -e
summary=$(grep -E '^=*.*[0-9]+ (passed|failed|error|errors|skipped)' "$log" | tail -1)
count() { echo "$summary" | grep -oE "[0-9]+ $1" | head -1 | grep -oE '^[0-9]+' || echo 0; }
passed=$(count passed)
failed=$(( $(count failed) + $(count error) + $(count errors) ))
skipped=$(count skipped)
if [ "$rc" -ne 0 ] && [ "$failed" -eq 0 ]; then failed=1; fi
echo "python tests: $passed passed, $failed failed, $skipped skipped"
exit "$rc"
