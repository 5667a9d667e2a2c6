#!/usr/bin/env bash
# The Python package against the CLI on the 100,000-response MM-IQ file (issue 25).
#
#   scripts/bench-python-package.sh [RUNS]     RUNS per side, default 7 (interleaved)
#
# 1. Writes (once) the 100k input with scripts/make-mmiq-100k.sh ($TARGET/bench-mmiq).
# 2. Builds the CLI (release profile) and the wheel (maturin build --release) and installs the
#    wheel into .tools/py-venv (made by scripts/python-tests.sh; made here if absent).
# 3. Runs alternately, RUNS times each, under /usr/bin/time -v:
#      cli:    coglab score mmiq --answers key.jsonl preds.jsonl --json > out
#      python: python -c 'import coglab, json, sys; json.dump(coglab.score_mmiq(KEY, PREDS), out)'
#    (the whole process each time: the interpreter's start and `import coglab` are counted),
#    and prints the medians of wall time, CPU time (user + system) and peak RSS of each, their
#    ratios, and the median time of the `coglab.score_mmiq` call alone (timed inside Python).
#    Both results must be the same dict.
# 4. Also runs, RUNS times, the interpreter alone with the package imported
#      baseline: python -c 'import coglab, json, sys'
#    and prints the Python process's peak RSS above that baseline: the memory the package's
#    call takes, to compare with the CLI's whole peak (the interpreter's own ~11 MB is not the
#    package's).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
export PATH="$HOME/.cargo/bin:$PATH"
RUNS=${1:-7}
TARGET="${CARGO_TARGET_DIR:-$ROOT/target}"
OUT="$TARGET/bench-mmiq"
VENV="$ROOT/.tools/py-venv"
TIME=/usr/bin/time
[ -x "$TIME" ] || { echo "needs GNU time at $TIME (apt-get install time)" >&2; exit 1; }

"$ROOT/scripts/make-mmiq-100k.sh" "$OUT"
if [ ! -x "$VENV/bin/maturin" ]; then
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install --quiet --disable-pip-version-check "maturin==1.16.0"
fi
cargo build --release -q -p coglab-cli
BIN="$TARGET/release/coglab"
rm -f "$TARGET"/wheels/coglab-*.whl
"$VENV/bin/maturin" build --release --quiet -m crates/coglab-py/Cargo.toml \
  -i "$VENV/bin/python" --out "$TARGET/wheels"
"$VENV/bin/pip" install --quiet --disable-pip-version-check --force-reinstall --no-deps \
  "$TARGET"/wheels/coglab-*-abi3-*.whl

cat > "$OUT/py_score.py" <<'PY'
import json, sys, time
import coglab
t0 = time.perf_counter()
r = coglab.score_mmiq(sys.argv[1], sys.argv[2])
call = time.perf_counter() - t0
with open(sys.argv[3], "w") as f:
    json.dump(r, f, indent=2)
with open(sys.argv[4], "a") as f:
    f.write(f"{call}\n")
PY

run() { # run NAME CMD... : appends "wall-seconds kbytes cpu-seconds" to $OUT/NAME.times
  local name=$1; shift
  "$TIME" -v "$@" 2> "$OUT/$name.time"
  awk -F': ' '/User time \(seconds\)/ { cpu += $2 } /System time \(seconds\)/ { cpu += $2 }
              /Elapsed \(wall clock\)/ { n = split($2, t, ":"); s = 0;
                for (i = 1; i <= n; i++) s = s * 60 + t[i]; wall = s }
              /Maximum resident set size/ { rss = $2 }
              END { print wall, rss, cpu }' "$OUT/$name.time" >> "$OUT/$name.times"
}
: > "$OUT/pkg-cli.times"; : > "$OUT/pkg-python.times"; : > "$OUT/pkg-call.times"; : > "$OUT/pkg-base.times"
echo "machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg); commit $(git rev-parse --short HEAD)"
for i in $(seq "$RUNS"); do
  run pkg-cli sh -c "\"$BIN\" score mmiq --answers \"$OUT/key.jsonl\" \"$OUT/preds.jsonl\" --json > \"$OUT/pkg-cli.json\""
  run pkg-python "$VENV/bin/python" "$OUT/py_score.py" "$OUT/key.jsonl" "$OUT/preds.jsonl" \
    "$OUT/pkg-python.json" "$OUT/pkg-call.times"
  run pkg-base "$VENV/bin/python" -c 'import coglab, json, sys'
  echo "run $i: cli $(tail -1 "$OUT/pkg-cli.times"), python $(tail -1 "$OUT/pkg-python.times") (wall s, peak KB, CPU s); call $(tail -1 "$OUT/pkg-call.times") s"
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"

python3 - "$OUT" <<'PY'
import json, statistics, sys
out = sys.argv[1]
def load(name):
    rows = [line.split() for line in open(f"{out}/{name}.times") if line.strip()]
    return tuple(statistics.median(float(r[i]) for r in rows) for i in range(3))
(ct, cm, cc), (pt, pm, pc), (_, bm, _) = load("pkg-cli"), load("pkg-python"), load("pkg-base")
call = statistics.median(float(l) for l in open(f"{out}/pkg-call.times") if l.strip())
a, b = json.load(open(f"{out}/pkg-cli.json")), json.load(open(f"{out}/pkg-python.json"))
print(f"accuracy: CLI {a['overall']['accuracy']:.6f}, Python {b['overall']['accuracy']:.6f} over {b['overall']['n']} items")
print(f"coglab score mmiq (CLI): median {ct:.3f} s wall, {cc:.3f} s CPU, peak RSS {cm / 1024:.1f} MB")
print(f"coglab.score_mmiq (process): median {pt:.3f} s wall, {pc:.3f} s CPU, peak RSS {pm / 1024:.1f} MB")
print(f"coglab.score_mmiq (the call alone): median {call:.3f} s")
print(f"python -c 'import coglab, json, sys' alone: peak RSS {bm / 1024:.1f} MB")
print(f"Python / CLI: wall {pt / ct:.2f}x (call alone {call / ct:.2f}x), CPU {pc / cc:.2f}x, memory {pm / cm:.2f}x")
print(f"memory of the package's call (Python peak above the interpreter's baseline): {(pm - bm) / 1024:.1f} MB, "
      f"{(pm - bm) / cm:.2f}x the CLI's whole peak")
if a != b:
    sys.exit("the CLI and the Python package disagree")
PY
