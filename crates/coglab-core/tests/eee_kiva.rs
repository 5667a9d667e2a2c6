//! KiVA's Every Eval Ever records read back ([`eee::read_kiva`]): a scored KiVA set written
//! with [`eee::write_kiva`] and read again gives the report it was written from (model runs:
//! the fixture run and the real runs of both variants, `Null` answers counted either way;
//! people: a hand-made file and the real adults' data), with numbers worked out by hand on
//! the fixture run; then malformed records, each with its located error.

use crate::common;

use coglab_core::harness::{self, eee, HarnessFormat};
use coglab_core::kiva::{
    score_human, score_model, score_model_with, HumanData, KivaReport, NullAnswers, Source, Variant,
};
use coglab_core::leaderboard::{self, FileKind, FileState, InputRef};
use std::path::Path;

const RUN_SMALL: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/fixtures/kiva/run_small/"
);

/// The fixture run: `output_Colour/ColourRed.csv` and `output_Reflect/ReflectX.csv`.
fn run_small() -> Vec<(String, Vec<u8>)> {
    ["output_Colour/ColourRed.csv", "output_Reflect/ReflectX.csv"]
        .iter()
        .map(|f| {
            let path = format!("{RUN_SMALL}{f}");
            let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
            (format!("gpt4/{f}"), bytes)
        })
        .collect()
}

fn borrowed(files: &[(String, Vec<u8>)]) -> Vec<(&str, &[u8])> {
    files
        .iter()
        .map(|(p, b)| (p.as_str(), b.as_slice()))
        .collect()
}

/// Every `*.csv` under `dir`, sorted, as (path, bytes).
fn csv_under(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "csv") {
                out.push((
                    path.to_string_lossy().into_owned(),
                    std::fs::read(&path).unwrap(),
                ));
            }
        }
    }
    out.sort();
    out
}

/// Writes `before` as EEE records and reads the instance records back.
fn round_trip(before: &KivaReport, model: &str) -> KivaReport {
    let eee = eee::write_kiva(before, model, "1717243200").unwrap();
    if eee.instances.len() < 16384 {
        // A seed of the EEE fuzz target (its first byte 0 names the input `eee.jsonl`), within
        // scripts/fuzz.sh's default input length.
        let seed = format!("kiva_{}_{model}", before.trials.len());
        let bytes = [b"\0", eee.instances.as_bytes()].concat();
        crate::harness::fuzz_seed("harness_eee", &seed, &bytes);
    }
    assert_eq!(
        harness::detect("m.jsonl", eee.instances.as_bytes()),
        Some(HarnessFormat::EeeInstances)
    );
    assert!(eee::is_kiva(eee.instances.as_bytes()));
    eee::read_kiva("m.jsonl", eee.instances.as_bytes()).unwrap()
}

/// The report read back scores as `before`: the same trials (bit for bit), so the same means,
/// SEs and n per stage overall, per domain and per subdomain, and the same counts; the
/// harness information says every record mapped.
fn assert_same_scores(before: &KivaReport, after: &KivaReport, model: &str) {
    assert_eq!(after.benchmark, "kiva");
    assert_eq!(after.variant, before.variant);
    assert_eq!(after.source, before.source);
    assert_eq!(after.null, before.null);
    assert_eq!(after.trials, before.trials);
    assert_eq!(after.overall, before.overall);
    assert_eq!(after.by_domain, before.by_domain);
    assert_eq!(after.by_subdomain, before.by_subdomain);
    assert_eq!(after.missing_subdomains, before.missing_subdomains);
    assert_eq!(after.rows.trials, before.rows.trials);
    assert_eq!(after.rows.rows, before.rows.rows);
    assert_eq!(after.files, ["m.jsonl"]);
    let h = after.harness.as_ref().unwrap();
    let records: usize = before
        .trials
        .iter()
        .map(|t| {
            [
                t.cross,
                t.within_conditional,
                t.within_joint,
                t.extrapolation,
            ]
            .iter()
            .flatten()
            .count()
        })
        .sum();
    assert_eq!(h.format, HarnessFormat::EeeInstances);
    assert_eq!(
        (h.records, h.mapped(), h.verdicts),
        (records, records, records)
    );
    assert!(h.unmapped.is_empty());
    assert_eq!(h.model.as_deref(), Some(model));
    assert_eq!(h.task.as_deref(), Some(before.variant.name()));
}

#[test]
fn fixture_run_round_trip_and_hand_worked_numbers() {
    let files = run_small();
    let before = score_model(borrowed(&files)).unwrap();
    let after = round_trip(&before, "gpt4");
    assert_same_scores(&before, &after, "gpt4");
    // By hand from the CSVs (Null counted wrong, the repository's rule):
    // ColourRed v0: cross (1,1,0) 2/3, stage 2 reached twice (1,0) 1/2, joint (1,0,0) 1/3,
    //               extrapolation (1,0,1) 2/3; v1: 1, 1, 1, (1,0,0) 1/3.
    // ReflectX  v0: cross (0,0,Null) 0, stage 2 reached once (1) 1, joint 1/3, extrap 0;
    //           v1: cross 1, stage 2 (0,0,Null) 0, joint 0, extrapolation 1.
    let o = after.overall;
    // Cross over trials (2/3, 1, 0, 1): mean 2/3; deviations (0, 1/3, -2/3, 1/3), population
    // variance (0 + 1/9 + 4/9 + 1/9) / 4 = 1/6, SE = sqrt(1/6) / sqrt(4) = 0.2041241452319315.
    let cross = o.cross.unwrap();
    assert_eq!(cross.n, 4);
    assert!((cross.mean - 2.0 / 3.0).abs() < 1e-15);
    assert!((cross.se - 0.2041241452319315).abs() < 1e-15);
    // within_conditional over (1/2, 1, 1, 0): 5/8; extrapolation over (2/3, 1/3, 0, 1): 1/2.
    assert!((o.within_conditional.unwrap().mean - 0.625).abs() < 1e-15);
    assert!((o.extrapolation.unwrap().mean - 0.5).abs() < 1e-15);
    // Reflect's cross over (0, 1): 0.5 ± 0.5 / sqrt(2).
    let reflect = after.by_domain["Reflect"].cross.unwrap();
    assert!((reflect.mean - 0.5).abs() < 1e-15);
    assert!((reflect.se - 0.5 / 2f64.sqrt()).abs() < 1e-15);
    // ColourRed's cross over (2/3, 1): 5/6 ± (1/6) / sqrt(2).
    let red = after.by_subdomain["ColourRed"].cross.unwrap();
    assert!((red.mean - 5.0 / 6.0).abs() < 1e-15);
    assert!((red.se - (1.0 / 6.0) / 2f64.sqrt()).abs() < 1e-15);
    // 12 data rows behind 4 trials; 12 of KiVA's 14 subdomains without data.
    assert_eq!((after.rows.rows, after.rows.trials), (12, 4));
    assert_eq!(after.missing_subdomains.len(), 12);
    assert_eq!(after.trials[0].line, 2);

    // With Null answers left out, ReflectX v0's cross is over (0, 0) and v1's stage 2 over
    // (0, 0): the same trials' means here, but the rule read back is `missing`.
    let missing = score_model_with(borrowed(&files), NullAnswers::Missing).unwrap();
    let back = round_trip(&missing, "gpt4");
    assert_same_scores(&missing, &back, "gpt4");
    assert_eq!(back.null, NullAnswers::Missing);
}

#[test]
fn shares_with_17_digit_decimals_read_back_exactly() {
    // One variation of 11 regenerations, one right at stage 1: cross = 1/11, which prints as
    // 0.09090909090909091 and which serde_json's default parser reads one unit in the last
    // place off (0.09090909090909093). Stage 3 right 5 times: 5/11.
    let mut run = String::from("Variation,Regeneration,MCResponse#1,MCResponse#2,MCResponse#3\n");
    for r in 0..11 {
        let (s1, s2) = if r == 0 { ("1", "1") } else { ("0", "") };
        let s3 = if r < 5 { "1" } else { "0" };
        run.push_str(&format!("0,{r},{s1},{s2},{s3}\n"));
    }
    let before = score_model([("m/output_Counting/Counting+1.csv", run.as_bytes())]).unwrap();
    let t = &before.trials[0];
    assert_eq!(
        (t.cross, t.extrapolation),
        (Some(1.0 / 11.0), Some(5.0 / 11.0))
    );
    let after = round_trip(&before, "m");
    assert_same_scores(&before, &after, "m");
    assert_eq!(
        after.trials[0].cross.unwrap().to_bits(),
        (1.0f64 / 11.0).to_bits()
    );
    assert_eq!(after.trials[0].rows, 11);
}

#[test]
fn people_round_trip() {
    // Participant 1: ColourRed v3 (1, 0, 1); participant 2: ColourRed v5 (0, 1, no stage 3)
    // and ReflectX v1 (1, 1, 0). Sample ids are "<participant>/<subdomain>#<variation>".
    let text = "ParticipantID,Transformation,Variation,Task,Score,Reaction Time\n\
        1,ColourRed,3,Cross Domain,1,1000\n1,ColourRed,3,Within Domain,0,2000\n\
        1,ColourRed,3,Extrapolation,1,4000\n2,ColourRed,5,Cross Domain,0,3000\n\
        2,ColourRed,5,Within Domain,1,500\n2,ReflectX,1,Cross Domain,1,100\n\
        2,ReflectX,1,Within Domain,1,200\n2,ReflectX,1,Extrapolation,0,300\n";
    let before = score_human(&HumanData::parse("h.csv", text.as_bytes()).unwrap()).unwrap();
    let eee = eee::write_kiva(&before, "adults", "1").unwrap();
    assert!(eee.instances.contains(r#""sample_id":"2/ReflectX#1""#));
    let after = round_trip(&before, "adults");
    assert_same_scores(&before, &after, "adults");
    assert_eq!(after.source, Source::Human);
    assert_eq!(after.trials[1].participant.as_deref(), Some("2"));
    // Overall cross over (1, 0, 1): 2/3; extrapolation over the two trials with the row
    // (1, 0): 1/2 ± 0.5 / sqrt(2); joint stage 2 over (0, 1, 1): 2/3.
    assert!((after.overall.cross.unwrap().mean - 2.0 / 3.0).abs() < 1e-15);
    let ex = after.overall.extrapolation.unwrap();
    assert_eq!(ex.n, 2);
    assert!((ex.se - 0.5 / 2f64.sqrt()).abs() < 1e-15);
    assert!((after.overall.within_joint.unwrap().mean - 2.0 / 3.0).abs() < 1e-15);
    // 8 stage rows behind 3 trials. Reaction times are not in the records.
    assert_eq!((after.rows.rows, after.rows.trials), (8, 3));
    assert!(before.reaction_time.is_some() && after.reaction_time.is_none());
}

#[test]
fn real_runs_of_both_variants_round_trip() {
    let Some(root) = common::shared_data("kiva/model_data") else {
        return;
    };
    let mut checked = 0;
    for variant in ["KiVA", "KiVA-adults"] {
        for model in [
            "gpt4_multi_image",
            "gpt4_single_image",
            "mantis_multi_image",
        ] {
            let files = csv_under(&root.join(variant).join(model));
            for null in [NullAnswers::Wrong, NullAnswers::Missing] {
                let before = score_model_with(borrowed(&files), null).unwrap();
                assert_eq!(before.variant.name(), variant);
                let after = round_trip(&before, model);
                assert_same_scores(&before, &after, model);
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 12);
    // One figure of the paper's repository, read back: GPT-4 (multi-image) on KiVA, cross
    // over its 14 subdomains' trials, is the scorer's figure checked in kiva_real.rs.
    let files = csv_under(&root.join("KiVA/gpt4_multi_image"));
    let before = score_model(borrowed(&files)).unwrap();
    let after = round_trip(&before, "gpt4_multi_image");
    assert_eq!(after.variant, Variant::Kiva);
    assert_eq!(after.by_subdomain.len(), 14);
    assert!(after.missing_subdomains.is_empty());
}

#[test]
fn real_adults_round_trip() {
    let Some(bytes) = common::shared_bytes("kiva/human_adults_KiVA.csv") else {
        return;
    };
    let before = score_human(&HumanData::parse("human_adults_KiVA.csv", &bytes).unwrap()).unwrap();
    let after = round_trip(&before, "adults");
    assert_same_scores(&before, &after, "adults");
    // 10,702 stage rows (Python's csv module counts 10,703 records, the header one of them;
    // the last line has no newline) behind the trials.
    assert_eq!(after.rows.rows, 10702);
    assert_eq!(after.source, Source::Human);
}

#[test]
fn a_second_record_for_a_stage_is_listed_not_scored() {
    let files = run_small();
    let before = score_model(borrowed(&files)).unwrap();
    let eee = eee::write_kiva(&before, "gpt4", "1").unwrap();
    // Line 1 (ColourRed#0, stage 1, score 2/3) again as line 17, with another score.
    let first = eee.instances.lines().next().unwrap();
    let again = first.replace(r#""score":0.6666666666666666"#, r#""score":0.0"#);
    let again = again.replace(r#""is_correct":true"#, r#""is_correct":false"#);
    assert_ne!(again, first);
    let text = format!("{}{again}\n", eee.instances);
    let after = eee::read_kiva("m.jsonl", text.as_bytes()).unwrap();
    assert_eq!(after.overall, before.overall);
    let h = after.harness.as_ref().unwrap();
    assert_eq!((h.records, h.mapped(), h.unmapped.len()), (17, 16, 1));
    let u = &h.unmapped[0];
    assert_eq!(u.position, 17);
    assert_eq!(u.record, "sample_id ColourRed#0, KiVA: What (cross-domain)");
    assert_eq!(
        u.reason,
        "a second record for this trial and stage (the record on line 1 is scored)"
    );
}

#[test]
fn the_leaderboard_scores_kiva_records_as_a_kiva_row() {
    let files = run_small();
    let before = score_model(borrowed(&files)).unwrap();
    let eee = eee::write_kiva(&before, "gpt4", "1").unwrap();
    let path = "eee/gpt4/KiVA_1.jsonl";
    assert_eq!(
        leaderboard::detect(path, eee.instances.as_bytes()),
        FileKind::Harness
    );
    let scored = leaderboard::score_files(
        &[InputRef {
            path,
            bytes: eee.instances.as_bytes(),
            model: None,
        }],
        |_, _, _| {},
    );
    assert_eq!(
        scored.files[0].status,
        FileState::Ok,
        "{:?}",
        scored.files[0].message
    );
    assert_eq!(scored.kiva.len(), 1);
    assert_eq!(scored.kiva[0].model, "gpt4");
    assert_eq!(scored.kiva[0].report.overall, before.overall);
    assert!(scored.mmiq.is_empty());
}

#[test]
fn kiva_records_are_not_mmiq_and_mmiq_records_are_not_kiva() {
    let files = run_small();
    let before = score_model(borrowed(&files)).unwrap();
    let kiva = eee::write_kiva(&before, "gpt4", "1").unwrap();
    // Given to MM-IQ's reader, KiVA's records say which task they are.
    let f = eee::read_instances("k.jsonl", kiva.instances.as_bytes()).unwrap();
    let e = harness::expect_mmiq_task(&f).unwrap_err().to_string();
    assert_eq!(
        e,
        "k.jsonl: this is Every Eval Ever output for task \"KiVA: What (cross-domain)\", \
         expected an MM-IQ task (a task name containing \"mmiq\", e.g. mmiq, mm_iq)"
    );
    // And MM-IQ's records, given to KiVA's reader.
    let mmiq = concat!(
        r#"{"evaluation_name": "MM-IQ", "sample_id": "17", "answer_attribution": [], "#,
        r#""evaluation": {"score": 1.0, "is_correct": true}}"#,
        "\n"
    );
    assert!(!eee::is_kiva(mmiq.as_bytes()));
    let e = eee::read_kiva("m.jsonl", mmiq.as_bytes())
        .unwrap_err()
        .to_string();
    assert_eq!(
        e,
        "m.jsonl: this is Every Eval Ever output for task \"MM-IQ\", expected KiVA \
         (an evaluation_name \"KiVA: <stage>\" or \"KiVA-adults: <stage>\")"
    );
}

/// A KiVA instance record with `evaluation_name`, `sample_id`, `evaluation` and `metadata`
/// as given (JSON text).
fn rec(name: &str, sid: &str, evaluation: &str, metadata: &str) -> String {
    format!(
        r#"{{"schema_version": "instance_level_eval_0.2.1", "model_id": "m", "evaluation_name": {name}, "sample_id": {sid}, "evaluation": {evaluation}, "metadata": {metadata}}}"#
    )
}

const CROSS: &str = r#""KiVA: What (cross-domain)""#;
const RIGHT: &str = r#"{"score": 1.0, "is_correct": true}"#;
const META: &str = r#"{"domain": "Colour", "subdomain": "ColourRed", "variation": "0", "regenerations": "3", "line": "2"}"#;

#[test]
fn malformed_kiva_records_name_line_and_field() {
    let good = rec(CROSS, r#""ColourRed#0""#, RIGHT, META);
    let cases: Vec<(String, &str)> = vec![
        (String::new(), "e.jsonl: the file is empty (expected Every Eval Ever instance records of KiVA)"),
        (format!("{good}\n{{\"sample_id\": \n"), "e.jsonl line 2: invalid JSON: EOF while parsing a value at line 1 column 14"),
        (format!("{good}\n[1]\n"), "e.jsonl line 2: expected an instance record object, found an array"),
        (
            format!("{good}\n{}\n", rec(CROSS, r#""ColourRed#1""#, r#"{"is_correct": true}"#, "{}")),
            "e.jsonl line 2: field \"evaluation.score\": missing (expected the stage score (a number from 0 to 1))",
        ),
        (
            format!("{good}\n\n{}\n", rec(CROSS, r#""ColourRed#1""#, r#"{"score": 1.5}"#, "{}")),
            "e.jsonl line 3: field \"evaluation.score\": expected a number from 0 to 1 (the share of regenerations right), found 1.5",
        ),
        (
            rec(CROSS, r#""ColourRed#1""#, r#"{"score": "1"}"#, "{}"),
            "e.jsonl line 1: field \"evaluation.score\": expected a number from 0 to 1 (the share of regenerations right), found \"1\"",
        ),
        (
            format!("{good}\n{}\n", rec(r#""KiVA: Why (motive)""#, r#""ColourRed#0""#, RIGHT, META)),
            "e.jsonl line 2: field \"evaluation_name\": expected a KiVA stage after \"KiVA: \" (What (cross-domain), How (within-domain, conditional), How (within-domain, joint), Apply (extrapolation)), found \"Why (motive)\"",
        ),
        (
            format!("{good}\n{}\n", rec(CROSS, r#""ColourRed-0""#, RIGHT, "{}")),
            "e.jsonl line 2: field \"sample_id\": expected \"<subdomain>#<variation>\" or \"<participant>/<subdomain>#<variation>\", found \"ColourRed-0\"",
        ),
        (
            rec(CROSS, r#""ColourRed#first""#, RIGHT, "{}"),
            "e.jsonl line 1: field \"sample_id\": expected \"<subdomain>#<variation>\"",
        ),
        (
            rec(CROSS, r#""/ColourRed#0""#, RIGHT, "{}"),
            "e.jsonl line 1: field \"sample_id\": expected \"<subdomain>#<variation>\"",
        ),
        (
            format!("{good}\n{}\n", rec(CROSS, r#""Shear#0""#, RIGHT, "{}")),
            "e.jsonl line 2: field \"sample_id\": expected a KiVA subdomain (a name starting with one of 2DRotation, Colour, Counting, Reflect, Resize), found \"Shear\"",
        ),
        (
            format!("{good}\n{}\n", rec(r#""MM-IQ""#, r#""17""#, RIGHT, "{}")),
            "e.jsonl line 2: field \"evaluation_name\": expected a KiVA stage, as the records before (one benchmark a file), found \"MM-IQ\"",
        ),
        (
            format!("{good}\n{}\n", rec(r#""KiVA-adults: What (cross-domain)""#, r#""ColourRed#1""#, RIGHT, "{}")),
            "e.jsonl line 2: field \"evaluation_name\": expected a KiVA stage, as the records before (one variant a file), found \"KiVA-adults: What (cross-domain)\"",
        ),
        (
            rec("3", r#""ColourRed#0""#, RIGHT, "{}"),
            "e.jsonl line 1: field \"evaluation_name\": expected a string, found 3",
        ),
        (
            r#"{"sample_id": "ColourRed#0", "evaluation": {"score": 1}}"#.to_string(),
            "e.jsonl line 1: field \"evaluation_name\": missing (expected the stage (a string \"KiVA: <stage>\"))",
        ),
        (
            format!("{good}\n{}\n", rec(CROSS, r#""ColourRed#1""#, r#"{"score": 0.5, "is_correct": true}"#, "{}")),
            "e.jsonl line 2: field \"evaluation.is_correct\": expected false (a score is right when above 0.5, and the score is 0.5), found true",
        ),
        (
            format!("{good}\n{}\n", rec(CROSS, r#""7/ColourRed#1""#, RIGHT, "{}")),
            "e.jsonl line 2: field \"sample_id\": expected a sample id without a participant (\"<subdomain>#<variation>\"), as on line 1",
        ),
        (
            rec(CROSS, r#""ColourRed#0""#, RIGHT, r#"{"regenerations": "three"}"#),
            "e.jsonl line 1: field \"metadata.regenerations\": expected a whole number from 1 (the trial's regenerations, or a person's stage rows), found \"three\"",
        ),
        (
            rec(CROSS, r#""ColourRed#0""#, RIGHT, r#"{"subdomain": "ColourBlue"}"#),
            "e.jsonl line 1: field \"metadata.subdomain\": expected \"ColourRed\", as sample_id \"ColourRed#0\" says, found \"ColourBlue\"",
        ),
        (
            rec(CROSS, r#""ColourRed#0""#, RIGHT, r#"{"variation": "4"}"#),
            "e.jsonl line 1: field \"metadata.variation\": expected 0, as sample_id \"ColourRed#0\" says, found \"4\"",
        ),
        (
            format!(
                "{good}\n{}\n",
                rec(r#""KiVA: Apply (extrapolation)""#, r#""ColourRed#0""#, RIGHT, &META.replace(r#""regenerations": "3""#, r#""regenerations": "2""#))
            ),
            "e.jsonl line 2: field \"metadata.regenerations\": expected 3, as line 1 of the same trial says, found 2",
        ),
        (
            rec(CROSS, r#""ColourRed#0""#, RIGHT, r#"{"null_answers": "ignored"}"#),
            "e.jsonl line 1: field \"metadata.null_answers\": expected wrong or missing, found \"ignored\"",
        ),
        (
            format!(
                "{}\n{}\n",
                rec(CROSS, r#""ColourRed#0""#, RIGHT, r#"{"null_answers": "wrong"}"#),
                rec(CROSS, r#""ColourRed#1""#, RIGHT, r#"{"null_answers": "missing"}"#)
            ),
            "e.jsonl line 2: field \"metadata.null_answers\": expected wrong, as on line 1, found \"missing\"",
        ),
        (
            rec(CROSS, r#""ColourRed#0""#, RIGHT, "[]"),
            "e.jsonl line 1: field \"metadata\": expected an object, found an array",
        ),
    ];
    for (input, want) in &cases {
        let got = eee::read_kiva("e.jsonl", input.as_bytes())
            .map(|_| ())
            .unwrap_err()
            .to_string();
        assert!(
            got.starts_with(want),
            "input {input}\n  got:  {got}\n  want: {want}…"
        );
    }
    assert!(cases.len() >= 20);
    // Bytes that are not UTF-8 on line 2: the line and byte.
    let mut bytes = rec(CROSS, r#""ColourRed#0""#, RIGHT, "{}").into_bytes();
    bytes.extend_from_slice(b"\n{\"a\": \"\xff\"}\n");
    let got = eee::read_kiva("e.jsonl", &bytes).unwrap_err().to_string();
    assert_eq!(
        got,
        "e.jsonl line 2: not valid UTF-8 (byte 8 of the line cannot be decoded)"
    );
    // A JSON array of records: the position in the array is the "line".
    let array = format!(
        "[{good}, {}]",
        rec(CROSS, r#""ColourRed#1""#, r#"{"score": -0.1}"#, "{}")
    );
    let got = eee::read_kiva("e.json", array.as_bytes())
        .unwrap_err()
        .to_string();
    assert!(
        got.starts_with("e.json line 2: field \"evaluation.score\": expected a number from 0 to 1"),
        "{got}"
    );
}
