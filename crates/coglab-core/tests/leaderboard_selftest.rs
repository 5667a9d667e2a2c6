//! Round trip of a self-test export: a generated KiVA session answered by a fixed rule, its
//! CSV (`selftest::to_human_csv`) read back by the KiVA human-data reader and scorer and by the
//! leaderboard's `score_files`, where it is a participant row labelled with the participant id.
//! The expected accuracies are worked out by hand from the answering rule (below).

use crate::common;

use coglab_core::kiva::{score_human, HumanData, Stage};
use coglab_core::leaderboard::{score_files, FileKind, FileState, InputRef};
use coglab_core::selftest::{
    generate, score_session, to_human_csv, Response, SessionKind, TrialResponses,
};

/// Trial i (0-based) of the 14: stage 1 right when i is even (else a wrong domain); stage 2,
/// asked only then, right when i % 4 == 0 (else the wrong rule); stage 3 right when i % 3 == 0
/// (else (D)). Reaction time 1000 + 10 i ms.
fn answered() -> (coglab_core::selftest::Session, Vec<TrialResponses>) {
    let s = generate(&SessionKind::Kiva, 11);
    let mut r = Vec::new();
    while let Some((i, stage)) = s.next_step(&r) {
        let t = &s.trials[i];
        let right = t.correct(stage);
        let choice = match stage {
            Stage::Cross if i % 2 == 0 => right,
            Stage::Cross => (right + 1) % 3,
            Stage::Within if i % 4 == 0 => right,
            Stage::Within => 1 - right,
            Stage::Extrapolation if i % 3 == 0 => right,
            Stage::Extrapolation => 3,
        };
        let rt_ms = 1000.0 + 10.0 * i as f64;
        s.answer(
            &mut r,
            i,
            stage,
            Response {
                choice,
                rt_ms,
                ..Default::default()
            },
        )
        .unwrap();
    }
    (s, r)
}

fn close(a: f64, b: f64) {
    assert!((a - b).abs() < 1e-12, "{a} vs {b}");
}

#[test]
fn a_self_test_export_reads_back_as_a_participant() {
    let (s, r) = answered();
    let csv = to_human_csv(&s, "tester-7", &r);
    // 14 trials: 7 with three rows (stage 1 right), 7 with two.
    assert_eq!(csv.lines().count() - 1, 7 * 3 + 7 * 2);
    // By hand: stage 1 right on i = 0, 2, .., 12: 7 of 14 = 0.5, SE = 0.5 / sqrt(14);
    // stage 2 asked on those 7, right on i = 0, 4, 8, 12: 4/7, SE = sqrt(4/7 * 3/7) / sqrt(7);
    // joint: 4/14; stage 3 right on i = 0, 3, 6, 9, 12: 5/14, SE = sqrt(5/14 * 9/14) / sqrt(14).
    let sd = |p: f64| (p * (1.0 - p)).sqrt();
    let expected = [
        (0.5, 0.5 / 14f64.sqrt()),
        (4.0 / 7.0, sd(4.0 / 7.0) / 7f64.sqrt()),
        (4.0 / 14.0, sd(4.0 / 14.0) / 14f64.sqrt()),
        (5.0 / 14.0, sd(5.0 / 14.0) / 14f64.sqrt()),
    ];
    let data = HumanData::parse("kiva-selftest-kiva-11.csv", csv.as_bytes()).unwrap();
    let read = score_human(&data).unwrap();
    let (own, _) = score_session(&s, "tester-7", &r).unwrap();
    let scored = score_files(
        &[InputRef {
            path: "kiva-selftest-kiva-11.csv",
            bytes: csv.as_bytes(),
            model: None,
        }],
        |_, _, _| {},
    );
    assert_eq!(scored.files[0].kind, FileKind::KivaHuman);
    assert_eq!(scored.files[0].status, FileState::Ok);
    assert_eq!(scored.files[0].model, "tester-7 (self-test)");
    assert_eq!(scored.kiva.len(), 1);
    let row = &scored.kiva[0];
    assert_eq!(row.model, "tester-7 (self-test)");
    for report in [&read, &own, &row.report] {
        assert_eq!(report.rows.trials, 14);
        let o = report.overall;
        for (got, (mean, se)) in [
            o.cross,
            o.within_conditional,
            o.within_joint,
            o.extrapolation,
        ]
        .into_iter()
        .zip(expected)
        {
            let got = got.unwrap();
            close(got.mean, mean);
            close(got.se, se);
        }
    }
    // A model name set by the user still wins.
    let named = score_files(
        &[InputRef {
            path: "x.csv",
            bytes: csv.as_bytes(),
            model: Some("Me"),
        }],
        |_, _, _| {},
    );
    assert_eq!(named.kiva[0].model, "Me");
}

#[test]
fn the_adult_data_stays_the_adults_row() {
    let Some(bytes) = common::shared_bytes("kiva/human_adults_KiVA.csv") else {
        return;
    };
    let scored = score_files(
        &[InputRef {
            path: "human_adults_KiVA.csv",
            bytes: &bytes,
            model: None,
        }],
        |_, _, _| {},
    );
    assert_eq!(scored.kiva[0].model, "Adults (human data)");
}
