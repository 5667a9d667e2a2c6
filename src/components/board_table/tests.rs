//! Native tests of the board's plain functions (arranging, exports).

use super::*;

/// The rows' order (indices into the board) after arranging.
fn order(b: &Board, s: &ViewState) -> Vec<usize> {
    arrange(b, s).rows.iter().map(|r| r.0).collect()
}

fn cell(v: f64, lo: f64, hi: f64) -> Option<BoardCell> {
    Some(BoardCell {
        value: v,
        interval: Some((lo, hi)),
        n: None,
        detail: String::new(),
    })
}

fn row(model: &str, kind: RowKind, cells: Vec<Option<BoardCell>>) -> BoardRow {
    BoardRow {
        model: model.into(),
        kind,
        source: String::new(),
        harness: None,
        summary: false,
        family: if model.starts_with('g') {
            "GPT".into()
        } else {
            "unknown".into()
        },
        size: "unknown".into(),
        cells,
        cite: None,
        flag: None,
        published: false,
        row_id: None,
    }
}

fn board() -> Board {
    let col = |k: &str| BoardColumn {
        key: k.into(),
        title: k.to_ascii_uppercase(),
        definition: String::new(),
        unit: None,
    };
    Board {
        caption: String::new(),
        columns: vec![col("mean"), col("x")],
        rows: vec![
            row("a", RowKind::Reported, vec![cell(0.30, 0.28, 0.32), None]),
            row(
                "gpt",
                RowKind::Computed,
                vec![cell(0.50, 0.45, 0.55), cell(0.1, 0.0, 0.2)],
            ),
            row(
                "b",
                RowKind::Computed,
                vec![cell(0.31, 0.29, 0.33), cell(0.9, 0.8, 1.0)],
            ),
            row(
                "chance",
                RowKind::Baseline,
                vec![
                    Some(BoardCell {
                        value: 0.25,
                        interval: None,
                        n: None,
                        detail: String::new(),
                    }),
                    None,
                ],
            ),
        ],
        scale: 100.0,
        decimals: 1,
    }
}

#[test]
fn sorts_with_missing_last_and_ties_overlaps() {
    let b = board();
    let s = ViewState {
        sort: Some("mean".into()),
        ..Default::default()
    };
    let a = arrange(&b, &s);
    // gpt 0.50 [0.45, 0.55]; b 0.31 and a 0.30 overlap: tied at 2; chance 0.25 is a
    // baseline: a reference row, not ranked.
    assert_eq!(
        a.rows,
        vec![(1, Some(1)), (2, Some(2)), (0, Some(2)), (3, None)]
    );
    assert!(!a.filtered);
    // Column x, ascending: missing values stay last.
    let s = ViewState {
        sort: Some("x".into()),
        asc: true,
        ..Default::default()
    };
    assert_eq!(order(&b, &s), vec![1, 2, 0, 3]);
    let s = ViewState {
        sort: Some("x".into()),
        ..Default::default()
    };
    let a = arrange(&b, &s);
    assert_eq!(
        a.rows,
        vec![(2, Some(1)), (1, Some(2)), (0, None), (3, None)]
    );
}

/// Issue 42, defect 1: a sort key this board has no column for (MM-IQ's `mean` carried to
/// the Gold tab in the address) leaves the rows in rank order, ascending or not, and is named.
#[test]
fn defect_42_1_a_sort_key_of_another_tab_leaves_rank_order() {
    let b = board();
    let unsorted = arrange(&b, &ViewState::default());
    for asc in [false, true] {
        let s = ViewState {
            sort: Some("paradigm".into()),
            asc,
            ..Default::default()
        };
        let a = arrange(&b, &s);
        assert_eq!(a.rows, unsorted.rows, "asc {asc}");
        assert_eq!(a.unknown_sort.as_deref(), Some("paradigm"));
    }
    // Rank order of the first column: gpt 0.50 (1), then b 0.31 and a 0.30 tied at 2, the
    // baseline last; the ranks read down the table.
    assert_eq!(
        unsorted.rows,
        vec![(1, Some(1)), (2, Some(2)), (0, Some(2)), (3, None)]
    );
    assert_eq!(unsorted.unknown_sort, None);
    // Known keys and the model name are applied as before.
    let by_model = ViewState {
        sort: Some("model".into()),
        ..Default::default()
    };
    assert_eq!(arrange(&b, &by_model).unknown_sort, None);
}

#[test]
fn defect_12_one_monotone_rule_models_only_and_ranks_among_shown() {
    // A computed row with a very wide interval (few items): 0.29 [0.05, 0.60] overlaps
    // gpt's [0.45, 0.55], so the interval rule alone ranks it 1, above b and a (2) whose
    // values are higher. The board's rule keeps ranks monotone down the table: 2.
    let mut b = board();
    b.rows.push(row(
        "few",
        RowKind::Computed,
        vec![cell(0.29, 0.05, 0.60), None],
    ));
    let s = ViewState {
        sort: Some("mean".into()),
        ..Default::default()
    };
    let a = arrange(&b, &s);
    assert_eq!(
        a.rows,
        vec![
            (1, Some(1)),
            (2, Some(2)),
            (0, Some(2)),
            (4, Some(2)),
            (3, None)
        ]
    );
    let ranks: Vec<usize> = a.rows.iter().filter_map(|r| r.1).collect();
    assert!(ranks.windows(2).all(|w| w[0] <= w[1]), "{ranks:?}");
    // Filtered: the ranks are among the rows shown, and the board says so.
    let s = ViewState {
        sort: Some("mean".into()),
        kinds: vec![RowKind::Reported],
        ..Default::default()
    };
    let a = arrange(&b, &s);
    assert!(a.filtered);
    assert_eq!(a.rows, vec![(0, Some(1))]);
}

#[test]
fn filters_hide_rows_and_columns() {
    let b = board();
    let s = ViewState {
        kinds: vec![RowKind::Computed],
        hidden: vec!["x".into()],
        ..Default::default()
    };
    let a = arrange(&b, &s);
    assert_eq!(a.columns, vec![0]);
    assert_eq!(order(&b, &s), vec![1, 2]);
    let s = ViewState {
        family: "GPT".into(),
        ..Default::default()
    };
    assert_eq!(arrange(&b, &s).rows.len(), 1);
    let s = ViewState {
        query: "CHA".into(),
        ..Default::default()
    };
    assert_eq!(arrange(&b, &s).rows[0].0, 3);
}

#[test]
fn model_names_sort_and_match_ignoring_case() {
    let mut b = board();
    b.rows[0].model = "Émile".into();
    b.rows[1].model = "gpt".into();
    b.rows[2].model = "Beta".into();
    b.rows[3].model = "alpha".into();
    let s = ViewState {
        sort: Some("model".into()),
        ..Default::default()
    };
    // alpha, Beta, gpt, Émile: by the lower-cased names ("é" sorts after ASCII letters).
    assert_eq!(order(&b, &s), vec![3, 2, 1, 0]);
    let s = ViewState {
        sort: Some("model".into()),
        asc: true,
        ..Default::default()
    };
    assert_eq!(order(&b, &s), vec![0, 1, 2, 3]);
    // A search matches whatever the case, beyond ASCII too.
    let s = ViewState {
        query: "éMI".into(),
        ..Default::default()
    };
    assert_eq!(order(&b, &s), vec![0]);
}

#[test]
fn export_is_the_table_as_shown() {
    let b = board();
    let s = ViewState {
        sort: Some("mean".into()),
        compact: true,
        hidden: vec!["x".into()],
        kinds: vec![RowKind::Computed, RowKind::Baseline],
        ..Default::default()
    };
    let t = export_table(&b, &s);
    assert_eq!(t.columns, ["Rank", "Model", "Kind", "MEAN"]);
    assert_eq!(
        t.rows,
        vec![
            vec!["1", "gpt", "computed", "50.0 ± 5.0"],
            vec!["2", "b", "computed", "31.0 ± 2.0"],
            // Baselines are reference rows, not ranked (issue 26, defect 12).
            vec!["–", "chance", "baseline", "25.0"],
        ]
    );
}

#[test]
fn defect_15_analysis_export_has_empty_missing_cells_and_n_and_interval_columns() {
    let mut b = board();
    if let Some(Some(c)) = b.rows[1].cells.get_mut(0) {
        c.n = Some(200);
    }
    b.rows[1].source = "computed from gpt.jsonl".into();
    let s = ViewState {
        sort: Some("mean".into()),
        compact: true,
        kinds: vec![RowKind::Computed, RowKind::Baseline],
        ..Default::default()
    };
    let t = analysis_table(&b, &s);
    assert_eq!(
        t.columns,
        [
            "Rank",
            "Model",
            "Kind",
            "Source",
            "MEAN",
            "MEAN n",
            "MEAN ci_low",
            "MEAN ci_high",
            "X",
            "X n",
            "X ci_low",
            "X ci_high"
        ]
    );
    assert_eq!(t.numeric.iter().filter(|n| **n).count(), 9);
    // Values in the shown unit (percent, one decimal), compact mode notwithstanding.
    assert_eq!(
        t.rows[0],
        [
            "1",
            "gpt",
            "computed",
            "computed from gpt.jsonl",
            "50.0",
            "200",
            "45.0",
            "55.0",
            "10.0",
            "",
            "0.0",
            "20.0"
        ]
    );
    // The baseline is unranked, and its missing values are empty cells, not dashes.
    assert_eq!(
        t.rows[2],
        ["", "chance", "baseline", "", "25.0", "", "", "", "", "", "", ""]
    );
    let csv = coglab_core::leaderboard::to_csv(&t);
    assert!(csv.ends_with("\n,chance,baseline,,25.0,,,,,,,\n"), "{csv}");
    assert!(!csv.contains('–'));
}

#[test]
fn a_column_unit_overrides_the_board_scale() {
    let mut b = board();
    b.columns[1].unit = Some((1.0, 4));
    let s = ViewState {
        sort: Some("mean".into()),
        compact: true,
        ..Default::default()
    };
    let t = export_table(&b, &s);
    // gpt: mean 0.50 ± 0.05 in percent (one decimal); x 0.1 [0.0, 0.2] as is, 4 decimals.
    assert_eq!(
        t.rows[0],
        ["1", "gpt", "computed", "50.0 ± 5.0", "0.1000 ± 0.1000"]
    );
}
