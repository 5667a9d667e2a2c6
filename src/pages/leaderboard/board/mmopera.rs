//! The MM-OPERA board of one task (RIA or ICA): the paper's Tables 2 and 3 and the rows
//! computed from judge files, under the paper-fidelity settings.

use coglab_core::leaderboard::metrics::{definition, mmopera_reasoning_label};
use coglab_core::leaderboard::mmopera::{ria_ica_gap, MmoperaRow};
use coglab_core::mmopera::score::{DecayExponent, IcaAverage};
use coglab_core::mmopera::Task;
use coglab_core::reported::ReportedBundle;

use super::{cite_papers, pct, row};
use crate::components::board_table::{Board, BoardCell, BoardColumn, RowKind};

/// The MM-OPERA metric columns, as (key, header); definitions from the core.
pub const MMOPERA_METRICS: [(&str, &str); 6] = [
    ("sr", "SR"),
    ("hr4", "HR-4"),
    ("hr3", "HR-3"),
    ("dhr", "ΔHR"),
    ("sr_proc", "Reasoning"),
    ("gap", "RIA − ICA"),
];

/// The MM-OPERA paper-fidelity switches of the board (issue 23), kept in the URL (`decay`,
/// `avg`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct OperaSettings {
    /// S_r decay: the released code's (default) or the paper's equation 2.
    pub decay: DecayExponent,
    /// ICA mean S_r over items (default) or over all paths.
    pub average: IcaAverage,
}

/// The reported table of a task: Table 2 (RIA or ICA) and Table 3's reasoning-score column.
fn mmopera_ids(task: Task) -> (&'static str, &'static str) {
    match task {
        Task::Ria => ("mmopera-table2-ria", "RIA Avg. Reasoning Score"),
        Task::Ica => ("mmopera-table2-ica", "ICA Avg. Reasoning Score"),
    }
}

/// The MM-OPERA table of one task (RIA or ICA): SR, HR-4, HR-3, ΔHR (percent) and the average
/// reasoning score; the paper's Table 2 rows (reported, its human row as a baseline) with the
/// reasoning score of Table 3 where the model is in it, and the rows computed from dropped
/// judge files (`coglab score mmopera`'s numbers, with the core's 95% intervals over items,
/// `coglab_core::leaderboard::mmopera::intervals`, computed in the worker at scoring).
pub fn mmopera_board(
    reported: Option<&ReportedBundle>,
    computed: &[MmoperaRow],
    task: Task,
    settings: OperaSettings,
) -> Board {
    let (sr_title, sr_definition) = mmopera_reasoning_label(settings.decay, settings.average);
    let columns = MMOPERA_METRICS
        .iter()
        .map(|(k, t)| match *k {
            "sr_proc" => BoardColumn {
                key: (*k).into(),
                title: sr_title.clone(),
                definition: sr_definition.clone(),
                unit: Some((1.0, 4)),
            },
            _ => BoardColumn {
                key: (*k).into(),
                title: (*t).into(),
                definition: definition("mmopera", k).into(),
                unit: None,
            },
        })
        .collect();
    let (t2, t3col) = mmopera_ids(task);
    // The reported SR of a model in the other task's Table 2, for the RIA − ICA column.
    let other_sr = |label: &str| -> Option<f64> {
        let other = mmopera_ids(match task {
            Task::Ria => Task::Ica,
            Task::Ica => Task::Ria,
        })
        .0;
        let t = reported?.table(other)?;
        t.rows
            .iter()
            .find(|r| r.label == label)?
            .values
            .first()
            .copied()
            .flatten()
    };
    let gap_cell = |ria: f64, ica: f64, how: &str| BoardCell {
        value: ria_ica_gap(ria, ica),
        interval: None,
        n: None,
        detail: format!(
            "SR RIA {} − SR ICA {} = {} points ({how})",
            pct(ria),
            pct(ica),
            pct(ria_ica_gap(ria, ica))
        ),
    };
    let mut rows = Vec::new();
    if let Some(t) = reported.and_then(|b| b.table(t2)) {
        let t3 = reported.and_then(|b| b.table("mmopera-table3"));
        let source = format!("{} — {}", t.source, t.title);
        for r in &t.rows {
            let kind = if r.group.as_deref() == Some("Human") {
                RowKind::Baseline
            } else {
                RowKind::Reported
            };
            let mut cells: Vec<Option<BoardCell>> = (0..4)
                .map(|i| {
                    let v = r.values.get(i).copied().flatten()?;
                    Some(BoardCell {
                        value: v / 100.0,
                        interval: None,
                        n: None,
                        detail: format!("reported {v}% (no interval: the paper gives no count)"),
                    })
                })
                .collect();
            let reasoning = t3.and_then(|t3| {
                let c = t3.columns.iter().position(|c| c == t3col)?;
                let row = t3.rows.iter().find(|x| x.label == r.label)?;
                let v = row.values.get(c).copied().flatten()?;
                Some(BoardCell {
                    value: v,
                    interval: None,
                    n: None,
                    detail: format!("reported {v} in {} — {}", t3.source, t3.title),
                })
            });
            cells.push(reasoning);
            let gap = r
                .values
                .first()
                .copied()
                .flatten()
                .zip(other_sr(&r.label))
                .map(|(here, there)| {
                    let (ria, ica) = match task {
                        Task::Ria => (here, there),
                        Task::Ica => (there, here),
                    };
                    gap_cell(ria / 100.0, ica / 100.0, "the paper's Table 2")
                });
            cells.push(gap);
            rows.push(row(&r.label, kind, source.clone(), cells));
        }
    }
    for m in computed {
        let Some(tr) = m.task(task) else { continue };
        let files = |f: &[String]| f.join(", ");
        let h = tr.holistic.as_ref();
        let iv = tr.intervals;
        let hcell = |v: Option<f64>, ci: Option<(f64, f64)>| {
            let h = h?;
            Some(BoardCell {
                value: v?,
                interval: ci,
                n: Some(h.n as u64),
                detail: format!(
                    "N = {} verdicts over {} items{}; {}",
                    h.n,
                    h.items,
                    ci.map_or(String::new(), |(lo, hi)| format!(
                        "; 95% interval {}–{} (items as clusters)",
                        pct(lo),
                        pct(hi)
                    )),
                    files(&tr.regular_files)
                ),
            })
        };
        let mut cells = vec![
            hcell(h.map(|h| h.score_rate), iv.map(|i| i.sr)),
            hcell(h.map(|h| h.hr4), iv.map(|i| i.hr4)),
            hcell(h.map(|h| h.hr3), iv.map(|i| i.hr3)),
            hcell(h.map(|h| h.delta_hr), iv.map(|i| i.delta_hr)),
        ];
        cells.push(
            tr.reasoning_under(settings.decay, settings.average)
                .map(|p| BoardCell {
                    value: p.mean_score,
                    interval: p.interval,
                    n: Some(p.n as u64),
                    detail: format!(
                        "{} over {} items ({} scored paths){}; {}",
                        sr_title,
                        p.n,
                        p.scored_paths,
                        p.interval.map_or(String::new(), |(lo, hi)| format!(
                            "; 95% interval {lo:.4}–{hi:.4} (mean ± t(0.975, n − 1) SE over items)"
                        )),
                        files(&tr.reasoning_files)
                    ),
                }),
        );
        // The gap needs both tasks' holistic scores (as `MmoperaRow::ria_ica_gap`).
        let sr = |t: Task| m.task(t)?.holistic.as_ref().map(|h| h.score_rate);
        cells.push(
            sr(Task::Ria)
                .zip(sr(Task::Ica))
                .map(|(ria, ica)| gap_cell(ria, ica, "computed")),
        );
        let mut all: Vec<String> = tr
            .regular_files
            .iter()
            .chain(&tr.reasoning_files)
            .cloned()
            .collect();
        all.dedup();
        let mut computed_row = row(
            &m.model,
            RowKind::Computed,
            format!("computed from {}", all.join(", ")),
            cells,
        );
        computed_row.row_id = Some(m.id);
        rows.push(computed_row);
    }
    cite_papers(&mut rows, reported);
    Board {
        caption: format!(
            "MM-OPERA {}: score rate and hit rates (%), average reasoning score ({}), RIA − ICA gap of SR (points); reported in the paper (Tables 2 and 3), computed from your files, human baseline",
            task.name(),
            sr_title
        ),
        columns,
        rows,
        scale: 100.0,
        decimals: 2,
    }
}
#[cfg(test)]
mod tests {
    use super::*;
    use crate::components::board_table::cell_text;
    use crate::pages::leaderboard::board::test_support::*;

    #[test]
    fn mmopera_board_rows() {
        let bundle = ReportedBundle::parse(
            "mmopera.json",
            include_str!("../../../../public/data/mmopera.json"),
        )
        .unwrap();
        let s = scored(&[
            ("RIA_metadata.json", RIA_META),
            ("m_RIA_regular_scoring.json", RIA_REGULAR),
            ("m_RIA_reasoning_scoring.json", RIA_REASONING),
        ]);
        assert_eq!(s.mmopera.len(), 1, "{:?}", s.files);
        let b = mmopera_board(
            Some(&bundle),
            &s.mmopera,
            Task::Ria,
            OperaSettings::default(),
        );
        assert_eq!(
            b.columns.iter().map(|c| c.key.as_str()).collect::<Vec<_>>(),
            ["sr", "hr4", "hr3", "dhr", "sr_proc", "gap"]
        );
        // Issue 23: the reasoning column names its setting; the default is the code's decay.
        assert_eq!(b.columns[4].title, "Reasoning (code decay)");
        assert!(b.columns[4]
            .definition
            .contains("(the released code; default)"));
        assert!(!b.columns[4].definition.contains("about 2.7"));
        let kinds = |k| b.rows.iter().filter(|r| r.kind == k).count();
        // Table 2 (RIA): 16 models reported, the human row a baseline; one computed row.
        assert_eq!(kinds(RowKind::Reported), 16);
        assert_eq!(kinds(RowKind::Baseline), 1);
        assert_eq!(kinds(RowKind::Computed), 1);
        let v = |model: &str, c: usize| {
            let r = b.rows.iter().find(|r| r.model == model).unwrap();
            r.cells[c].as_ref().map(|x| x.value)
        };
        // Paper Table 2 RIA: GPT-4o SR 59.72, ΔHR 17.94; Table 3 RIA reasoning 1.6068.
        assert_eq!(v("GPT-4o", 0), Some(0.5972));
        assert_eq!(v("GPT-4o", 3), Some(0.1794));
        assert_eq!(v("GPT-4o", 4), Some(1.6068));
        // GLM-4V is not in Table 3.
        assert_eq!(v("GLM-4V", 4), None);
        // RIA − ICA from the paper's two Table 2s: GPT-4o 59.72 − 58.26 = 1.46 points; the
        // human row 61.88 − 68.69 = −6.81.
        assert!((v("GPT-4o", 5).unwrap() - 0.0146).abs() < 1e-12);
        assert!((v("Human", 5).unwrap() + 0.0681).abs() < 1e-12);
        // The computed model has RIA files only: no gap.
        assert_eq!(v("m", 5), None);
        assert_eq!(v("Human", 0), Some(0.6188));
        // Computed: coglab score mmopera --task ria --metadata RIA_metadata.json --regular
        // m_RIA_regular_scoring.json --reasoning m_RIA_reasoning_scoring.json --json gives
        // score_rate 0.5 (= (4+3+1+0)/16 by hand), hr4 0.25, hr3 0.5, delta_hr 0.25,
        // reasoning mean_score 0.9775.
        assert_eq!(v("m", 0), Some(0.5));
        assert_eq!(v("m", 1), Some(0.25));
        assert_eq!(v("m", 2), Some(0.5));
        assert_eq!(v("m", 3), Some(0.25));
        assert!((v("m", 4).unwrap() - 0.9775).abs() < 1e-12);
        // The intervals' point estimates are the report's; SR's interval by hand: item
        // totals y = 1, 0.75, 0.25, 0 over x = 1 each, R = 0.5, Σ(y − R)² = 0.625,
        // SE = sqrt(4/3 · 0.625) / 4 = 0.22822; effective size R(1 − R)/SE² = 4.8, kept at the
        // 4 verdicts; Wilson's interval with n = 4 and t(0.975, 3) = 3.182446305284263 (by
        // hand in Python, issue 40's coverage table): [0.0766580636, 0.9233419364].
        let m = b.rows.iter().find(|r| r.model == "m").unwrap();
        let (lo, hi) = m.cells[0].as_ref().unwrap().interval.unwrap();
        assert!((lo - 0.076_658_063_593_313).abs() < 1e-9, "{lo}");
        assert!((hi - 0.923_341_936_406_687).abs() < 1e-9, "{hi}");
        let (point, _) =
            coglab_core::leaderboard::mmopera::intervals(&s.mmopera[0].ria.as_ref().unwrap().items)
                .unwrap();
        for (c, p) in point.iter().enumerate() {
            assert!((v("m", c).unwrap() - p).abs() < 1e-12, "column {c}");
        }
        // Shown as percentages with two decimals, the reasoning score with four.
        let m = b.rows.iter().find(|r| r.model == "m").unwrap();
        assert_eq!(cell_text(&b, 0, m.cells[0].as_ref(), false), "50.00");
        assert_eq!(cell_text(&b, 4, m.cells[4].as_ref(), false), "0.9775");
        // The paper's equation 2 decays every hop: r1 s = 0.9·1·1 + 0.1·1 = 1 → 0.9; r2
        // s = 0.9·0.5·1 + 0.1 = 0.55 and 0.9·1·0.5 = 0.45 → 0.55·0.9 + 0.45·0.81 = 0.8595;
        // mean (0.9 + 0.8595)/2 = 0.87975 (= 0.9775 × γ). The title says so.
        let paper = OperaSettings {
            decay: DecayExponent::FromOne,
            ..OperaSettings::default()
        };
        let bp = mmopera_board(Some(&bundle), &s.mmopera, Task::Ria, paper);
        assert_eq!(bp.columns[4].title, "Reasoning (paper Eq. 2)");
        let mp = bp.rows.iter().find(|r| r.model == "m").unwrap();
        assert!((mp.cells[4].as_ref().unwrap().value - 0.87975).abs() < 1e-12);
        // Reported rows stay as printed.
        let gp = bp.rows.iter().find(|r| r.model == "GPT-4o").unwrap();
        assert_eq!(gp.cells[4].as_ref().unwrap().value, 1.6068);
        // Over paths: RIA items have one path, the same mean; the title names the setting.
        let paths = OperaSettings {
            average: IcaAverage::Paths,
            ..OperaSettings::default()
        };
        let bq = mmopera_board(Some(&bundle), &s.mmopera, Task::Ria, paths);
        assert_eq!(bq.columns[4].title, "Reasoning (code decay, ICA per path)");
        let mq = bq.rows.iter().find(|r| r.model == "m").unwrap();
        assert!((mq.cells[4].as_ref().unwrap().value - 0.9775).abs() < 1e-12);
        assert!(mq.cells[4].as_ref().unwrap().interval.is_none());
        // ICA: Table 2 ICA values, no computed row (no ICA files).
        let b = mmopera_board(
            Some(&bundle),
            &s.mmopera,
            Task::Ica,
            OperaSettings::default(),
        );
        let gpt = b.rows.iter().find(|r| r.model == "GPT-4o").unwrap();
        assert_eq!(gpt.cells[0].as_ref().unwrap().value, 0.5826);
        assert_eq!(gpt.cells[4].as_ref().unwrap().value, 0.6396);
        assert!(b.rows.iter().all(|r| r.kind != RowKind::Computed));
    }
}
