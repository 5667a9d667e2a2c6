#!/usr/bin/env bash
# Prints the KiVA self-test forms' precision curve (BENCHMARKS.md, "KiVA self-test forms"):
# `coglab selftest simulate` for the fixed and the adaptive form at 4 to 20 trials, as a
# Markdown table. Usage: scripts/selftest-curve.sh [TAKERS] [SEED]   (default 5000, 1)
set -euo pipefail
cd "$(dirname "$0")/.."
TAKERS="${1:-5000}"
SEED="${2:-1}"
cargo build -q --release -p coglab-cli
BIN="${CARGO_TARGET_DIR:-target}/release/coglab"
echo "| trials | fixed RMSE | fixed mean SE | fixed coverage % | adaptive RMSE | adaptive mean SE | adaptive coverage % |"
echo "|---|---|---|---|---|---|---|"
for n in $(seq 4 20); do
  f="$("$BIN" selftest simulate --form fixed --trials "$n" --takers "$TAKERS" --seed "$SEED" --json)"
  a="$("$BIN" selftest simulate --form adaptive --trials "$n" --takers "$TAKERS" --seed "$SEED" --json)"
  python3 - "$n" "$f" "$a" <<'PY'
import json, sys
n, f, a = sys.argv[1], json.loads(sys.argv[2]), json.loads(sys.argv[3])
cell = lambda d: f"{d['rmse']:.3f} | {d['mean_se']:.3f} | {100 * d['coverage']:.1f}"
print(f"| {n} | {cell(f)} | {cell(a)} |")
PY
done
