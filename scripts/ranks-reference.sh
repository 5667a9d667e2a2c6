#!/usr/bin/env bash
# Independent reference figures for the leaderboard ranks (issue 20, coglab_core::ranks).
#
# Creates (once, idempotently) a throw-away virtual environment at .tools/venv-ranks with pinned
# numpy, scipy, statsmodels, pandas and krippendorff from PyPI, then runs
# scripts/ranks_reference.py on the fixtures in crates/coglab-core/tests/fixtures/ranks and the
# real KiVA runs in ../shared/data, writing JSON figures to target/ranks-reference/*.json (or
# $COGLAB_RANKS_REF). crates/coglab-core/tests/ranks.rs compares the Rust code with them.
#
# Usage: bash scripts/ranks-reference.sh   (from anywhere; paths are relative to the repo)
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="$repo/.tools/venv-ranks"
out="${COGLAB_RANKS_REF:-$repo/target/ranks-reference}"
data="${COGLAB_SHARED_DATA:-$repo/../shared/data}"
python="${PYTHON:-python3}"

stamp="$venv/.coglab-ranks-ok"
if [ ! -f "$stamp" ]; then
    rm -rf "$venv"
    "$python" -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check \
        "numpy==2.1.3" "scipy==1.14.1" "statsmodels==0.14.4" "pandas==2.2.3" "krippendorff==0.8.1"
    touch "$stamp"
fi

mkdir -p "$out"
"$venv/bin/python" "$repo/scripts/ranks_reference.py" --data "$data" --out "$out"
