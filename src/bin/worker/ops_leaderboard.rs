//! Worker operations of the leaderboard page (domain `lb`).
//!
//! `lb.score`: detects and scores a batch of dropped files with
//! [`coglab_core::leaderboard::score_files`]. Arguments: `{"models": {"<path>": "<name>"}}`
//! (model names the user set; others are guessed from the paths). Result: the
//! [`coglab_core::leaderboard::Scored`] JSON.

use std::collections::HashMap;

use coglab::worker::protocol::InputFile;
use coglab_core::leaderboard::{score_files, InputRef};
use serde::Deserialize;

use crate::Progress;

#[derive(Deserialize, Default)]
struct ScoreArgs {
    #[serde(default)]
    models: HashMap<String, String>,
}

/// Runs operation `name` of this domain.
pub fn run(
    name: &str,
    args: &str,
    files: Vec<InputFile>,
    progress: &Progress,
) -> Result<String, String> {
    match name {
        "score" => {
            let args: ScoreArgs = if args.trim().is_empty() || args.trim() == "null" {
                ScoreArgs::default()
            } else {
                serde_json::from_str(args).map_err(|e| format!("lb.score arguments: {e}"))?
            };
            let inputs: Vec<InputRef> = files
                .iter()
                .map(|f| InputRef {
                    path: &f.name,
                    bytes: &f.bytes,
                    model: args.models.get(&f.name).map(String::as_str),
                })
                .collect();
            let scored = score_files(&inputs, |done, total, label| {
                progress.report(done as f64, total as f64, label);
            });
            serde_json::to_string(&scored).map_err(|e| format!("lb.score result: {e}"))
        }
        "mmopera_compare" => coglab_core::leaderboard::mmopera::compare_json(args),
        "gold_analyze" => coglab_core::leaderboard::gold::analyze_json(args),
        _ => Err(format!("unknown worker operation {name:?}")),
    }
}
