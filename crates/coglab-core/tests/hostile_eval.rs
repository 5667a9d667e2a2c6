//! Issue 37, findings 4 and 5 (library side): hostile Inspect `.eval` archives and reading back
//! coglab's own EEE records. Each archive is written by hand (`common::evalzip`) and read both
//! ways the app reads one: from a seekable reader (`inspect::read_eval`, the CLI and Python)
//! and as a stream (`EvalStream`, the web worker).

use crate::common::evalzip::{self as ez, Member, Part};
use crate::harness::fuzz_seed;
use coglab_core::harness::eval_stream::EvalStream;
use coglab_core::harness::{self, eee, inspect, map, HarnessFormat};
use coglab_core::limits::{MAX_EVAL_INFLATED_BYTES, MAX_EVAL_MEMBER_BYTES, MAX_RESPONSE_BYTES};
use coglab_core::mmiq::AnswerKey;
use std::time::{Duration, Instant};

fn key() -> AnswerKey {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/harness/key.jsonl"
    );
    AnswerKey::parse_bytes("key.jsonl", &std::fs::read(path).unwrap()).unwrap()
}

/// Both readers' outcome on `bytes`: (seekable, streamed in 64 KiB slices), errors as text.
fn both(bytes: &[u8]) -> [Result<harness::HarnessFile, String>; 2] {
    let seek = inspect::read_eval("h.eval", std::io::Cursor::new(bytes), |_, _| {})
        .map_err(|e| e.to_string());
    let mut s = EvalStream::new("h.eval", false);
    let mut pushed = Ok(());
    for part in bytes.chunks(64 << 10) {
        pushed = s.push(part);
        if pushed.is_err() {
            break;
        }
    }
    let stream = pushed.and_then(|()| s.finish()).map_err(|e| e.to_string());
    [seek, stream]
}

/// Both readers refuse `bytes` within 20 s, each message holding every one of `want`.
fn refused(what: &str, bytes: &[u8], want: &[&str]) {
    let start = Instant::now();
    let results = both(bytes);
    let took = start.elapsed();
    for (reader, r) in ["read_eval", "EvalStream"].iter().zip(results) {
        match r {
            Ok(f) => panic!(
                "{what}: {reader} read it ({} records) instead of refusing it",
                f.records.len()
            ),
            Err(e) => {
                for w in want {
                    assert!(e.contains(w), "{what}: {reader}: got {e}\nwant {w}");
                }
            }
        }
    }
    assert!(took < Duration::from_secs(20), "{what}: took {took:?}");
}

fn good_members() -> Vec<Member> {
    vec![
        Member::zstd_of("header.json", &ez::header("openai/gpt-4o")),
        Member::zstd_of("samples/0_epoch_1.json", &ez::sample(0, "B")),
        Member::zstd_of("samples/1_epoch_1.json", &ez::sample(1, "A")),
    ]
}

#[test]
fn a_good_hand_written_eval_reads() {
    // The builder's control: item 0 (key B) right, item 1 (key C) wrong.
    for r in both(&ez::zip(&good_members())) {
        let f = r.unwrap();
        let s = map::score_mmiq(&f, &key(), false).unwrap();
        assert_eq!((s.overall.correct, s.overall.n), (1, 2));
    }
}

/// A zstd member inflating past the size its headers declare is refused as soon as it passes
/// it: here `header.json` declares its 80-odd bytes of JSON but its frame goes on with 64 MiB
/// of spaces (valid JSON whitespace, so the lie was read and scored before).
#[test]
fn a_zstd_member_is_held_to_its_declared_size() {
    let head = ez::header("m");
    let mut members = good_members();
    members[0] = Member {
        size: head.len() as u32,
        crc: ez::crc32(&head),
        ..Member::zstd_sized(
            "header.json",
            &[Part::Raw(&head), Part::Rle(b' ', 64 << 20)],
        )
    };
    let bytes = ez::zip(&members);
    fuzz_seed("harness_inspect_eval", "zstd_size_lie.eval", &bytes);
    refused(
        "size lie",
        &bytes,
        &[
            "h.eval: header.json: ",
            &format!(
                "decompresses past the {} bytes the header declares",
                head.len()
            ),
        ],
    );
}

/// A zstd member whose bytes are not those its CRC-32 was taken of is refused (it was scored).
#[test]
fn a_zstd_member_with_a_wrong_crc_is_refused() {
    let mut members = good_members();
    members[1].crc ^= 0x0000_0100;
    let bytes = ez::zip(&members);
    fuzz_seed("harness_inspect_eval", "zstd_bad_crc.eval", &bytes);
    refused(
        "bad CRC",
        &bytes,
        &["h.eval: samples/0_epoch_1.json: CRC-32 mismatch"],
    );
    // Stored members too.
    let mut stored = good_members();
    let data = ez::sample(0, "B");
    stored[1] = Member {
        name: "samples/0_epoch_1.json".into(),
        method: 0,
        crc: ez::crc32(&data) ^ 1,
        size: data.len() as u32,
        packed: data,
    };
    refused(
        "bad CRC, stored",
        &ez::zip(&stored),
        &["h.eval: samples/0_epoch_1.json: CRC-32 mismatch"],
    );
}

/// Central-directory entries whose local header and data overlap another entry's, or run
/// into the central directory, are refused naming both (the same sample was read once per
/// entry: a 38 KB log with 500 entries on one 32 MiB member ran for minutes).
#[test]
fn overlapping_eval_entries_are_refused() {
    let members = good_members();
    let names = |extra: &[(usize, &str)]| -> Vec<(usize, String)> {
        let mut c: Vec<(usize, String)> = members
            .iter()
            .enumerate()
            .map(|(i, m)| (i, m.name.clone()))
            .collect();
        c.extend(extra.iter().map(|(i, n)| (*i, n.to_string())));
        c
    };
    let twice = ez::zip_with(&members, &names(&[(1, "samples/7_epoch_1.json")]));
    fuzz_seed("harness_inspect_eval", "overlap.eval", &twice);
    // Sample 0's local header is at byte 30 + 11 + packed header.json.
    let at = 30 + 11 + members[0].packed.len();
    let end = at + 30 + members[1].name.len() + members[1].packed.len();
    let r = inspect::read_eval("h.eval", std::io::Cursor::new(&twice), |_, _| {});
    let e = r.map(|f| f.records.len()).unwrap_err().to_string();
    assert!(
        e.contains(&format!(
            "h.eval: samples/7_epoch_1.json: bytes {at}..{end} (its local header and data) \
             overlap those of samples/0_epoch_1.json ({at}..{end})"
        )),
        "{e}"
    );
    // An entry whose stated compressed size runs into the central directory.
    let mut into_cd = ez::zip(&members);
    let third = into_cd
        .windows(4)
        .enumerate()
        .filter(|(_, w)| w == b"PK\x01\x02")
        .nth(2)
        .unwrap()
        .0;
    let last_size_field = third + 20; // the central entry's compressed size
    let packed = members[2].packed.len() as u32;
    assert_eq!(
        &into_cd[last_size_field..last_size_field + 4],
        &packed.to_le_bytes()
    );
    into_cd[last_size_field..last_size_field + 4].copy_from_slice(&(packed + 40).to_le_bytes());
    let e = inspect::read_eval("h.eval", std::io::Cursor::new(&into_cd), |_, _| {})
        .map(|f| f.records.len())
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("h.eval: samples/1_epoch_1.json: its data runs into the central directory"),
        "{e}"
    );
}

/// A member declaring more than [`MAX_EVAL_MEMBER_BYTES`] is refused from its header, before
/// anything is inflated; so are members declaring more than [`MAX_EVAL_INFLATED_BYTES`] in all.
#[test]
fn eval_members_and_archives_are_bounded_by_declared_sizes() {
    assert_eq!(MAX_EVAL_MEMBER_BYTES, 256 << 20);
    assert_eq!(MAX_EVAL_INFLATED_BYTES, 16 << 30);
    let mut members = good_members();
    members[1].size = (MAX_EVAL_MEMBER_BYTES + 1) as u32;
    refused(
        "one large member",
        &ez::zip(&members),
        &[
            "h.eval: samples/0_epoch_1.json: ",
            "268435457 bytes decompressed, more than the 268435456 read from one member",
        ],
    );
    // header.json (87 bytes) and 65 members of 256 MiB each (declared): 87 + 65 x 268,435,456
    // = 17,448,304,727 bytes, over 16 GiB (17,179,869,184).
    let mut many = vec![good_members()[0].clone()];
    for i in 0..65 {
        let mut m = Member::zstd_of(&format!("samples/{i}_epoch_1.json"), &ez::sample(i, "B"));
        m.size = MAX_EVAL_MEMBER_BYTES as u32;
        many.push(m);
    }
    let bytes = ez::zip(&many);
    let e = inspect::read_eval("h.eval", std::io::Cursor::new(&bytes), |_, _| {})
        .map(|f| f.records.len())
        .unwrap_err()
        .to_string();
    assert!(
        e.contains(
            "h.eval: the members declare 17448304727 bytes decompressed in all, more than \
             the 17179869184 (16 GiB) read from one log"
        ),
        "{e}"
    );
    // The stream cannot see the total before it reads the members (here the first sample's
    // lie stops it); its own bound is tested in `eval_stream`'s unit tests.
}

/// A completion longer than [`MAX_RESPONSE_BYTES`] is kept as its first and last halves with
/// a note between them naming what was cut, so the answer at its end is still read.
#[test]
fn a_response_longer_than_the_bound_is_cut_with_a_note() {
    assert_eq!(MAX_RESPONSE_BYTES, 1 << 20);
    let long = format!("{} ANSWER: B", "x".repeat(MAX_RESPONSE_BYTES + 5000));
    let sample = serde_json::json!({"id": 0, "epoch": 1, "output": {"completion": long}});
    let sample = serde_json::to_vec(&sample).unwrap();
    let mut members = good_members();
    members[1] = Member::zstd_of("samples/0_epoch_1.json", &sample);
    let bytes = ez::zip(&members);
    // 1,048,576 + 5,000 + 10 bytes, of which 1,048,576 are kept: 5,010 cut.
    let note = "[coglab: 5010 bytes cut from the middle of this 1053586-byte response \
                (more than the 1048576 bytes kept, limits::MAX_RESPONSE_BYTES)]";
    for r in both(&bytes) {
        let f = r.unwrap();
        let resp = f.records[0].response.as_deref().unwrap();
        assert!(resp.contains(note), "{}", &resp[..100]);
        assert!(resp.ends_with("x ANSWER: B"));
        assert_eq!(resp.len(), MAX_RESPONSE_BYTES + note.len() + 2);
        let s = map::score_mmiq(&f, &key(), false).unwrap();
        assert_eq!((s.overall.correct, s.overall.n), (1, 2));
    }
    // The same in an Inspect .json log.
    let log = format!(
        r#"{{"eval": {{"task": "mmiq", "model": "m"}}, "samples": [{}]}}"#,
        String::from_utf8(sample).unwrap()
    );
    let f = inspect::read_json("l.json", log.as_bytes()).unwrap();
    assert!(f.records[0].response.as_deref().unwrap().contains(note));
}

/// coglab's own EEE instance records are told from their first bytes, whatever the length of
/// the first response: `schema_version` and `sample_id` are written first (a 20,000-character
/// response put the record's telling keys past the 16 KB detection window; 0.3.0's instance
/// version `0.3.0` is an aggregate's too, so `sample_id` tells them apart).
#[test]
fn our_eee_records_are_detected_past_a_long_first_response() {
    let long = format!("{} ANSWER: B", "y".repeat(20_000));
    let log = format!(
        r#"{{"eval": {{"task": "mmiq", "model": "m"}}, "samples": [
            {{"id": 0, "epoch": 1, "output": {{"completion": "{long}"}}}},
            {{"id": 1, "epoch": 1, "output": {{"completion": "ANSWER: A"}}}}]}}"#
    );
    let f = inspect::read_json("l.json", log.as_bytes()).unwrap();
    let report = map::score_mmiq(&f, &key(), true).unwrap();
    let records = eee::write_mmiq(&report, "m", "1717243200").unwrap();
    assert!(records
        .instances
        .starts_with(r#"{"schema_version":"0.3.0","sample_id":"0","#));
    assert!(records.aggregate.starts_with("{\n  \"schema_version\": \""));
    fuzz_seed(
        "harness_eee",
        "long_first_response.jsonl",
        &records.instances.as_bytes()[..1000],
    );
    assert_eq!(
        harness::detect("out.jsonl", records.instances.as_bytes()),
        Some(HarnessFormat::EeeInstances)
    );
    let back = harness::read("out.jsonl", records.instances.as_bytes()).unwrap();
    let again = map::score_mmiq(&back, &key(), false).unwrap();
    assert_eq!(
        (again.overall.correct, again.overall.n),
        (report.overall.correct, report.overall.n)
    );
    assert_eq!((again.overall.correct, again.overall.n), (1, 2));
    // The marker is read with any spacing (a record written by another tool with
    // `schema_version` first): 0.2.x's instance version, or 0.3.0's followed by `sample_id`.
    for first in [
        r#"{ "schema_version" : "instance_level_eval_0.2.1","#,
        r#"{ "schema_version" : "0.3.0" , "sample_id": "7","#,
    ] {
        let line = format!(r#"{first} "output": {{"raw": ["{long}"]}}}}"#);
        assert_eq!(
            harness::detect("x.jsonl", line.as_bytes()),
            Some(HarnessFormat::EeeInstances),
            "{first}"
        );
    }
    // A 0.3.0 version not followed by `sample_id` is not the marker (an aggregate's start).
    let agg = format!(r#"{{"schema_version": "0.3.0", "x": ["{long}"]}}"#);
    assert_eq!(harness::detect("x.json", agg.as_bytes()), None);
}
