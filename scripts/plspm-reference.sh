#!/usr/bin/env bash
# Independent reference figures for the PLS-SEM engine (issue 5).
#
# Creates (once, idempotently) a throw-away virtual environment at .tools/venv-plspm with the
# Python package `plspm` from PyPI (pandas < 2.3 and numpy < 2.3, which plspm 0.5.x needs),
# then runs scripts/plspm_reference.py, which fits plspm on the shared mobi and satisfaction
# data and writes JSON figures to target/plspm-reference/*.json (or $COGLAB_PLSPM_REF).
# crates/coglab-core/tests/sem_plspm.rs compares the Rust engine with those files.
#
# Usage: bash scripts/plspm-reference.sh   (from anywhere; paths are relative to the repo)
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="$repo/.tools/venv-plspm"
out="${COGLAB_PLSPM_REF:-$repo/target/plspm-reference}"
data="${COGLAB_SHARED_DATA:-$repo/../shared/data}"
python="${PYTHON:-python3}"

if [ ! -f "$data/sem/mobi.csv" ]; then
    if [ "${CI:-}" = "true" ]; then
        echo "plspm-reference: $data/sem/mobi.csv is missing (CI=true)" >&2
        exit 1
    fi
    echo "SKIP: plspm-reference: $data/sem/mobi.csv not found" >&2
    exit 0
fi

stamp="$venv/.coglab-plspm-ok"
if [ ! -f "$stamp" ]; then
    rm -rf "$venv"
    "$python" -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check \
        "plspm==0.5.7" "pandas<2.3" "numpy<2.3"
    touch "$stamp"
fi

mkdir -p "$out"
"$venv/bin/python" "$repo/scripts/plspm_reference.py" --data "$data/sem" --out "$out"
