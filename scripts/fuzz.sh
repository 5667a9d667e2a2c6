#!/usr/bin/env bash
# Runs every coglab-core fuzz target (fuzz/fuzz_targets/*.rs) for a set number of executions.
#
#   scripts/fuzz.sh [RUNS] [TARGET...]      RUNS defaults to 1000000; TARGETs default to all
#
# Needs the nightly toolchain (`rustup toolchain install nightly`), which libFuzzer's
# instrumentation requires. When `cargo fuzz` is installed it is not needed: this script
# builds the targets itself with the flags cargo-fuzz uses, so `cargo install cargo-fuzz` is
# optional (`cargo +nightly fuzz run <target>` works too).
#
# Seeds: fuzz/corpus/<target>/ (created from the test fixtures and the bad-input corpus on the
# first run; not committed). Crashes: fuzz/artifacts/<target>/ (turn each into a case of
# crates/coglab-core/tests/bad_inputs.rs). The summary (executions, time, crashes per target)
# is printed at the end and kept in fuzz/last-run.txt.
#
# Environment: FUZZ_SECONDS (stop each target after this many seconds even before RUNS;
# default none), FUZZ_MAX_LEN (default 16384 bytes per input), FUZZ_TIMEOUT (seconds per input,
# default 10), FUZZ_JOBS (parallel targets, default 1; the machine is shared), CARGO_TARGET_DIR
# (default /tmp/target-fuzz).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
RUNS=${1:-1000000}
shift || true
MAX_LEN=${FUZZ_MAX_LEN:-16384}
TIMEOUT=${FUZZ_TIMEOUT:-10}
JOBS=${FUZZ_JOBS:-1}
SECONDS_EACH=${FUZZ_SECONDS:-0}
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-/tmp/target-fuzz}
TRIPLE=$(rustc -vV | sed -n 's/^host: //p')

if [ $# -gt 0 ]; then
  TARGETS=("$@")
else
  TARGETS=()
  for f in fuzz/fuzz_targets/*.rs; do TARGETS+=("$(basename "$f" .rs)"); done
fi

echo "building ${#TARGETS[@]} fuzz targets (nightly, sanitizer coverage)..."
(cd fuzz && RUSTFLAGS="-Cpasses=sancov-module -Cllvm-args=-sanitizer-coverage-level=4 \
  -Cllvm-args=-sanitizer-coverage-inline-8bit-counters -Cllvm-args=-sanitizer-coverage-pc-table \
  -Cllvm-args=-sanitizer-coverage-trace-compares --cfg fuzzing" \
  cargo +nightly build --release --bins --target "$TRIPLE")
BIN=$CARGO_TARGET_DIR/$TRIPLE/release

F=crates/coglab-core/tests/fixtures
BAD=$F/bad
SEP=$'\n#####\n'
seed() { # seed TARGET FILE...
  local dir=fuzz/corpus/$1; shift
  mkdir -p "$dir"
  for f in "$@"; do [ -f "$f" ] && cp "$f" "$dir/$(echo "$f" | tr '/' '_')"; done
  return 0
}
seed_joined() { # seed_joined TARGET NAME FILE... (files joined with the separator line)
  local dir=fuzz/corpus/$1 name=$2; shift 2
  mkdir -p "$dir"
  local first=1
  { for f in "$@"; do [ $first = 1 ] || printf '%s' "$SEP"; first=0; cat "$f"; done; } > "$dir/$name"
}
seed_named() { # seed_named TARGET NAME INDEX FILE [INDEX FILE...] (each file after a byte INDEX)
  local dir=fuzz/corpus/$1 name=$2; shift 2
  mkdir -p "$dir"
  local first=1
  { while [ $# -ge 2 ]; do
      [ $first = 1 ] || printf '%s' "$SEP"; first=0
      printf "\\$(printf '%03o' "$1")"; cat "$2"; shift 2
    done; } > "$dir/$name"
}
make_seeds() {
  seed mmiq_key $F/mmiq/key_small.jsonl $BAD/mmiq_key/*
  seed mmiq_preds $F/mmiq/preds_small.* $BAD/mmiq_preds/* $BAD/vlmeval_csv/* $BAD/vlmeval_tsv/* $BAD/vlmeval_json/*
  seed mmiq_jsonl_vs_serde $F/mmiq/key_small.jsonl $F/mmiq/preds_small.jsonl $BAD/mmiq_key/* $BAD/mmiq_preds/*
  seed mmiq_acc $F/mmiq/small_MMIQ_acc.csv $BAD/vlmeval_acc/*
  seed mmiq_extract $F/mmiq/extract_cases.jsonl
  seed_joined mmiq_score small $F/mmiq/key_small.jsonl $F/mmiq/preds_small.jsonl $F/mmiq/preds_small.jsonl
  seed kiva_run $F/kiva/run_small/*/*.csv $BAD/kiva_run/*
  seed kiva_human $BAD/kiva_human/*
  seed_joined kiva_score small $F/kiva/run_small/output_Colour/ColourRed.csv \
    $F/kiva/run_small/output_Reflect/ReflectX.csv $BAD/kiva_human/bom.csv
  seed mmopera_detect $F/mmopera/*/*
  seed mmopera_metadata $F/mmopera/*/metadata.* $BAD/mmopera_metadata/*
  seed mmopera_answers $F/mmopera/*/*_results.json $BAD/mmopera_answers/*
  seed mmopera_regular $F/mmopera/*/*regular_scoring*.json $F/mmopera/*/human_*.json $BAD/mmopera_regular/*
  seed mmopera_reasoning $F/mmopera/*/*reasoning_scoring*.json $BAD/mmopera_reasoning/*
  seed_joined mmopera_score ria $F/mmopera/ria/metadata.json $F/mmopera/ria/modelx_RIA_regular_scoring.json \
    $F/mmopera/ria/modelx_RIA_reasoning_scoring.json $F/mmopera/ria/modelx_RIA_results.json
  seed_joined mmopera_score ica $F/mmopera/ica/metadata.csv $F/mmopera/ica/modelx_ICA_regular_scoring.json \
    $F/mmopera/ica/modelx_ICA_reasoning_scoring.json $F/mmopera/ica/modelx_ICA_results.json
  seed sem_matrix $F/sem/*.csv $BAD/sem_matrix_csv/* $BAD/sem_matrix_json/*
  seed sem_spec $BAD/sem_spec/*
  seed parquet $F/kiva/run_small_parquet/*/*.parquet $F/harness/lighteval/*.parquet
  seed publish_paths $BAD/publish_manifest/* $F/publish/tiny/leaderboard.toml $F/publish/sample/leaderboard.toml
  seed xlsx $F/mmiq/preds_small.xlsx $F/xlsx/*.xlsx
  # Targets whose files are named by a first byte (DROP_NAMES in fuzz/src/lib.rs: 0 key,
  # 1 predictions JSONL, 6/7 KiVA runs, 8 KiVA human, 9 MM-OPERA metadata, 11 answers,
  # 12 regular, 13 reasoning, 14 score matrix CSV).
  seed mmiq_sliced $F/mmiq/key_small.jsonl $F/mmiq/preds_small.jsonl $BAD/mmiq_key/* $BAD/mmiq_preds/*
  local o=$F/mmopera/ria k=$F/kiva/run_small/output_Colour/ColourRed.csv
  local r=$F/kiva/run_small/output_Reflect/ReflectX.csv h=$BAD/kiva_human/bom.csv
  for t in leaderboard_drop review_build; do
    seed_named $t mmiq 0 $F/mmiq/key_small.jsonl 1 $F/mmiq/preds_small.jsonl
    seed_named $t kiva 6 "$k" 7 "$r" 8 "$h"
    seed_named $t opera 9 $o/metadata.json 12 $o/modelx_RIA_regular_scoring.json \
      13 $o/modelx_RIA_reasoning_scoring.json 11 $o/modelx_RIA_results.json
    seed_named $t gold 14 $F/sem/prune.csv
  done
  seed_named gold_matrix prune 0 $F/sem/prune.csv
  local H=$F/harness
  seed_named harness_lmms s1 0 $H/20240601_120000_samples_mmiq.jsonl
  seed_named harness_lmms s2 0 $H/20231105_samples_mmiq_test.jsonl
  seed_named harness_lmms s3 0 $H/20240110_samples_mm_iq.jsonl
  seed_named harness_lmms results 1 $H/20240601_120000_results.json
  seed_named harness_vlmevalkit circular 0 $H/GPT4o_MMIQ_CIRC_gpt-4o-mini_result.tsv
  seed harness_inspect_json $H/inspect_log.json
  seed_named harness_jspsych csv 0 $H/kiva_run_jspsych.csv
  seed_named harness_jspsych json 1 $H/kiva_run_jspsych.json
  seed_joined harness_kiva_challenge json $H/kiva_challenge_annotations.json $H/kiva_challenge_results.json
  seed_joined harness_kiva_challenge csv $H/kiva_challenge_annotations.json $H/kiva_challenge_results.csv
  # EEE and .eval seeds are written by the core's tests (COGLAB_FUZZ_SEEDS, see tests/harness.rs).
  [ -d fuzz/seeds-generated ] && for t in harness_eee harness_inspect_eval; do
    seed $t fuzz/seeds-generated/$t/*; done
  mkdir -p fuzz/corpus/review_import fuzz/corpus/selftest_folder
  printf '\001set,key,id,hop,hop_name,judge,judge_r,judge_d,judge_k,score,r,d,k,note\ns,q1,q1,,,3,,,,2,,,,\n' \
    > fuzz/corpus/review_import/csv
  printf '\000{"format": "coglab-review", "version": 1, "set": "s", "kind": "holistic", "keys": ["q1"], "records": [{"key": "q1", "score": 3}]}' \
    > fuzz/corpus/review_import/json
  { for f in train_0_input train_0_output test_0_input test_1_input test_2_input; do
      printf 'KiVA/Colour/ColourRed_3_%s.png\n' "$f"; done
    printf 'KiVA/output_ColourRed.txt%s\000' "$SEP"
    printf 'train_0_input: 0\ntrain_0_output: Red\ntest_input: 0\nmc: Green\n'; } > fuzz/corpus/selftest_folder/small
  mkdir -p fuzz/corpus/sem_analyze
  printf '%s%s%s' '{"constructs": {"A": ["a1", "a2"], "B": ["b1", "b2"]}, "paths": [["A", "B"]]}' "$SEP" \
    "$(printf 'model,a1,a2,b1,b2\nm1,1,2,1,1\nm2,2,2,3,2\nm3,3,4,2,4\nm4,4,3,5,3\nm5,5,6,4,6\nm6,6,5,6,5\n')" \
    > fuzz/corpus/sem_analyze/small
}
make_seeds

SUMMARY=fuzz/last-run.txt
: > "$SUMMARY.tmp"
run_one() {
  local t=$1 log=fuzz/artifacts/$t/log.txt
  mkdir -p "fuzz/artifacts/$t"
  local start=$SECONDS status=ok
  "$BIN/$t" -runs="$RUNS" -max_len="$MAX_LEN" -timeout="$TIMEOUT" -rss_limit_mb=2048 -max_total_time="$SECONDS_EACH" \
    -artifact_prefix="fuzz/artifacts/$t/" -print_final_stats=1 "fuzz/corpus/$t" > "$log" 2>&1 || status=CRASH
  local execs
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  printf '%-18s %10s executions %6ss  %s\n' "$t" "${execs:-?}" "$((SECONDS - start))" "$status" | tee -a "$SUMMARY.tmp"
}
export -f run_one
export BIN RUNS MAX_LEN TIMEOUT SUMMARY SECONDS_EACH
if [ "$JOBS" -gt 1 ]; then
  printf '%s\n' "${TARGETS[@]}" | xargs -P "$JOBS" -I{} bash -c 'run_one {}'
else
  for t in "${TARGETS[@]}"; do run_one "$t"; done
fi
{ echo "# scripts/fuzz.sh $RUNS (FUZZ_SECONDS=$SECONDS_EACH) on $(date -u +%Y-%m-%dT%H:%MZ), commit $(git rev-parse --short HEAD)"; cat "$SUMMARY.tmp"; } > "$SUMMARY"
rm -f "$SUMMARY.tmp"
echo "summary in $SUMMARY"
! grep -q CRASH "$SUMMARY"
