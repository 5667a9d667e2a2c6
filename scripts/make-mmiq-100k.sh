#!/usr/bin/env bash
# Writes (once) the 100,000-response MM-IQ benchmark input into a folder (default
# target/bench-mmiq): preds.jsonl, 100,000 MM-IQ responses of about 720 bytes (~72 MB:
# reasoning sentences, an option review and one of MM-IQ's answer endings, built as
# crates/coglab-core/benches/mmiq.rs builds its corpus, with a seeded generator), and key.jsonl,
# the matching answer key (one item per response, MM-IQ's eight categories). Used by
# scripts/bench-mmiq-python.sh and scripts/bench-python-package.sh.
#
#   scripts/make-mmiq-100k.sh [OUT]
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OUT=${1:-${CARGO_TARGET_DIR:-$ROOT/target}/bench-mmiq}
mkdir -p "$OUT"
if [ ! -f "$OUT/preds.jsonl" ] || [ ! -f "$OUT/key.jsonl" ]; then
  python3 - "$OUT" <<'EOF'
import json, random, sys
out = sys.argv[1]
N = 100_000
CATS = ["Logical Operation", "Mathematical", "2D-Geometry", "3D-Geometry",
        "Visual Instruction", "Temporal Movement", "Spatial Relationship", "Concrete Object"]
OPENINGS = [
    "To solve this puzzle, we need to identify the pattern or regularity in the sequence of figures.",
    "Let's analyze the grid step by step and look for the rule that governs each row and column.",
    "The sequence in the question shows a pattern where each image contains a set of shapes enclosed within a frame.",
    "Observing the given figures, the key to the problem is how the number of enclosed regions changes.",
    "We compare the panels from left to right and track the position, orientation and count of the black elements.",
    "First, consider the overall structure of the matrix: three rows, three columns, and one missing cell.",
]
MIDDLES = [
    "In the first row, the black square moves one step clockwise in each subsequent cell, while the white circle stays fixed.",
    "The number of lines increases by one from each figure to the next: 3, 4, 5, so the missing figure should have 6 lines.",
    "Each figure is a 90-degree rotation of the previous one, and the shaded triangle alternates between the top and bottom.",
    "The figures with horizontal stripes form one group and the figures with vertical stripes form the other group.",
    "When the first two figures are overlaid, identical parts disappear and different parts remain, which gives the third figure.",
    "The count of closed regions is 1, 2, 3, 4 in the given panels, which suggests the next panel must contain 5 closed regions.",
    "Looking at symmetry, every figure in the top row has exactly one vertical axis of symmetry and no horizontal axis.",
    "The small circle moves along the edge of the frame by two positions each time, skipping one corner in between.",
]
OPTIONS_TALK = [
    "Now, let's look at the options:\n- Option A: a square with intersecting lines.\n- Option B: an octagon with two dots.\n- Option C: a hexagon with six lines.\n- Option D: nested squares.",
    "Checking each candidate, the first option breaks the rotation rule, the second has the wrong count, and the last one is mirrored.",
    "Among the four choices, only one keeps both the position rule and the count rule at the same time; the others fail one of them.",
    "We can eliminate the options that do not have the right number of regions, and then compare the remaining ones by orientation.",
]
ENDINGS = [
    "Therefore, the correct answer is option {}.",
    "The answer is {}.",
    "Thus, the most appropriate option to fill in the question mark is {}.",
    "So the figure that continues the pattern is **{}**.",
    "Hence \\boxed{{{}}}",
    "Best option: ({})",
    "The different pattern is figure {}, because it alone breaks the rule.",
    "Based on this analysis, I would choose {} as it fits best.",
    "I cannot determine the answer with certainty from the image provided.",
]
rng = random.Random(2025)
with open(f"{out}/key.jsonl", "w") as key, open(f"{out}/preds.jsonl", "w") as preds:
    for i in range(N):
        cat = rng.choice(CATS)
        key.write(json.dumps({"category": cat, "MD5": f"{i:032x}", "data_id": i,
                              "answer": rng.choice("ABCD")}) + "\n")
        r = rng.choice(OPENINGS) + "\n\n"
        r += "".join("- " + rng.choice(MIDDLES) + "\n" for _ in range(3))
        r += "\n" + rng.choice(OPTIONS_TALK) + "\n\n" + rng.choice(ENDINGS).format(rng.choice("ABCD"))
        preds.write(json.dumps({"data_id": i, "category": cat, "response": r}) + "\n")
EOF
fi
