#!/usr/bin/env bash
# `coglab score mmiq` against MM-IQ's own Python scorer on 100,000 distinct items.
#
#   scripts/bench-mmiq-python.sh [RUNS]     RUNS per tool, default 5 (interleaved)
#
# 1. Writes (once) target/bench-mmiq/preds.jsonl, 100,000 MM-IQ responses of about 720 bytes
#    (~72 MB: reasoning sentences, an option review and one of MM-IQ's answer endings, built as
#    crates/coglab-core/benches/mmiq.rs builds its corpus, with a seeded generator), and
#    key.jsonl, the matching answer key (one item per response, MM-IQ's eight categories).
# 2. Builds the CLI (release profile: opt-level 3).
# 3. Runs `coglab score mmiq --answers key.jsonl preds.jsonl --json` and the Python scorer,
#    driven two ways (below), alternately RUNS times each under /usr/bin/time -v, and prints
#    the median wall time and peak resident memory of each (and the CPU time, user + system,
#    steadier on a shared machine), and their ratios. The accuracies are printed and must
#    agree. The CLI reads the key on a second thread (into its compact form) and the next
#    slice of the predictions on a third, and scores each prediction as its line is read.
#
# The Python scorer is MM-IQ's released `mmiq/utils/eval_utils.py` (github.com/AceCHQ/MMIQ,
# commit 8356c3e), driven as its `main_parse_and_eval.py` drives it (json.loads per line,
# parse_multi_choice_response, per-category evaluate, calculate_ins_level_acc), reading the
# files either with `readlines` as that script does ("readlines") or line by line from the
# open file ("lines": no list of all the lines, the smaller peak). The driver is written
# below; the released file is not committed: put it at .tools/mmiq-ref/eval_utils.py
# (git-ignored). A venv with numpy (which it imports) is made at .tools/mmiq-ref/venv on the
# first run.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
RUNS=${1:-5}
OUT=$ROOT/target/bench-mmiq
REF=$ROOT/.tools/mmiq-ref
TIME=/usr/bin/time
mkdir -p "$OUT"

[ -x "$TIME" ] || { echo "needs GNU time at $TIME (apt-get install time)" >&2; exit 1; }
if [ ! -f "$REF/eval_utils.py" ]; then
  echo "needs MM-IQ's scorer at $REF/eval_utils.py: copy mmiq/utils/eval_utils.py of" >&2
  echo "https://github.com/AceCHQ/MMIQ (commit 8356c3e) there" >&2
  exit 1
fi
if [ ! -f "$REF/venv/.coglab-ok" ]; then
  rm -rf "$REF/venv"
  python3 -m venv "$REF/venv"
  "$REF/venv/bin/pip" install --quiet --disable-pip-version-check "numpy==2.2.6"
  touch "$REF/venv/.coglab-ok"
fi

# ---- 1. the inputs
"$ROOT/scripts/make-mmiq-100k.sh" "$OUT"
echo "inputs: $(wc -c < "$OUT/preds.jsonl") bytes of predictions, $(wc -l < "$OUT/key.jsonl") key items"

# The driver of the released scorer: main_parse_and_eval.py's steps, printing the overall
# accuracy and the number of items as JSON instead of saving result.json.
cat > "$OUT/mmiq_eval.py" <<'EOF'
import json, sys
sys.path.insert(0, sys.argv[3])
from eval_utils import evaluate, parse_multi_choice_response, calculate_ins_level_acc
REASONING_PATTERN = ["Temporal Movement", "2D-Geometry", "3D-Geometry", "Logical Operation",
                     "Mathematical", "Spatial Relationship", "Visual Instruction", "Concrete Object"]
# "readlines": each file as a list of its lines, as main_parse_and_eval.py reads it; "lines":
# line by line from the open file (the same steps on each line).
def lines(path):
    with open(path, 'r') as f:
        if sys.argv[4] == "readlines":
            yield from f.readlines()
        else:
            yield from f
output_dict_w_cat = {}
for line in lines(sys.argv[1]):
    tmp_data = json.loads(line)
    category = tmp_data["category"]
    if category not in output_dict_w_cat:
        output_dict_w_cat.update({category: {}})
    output_dict_w_cat[category].update({tmp_data["data_id"]: parse_multi_choice_response(tmp_data["response"])})
answer_dict_w_cat = {}
for line in lines(sys.argv[2]):
    tmp_data = json.loads(line)
    category = tmp_data["category"]
    if category not in answer_dict_w_cat:
        answer_dict_w_cat.update({category: {}})
    answer_dict_w_cat[category].update({tmp_data["data_id"]: tmp_data["answer"]})
evaluation_result = {}
for category in REASONING_PATTERN:
    if category not in output_dict_w_cat or category not in answer_dict_w_cat:
        continue
    samples = [{"id": d, "answer": answer_dict_w_cat[category][int(d)], "parsed_pred": p}
               for d, p in output_dict_w_cat[category].items()]
    judge_dict, metric_dict = evaluate(samples)
    metric_dict.update({"num_example": len(samples)})
    evaluation_result[category] = metric_dict
print(json.dumps({"accuracy": calculate_ins_level_acc(evaluation_result),
                  "n": sum(r["num_example"] for r in evaluation_result.values())}))
EOF

# ---- 2. the CLI
cargo build --release -q -p coglab-cli
BIN=${CARGO_TARGET_DIR:-$ROOT/target}/release/coglab

# ---- 3. interleaved runs
run() { # run NAME CMD... : appends "wall-seconds kbytes cpu-seconds" to $OUT/NAME.times
  local name=$1; shift
  "$TIME" -v "$@" > "$OUT/$name.out" 2> "$OUT/$name.time"
  awk -F': ' '/User time \(seconds\)/ { cpu += $2 } /System time \(seconds\)/ { cpu += $2 }
              /Elapsed \(wall clock\)/ { n = split($2, t, ":"); s = 0;
                for (i = 1; i <= n; i++) s = s * 60 + t[i]; wall = s }
              /Maximum resident set size/ { rss = $2 }
              END { print wall, rss, cpu }' "$OUT/$name.time" >> "$OUT/$name.times"
}
: > "$OUT/coglab.times"; : > "$OUT/python-lines.times"; : > "$OUT/python-readlines.times"
echo "machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg); commit $(git rev-parse --short HEAD)"
for i in $(seq "$RUNS"); do
  run coglab "$BIN" score mmiq --answers "$OUT/key.jsonl" "$OUT/preds.jsonl" --json
  for mode in lines readlines; do
    run "python-$mode" "$REF/venv/bin/python" "$OUT/mmiq_eval.py" "$OUT/preds.jsonl" "$OUT/key.jsonl" "$REF" "$mode"
  done
  echo "run $i: coglab $(tail -1 "$OUT/coglab.times"), python lines $(tail -1 "$OUT/python-lines.times"), readlines $(tail -1 "$OUT/python-readlines.times") (wall s, peak KB, CPU s)"
done

echo "load after the runs: $(cut -d' ' -f1-3 /proc/loadavg)"

python3 - "$OUT" <<'EOF'
import json, statistics, sys
out = sys.argv[1]
def load(name):
    rows = [line.split() for line in open(f"{out}/{name}.times") if line.strip()]
    return tuple(statistics.median(float(r[i]) for r in rows) for i in range(3))
ct, cm, cc = load("coglab")
ours = json.load(open(f"{out}/coglab.out"))["overall"]
print(f"coglab score mmiq: median {ct:.3f} s wall, {cc:.3f} s CPU (user + system), "
      f"peak RSS {cm / 1024:.1f} MB; accuracy {ours['accuracy']:.6f} over {ours['n']} items")
bad = False
for mode in ("lines", "readlines"):
    pt, pm, pc = load(f"python-{mode}")
    theirs = json.loads(open(f"{out}/python-{mode}.out").read())
    print(f"MM-IQ eval_utils ({mode}): median {pt:.2f} s wall, {pc:.2f} s CPU, peak RSS "
          f"{pm / 1024:.1f} MB; accuracy {theirs['accuracy']:.6f} over {theirs['n']}")
    print(f"  coglab is {pt / ct:.1f}x faster in wall time ({pc / cc:.1f}x in CPU time) "
          f"and uses {cm / pm:.2f}x its peak memory")
    bad |= abs(ours["accuracy"] - theirs["accuracy"]) > 1e-12 or ours["n"] != theirs["n"]
if bad:
    sys.exit("the scorers disagree")
EOF
