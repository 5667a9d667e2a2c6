#!/usr/bin/env bash
# Writes public/data/kiva-bank.json: the KiVA self-test's item bank (subdomain x stage, 2PL with
# partial pooling) calibrated on ../shared/data/kiva/human_adults_KiVA.csv, the adults' abilities
# and the model runs of model_data/KiVA on the same scale (coglab_core::selftest::bank).
# The same test then checks the written file against a recomputation.
set -euo pipefail
cd "$(dirname "$0")/.."
COGLAB_WRITE_BANK=1 cargo test -q -p coglab-core --test integration selftest_bank::
echo "wrote public/data/kiva-bank.json"
