//! The leaderboard's boards from the bundled data alone, as static HTML (issue 42, defects 3
//! and 11): the papers' reported rows and the baselines, built by the tabs' own board builders
//! and arranged and rendered by the table's own code ([`board_html`]), so the board a visitor
//! reads before the wasm has run is the one the app then shows, ranks and row kinds included.
//!
//! `cargo run --bin coglab-boards` writes them to `public/boards/` from `public/data/`, and
//! the site's build inlines them into the leaderboard's page (scripts/static-boards.py). A
//! test here fails when the committed files are not what the bundled data gives.

use coglab_core::kiva::{NullAnswers, Variant};
use coglab_core::mmopera::Task;
use coglab_core::reported::ReportedBundle;
use coglab_core::selftest::baselines::Baselines;

use super::{gold_board, gold_table_request, kiva_board, mmiq_board, mmopera_board};
use crate::components::board_table::board_html;

/// The bundled data files a static board is built from (`public/data/`).
pub const DATA_FILES: [&str; 5] = [
    "mmiq.json",
    "kiva-baselines.json",
    "kiva-adults-baselines.json",
    "mmopera.json",
    "gold.json",
];

/// The bundled data's texts, by [`DATA_FILES`] name.
pub struct BundledData<'a> {
    /// `mmiq.json`.
    pub mmiq: &'a str,
    /// `kiva-baselines.json`.
    pub kiva: &'a str,
    /// `kiva-adults-baselines.json`.
    pub kiva_adults: &'a str,
    /// `mmopera.json`.
    pub mmopera: &'a str,
    /// `gold.json`.
    pub gold: &'a str,
}

/// One static board: the tab's key (`b=` in the URL; KiVA-adults and MM-OPERA's tasks are
/// boards of their own) and its HTML fragment.
#[derive(Debug, Clone, PartialEq)]
pub struct StaticBoard {
    /// `mmiq`, `kiva`, `kiva-adults`, `mmopera-ria`, `mmopera-ica` or `gold`.
    pub key: &'static str,
    /// The `<section>` ([`board_html`]).
    pub html: String,
}

/// The six boards, in the tabs' order, with the tabs' default settings.
///
/// # Errors
/// A bundled file that does not parse, named, with the parser's message.
pub fn static_boards(data: &BundledData) -> Result<Vec<StaticBoard>, String> {
    let reported =
        |file: &str, text: &str| ReportedBundle::parse(file, text).map_err(|e| e.to_string());
    let mmiq = reported("data/mmiq.json", data.mmiq)?;
    let mmopera = reported("data/mmopera.json", data.mmopera)?;
    let gold = reported("data/gold.json", data.gold)?;
    let baselines = |file: &str, text: &str| {
        serde_json::from_str::<Baselines>(text).map_err(|e| format!("data/{file}: {e}"))
    };
    let kiva = baselines(Baselines::file_name(Variant::Kiva), data.kiva)?;
    let kiva_adults = baselines(Baselines::file_name(Variant::KivaAdults), data.kiva_adults)?;
    let gold_scores = match gold_table_request(&gold) {
        Some(t) => Some(
            coglab_core::leaderboard::gold::score_table(&t.labels, &t.columns, &t.values)
                .map_err(|e| format!("data/gold.json: {e}"))?,
        ),
        None => None,
    };
    let kiva_of = |variant| {
        kiva_board(
            Some(if variant == Variant::Kiva {
                &kiva
            } else {
                &kiva_adults
            }),
            &[],
            &[],
            variant,
            false,
            NullAnswers::default(),
        )
    };
    let opera = |task| mmopera_board(Some(&mmopera), &[], task, Default::default());
    let boards = [
        ("mmiq", "MM-IQ", mmiq_board(Some(&mmiq), &[], &[], &[])),
        ("kiva", "KiVA", kiva_of(Variant::Kiva)),
        ("kiva-adults", "KiVA-adults", kiva_of(Variant::KivaAdults)),
        ("mmopera-ria", "MM-OPERA: RIA", opera(Task::Ria)),
        ("mmopera-ica", "MM-OPERA: ICA", opera(Task::Ica)),
        (
            "gold",
            "Gold",
            gold_board(Some(&gold), gold_scores.as_ref(), &[]),
        ),
    ];
    Ok(boards
        .into_iter()
        .map(|(key, heading, mut board)| {
            // Before the app has loaded there are no rows from the visitor's files.
            board.caption = board.caption.replace(", computed from your files", "");
            StaticBoard {
                key,
                html: board_html(&board, key, heading),
            }
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bundled() -> Vec<StaticBoard> {
        static_boards(&BundledData {
            mmiq: include_str!("../../../../public/data/mmiq.json"),
            kiva: include_str!("../../../../public/data/kiva-baselines.json"),
            kiva_adults: include_str!("../../../../public/data/kiva-adults-baselines.json"),
            mmopera: include_str!("../../../../public/data/mmopera.json"),
            gold: include_str!("../../../../public/data/gold.json"),
        })
        .unwrap()
    }

    /// The committed boards are what the bundled data gives: after a change to the data or to
    /// the boards' code, `cargo run --bin coglab-boards` writes them again.
    #[test]
    fn committed_boards_are_current() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("public/boards");
        for b in bundled() {
            let path = dir.join(format!("{}.html", b.key));
            let committed = std::fs::read_to_string(&path).unwrap_or_default();
            assert!(
                committed == b.html,
                "{} is not what the bundled data gives: run `cargo run --bin coglab-boards`",
                path.display()
            );
        }
    }

    /// The row of `model` in a board's HTML, from `<tr` to `</tr>`.
    fn row<'a>(html: &'a str, model: &str) -> &'a str {
        let at = html
            .find(&format!("data-model=\"{model}\""))
            .unwrap_or_else(|| panic!("no row {model}"));
        let start = html[..at].rfind("<tr").unwrap();
        &html[start..start + html[start..].find("</tr>").unwrap()]
    }

    /// Ranks, kinds and sources as the app shows them (issue 42, defect 11): MM-IQ's rows
    /// ranked by Mean down the table, the humans and chance baselines unranked; KiVA's board
    /// holds the paper's models; Gold's rows are ranked by the weighted overall score.
    #[test]
    fn boards_rank_and_label_as_the_app() {
        let boards = bundled();
        let keys: Vec<&str> = boards.iter().map(|b| b.key).collect();
        assert_eq!(
            keys,
            [
                "mmiq",
                "kiva",
                "kiva-adults",
                "mmopera-ria",
                "mmopera-ica",
                "gold"
            ]
        );
        let mmiq = &boards[0].html;
        // MM-IQ Table 2: the humans' 51.27 first (a baseline, not ranked), then the best model.
        let human = row(mmiq, "Human");
        assert!(human.contains("data-source=\"baseline\""), "{human}");
        assert!(human.contains("<td>ref</td>"), "{human}");
        let first_ranked = mmiq.find("<td>1</td>").unwrap();
        assert!(mmiq[..first_ranked].contains("data-model=\"Human\""));
        assert!(
            mmiq.contains("href=\"https://github.com/AceCHQ/MMIQ\""),
            "the paper's repository"
        );
        assert!(mmiq
            .contains("<caption>MM-IQ accuracy (%): reported in the paper, baselines</caption>"));
        let kiva = &boards[1].html;
        assert!(
            kiva.contains("data-source=\"reported\" data-model=\"GPT-4V"),
            "the paper's models"
        );
        assert!(
            kiva.contains("github.com/ey242/KiVA"),
            "the repository's link"
        );
        let gold = &boards[5].html;
        assert!(gold.matches("data-source=\"reported\"").count() >= 10);
        assert!(gold.contains("<td>1</td>"));
    }
}
