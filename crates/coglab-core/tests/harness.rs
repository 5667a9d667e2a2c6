//! Harness files (issue 24): each reader on hand-made fixtures built from the harness's
//! published schema, scored against a 4-item MM-IQ key (`fixtures/harness/key.jsonl`:
//! 0 = B, 1 = C (Mathematical), 2 = A, 3 = D (2D-Geometry)), with the expected numbers worked
//! out by hand in the comments; then at least ten malformed inputs per format, each with its
//! located error.

use coglab_core::harness::{
    self, eee, inspect, jspsych, kiva_challenge, lmms, map, vlmevalkit, HarnessError, HarnessFormat,
};
use coglab_core::kiva::HumanData;
use coglab_core::mmiq::{AnswerKey, TableKind};
use std::io::Write;

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/harness/");

fn fixture(name: &str) -> Vec<u8> {
    std::fs::read(format!("{DIR}{name}")).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn key() -> AnswerKey {
    AnswerKey::parse_bytes("key.jsonl", &fixture("key.jsonl")).unwrap()
}

fn read(name: &str) -> harness::HarnessFile {
    let bytes = fixture(name);
    harness::read(name, &bytes).unwrap_or_else(|e| panic!("{name}: {e}"))
}

// ---------------------------------------------------------------------------------------
// lmms-eval

#[test]
fn lmms_samples_shape_1_nested_resps_with_doc() {
    let f = read("20240601_120000_samples_mmiq.jsonl");
    assert_eq!(f.format, HarnessFormat::LmmsSamples);
    assert_eq!(f.task.as_deref(), Some("mmiq"));
    let r = map::score_mmiq(&f, &key(), true).unwrap();
    // 0 "The answer is B." -> B = key B: right. 1 "Option (A) fits best" -> A, key C: wrong.
    // 2 "A" -> A = key A: right (lmms-eval logged 0.0: a disagreement). 3 "I cannot tell." ->
    // no letter (Z): wrong. 2 of 4.
    assert_eq!((r.overall.correct, r.overall.n), (2, 4));
    let h = r.harness.as_ref().unwrap();
    assert_eq!(h.harness_label, "lmms-eval");
    assert_eq!(h.mapped_by["data_id"], 4);
    assert!(h.unmapped.is_empty());
    assert_eq!(h.verdicts, 4);
    assert_eq!(h.disagreements.len(), 1);
    let d = &h.disagreements[0];
    assert_eq!(
        (d.data_id, d.harness_correct, d.ours_correct, d.key),
        (2, false, true, 'A')
    );
    assert_eq!(r.items[3].parsed, "Z");
}

#[test]
fn lmms_samples_shape_2_flat_resps() {
    let f = read("20231105_samples_mmiq_test.jsonl");
    assert_eq!(f.task.as_deref(), Some("mmiq_test"));
    let r = map::score_mmiq(&f, &key(), false).unwrap();
    // 0 B right, 1 C right, 2 D (key A) wrong; data_id 9 is not in the key: listed.
    assert_eq!((r.overall.correct, r.overall.n), (2, 3));
    let h = r.harness.as_ref().unwrap();
    assert_eq!(h.unmapped.len(), 1);
    assert_eq!(h.unmapped[0].position, 4);
    assert_eq!(h.unmapped[0].record, "doc_id 3");
    assert_eq!(
        h.unmapped[0].reason,
        "data_id 9 is not in the answer key key.jsonl"
    );
    assert!(h.disagreements.is_empty());
    assert!(r.items.is_empty(), "items dropped when not kept");
}

#[test]
fn lmms_samples_shape_3_scalar_filtered_resps_mapped_by_md5() {
    let f = read("20240110_samples_mm_iq.jsonl");
    assert_eq!(f.records[0].response.as_deref(), Some("Answer: B"));
    let r = map::score_mmiq(&f, &key(), true).unwrap();
    // doc 0 and 1 map by doc_hash = the key's MD5 (the second in upper case); both right.
    // doc 2's hash is no MD5 of the key, doc 3 has none: both listed, line 5 after a blank.
    assert_eq!((r.overall.correct, r.overall.n), (2, 2));
    let h = r.harness.as_ref().unwrap();
    assert_eq!(h.mapped_by["md5"], 2);
    let reasons: Vec<(usize, &str)> = h
        .unmapped
        .iter()
        .map(|u| (u.position, u.reason.as_str()))
        .collect();
    assert_eq!(
        reasons,
        [
            (3, "no data_id, and its hash \"ffffffffffffffffffffffffffffffff\" is no MD5 of the answer key"),
            (5, "carries no data_id and no hash to match the key's MD5"),
        ]
    );
}

#[test]
fn lmms_samples_for_another_task_say_which() {
    let text = fixture("20231105_samples_mmiq_test.jsonl");
    let f = lmms::read_samples("20231105_samples_mmmu_val.jsonl", &text).unwrap();
    let e = map::score_mmiq(&f, &key(), false).unwrap_err();
    assert_eq!(
        e.to_string(),
        "20231105_samples_mmmu_val.jsonl: this is lmms-eval output for task \"mmmu_val\", \
         expected an MM-IQ task (a task name containing \"mmiq\", e.g. mmiq, mm_iq)"
    );
}

#[test]
fn lmms_results_summary_rows() {
    let f = read("20240601_120000_results.json");
    assert_eq!(f.format, HarnessFormat::LmmsResults);
    assert_eq!(f.model.as_deref(), Some("llava_onevision"));
    assert_eq!(f.summary.len(), 2);
    let by = |m: &str| f.summary.iter().find(|s| s.metric == m).unwrap();
    let a = by("mmiq_accuracy");
    assert_eq!(
        (a.metric.as_str(), a.filter.as_deref()),
        ("mmiq_accuracy", Some("none"))
    );
    assert_eq!(
        (a.value, a.stderr, a.stderr_clustered, a.n),
        (0.2745, Some(0.0086), Some(0.0091), Some(2710))
    );
    let b = by("exact_match");
    // "N/A" stderr is no value.
    assert_eq!(
        (b.metric.as_str(), b.filter.as_deref(), b.value, b.stderr),
        ("exact_match", Some("flexible-extract"), 0.281, None)
    );
}

// ---------------------------------------------------------------------------------------
// VLMEvalKit

#[test]
fn vlmevalkit_judge_result_circular() {
    let name = "GPT4o_MMIQ_CIRC_gpt-4o-mini_result.tsv";
    let f = vlmevalkit::read(name, TableKind::Tsv, &fixture(name)).unwrap();
    assert_eq!(f.format, HarnessFormat::VlmEvalKit(TableKind::Tsv));
    assert!(vlmevalkit::needs_harness(&f));
    let r = map::score_mmiq(&f, &key(), true).unwrap();
    // Rotation 0: 0 "The answer is B" right, 1 "C" right, 2 "B" (key A) wrong although the
    // judge's hit is 1 (a disagreement). 2 of 3.
    assert_eq!((r.overall.correct, r.overall.n), (2, 3));
    let h = r.harness.as_ref().unwrap();
    assert_eq!(h.disagreements.len(), 1);
    assert_eq!(h.disagreements[0].data_id, 2);
    // Circular: item 0's rotations 1000000 (A, answered A) and 2000000 (D, answered D) are
    // right and rotation 0 is right: counts. Item 1's rotation 1000001 (B, answered D) is
    // wrong: does not. 1 of 2.
    let c = h.circular.as_ref().unwrap();
    assert_eq!((c.items, c.all_correct), (2, 1));
    assert_eq!(c.accuracy.unwrap().accuracy, 0.5);
    assert_eq!(h.unmapped.len(), 4, "the four rotations are listed");
    assert!(h.unmapped[0]
        .reason
        .starts_with("rotation 1 of a circular item"));
}

// ---------------------------------------------------------------------------------------
// Inspect

/// The Inspect `.json` fixture's log as `.eval` members: `header.json` (the log without its
/// samples) and `samples/{id}_epoch_{n}.json`.
fn eval_members() -> Vec<(String, Vec<u8>)> {
    let mut log: serde_json::Value = serde_json::from_slice(&fixture("inspect_log.json")).unwrap();
    let samples = log.as_object_mut().unwrap().remove("samples").unwrap();
    let mut out = vec![("header.json".to_string(), serde_json::to_vec(&log).unwrap())];
    for s in samples.as_array().unwrap() {
        let id = match &s["id"] {
            serde_json::Value::String(t) => t.clone(),
            other => other.to_string(),
        };
        out.push((
            format!("samples/{id}_epoch_{}.json", s["epoch"]),
            serde_json::to_vec(s).unwrap(),
        ));
    }
    out.push(("summaries.json".into(), b"[]".to_vec()));
    out
}

/// An `.eval` with deflate members, written by the `zip` crate.
fn eval_deflate() -> Vec<u8> {
    let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let opts = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated);
    for (name, bytes) in eval_members() {
        w.start_file(name, opts).unwrap();
        w.write_all(&bytes).unwrap();
    }
    w.finish().unwrap().into_inner()
}

/// CRC-32 (IEEE), bit by bit, for the hand-written zip below.
fn crc32(data: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &b in data {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = if crc & 1 != 0 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

/// An `.eval` with zstd members (method 93), written by hand (the `zip` crate is built
/// without zstd): local headers, the central directory and its end record, per APPNOTE 4.3.
fn eval_zstd(members: &[(String, Vec<u8>)]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut central = Vec::new();
    for (name, data) in members {
        let packed = ruzstd::encoding::compress_to_vec(
            data.as_slice(),
            ruzstd::encoding::CompressionLevel::Fastest,
        );
        let offset = out.len() as u32;
        let fields = |v: &mut Vec<u8>| {
            v.extend_from_slice(&20u16.to_le_bytes()); // version needed
            v.extend_from_slice(&0u16.to_le_bytes()); // flags
            v.extend_from_slice(&93u16.to_le_bytes()); // zstd
            v.extend_from_slice(&0u32.to_le_bytes()); // time, date
            v.extend_from_slice(&crc32(data).to_le_bytes());
            v.extend_from_slice(&(packed.len() as u32).to_le_bytes());
            v.extend_from_slice(&(data.len() as u32).to_le_bytes());
            v.extend_from_slice(&(name.len() as u16).to_le_bytes());
            v.extend_from_slice(&0u16.to_le_bytes()); // extra
        };
        out.extend_from_slice(b"PK\x03\x04");
        fields(&mut out);
        out.extend_from_slice(name.as_bytes());
        out.extend_from_slice(&packed);
        central.extend_from_slice(b"PK\x01\x02");
        central.extend_from_slice(&20u16.to_le_bytes()); // version made by
        fields(&mut central);
        central.extend_from_slice(&[0; 6]); // comment len, disk, internal attrs
        central.extend_from_slice(&0u32.to_le_bytes()); // external attrs
        central.extend_from_slice(&offset.to_le_bytes());
        central.extend_from_slice(name.as_bytes());
    }
    let cd_offset = out.len() as u32;
    out.extend_from_slice(&central);
    out.extend_from_slice(b"PK\x05\x06\0\0\0\0");
    let n = members.len() as u16;
    out.extend_from_slice(&n.to_le_bytes());
    out.extend_from_slice(&n.to_le_bytes());
    out.extend_from_slice(&(central.len() as u32).to_le_bytes());
    out.extend_from_slice(&cd_offset.to_le_bytes());
    out.extend_from_slice(&0u16.to_le_bytes());
    out
}

/// The Inspect fixture's expected scores, whichever container it comes in.
fn check_inspect(f: &harness::HarnessFile) {
    assert_eq!(f.task.as_deref(), Some("mmiq"));
    assert_eq!(f.model.as_deref(), Some("openai/gpt-4o"));
    assert_eq!(f.summary.len(), 1);
    assert_eq!(
        (f.summary[0].value, f.summary[0].stderr, f.summary[0].n),
        (0.75, Some(0.25), Some(4))
    );
    let r = map::score_mmiq(f, &key(), true).unwrap();
    // id 0 "ANSWER: B" right; id 1 (content parts) "ANSWER: C" right; id "2" "ANSWER: A"
    // right; "q-3" maps by metadata.MD5 to item 3: "ANSWER: B", key D, wrong. Epoch 2 of id 1
    // is listed, not scored. 3 of 4; Inspect's C/C/C/I verdicts agree with ours.
    assert_eq!((r.overall.correct, r.overall.n), (3, 4));
    let h = r.harness.as_ref().unwrap();
    assert_eq!(h.harness_label, "Inspect");
    assert_eq!((h.mapped_by["data_id"], h.mapped_by["md5"]), (3, 1));
    assert_eq!(h.unmapped.len(), 1);
    assert!(
        h.unmapped[0].reason.starts_with("epoch 2 of data_id 1"),
        "{}",
        h.unmapped[0].reason
    );
    assert!(h.disagreements.is_empty());
}

#[test]
fn inspect_json_log() {
    let f = read("inspect_log.json");
    assert_eq!(f.format, HarnessFormat::InspectJson);
    check_inspect(&f);
}

#[test]
fn inspect_eval_deflate_members() {
    let bytes = eval_deflate();
    assert_eq!(
        harness::detect("run.eval", &bytes),
        Some(HarnessFormat::InspectEval)
    );
    let mut steps = Vec::new();
    let f = inspect::read_eval("run.eval", std::io::Cursor::new(&bytes), |d, t| {
        steps.push((d, t))
    })
    .unwrap();
    assert_eq!(steps, [(1, 5), (2, 5), (3, 5), (4, 5), (5, 5)]);
    check_inspect(&f);
}

/// With `COGLAB_FUZZ_SEEDS=<dir>`, writes `bytes` as a seed of fuzz target `target` (the
/// `.eval` and EEE seeds `scripts/fuzz.sh` copies from `fuzz/seeds-generated`).
pub(crate) fn fuzz_seed(target: &str, name: &str, bytes: &[u8]) {
    if let Ok(dir) = std::env::var("COGLAB_FUZZ_SEEDS") {
        let dir = std::path::Path::new(&dir).join(target);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(name), bytes).unwrap();
    }
}

#[test]
fn inspect_eval_zstd_members() {
    let bytes = eval_zstd(&eval_members());
    fuzz_seed("harness_inspect_eval", "zstd.eval", &bytes);
    fuzz_seed("harness_inspect_eval", "deflate.eval", &eval_deflate());
    let f = harness::read("run.eval", &bytes).unwrap();
    check_inspect(&f);
}

// ---------------------------------------------------------------------------------------
// Every Eval Ever

#[test]
fn eee_round_trip() {
    let k = key();
    let f = read("20240601_120000_samples_mmiq.jsonl");
    let before = map::score_mmiq(&f, &k, true).unwrap();
    let out = eee::write_mmiq(&before, "llava", "1717243200").unwrap();
    fuzz_seed(
        "harness_eee",
        "instances",
        &[b"\0", out.instances.as_bytes()].concat(),
    );
    fuzz_seed(
        "harness_eee",
        "aggregate",
        &[b"\x01", out.aggregate.as_bytes()].concat(),
    );
    assert_eq!(out.evaluation_id, "MM-IQ/llava/1717243200");
    // The instance records, read back and scored with the same key, give the same figures
    // and items; EEE's is_correct is ours, so nothing disagrees.
    let inst = harness::read("llava.jsonl", out.instances.as_bytes()).unwrap();
    assert_eq!(inst.format, HarnessFormat::EeeInstances);
    assert_eq!(inst.model.as_deref(), Some("llava"));
    let after = map::score_mmiq(&inst, &k, true).unwrap();
    assert_eq!(after.overall, before.overall);
    assert_eq!(after.by_category, before.by_category);
    let pick = |r: &coglab_core::mmiq::MmiqReport| -> Vec<(u64, String, bool)> {
        r.items
            .iter()
            .map(|i| (i.data_id, i.parsed.to_string(), i.correct))
            .collect()
    };
    assert_eq!(pick(&after), pick(&before));
    assert!(after.harness.as_ref().unwrap().disagreements.is_empty());
    // The aggregate record: 2 of 4, SE sqrt(0.5 * 0.5 / 4) = 0.25; per paradigm 1 of 2 each.
    let agg = harness::read("agg.json", out.aggregate.as_bytes()).unwrap();
    assert_eq!(agg.format, HarnessFormat::EeeAggregate);
    // Per paradigm SE sqrt(0.25 / 2) = 1 / (2 sqrt 2) = 0.35355339059327373.
    let rows: Vec<(&str, f64, Option<u64>)> = agg
        .summary
        .iter()
        .map(|s| (s.task.as_str(), s.value, s.n))
        .collect();
    assert_eq!(
        rows,
        [
            ("MM-IQ", 0.5, Some(4)),
            ("MM-IQ: 2D-Geometry", 0.5, Some(2)),
            ("MM-IQ: Mathematical", 0.5, Some(2))
        ]
    );
    for (s, se) in
        agg.summary
            .iter()
            .zip([0.25, 0.353_553_390_593_273_73, 0.353_553_390_593_273_73])
    {
        approx::assert_relative_eq!(s.stderr.unwrap(), se, max_relative = 1e-15);
    }
    // Required fields of both schemas are present.
    let doc: serde_json::Value = serde_json::from_str(&out.aggregate).unwrap();
    for k in [
        "schema_version",
        "evaluation_id",
        "retrieved_timestamp",
        "source_metadata",
        "model_info",
        "eval_library",
        "evaluation_results",
    ] {
        assert!(doc.get(k).is_some(), "aggregate lacks {k}");
    }
    let line: serde_json::Value =
        serde_json::from_str(out.instances.lines().next().unwrap()).unwrap();
    for k in [
        "schema_version",
        "evaluation_id",
        "model_id",
        "evaluation_name",
        "sample_id",
        "interaction_type",
        "input",
        "answer_attribution",
        "evaluation",
    ] {
        assert!(line.get(k).is_some(), "instance lacks {k}");
    }
    // EEE 0.3.0 names an instance record's version as an aggregate's.
    assert_eq!(line["schema_version"], "0.3.0");
    assert_eq!(doc["schema_version"], "0.3.0");
}

// ---------------------------------------------------------------------------------------
// jsPsych

/// The same trials as `kiva_run_jspsych.csv`, in the KiVA human format the self-test exports.
const SELFTEST_EQUIVALENT: &str =
    "ParticipantID,Transformation,Variation,Task,Score,Reaction Time\n\
    p07,ColourRed,3,Cross Domain,1,2803\n\
    p07,ColourRed,3,Within Domain,1,2090\n\
    p07,ColourRed,3,Extrapolation,0,3290\n\
    p07,Counting+1,0,Cross Domain,0,2600\n\
    p07,Counting+1,0,Within Domain,1,2100\n\
    p07,Counting+1,0,Extrapolation,1,1900\n";

#[test]
fn jspsych_csv_kiva_run_scores_as_the_selftest_export() {
    let f = read("kiva_run_jspsych.csv");
    assert_eq!(f.format, HarnessFormat::JsPsychCsv);
    let r = map::score_kiva_human(&f).unwrap();
    let h = r.harness.as_ref().unwrap();
    assert_eq!(h.harness_label, "jsPsych");
    assert_eq!(h.mapped_by["trial"], 6);
    // The Shear trial (line 10) is listed; preload, welcome and thanks trials are no items.
    assert_eq!(h.unmapped.len(), 1);
    assert_eq!(h.unmapped[0].position, 10);
    assert_eq!(
        h.unmapped[0].reason,
        "subdomain \"Shear\" is not a KiVA subdomain"
    );
    // Cross: 1 (ColourRed) and 0 (Counting+1) = 0.5; extrapolation 0 and 1 = 0.5; within
    // (both answered) 1 and 1 = 1.
    assert_eq!(r.overall.cross.unwrap().mean, 0.5);
    assert_eq!(r.overall.extrapolation.unwrap().mean, 0.5);
    assert_eq!(r.overall.within_conditional.unwrap().mean, 1.0);
    let own = coglab_core::kiva::score_human(
        &HumanData::parse("p07.csv", SELFTEST_EQUIVALENT.as_bytes()).unwrap(),
    )
    .unwrap();
    assert_eq!(r.overall, own.overall);
    assert_eq!(r.by_subdomain, own.by_subdomain);
    assert_eq!(r.reaction_time, own.reaction_time);
}

#[test]
fn jspsych_json_kiva_run() {
    let f = read("kiva_run_jspsych.json");
    assert_eq!(f.format, HarnessFormat::JsPsychJson);
    let r = map::score_kiva_human(&f).unwrap();
    // ReflectX v2: cross 1 == 1 right, within 0 vs 1 wrong, extrapolation 2 == 2 right.
    assert_eq!(r.overall.cross.unwrap().mean, 1.0);
    assert_eq!(r.overall.within_conditional.unwrap().mean, 0.0);
    assert_eq!(r.overall.extrapolation.unwrap().mean, 1.0);
}

// ---------------------------------------------------------------------------------------
// KiVA challenge

#[test]
fn kiva_challenge_json_and_csv_results() {
    let ann = fixture("kiva_challenge_annotations.json");
    let res = fixture("kiva_challenge_results.json");
    let r = kiva_challenge::score(("ann.json", &ann), ("res.json", &res)).unwrap();
    // trial_001 (A) = (A) right; 002 (C) = (C) right; 003 "The answer is (A)", correct (B):
    // wrong; 004 (A) right; trial_099 is not annotated (listed); 005 unanswered. 3 of 4.
    assert_eq!((r.overall.correct, r.overall.n), (3, 4));
    assert_eq!(r.not_answered, 1);
    assert_eq!(r.unmapped.len(), 1);
    assert_eq!((r.by_level["kiva"].correct, r.by_level["kiva"].n), (2, 2));
    assert_eq!(r.by_level["kiva-functions"].correct, 0);
    assert_eq!(
        (r.by_domain["Counting"].correct, r.by_domain["Counting"].n),
        (1, 2)
    );
    let res = fixture("kiva_challenge_results.csv");
    let r = kiva_challenge::score(("ann.json", &ann), ("res.csv", &res)).unwrap();
    // 001 (B) vs (A) wrong; 002 right; 005 "B" = (B) right; 005 again listed. 2 of 3.
    assert_eq!((r.overall.correct, r.overall.n), (2, 3));
    assert_eq!(r.unmapped[0].position, 5);
    assert_eq!(r.not_answered, 2);
}

// ---------------------------------------------------------------------------------------
// Malformed inputs: at least ten per format, each with its located error.

fn err_of(result: Result<impl std::fmt::Debug, HarnessError>) -> String {
    match result {
        Ok(v) => panic!("expected an error, got {v:?}"),
        Err(e) => e.to_string(),
    }
}

fn check(cases: &[(&[u8], &str)], f: impl Fn(&[u8]) -> Result<harness::HarnessFile, HarnessError>) {
    for (input, want) in cases {
        let got = err_of(f(input));
        assert!(
            got.contains(want),
            "input {:?}\n  got:  {got}\n  want: …{want}…",
            String::from_utf8_lossy(input)
        );
    }
}

#[test]
fn malformed_lmms_samples() {
    let cases: &[(&[u8], &str)] = &[
        (
            b"",
            "s.jsonl: the file is empty (expected one lmms-eval sample object per line)",
        ),
        (b"\n \n", "s.jsonl: the file is empty"),
        (
            b"{\"doc_id\": 0, \"resps\": [[\"A\"]]}\n{\"doc_id\": 1,",
            "s.jsonl line 2: invalid JSON",
        ),
        (
            b"[1, 2]",
            "s.jsonl line 1: expected one JSON object per line, found an array",
        ),
        (
            b"{\"resps\": [[\"A\"]]}",
            "s.jsonl line 1: field \"doc_id\": missing",
        ),
        (
            b"{\"doc_id\": -1, \"resps\": [[\"A\"]]}",
            "s.jsonl line 1: field \"doc_id\": expected a non-negative integer, found -1",
        ),
        (
            b"{\"doc_id\": \"x\", \"resps\": [[\"A\"]]}",
            "field \"doc_id\": expected a non-negative integer, found \"x\"",
        ),
        (
            b"{\"doc_id\": 0}",
            "s.jsonl line 1: field \"resps\": missing (expected the model's answer",
        ),
        (
            b"{\"doc_id\": 0, \"resps\": {\"a\": 1}}",
            "field \"resps\": expected a string, [\"text\"] or [[\"text\"]], found an object",
        ),
        (
            b"{\"doc_id\": 0, \"filtered_resps\": [{\"x\": 1}]}",
            "field \"filtered_resps\": expected a string",
        ),
        (
            b"{\"doc_id\": 0, \"data_id\": \"seven\", \"resps\": [\"A\"]}",
            "field \"data_id\": expected a non-negative integer, found \"seven\"",
        ),
        (
            b"{\"doc_id\": 0, \"resps\": [\"A\"]}\n\xff\xfe",
            "s.jsonl line 2: not valid UTF-8 (byte 1",
        ),
        (b"\xff\xfe{\0}\0", "UTF-16 LE"),
    ];
    check(cases, |b| lmms::read_samples("s.jsonl", b));
}

#[test]
fn malformed_lmms_results() {
    let cases: &[(&[u8], &str)] = &[
        (b"", "r.json: the file is empty"),
        (b"{\"results\": ", "r.json line 1: invalid JSON"),
        (
            b"{}",
            "r.json: field \"results\": missing (expected the results object",
        ),
        (
            b"{\"results\": []}",
            "r.json: field \"results\": expected an object of tasks, found an array",
        ),
        (
            b"{\"results\": {\"mmiq\": 3}}",
            "field \"results.mmiq\": expected an object of metrics, found 3",
        ),
        (
            b"{\"results\": {\"mmiq\": {\"acc,none\": true}}}",
            "field \"results.mmiq.acc,none\": expected a number, found true",
        ),
        (
            b"{\"results\": {}}",
            "r.json: the file is empty (expected at least one numeric metric under results)",
        ),
        (
            b"{\"results\": {\"mmiq\": {\"alias\": \"mmiq\"}}}",
            "at least one numeric metric",
        ),
        (
            b"{\"results\": {\"mmiq\": {\"acc,none\": \"N/A\"}}}",
            "at least one numeric metric",
        ),
        (
            b"{\"results\": {\"mmiq\": {\"acc,none\": 0.5}}\n, }",
            "r.json line 2: invalid JSON",
        ),
        (
            b"\xef\xbb\xbf{\"results\": 1}",
            "field \"results\": expected an object of tasks, found 1",
        ),
    ];
    check(cases, |b| lmms::read_results("r.json", b));
}

#[test]
fn malformed_vlmevalkit() {
    let cases: &[(&[u8], &str)] = &[
        (b"", "m.tsv: the file is empty"),
        (
            b"index\tanswer\n0\tB\n",
            "m.tsv: missing column(s) prediction",
        ),
        (b"answer\tprediction\n0\tB\n", "missing column(s) index"),
        (
            b"index\tprediction\n",
            "m.tsv: the file is empty (expected a header row and prediction rows)",
        ),
        (
            b"index\tprediction\nx\tB\n",
            "m.tsv line 2: field \"index\": expected a non-negative integer, found \"x\"",
        ),
        (
            b"index\tprediction\n-4\tB\n",
            "m.tsv line 2: field \"index\": expected a non-negative integer, found \"-4\"",
        ),
        (
            b"index\tprediction\n1\tB\n1\tC\n",
            "m.tsv line 3: field \"index\": expected an index not used before (1 is on line 2 too)",
        ),
        (
            b"index\tprediction\thit\n1\tB\tmaybe\n",
            "m.tsv line 2: field \"hit\": expected 1 or 0, found \"maybe\"",
        ),
        (
            b"index\tprediction\n1\tB\textra\n",
            "m.tsv line 2: expected 2 fields as in the header, found 3",
        ),
        (
            b"index\tprediction\n1\t\"B\n",
            "m.tsv line 2: a quoted field opens here and is never closed",
        ),
        (
            b"index\tprediction\n1\t\xff\n",
            "m.tsv line 2: not valid UTF-8",
        ),
    ];
    check(cases, |b| vlmevalkit::read("m.tsv", TableKind::Tsv, b));
}

#[test]
fn malformed_inspect_json() {
    let ok_sample = r#"{"id": 1, "epoch": 1, "output": {"completion": "A"}}"#;
    let log = |s: &str| format!(r#"{{"eval": {{"task": "mmiq"}}, "samples": [{s}]}}"#).into_bytes();
    let cases: Vec<(Vec<u8>, &str)> = vec![
        (b"".to_vec(), "l.json: the file is empty"),
        (b"{\"eval\": ".to_vec(), "l.json line 1: invalid JSON"),
        (
            b"{\"samples\": []}".to_vec(),
            "l.json: log: field \"eval\": missing",
        ),
        (
            b"{\"eval\": 3, \"samples\": []}".to_vec(),
            "l.json: log: field \"eval\": expected an object, found 3",
        ),
        (
            b"{\"eval\": {}}".to_vec(),
            "l.json: field \"samples\": missing",
        ),
        (
            b"{\"eval\": {}, \"samples\": {}}".to_vec(),
            "l.json: field \"samples\": expected an array of samples, found an object",
        ),
        (
            log(""),
            "l.json: the file is empty (expected at least one sample)",
        ),
        (
            log("7"),
            "l.json: samples[0]: expected a sample object, found 7",
        ),
        (
            log(r#"{"epoch": 1}"#),
            "l.json: samples[0]: field \"id\": missing",
        ),
        (
            log(r#"{"id": [1]}"#),
            "l.json: samples[0]: field \"id\": expected a number or a string, found an array",
        ),
        (
            log(r#"{"id": -2}"#),
            "field \"id\": expected a non-negative integer or a string, found -2",
        ),
        (
            log(&format!(r#"{ok_sample}, {{"id": 2, "epoch": "one"}}"#)),
            "l.json: samples[1]: field \"epoch\": expected a positive integer, found \"one\"",
        ),
        (
            log(r#"{"id": 2, "output": "A"}"#),
            "samples[0]: field \"output\": expected the model output object, found \"A\"",
        ),
        (
            log(r#"{"id": 2, "scores": [1]}"#),
            "samples[0]: field \"scores\": expected an object of scorer -> score, found an array",
        ),
    ];
    for (input, want) in &cases {
        let got = err_of(inspect::read_json("l.json", input));
        assert!(got.contains(want), "got {got}\nwant {want}");
    }
}

#[test]
fn malformed_inspect_eval() {
    let good = eval_members();
    let without = |name: &str| -> Vec<(String, Vec<u8>)> {
        good.iter().filter(|(n, _)| n != name).cloned().collect()
    };
    let replaced = |name: &str, bytes: &[u8]| -> Vec<(String, Vec<u8>)> {
        good.iter()
            .map(|(n, b)| {
                (
                    n.clone(),
                    if n == name { bytes.to_vec() } else { b.clone() },
                )
            })
            .collect()
    };
    let mut truncated = eval_zstd(&good);
    truncated.truncate(truncated.len() / 2);
    let mut bad_frame = eval_zstd(&good);
    // Corrupt the first member's zstd magic number (its data starts after the 30-byte
    // header and the 11-byte name "header.json").
    bad_frame[41] ^= 0xFF;
    let mut bad_crc = eval_deflate();
    // A byte inside header.json's deflate stream (after the 30-byte local header and the
    // 11-byte name): the stream no longer inflates, or inflates to bytes whose CRC-32 differs.
    bad_crc[41 + 6] ^= 0xFF;
    let cases: Vec<(Vec<u8>, &str)> = vec![
        (b"PK\x03\x04".to_vec(), "r.eval: "),
        (truncated, "r.eval: "),
        (eval_zstd(&without("header.json")), "r.eval: field \"header.json\": missing"),
        (eval_zstd(&replaced("header.json", b"{\"eval\": ")), "r.eval: header.json line 1: invalid JSON"),
        (eval_zstd(&replaced("header.json", b"{}")), "r.eval: header.json: field \"eval\": missing"),
        (eval_zstd(&replaced("samples/0_epoch_1.json", b"[]")), "r.eval: samples/0_epoch_1.json: expected a sample object, found an array"),
        (eval_zstd(&replaced("samples/0_epoch_1.json", b"{\"epoch\": 1}")), "r.eval: samples/0_epoch_1.json: field \"id\": missing"),
        (eval_zstd(&replaced("samples/2_epoch_1.json", b"{\"id\": 2, \"epoch\": 0.5}")), "r.eval: samples/2_epoch_1.json: field \"epoch\": expected a positive integer, found 0.5"),
        (eval_zstd(&replaced("samples/1_epoch_1.json", b"\xff\xff")), "r.eval: samples/1_epoch_1.json line 1: not valid UTF-8"),
        (eval_zstd(&[("header.json".into(), good[0].1.clone())]), "r.eval: the file is empty (expected samples/{id}_epoch_{n}.json members)"),
        (bad_frame, "r.eval: header.json: zstd: "),
        (bad_crc, "r.eval: header.json: "),
    ];
    for (input, want) in &cases {
        let got = err_of(inspect::read_eval(
            "r.eval",
            std::io::Cursor::new(input),
            |_, _| {},
        ));
        assert!(got.contains(want), "got {got}\nwant {want}");
    }
}

#[test]
fn malformed_eee() {
    let rec = |body: &str| format!(r#"{{"sample_id": "1", {body}}}"#).into_bytes();
    let cases: Vec<(Vec<u8>, &str)> = vec![
        (
            b"".to_vec(),
            "e.jsonl: the file is empty (expected Every Eval Ever instance records)",
        ),
        (b"{\"sample_id\": ".to_vec(), "e.jsonl line 1: invalid JSON"),
        (
            b"[3]".to_vec(),
            "e.jsonl line 1: expected an instance record object, found 3",
        ),
        (
            b"{\"evaluation\": {}}".to_vec(),
            "e.jsonl line 1: field \"sample_id\": missing",
        ),
        (
            b"{\"sample_id\": [1], \"evaluation\": {}}".to_vec(),
            "field \"sample_id\": expected a string, found an array",
        ),
        (
            b"{\"sample_id\": \"1\"}".to_vec(),
            "field \"evaluation\": missing",
        ),
        (
            rec(r#""evaluation": {"is_correct": "yes"}"#),
            "field \"evaluation.is_correct\": expected true or false, found \"yes\"",
        ),
        (
            rec(r#""evaluation": {}, "output": {"raw": 3}"#),
            "field \"output.raw\": expected an array of response strings, found 3",
        ),
        (
            rec(r#""evaluation": {}, "output": {}"#),
            "field \"output.raw\": missing",
        ),
        (
            rec(r#""evaluation": {}, "answer_attribution": {}"#),
            "field \"answer_attribution\": expected an array, found an object",
        ),
        (
            b"{\"a\": 1}".to_vec(),
            "e.jsonl: field \"evaluation_results\": missing",
        ),
    ];
    for (input, want) in &cases {
        let got = if want.contains("evaluation_results") {
            err_of(eee::read_aggregate("e.jsonl", input))
        } else {
            err_of(eee::read_instances("e.jsonl", input))
        };
        assert!(got.contains(want), "got {got}\nwant {want}");
    }
    let agg: &[(&[u8], &str)] = &[
        (b"{\"evaluation_results\": {}}", "a.json: field \"evaluation_results\": expected an array, found an object"),
        (b"{\"evaluation_results\": [{}]}", "a.json: field \"evaluation_results[0].evaluation_name\": missing"),
        (b"{\"evaluation_results\": [{\"evaluation_name\": \"x\"}]}", "field \"evaluation_results[0].score_details.score\": missing"),
        (b"{\"evaluation_results\": [{\"evaluation_name\": \"x\", \"score_details\": {\"score\": \"high\"}}]}", "score_details.score\": expected a number, found \"high\""),
        (b"{\"evaluation_results\": []}", "a.json: the file is empty (expected at least one evaluation result)"),
    ];
    check(agg, |b| eee::read_aggregate("a.json", b));
}

#[test]
fn malformed_jspsych() {
    let header = "trial_type,trial_index,rt,response,correct_response,kiva_subdomain,kiva_variation,kiva_stage\n";
    let row = |r: &str| format!("{header}{r}\n").into_bytes();
    let cases: Vec<(Vec<u8>, &str)> = vec![
        (b"".to_vec(), "j.csv: the file is empty"),
        (b"a,b\n1,2\n".to_vec(), "j.csv: field \"trial_type\": missing (expected jsPsych trial data"),
        (row("html,0,100,0,,,,"), "j.csv: the file is empty (expected trials carrying KiVA item columns"),
        (row("img,1,100,1,1,ColourRed,3"), "j.csv line 2: CSV error: record 1 (line: 2, byte: 93): found record with 7 fields, but the previous record has 8 fields"),
        (row("img,1,100,1,\"1,ColourRed,3,cross"), "j.csv line 2: a quoted field opens here and is never closed"),
        (b"[1]".to_vec(), "j.csv line 1: expected a trial object, found 1"),
        (b"{\"trial_type\": 1}".to_vec(), "j.csv line 1: expected jsPsych data: a JSON array of trials (data.get().json()) or CSV, found a JSON object"),
        (b"[{\"trial_type\": \"x\"".to_vec(), "j.csv line 1: invalid JSON"),
    ];
    for (input, want) in &cases {
        let got = err_of(jspsych::read("j.csv", input));
        assert!(got.contains(want), "got {got}\nwant {want}");
    }
    // Trials that carry item columns but cannot be mapped: listed with the reason.
    let unmapped = [
        (
            "img,1,100,1,1,ColourRed,x,cross",
            "variation \"x\" is not a non-negative integer",
        ),
        (
            "img,1,100,1,1,ColourRed,3,fourth",
            "stage \"fourth\" is not cross, within or extrapolation",
        ),
        (
            "img,1,,1,1,ColourRed,3,cross",
            "rt \"\" is not a reaction time in ms (no response?)",
        ),
        (
            "img,1,100,1,1,Purple,3,cross",
            "subdomain \"Purple\" is not a KiVA subdomain",
        ),
        ("img,1,100,1,1,,3,cross", "no subdomain column"),
        ("img,1,100,1,1,ColourRed,,cross", "no variation column"),
        ("img,1,100,1,1,ColourRed,3,", "no stage column"),
        (
            "img,1,100,1,,ColourRed,3,cross",
            "no score: neither correct nor response with correct_response",
        ),
    ];
    for (r, want) in unmapped {
        let f = jspsych::read("j.csv", &row(r)).unwrap();
        let e = map::score_kiva_human(&f).unwrap_err().to_string();
        let head =
            "j.csv: none of the 1 records maps to an item of the KiVA subdomains (trial_index 1: ";
        assert!(e.starts_with(head) && e.contains(want), "{e}");
    }
}

#[test]
fn malformed_kiva_challenge() {
    let ann = fixture("kiva_challenge_annotations.json");
    let res = fixture("kiva_challenge_results.json");
    let bad_ann: &[(&[u8], &str)] = &[
        (b"", "a.json: the file is empty"),
        (b"[]", "a.json: expected an object of trial_id -> annotation, found an array"),
        (b"{}", "a.json: the file is empty (expected at least one annotated trial)"),
        (b"{\"t\": 3}", "a.json: field \"t\": expected an annotation object, found 3"),
        (b"{\"t\": {\"level\": \"kiva\"}}", "a.json: field \"t.correct\": missing"),
        (b"{\"t\": {\"correct\": \"image_3.png\"}}", "a.json: field \"t.correct\": expected the correct option's label, e.g. (A), found \"image_3.png\""),
        (b"{\"t\": {\"correct\": \"(A)\", \"level\": [1]}}", "a.json: field \"t.level\": expected a string, found an array"),
        (b"{\"t\": {\"correct\": \"(A)\", \"level\": \"k\", \"concept\": \"c\"}}", "a.json: field \"t.transformation_domain\": missing"),
        (b"{\"t\": ", "a.json line 1: invalid JSON"),
        (b"\xff", "a.json line 1: not valid UTF-8"),
    ];
    for (input, want) in bad_ann {
        let got = err_of(kiva_challenge::score(("a.json", input), ("r.json", &res)));
        assert!(got.contains(want), "got {got}\nwant {want}");
    }
    let bad_res: &[(&[u8], &str)] = &[
        (b"", "r.json: the file is empty"),
        (b"[3]", "r.json line 1: expected a result object, found 3"),
        (b"[{\"answer\": \"(A)\"}]", "r.json line 1: field \"id\": missing"),
        (b"[{\"id\": \"trial_001\"}]", "r.json line 1: field \"answer\": missing"),
        (b"[{\"id\": \"trial_001\", \"answer\": null}]", "r.json line 1: field \"answer\": expected a string, found null"),
        (b"[]", "r.json: the file is empty (expected at least one result)"),
        (b"[{\"id\": \"nope\", \"answer\": \"(A)\"}]", "r.json: none of the 1 records maps to an item of a.json (\"nope\" is not a trial of the annotations)"),
        (b"[{\"id\": ", "r.json line 1: invalid JSON"),
        (b"trial,answer\nt1,(A)\n", "r.json line 1: field \"id, answer\": missing (expected a header with id and answer columns)"),
        (b"id,answer\nt1,(A),x\n", "r.json line 2: CSV error: record 1 (line: 2, byte: 10): found record with 3 fields, but the previous record has 2 fields"),
    ];
    for (input, want) in bad_res {
        let got = err_of(kiva_challenge::score(("a.json", &ann), ("r.json", input)));
        assert!(got.contains(want), "got {got}\nwant {want}");
    }
}

#[test]
fn detection_of_every_fixture() {
    for (name, want) in [
        (
            "20240601_120000_samples_mmiq.jsonl",
            Some(HarnessFormat::LmmsSamples),
        ),
        (
            "20231105_samples_mmiq_test.jsonl",
            Some(HarnessFormat::LmmsSamples),
        ),
        (
            "20240110_samples_mm_iq.jsonl",
            Some(HarnessFormat::LmmsSamples),
        ),
        (
            "20240601_120000_results.json",
            Some(HarnessFormat::LmmsResults),
        ),
        ("inspect_log.json", Some(HarnessFormat::InspectJson)),
        ("kiva_run_jspsych.csv", Some(HarnessFormat::JsPsychCsv)),
        ("kiva_run_jspsych.json", Some(HarnessFormat::JsPsychJson)),
        (
            "kiva_challenge_annotations.json",
            Some(HarnessFormat::KivaAnnotations),
        ),
        (
            "kiva_challenge_results.json",
            Some(HarnessFormat::KivaResults),
        ),
        (
            "kiva_challenge_results.csv",
            Some(HarnessFormat::KivaResults),
        ),
        // The benchmark's own formats are not harness files.
        ("key.jsonl", None),
    ] {
        assert_eq!(harness::detect(name, &fixture(name)), want, "{name}");
    }
    // MM-IQ's own predictions JSONL and a plain VLMEvalKit table are not harness files.
    assert_eq!(
        harness::detect("p.jsonl", br#"{"data_id": 0, "response": "B"}"#),
        None
    );
    assert_eq!(
        harness::detect("m_MMIQ.tsv", b"index\tprediction\n0\tB\n"),
        None
    );
}

// ---------------------------------------------------------------------------------------
// Dropped on the leaderboard: each harness file becomes a row that says which harness made it.

#[test]
fn leaderboard_rows_name_their_harness() {
    use coglab_core::leaderboard::{detect, score_files, FileKind, FileState, InputRef};
    let names = [
        "key.jsonl",
        "20240601_120000_samples_mmiq.jsonl",
        "inspect_log.json",
        "GPT4o_MMIQ_CIRC_gpt-4o-mini_result.tsv",
        "20240601_120000_results.json",
        "kiva_run_jspsych.csv",
        "kiva_challenge_annotations.json",
        "kiva_challenge_results.json",
    ];
    let bytes: Vec<Vec<u8>> = names.iter().map(|n| fixture(n)).collect();
    let eval = eval_zstd(&eval_members());
    let mut inputs: Vec<InputRef<'_>> = names
        .iter()
        .zip(&bytes)
        .map(|(n, b)| InputRef {
            path: n,
            bytes: b,
            model: None,
        })
        .collect();
    inputs.push(InputRef {
        path: "logs/run.eval",
        bytes: &eval,
        model: None,
    });
    assert_eq!(detect(names[1], &bytes[1]), FileKind::Harness);
    assert_eq!(detect(names[3], &bytes[3]), FileKind::MmiqTable);
    let s = score_files(&inputs, |_, _, _| {});
    for f in &s.files {
        assert_eq!(f.status, FileState::Ok, "{}: {:?}", f.file, f.message);
    }
    let mmiq: Vec<(&str, &str, u64, u64)> = s
        .mmiq
        .iter()
        .map(|r| {
            let h = r.report.harness.as_ref().unwrap();
            (
                r.model.as_str(),
                h.harness_label.as_str(),
                r.report.overall.correct,
                r.report.overall.n,
            )
        })
        .collect();
    // Figures as in the tests above; the model comes from the Inspect log where it names one.
    assert_eq!(
        mmiq,
        [
            // No folder above the lmms-eval file: the name's part before _samples_.
            ("20240601_120000", "lmms-eval", 2, 4),
            ("openai/gpt-4o", "Inspect", 3, 4),
            ("GPT4o", "VLMEvalKit", 2, 3),
            ("openai/gpt-4o", "Inspect", 3, 4),
        ]
    );
    assert_eq!(s.kiva.len(), 1);
    assert_eq!(s.kiva[0].model, "p07 (jsPsych)");
    assert_eq!(
        s.kiva[0].report.harness.as_ref().unwrap().harness_label,
        "jsPsych"
    );
    assert_eq!(s.harness_summary.len(), 1);
    assert_eq!(
        (
            s.harness_summary[0].model.as_str(),
            s.harness_summary[0].harness.as_str()
        ),
        ("llava_onevision", "lmms-eval")
    );
    assert_eq!(s.files[7].kind, FileKind::Harness, "{:?}", s.files[7]);
    assert_eq!(s.kiva_challenge.len(), 1);
    assert_eq!(s.kiva_challenge[0].report.overall.correct, 3);
    // Without the key, the MM-IQ harness files wait for it.
    let alone = score_files(&inputs[1..2], |_, _, _| {});
    assert_eq!(alone.files[0].status, FileState::Waiting);
}

#[test]
fn lean_eval_reading_scores_the_same() {
    // Responses reduced to their letters while reading give the same MM-IQ figures.
    let bytes = eval_zstd(&eval_members());
    let full = inspect::read_eval("r.eval", std::io::Cursor::new(&bytes), |_, _| {}).unwrap();
    let lean = inspect::read_eval_lean("r.eval", std::io::Cursor::new(&bytes), |_, _| {}).unwrap();
    assert_eq!(lean.records[0].response.as_deref(), Some("B"));
    assert_eq!(lean.records[0].input, None);
    let (a, b) = (
        map::score_mmiq(&full, &key(), true).unwrap(),
        map::score_mmiq(&lean, &key(), true).unwrap(),
    );
    assert_eq!(a.overall, b.overall);
    assert_eq!(
        a.harness.as_ref().unwrap().unmapped,
        b.harness.as_ref().unwrap().unmapped
    );
}

#[test]
fn eval_read_as_a_stream_in_slices_of_any_size() {
    use coglab_core::harness::eval_stream::EvalStream;
    for bytes in [eval_zstd(&eval_members()), eval_deflate()] {
        let whole = inspect::read_eval("r.eval", std::io::Cursor::new(&bytes), |_, _| {}).unwrap();
        for slice in [1, 7, 30, 4096, bytes.len()] {
            let mut s = EvalStream::new("r.eval", false);
            for part in bytes.chunks(slice) {
                s.push(part).unwrap();
            }
            assert_eq!(s.samples(), 5);
            let got = s.finish().unwrap();
            assert_eq!(got, whole, "slices of {slice}");
        }
        // Lean, record for record what the command line's lean read gives (the stream moves
        // each completion out of the sample's JSON before reducing it to its letter; the
        // command line copies it).
        let lean_whole =
            inspect::read_eval_lean("r.eval", std::io::Cursor::new(&bytes), |_, _| {}).unwrap();
        for slice in [1, 30, bytes.len()] {
            let mut s = EvalStream::new("r.eval", true);
            for part in bytes.chunks(slice) {
                s.push(part).unwrap();
            }
            assert_eq!(s.finish().unwrap(), lean_whole, "lean, slices of {slice}");
        }
        // Lean, the same figures as the Inspect test: 3 of 4.
        let mut s = EvalStream::new("r.eval", true);
        s.push(&bytes).unwrap();
        let r = map::score_mmiq(&s.finish().unwrap(), &key(), false).unwrap();
        assert_eq!((r.overall.correct, r.overall.n), (3, 4));
    }
}

#[test]
fn malformed_eval_streams() {
    use coglab_core::harness::eval_stream::EvalStream;
    let good = eval_zstd(&eval_members());
    let run = |bytes: &[u8]| -> String {
        let mut s = EvalStream::new("s.eval", false);
        match s.push(bytes).and_then(|()| s.finish()) {
            Ok(_) => panic!("expected an error"),
            Err(e) => e.to_string(),
        }
    };
    let mut bad_crc = eval_deflate();
    bad_crc[14] ^= 0xFF; // the first local header's CRC-32
    let mut bad_method = good.clone();
    bad_method[8] = 12; // bzip2
    let mut bad_size = good.clone();
    bad_size[22] ^= 0x01; // header.json's stated size
    let mut bad_frame = good.clone();
    bad_frame[41] ^= 0xFF;
    let mut streamed = good.clone();
    streamed[6] = 8; // data descriptor flag
    streamed[18..22].copy_from_slice(&[0; 4]);
    let cases: Vec<(Vec<u8>, &str)> = vec![
        (
            b"hello".to_vec(),
            "s.eval: byte 0: expected a zip local file header",
        ),
        (
            good[..20].to_vec(),
            "s.eval: the archive ends inside a local file header at byte 0",
        ),
        (
            good[..50].to_vec(),
            "s.eval: header.json: the archive ends inside this member (cut short?)",
        ),
        (bad_crc, "s.eval: header.json: CRC-32 mismatch"),
        (bad_method, "s.eval: header.json: compression method 12"),
        (bad_size, "s.eval: header.json: decompressed to"),
        (bad_frame, "s.eval: header.json: zstd: "),
        (
            streamed,
            "s.eval: header.json: written with a data descriptor and no sizes",
        ),
        (
            eval_zstd(&eval_members()[1..]),
            "s.eval: field \"header.json\": missing",
        ),
        (
            eval_zstd(&eval_members()[..1]),
            "s.eval: the file is empty (expected samples/{id}_epoch_{n}.json members)",
        ),
        (
            eval_zstd(&[("header.json".into(), b"{}".to_vec())]),
            "s.eval: header.json: field \"eval\": missing",
        ),
        (
            eval_zstd(&[("samples/1_epoch_1.json".into(), b"[]".to_vec())]),
            "s.eval: samples/1_epoch_1.json: expected a sample object, found an array",
        ),
    ];
    for (input, want) in &cases {
        let got = run(input);
        assert!(got.contains(want), "got {got}\nwant {want}");
    }
}

#[test]
fn an_eval_read_as_it_arrived_scores_as_its_bytes() {
    use coglab_core::harness::eval_stream::EvalStream;
    use coglab_core::leaderboard::{score_files, score_files_with, FileState, InputRef, Prepared};
    let key_bytes = fixture("key.jsonl");
    let eval = eval_zstd(&eval_members());
    let inputs = [
        InputRef {
            path: "key.jsonl",
            bytes: &key_bytes,
            model: None,
        },
        InputRef {
            path: "run.eval",
            bytes: &eval,
            model: None,
        },
    ];
    let whole = score_files(&inputs, |_, _, _| {});
    // As the worker does: the .eval pushed in 1 KB pieces, its bytes not kept.
    let mut s = EvalStream::new("run.eval", false);
    for part in eval.chunks(1024) {
        s.push(part).unwrap();
    }
    let streamed_inputs = [
        inputs[0],
        InputRef {
            path: "run.eval",
            bytes: b"",
            model: None,
        },
    ];
    let streamed = score_files_with(
        &streamed_inputs,
        &[],
        vec![None, Some(Prepared::Harness(s.finish()))],
        |_, _, _| {},
    );
    assert_eq!(
        streamed.files[1].status,
        FileState::Ok,
        "{:?}",
        streamed.files[1].message
    );
    assert_eq!(streamed.mmiq, whole.mmiq);
    assert_eq!(streamed.mmiq[0].report.overall.correct, 3);
}

/// A KiVA challenge row's trials stay in the worker's store (`split_details`), and a page of
/// its wrong trials lists trial_003 only: by hand from the fixtures, results.json answers
/// trial_001 (A), trial_002 (C), trial_004 (A) right and trial_003 "(A)" where (B) is correct.
#[test]
fn kiva_challenge_items_are_kept_apart_and_paged() {
    use coglab_core::leaderboard::detail::{challenge_items, ChallengeQuery};
    use coglab_core::leaderboard::{score_files, Detail, InputRef};
    let (ann, res) = (
        fixture("kiva_challenge_annotations.json"),
        fixture("kiva_challenge_results.json"),
    );
    let inputs = [
        InputRef {
            path: "kiva_challenge_annotations.json",
            bytes: &ann,
            model: None,
        },
        InputRef {
            path: "kiva_challenge_results.json",
            bytes: &res,
            model: None,
        },
    ];
    let mut scored = score_files(&inputs, |_, _, _| {});
    assert_eq!(scored.kiva_challenge[0].report.items.len(), 4);
    let seven = coglab_core::leaderboard::RowId {
        generation: 2,
        n: 7,
    };
    let mut next = seven;
    let details = scored.split_details(&mut next);
    assert_eq!(scored.kiva_challenge[0].id, seven);
    assert!(scored.kiva_challenge[0].report.items.is_empty());
    let Some((_, Detail::KivaChallenge(full))) = details.first().filter(|(id, _)| *id == seven)
    else {
        panic!("{details:?}")
    };
    let page = challenge_items(
        full,
        &ChallengeQuery {
            wrong_only: true,
            ..Default::default()
        },
    );
    assert_eq!(page.total, 1);
    assert_eq!(page.items[0].annotation.id, "trial_003");
    assert_eq!(page.items[0].chosen, Some('A'));
    assert_eq!((page.not_answered, page.unmapped.len()), (1, 1));
    let all = challenge_items(
        full,
        &ChallengeQuery {
            offset: 1,
            limit: 2,
            ..Default::default()
        },
    );
    assert_eq!(all.total, 4);
    let ids: Vec<&str> = all.items.iter().map(|i| i.annotation.id.as_str()).collect();
    assert_eq!(ids, ["trial_002", "trial_003"]);
}
