#!/usr/bin/env bash
# Writes public/data/kiva-baselines.json and kiva-adults-baselines.json (one file per variant):
# adult and model aggregates per KiVA domain and stage (mean, SE over trials) and adults' reaction times per domain, computed by coglab-core
# (kiva::score_human / kiva::score_model, selftest::baselines) from ../shared/data/kiva.
# The same test then checks the written files against the core, figure by figure.
# The `coglab score kiva` CLI prints the same per-domain figures for one run, e.g.
#   cargo run -q -p coglab-cli -- score kiva ../shared/data/kiva/human_adults_KiVA.csv --json
set -euo pipefail
cd "$(dirname "$0")/.."
COGLAB_WRITE_BASELINES=1 cargo test -q -p coglab-core --test integration selftest::bundled_baselines
echo "wrote public/data/kiva-baselines.json and public/data/kiva-adults-baselines.json"
