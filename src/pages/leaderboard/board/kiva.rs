//! The KiVA board: stage scores overall and per domain for one variant; computed rows, KiVA
//! challenge results, the bundled adults and the bundled model runs.

use coglab_core::kiva::{NullAnswers, StageStats, Variant};
use coglab_core::leaderboard::metrics::{definition, kiva_null_note, kiva_stage_interval};
use coglab_core::leaderboard::{KivaChallengeRow, KivaRow};
use coglab_core::selftest::baselines::Baselines;
use coglab_core::stats::describe::MeanSe;

use super::{acc_cell, pct, row};
use crate::components::board_table::{Board, BoardCell, BoardColumn, RowKind};

/// Where the adults row comes from (issue 23): the released file, not the paper's sample.
use coglab_core::selftest::baselines::ADULTS_SOURCE;

/// The KiVA paper, as its bundled rows cite it.
const KIVA_PAPER: &str =
    "KiVA: Kid-inspired Visual Analogies for Testing Large Multimodal Models (Yiu et al.)";
/// The KiVA repository, where the released runs and the adults' file come from.
const KIVA_REPOSITORY: &str = "https://github.com/ey242/KiVA";
/// The short citation on a bundled KiVA row.
const KIVA_CITE: &str = "KiVA repository, released data (Yiu et al.)";
/// How the bundled KiVA figures are computed.
const KIVA_FIGURES: &str = "Mean over trials per domain and stage, with its standard error \
     (population SD / √n trials).";

/// The KiVA stages shown, as (report key, title).
pub fn kiva_stages(joint: bool) -> [(&'static str, &'static str); 3] {
    [
        ("cross", "What"),
        (
            if joint {
                "within_joint"
            } else {
                "within_conditional"
            },
            "How",
        ),
        ("extrapolation", "Apply"),
    ]
}

fn ms_cell(m: MeanSe) -> BoardCell {
    BoardCell {
        value: m.mean,
        interval: Some(kiva_stage_interval(m)),
        n: Some(m.n as u64),
        detail: format!(
            "{} ± {} (mean ± SE over {} trials); 95% interval: Wilson's with the trials' effective size, Student t on n − 1 df",
            pct(m.mean),
            pct(m.se),
            m.n
        ),
    }
}

/// A KiVA challenge row's cells on the KiVA board: the challenge asks one choice among (A),
/// (B), (C) per trial, which is KiVA's third stage ("Apply": which option the transformation
/// gives), so its accuracy overall and per transformation domain (the core's, with their
/// Wilson 95% intervals) go in the `All/extrapolation` and `<domain>/extrapolation` columns;
/// the other stages are not asked. A domain the board has no column for (a composite such as
/// `Colour+Resize`) counts in `All` only.
fn challenge_cells(c: &KivaChallengeRow, columns: &[BoardColumn]) -> Vec<Option<BoardCell>> {
    let how = " (KiVA challenge: one choice per trial, counted as the Apply stage)";
    columns
        .iter()
        .map(|col| {
            let (d, stage) = col.key.split_once('/')?;
            if stage != "extrapolation" {
                return None;
            }
            let a = if d == "All" {
                &c.report.overall
            } else {
                c.report.by_domain.get(d)?
            };
            (a.n > 0).then(|| acc_cell(a, how))
        })
        .collect()
}

/// The KiVA table for one variant: overall and per-domain stage scores; computed rows (a
/// dropped human data file is a baseline), the bundled adults baseline and the bundled model
/// runs of the KiVA repository (reported: the paper gives figures only).
pub fn kiva_board(
    baselines: Option<&Baselines>,
    computed: &[KivaRow],
    challenge: &[KivaChallengeRow],
    variant: Variant,
    joint: bool,
    null: NullAnswers,
) -> Board {
    let stages = kiva_stages(joint);
    let bundled = baselines.and_then(|b| b.variant(variant));
    let mut domains: Vec<String> = computed
        .iter()
        .filter(|r| r.report.variant == variant)
        .flat_map(|r| r.report.by_domain.keys().cloned())
        .chain(
            bundled
                .into_iter()
                .flat_map(|v| v.adults.iter().chain(&v.models))
                .flat_map(|g| g.by_domain.keys().cloned()),
        )
        // A KiVA challenge's domains that are KiVA's (not composites such as Colour+Resize).
        .chain(
            challenge
                .iter()
                .filter(|_| variant == Variant::Kiva)
                .flat_map(|c| c.report.by_domain.keys())
                .filter(|d| coglab_core::kiva::DOMAINS.contains(&d.as_str()))
                .cloned(),
        )
        .collect();
    domains.sort();
    domains.dedup();
    let mut columns = Vec::new();
    for d in std::iter::once("All").chain(domains.iter().map(String::as_str)) {
        for (k, t) in stages {
            columns.push(BoardColumn {
                key: format!("{d}/{k}"),
                // The switch changes computed rows only (the reported rows and the adults keep
                // the repository's rule): the caption and each computed row's source say it,
                // not the headers over every row.
                title: format!("{d} {t}"),
                definition: format!(
                    "{}: {} {}",
                    if d == "All" { "all domains" } else { d },
                    definition("kiva", k),
                    kiva_null_note(null)
                ),
                unit: None,
            });
        }
    }
    let cells = |overall: &StageStats, by: &std::collections::BTreeMap<String, StageStats>| {
        let mut v = Vec::new();
        for d in std::iter::once(None).chain(domains.iter().map(Some)) {
            let s = match d {
                None => Some(overall),
                Some(d) => by.get(d),
            };
            for (k, _) in stages {
                v.push(s.and_then(|s| s.get(k)).map(ms_cell));
            }
        }
        v
    };
    let mut rows = Vec::new();
    for r in computed.iter().filter(|r| r.report.variant == variant) {
        // People are reference rows, not ranked among the models: dropped adult human
        // data, a self-test export (one participant, "<id> (self-test)") and a jsPsych run
        // alike (issue 42, defect 15: a self-test participant was ranked among the models).
        let kind = if r.report.source == coglab_core::kiva::Source::Human {
            RowKind::Baseline
        } else {
            RowKind::Computed
        };
        let mut row = row(
            &r.model,
            kind,
            match (null, kind) {
                (NullAnswers::Missing, RowKind::Computed) => format!(
                    "computed from {} files, Null answers left out",
                    r.report.files.len()
                ),
                _ => format!("computed from {} files", r.report.files.len()),
            },
            {
                let (overall, by) = r.stats(null);
                cells(overall, by)
            },
        );
        if kind == RowKind::Baseline {
            row.kind = RowKind::Baseline;
        }
        row.row_id = Some(r.id);
        row.harness = r.report.harness.as_ref().map(|h| h.harness_label.clone());
        rows.push(row);
    }
    // KiVA challenge results (their levels start from KiVA's 14 subdomains) on the KiVA tab.
    if variant == Variant::Kiva {
        for c in challenge {
            let levels = c
                .report
                .by_level
                .keys()
                .cloned()
                .collect::<Vec<_>>()
                .join(", ");
            let mut r = row(
                &c.model,
                RowKind::Computed,
                format!(
                    "computed from {} against {} (levels: {levels}; {} annotated trials not answered)",
                    c.report.file, c.report.annotation_file, c.report.not_answered
                ),
                challenge_cells(c, &columns),
            );
            r.harness = Some(c.harness.clone());
            r.row_id = Some(c.id);
            rows.push(r);
        }
    }
    // The bundled rows name the paper and the repository their data come from, not the
    // functions that computed them (issue 42, defect 6).
    if let Some(v) = bundled {
        let cite = || Some((KIVA_CITE.to_string(), KIVA_REPOSITORY.to_string()));
        if let Some(a) = &v.adults {
            let mut r = row(
                &format!("{} (KiVA's released file, {} trials)", a.label, a.trials),
                RowKind::Baseline,
                format!("{ADULTS_SOURCE} {KIVA_FIGURES}"),
                cells(&a.overall, &a.by_domain),
            );
            r.cite = cite();
            rows.push(r);
        }
        for m in &v.models {
            let mut r = row(
                &m.label,
                RowKind::Reported,
                format!(
                    "{KIVA_PAPER}: the run released in its repository ({KIVA_REPOSITORY}, \
                     model_data/{}), scored the repository's way (Null answers count as wrong). \
                     The paper shows its figures in charts only. {KIVA_FIGURES}",
                    variant.name()
                ),
                cells(&m.overall, &m.by_domain),
            );
            r.cite = cite();
            rows.push(r);
        }
    }
    Board {
        caption: format!(
            "{} accuracy (%) by stage, mean over trials; {}",
            variant.name(),
            kiva_null_note(null)
        ),
        columns,
        rows,
        scale: 100.0,
        decimals: 1,
    }
}
#[cfg(test)]
mod tests {
    use super::*;
    use crate::pages::leaderboard::board::test_support::*;

    #[test]
    fn kiva_board_null_switch() {
        // Trial 0: regenerations (1, 1, 1) and (Null, empty, 0); trial 1: (1, Null, 1).
        // Null wrong (default): what = mean(0.5, 1) = 0.75, how (conditional) = mean(1, 0)
        // = 0.5. Null left out: what = mean(1, 1) = 1, how over trial 0 only = 1 (n 1).
        // Apply is 0.5 and 1 → 0.75 either way.
        let csv = "Variation,Regeneration,MCResponse#1,MCResponse#2,MCResponse#3\n\
                   0,0,1,1,1\n0,1,Null,,0\n1,0,1,Null,1\n";
        let s = scored(&[("m/output_Colour/ColourRed.csv", csv)]);
        assert_eq!(s.kiva.len(), 1, "{:?}", s.files);
        let cell = |b: &Board, c: usize| b.rows[0].cells[c].as_ref().map(|x| x.value);
        let w = kiva_board(None, &s.kiva, &[], Variant::Kiva, false, NullAnswers::Wrong);
        assert_eq!(w.columns[0].title, "All What");
        assert!(w.columns[0].definition.contains("count as wrong"));
        assert_eq!(cell(&w, 0), Some(0.75));
        assert_eq!(cell(&w, 1), Some(0.5));
        assert_eq!(cell(&w, 2), Some(0.75));
        let m = kiva_board(
            None,
            &s.kiva,
            &[],
            Variant::Kiva,
            false,
            NullAnswers::Missing,
        );
        // The headers stand over the reported rows too, which keep the repository's rule: the
        // caption and the computed row's source say what changed.
        assert_eq!(m.columns[0].title, "All What");
        assert!(m.caption.contains("left out"));
        assert!(m
            .caption
            .contains("Bundled rows and the adults keep the repository's rule"));
        assert!(m.rows[0].source.ends_with("Null answers left out"));
        assert!(!w.rows[0].source.contains("Null"));
        assert_eq!(cell(&m, 0), Some(1.0));
        assert_eq!(cell(&m, 1), Some(1.0));
        assert_eq!(cell(&m, 2), Some(0.75));
    }

    /// Issue 24: a KiVA challenge result is a computed row of the KiVA table, its accuracy in
    /// the Apply columns. The fixture by hand: trial_001 (A) right, trial_002 (C) right,
    /// trial_003 "The answer is (A)" wrong (B), trial_004 (A) right, trial_099 not annotated,
    /// trial_005 not answered: 3 of 4 overall; Colour 1 of 1, Counting 1 of 2 (002, 003);
    /// Colour+Resize (trial_004) has no column of the board.
    #[test]
    fn kiva_challenge_is_a_computed_kiva_row() {
        let s = scored(&[
            (
                "kiva_challenge_annotations.json",
                &fixture("kiva_challenge_annotations.json"),
            ),
            (
                "kiva_challenge_results.json",
                &fixture("kiva_challenge_results.json"),
            ),
        ]);
        assert_eq!(s.kiva_challenge.len(), 1, "{:?}", s.files);
        let b = kiva_board(
            None,
            &[],
            &s.kiva_challenge,
            Variant::Kiva,
            false,
            NullAnswers::Wrong,
        );
        let r = b
            .rows
            .iter()
            .find(|r| r.harness.as_deref() == Some("KiVA challenge"))
            .unwrap();
        assert_eq!(r.kind, RowKind::Computed);
        assert!(!r.summary);
        let col = |k: &str| b.columns.iter().position(|c| c.key == k).unwrap();
        let all = r.cells[col("All/extrapolation")].as_ref().unwrap();
        assert_eq!((all.value, all.n), (0.75, Some(4)));
        assert!(r.cells[col("All/cross")].is_none());
        let colour = r.cells[col("Colour/extrapolation")].as_ref().unwrap();
        assert_eq!((colour.value, colour.n), (1.0, Some(1)));
        let counting = r.cells[col("Counting/extrapolation")].as_ref().unwrap();
        assert_eq!((counting.value, counting.n), (0.5, Some(2)));
        assert!(!b.columns.iter().any(|c| c.key.starts_with("Colour+Resize")));
        // On the KiVA-adults tab it is not drawn.
        let adults = kiva_board(
            None,
            &[],
            &s.kiva_challenge,
            Variant::KivaAdults,
            false,
            NullAnswers::Wrong,
        );
        assert!(adults.rows.iter().all(|r| r.harness.is_none()));
    }
}
