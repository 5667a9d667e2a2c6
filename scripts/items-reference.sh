#!/usr/bin/env bash
# Independent reference figures for the item analysis (issue 22).
#
# Creates (once, idempotently) a throw-away virtual environment at .tools/venv-items with
# girth 0.8.0 from PyPI (it needs numpy < 2 and scipy < 1.12 on Python 3.11) and pandas, then
# runs scripts/items_reference.py on the response matrices in
# crates/coglab-core/tests/fixtures/items/, writing target/items-reference/*.json (or
# $COGLAB_ITEMS_REF). crates/coglab-core/tests/items_reference.rs compares with those files.
#
# Usage: bash scripts/items-reference.sh   (from anywhere; paths are relative to the repo)
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="$repo/.tools/venv-items"
out="${COGLAB_ITEMS_REF:-$repo/target/items-reference}"
python="${PYTHON:-python3}"

stamp="$venv/.coglab-items-ok"
if [ ! -f "$stamp" ]; then
    rm -rf "$venv"
    "$python" -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check \
        "girth==0.8.0" "numpy==1.26.4" "scipy==1.11.4" "pandas==2.2.3"
    touch "$stamp"
fi

mkdir -p "$out"
"$venv/bin/python" "$repo/scripts/items_reference.py" \
    --fixtures "$repo/crates/coglab-core/tests/fixtures/items" --out "$out"
