//! Building the MM-IQ and KiVA leaderboard tables ([`Board`]) from the core's values: the
//! reported tables bundled from the papers, the rows computed from dropped files, and the
//! baselines (chance, humans); and the table's view state in the URL query string.

use coglab_core::kiva::{StageStats, Variant};
use coglab_core::leaderboard::metrics::{
    definition, model_info, normal_interval, reported_mmiq_interval,
};
use coglab_core::leaderboard::{KivaRow, MmiqRow};
use coglab_core::mmiq::{Accuracy, CATEGORIES, CHANCE};
use coglab_core::reported::ReportedBundle;
use coglab_core::selftest::baselines::Baselines;
use coglab_core::stats::describe::MeanSe;

use crate::components::board_table::{Board, BoardCell, BoardColumn, BoardRow, RowKind, ViewState};

/// Short paradigm names used as MM-IQ column headers, in [`CATEGORIES`] order.
pub const PARADIGM_SHORT: [&str; 8] = ["LO", "Math", "2D-G", "3D-G", "VI", "TM", "SR", "CO"];

fn pct(x: f64) -> String {
    format!("{:.1}", x * 100.0)
}

fn acc_cell(a: &Accuracy, how: &str) -> BoardCell {
    BoardCell {
        value: a.accuracy,
        interval: Some((a.ci_low, a.ci_high)),
        detail: format!(
            "{} of {} right; Wilson 95% interval {}–{}{how}",
            a.correct,
            a.n,
            pct(a.ci_low),
            pct(a.ci_high)
        ),
    }
}

fn row(model: &str, kind: RowKind, source: String, cells: Vec<Option<BoardCell>>) -> BoardRow {
    let info = model_info(model);
    let (family, size) = if kind == RowKind::Baseline {
        ("baseline".to_string(), "baseline".to_string())
    } else {
        (info.family.to_string(), info.size)
    };
    BoardRow {
        model: model.to_string(),
        kind,
        source,
        family,
        size,
        cells,
    }
}

/// The MM-IQ table: mean and the eight paradigms; the paper's Table 2 rows (reported; its human
/// row as a baseline), the computed rows and the 25% chance baseline.
pub fn mmiq_board(reported: Option<&ReportedBundle>, computed: &[MmiqRow]) -> Board {
    let mut columns = vec![BoardColumn {
        key: "mean".into(),
        title: "Mean".into(),
        definition: definition("mmiq", "mean").into(),
    }];
    columns.extend(
        CATEGORIES
            .iter()
            .zip(PARADIGM_SHORT)
            .map(|(c, s)| BoardColumn {
                key: (*c).to_string(),
                title: s.to_string(),
                definition: definition("mmiq", c).into(),
            }),
    );
    let mut rows = Vec::new();
    if let Some(t) = reported.and_then(|b| b.table("mmiq-table2")) {
        let source = format!("{} — {}", t.source, t.title);
        for r in &t.rows {
            let kind = if r.group.as_deref() == Some("Human") {
                RowKind::Baseline
            } else {
                RowKind::Reported
            };
            let cells = t
                .columns
                .iter()
                .enumerate()
                .map(|(i, _)| {
                    let v = r.values.get(i).copied().flatten()?;
                    if i == 0 && kind == RowKind::Reported {
                        if let Some(a) = reported_mmiq_interval(v) {
                            return Some(BoardCell {
                                value: v / 100.0,
                                interval: Some((a.ci_low, a.ci_high)),
                                detail: format!(
                                    "reported {v}%; Wilson 95% interval {}–{} assuming all {} items scored",
                                    pct(a.ci_low),
                                    pct(a.ci_high),
                                    a.n
                                ),
                            });
                        }
                    }
                    Some(BoardCell {
                        value: v / 100.0,
                        interval: None,
                        detail: format!("reported {v}% (no interval: the paper gives no count)"),
                    })
                })
                .collect();
            let model = if kind == RowKind::Baseline {
                "Human"
            } else {
                r.label.as_str()
            };
            rows.push(row(model, kind, source.clone(), cells));
        }
    }
    for r in computed {
        let mut cells = vec![Some(acc_cell(&r.report.overall, ""))];
        cells.extend(
            CATEGORIES
                .iter()
                .map(|c| r.report.by_category.get(*c).map(|a| acc_cell(a, ""))),
        );
        rows.push(row(
            &r.model,
            RowKind::Computed,
            format!("computed from {}", r.report.file),
            cells,
        ));
    }
    let mut chance = vec![Some(BoardCell {
        value: CHANCE,
        interval: None,
        detail: "one of four options at random".into(),
    })];
    chance.extend(CATEGORIES.iter().map(|_| None));
    rows.push(row(
        "Chance",
        RowKind::Baseline,
        "chance: 25% (four options)".into(),
        chance,
    ));
    Board {
        caption: "MM-IQ accuracy (%): reported in the paper, computed from your files, baselines"
            .into(),
        columns,
        rows,
        scale: 100.0,
        decimals: 2,
    }
}

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
        interval: Some(normal_interval(m)),
        detail: format!(
            "{} ± {} (mean ± SE over {} trials); 95% interval mean ± 1.96 SE",
            pct(m.mean),
            pct(m.se),
            m.n
        ),
    }
}

/// The KiVA table for one variant: overall and per-domain stage scores; computed rows (a
/// dropped human data file is a baseline), the bundled adults baseline and the bundled model
/// runs of the KiVA repository (reported: the paper gives figures only).
pub fn kiva_board(
    baselines: Option<&Baselines>,
    computed: &[KivaRow],
    variant: Variant,
    joint: bool,
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
        .collect();
    domains.sort();
    domains.dedup();
    let mut columns = Vec::new();
    for d in std::iter::once("All").chain(domains.iter().map(String::as_str)) {
        for (k, t) in stages {
            columns.push(BoardColumn {
                key: format!("{d}/{k}"),
                title: format!("{d} {t}"),
                definition: format!(
                    "{}: {}",
                    if d == "All" { "all domains" } else { d },
                    definition("kiva", k)
                ),
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
        // Dropped adult human data is a baseline; a self-test export (one participant,
        // labelled "<id> (self-test)" by the core) is that person's computed row.
        let kind = if r.report.source == coglab_core::kiva::Source::Human
            && !r.model.ends_with(" (self-test)")
        {
            RowKind::Baseline
        } else {
            RowKind::Computed
        };
        let mut row = row(
            &r.model,
            kind,
            format!("computed from {} files", r.report.files.len()),
            cells(&r.report.overall, &r.report.by_domain),
        );
        if kind == RowKind::Baseline {
            row.kind = RowKind::Baseline;
        }
        rows.push(row);
    }
    if let Some(v) = bundled {
        let note = baselines.map(|b| b.note.clone()).unwrap_or_default();
        if let Some(a) = &v.adults {
            rows.push(row(
                &format!("{} (KiVA human data)", a.label),
                RowKind::Baseline,
                note.clone(),
                cells(&a.overall, &a.by_domain),
            ));
        }
        for m in &v.models {
            rows.push(row(
                &m.label,
                RowKind::Reported,
                format!("The KiVA repository's released run, scored by coglab. {note}"),
                cells(&m.overall, &m.by_domain),
            ));
        }
    }
    Board {
        caption: format!(
            "{} accuracy (%) by stage, mean over trials; children: the paper gives figures only, no bundled numbers",
            variant.name()
        ),
        columns,
        rows,
        scale: 100.0,
        decimals: 1,
    }
}

/// The view state from URL query parameters (`s` sort, `a` ascending, `q` text, `k` kinds,
/// `fam`, `size`, `hide` hidden columns, `c` compact).
pub fn state_from_query(get: impl Fn(&str) -> Option<String>) -> ViewState {
    let list = |k: &str| -> Vec<String> {
        get(k)
            .map(|v| {
                v.split(',')
                    .filter(|s| !s.is_empty())
                    .map(String::from)
                    .collect()
            })
            .unwrap_or_default()
    };
    ViewState {
        sort: get("s").filter(|s| !s.is_empty()),
        asc: get("a").as_deref() == Some("1"),
        query: get("q").unwrap_or_default(),
        kinds: list("k").iter().filter_map(|k| RowKind::parse(k)).collect(),
        family: get("fam").unwrap_or_default(),
        size: get("size").unwrap_or_default(),
        hidden: list("hide"),
        compact: get("c").as_deref() == Some("1"),
    }
}

/// The URL query parameters of a view state (empty values remove the parameter).
pub fn state_to_query(s: &ViewState) -> Vec<(&'static str, String)> {
    vec![
        ("s", s.sort.clone().unwrap_or_default()),
        ("a", if s.asc { "1".into() } else { String::new() }),
        ("q", s.query.clone()),
        (
            "k",
            s.kinds
                .iter()
                .map(|k| k.label())
                .collect::<Vec<_>>()
                .join(","),
        ),
        ("fam", s.family.clone()),
        ("size", s.size.clone()),
        ("hide", s.hidden.join(",")),
        ("c", if s.compact { "1".into() } else { String::new() }),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn url_state_round_trip() {
        let s = ViewState {
            sort: Some("Mathematical".into()),
            asc: true,
            query: "gpt".into(),
            kinds: vec![RowKind::Computed, RowKind::Baseline],
            family: "GPT".into(),
            size: String::new(),
            hidden: vec!["mean".into(), "2D-Geometry".into()],
            compact: true,
        };
        let q = state_to_query(&s);
        let back = state_from_query(|k| {
            q.iter()
                .find(|(n, _)| *n == k)
                .map(|(_, v)| v.clone())
                .filter(|v| !v.is_empty())
        });
        assert_eq!(back, s);
    }

    #[test]
    fn mmiq_board_rows() {
        let bundle =
            ReportedBundle::parse("mmiq.json", include_str!("../../../public/data/mmiq.json"))
                .unwrap();
        let b = mmiq_board(Some(&bundle), &[]);
        assert_eq!(b.columns.len(), 9);
        // 12 models reported, the paper's human row and chance as baselines.
        let kinds = |k| b.rows.iter().filter(|r| r.kind == k).count();
        assert_eq!(kinds(RowKind::Reported), 12);
        assert_eq!(kinds(RowKind::Baseline), 2);
        let gpt = b.rows.iter().find(|r| r.model == "GPT-4o").unwrap();
        assert_eq!(gpt.cells[0].as_ref().unwrap().value, 0.2687);
        // 26.87% of 2710 = 728 right: the Wilson interval of 728/2710.
        let (lo, hi) = gpt.cells[0].as_ref().unwrap().interval.unwrap();
        assert!(lo < 0.2687 && hi > 0.2687 && hi - lo < 0.04);
        assert_eq!(gpt.family, "GPT");
    }
}
