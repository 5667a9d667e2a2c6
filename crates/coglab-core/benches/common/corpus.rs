//! The 100,000-response MM-IQ corpus of `benches/mmiq.rs`, shared with `benches/parquet.rs`:
//! realistic free-form responses of about 700 bytes assembled from varied sentences with a
//! seeded generator, and an answer key with one item per response.

use coglab_core::mmiq::CATEGORIES;
use coglab_core::stats::rng::Rng;

pub const N: usize = 100_000;
const LETTERS: [&str; 5] = ["A", "B", "C", "D", "E"];

const OPENINGS: [&str; 6] = [
    "To solve this puzzle, we need to identify the pattern or regularity in the sequence of figures.",
    "Let's analyze the grid step by step and look for the rule that governs each row and column.",
    "The sequence in the question shows a pattern where each image contains a set of shapes enclosed within a frame.",
    "Observing the given figures, the key to the problem is how the number of enclosed regions changes.",
    "We compare the panels from left to right and track the position, orientation and count of the black elements.",
    "First, consider the overall structure of the matrix: three rows, three columns, and one missing cell.",
];
const MIDDLES: [&str; 8] = [
    "In the first row, the black square moves one step clockwise in each subsequent cell, while the white circle stays fixed.",
    "The number of lines increases by one from each figure to the next: 3, 4, 5, so the missing figure should have 6 lines.",
    "Each figure is a 90-degree rotation of the previous one, and the shaded triangle alternates between the top and bottom.",
    "The figures with horizontal stripes form one group and the figures with vertical stripes form the other group.",
    "When the first two figures are overlaid, identical parts disappear and different parts remain, which gives the third figure.",
    "The count of closed regions is 1, 2, 3, 4 in the given panels, which suggests the next panel must contain 5 closed regions.",
    "Looking at symmetry, every figure in the top row has exactly one vertical axis of symmetry and no horizontal axis.",
    "The small circle moves along the edge of the frame by two positions each time, skipping one corner in between.",
];
const OPTIONS_TALK: [&str; 4] = [
    "Now, let's look at the options:\n- Option A: a square with intersecting lines.\n- Option B: an octagon with two dots.\n- Option C: a hexagon with six lines.\n- Option D: nested squares.",
    "Checking each candidate, the first option breaks the rotation rule, the second has the wrong count, and the last one is mirrored.",
    "Among the four choices, only one keeps both the position rule and the count rule at the same time; the others fail one of them.",
    "We can eliminate the options that do not have the right number of regions, and then compare the remaining ones by orientation.",
];

/// One ending; `{}` is the letter.
const ENDINGS: [&str; 9] = [
    "Therefore, the correct answer is option {}.",
    "The answer is {}.",
    "Thus, the most appropriate option to fill in the question mark is {}.",
    "So the figure that continues the pattern is **{}**.",
    "Hence \\boxed{{}}",
    "Best option: ({})",
    "The different pattern is figure {}, because it alone breaks the rule.",
    "Based on this analysis, I would choose {} as it fits best.",
    "I cannot determine the answer with certainty from the image provided.",
];

fn response(rng: &mut Rng, letter: &str) -> String {
    let mut r = String::with_capacity(800);
    r.push_str(OPENINGS[rng.below(OPENINGS.len())]);
    r.push_str("\n\n");
    for _ in 0..3 {
        r.push_str("- ");
        r.push_str(MIDDLES[rng.below(MIDDLES.len())]);
        r.push('\n');
    }
    r.push('\n');
    r.push_str(OPTIONS_TALK[rng.below(OPTIONS_TALK.len())]);
    r.push_str("\n\n");
    r.push_str(&ENDINGS[rng.below(ENDINGS.len())].replace("{}", letter));
    r
}

/// The answer key and the predictions file (JSONL bytes).
pub fn corpus() -> (String, Vec<u8>) {
    let mut rng = Rng::new(2025);
    let mut key = String::with_capacity(N * 100);
    let mut preds = Vec::with_capacity(N * 760);
    for id in 0..N {
        let cat = CATEGORIES[rng.below(CATEGORIES.len())];
        let answer = LETTERS[rng.below(4)];
        key.push_str(&format!(
            "{{\"category\": \"{cat}\", \"MD5\": \"{id:032x}\", \"data_id\": {id}, \"answer\": \"{answer}\"}}\n"
        ));
        let guess = LETTERS[rng.below(4)];
        let line = serde_json::json!({
            "data_id": id,
            "category": cat,
            "response": response(&mut rng, guess),
        });
        preds.extend_from_slice(line.to_string().as_bytes());
        preds.push(b'\n');
    }
    (key, preds)
}
