//! Issue 27 ("Hostile input"), CLI side: broken pipes (defect 3), CRLF line numbers (4),
//! symlink loops (5), FIFOs and devices (6), control characters in tables (8) and misleading
//! messages (10). Each test reproduced its defect before the fix.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_coglab"))
}

fn coglab(args: &[&str]) -> Output {
    bin().args(args).output().expect("coglab runs")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn core_fixture(rel: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../coglab-core/tests/fixtures")
        .join(rel)
        .to_string_lossy()
        .into_owned()
}

/// A fresh temporary folder for one test.
fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("coglab-hostile-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

fn write(dir: &Path, name: &str, bytes: &[u8]) -> String {
    let p = dir.join(name);
    std::fs::write(&p, bytes).expect("write");
    p.to_string_lossy().into_owned()
}

/// Defect 3: stdout closed before the first write (the reading end of the pipe is dropped
/// before the child starts, as `| head -0` would): the command ends quietly with status 0.
/// Before the fix `println!` panicked ("failed printing to stdout") and the process aborted.
#[test]
fn a_closed_stdout_ends_quietly() {
    let spec = write(
        &temp_dir("pipe"),
        "spec.json",
        br#"{"constructs": {"A": ["a1", "a2", "a3"], "B": ["b1", "b2"]}, "paths": [["A", "B"]]}"#,
    );
    let prune = core_fixture("sem/prune.csv");
    let meta = core_fixture("mmopera/ria/metadata.json");
    let reg = core_fixture("mmopera/ria/modelx_RIA_regular_scoring.json");
    for args in [
        vec!["describe", prune.as_str()],
        vec!["describe", prune.as_str(), "--json"],
        vec!["sem", "--spec", spec.as_str(), prune.as_str(), "--json"],
        vec!["sem", "--spec", spec.as_str(), prune.as_str()],
        vec![
            "score",
            "mmopera",
            "--task",
            "ria",
            "--metadata",
            meta.as_str(),
            "--regular",
            reg.as_str(),
            "--json",
        ],
        vec![
            "score",
            "mmopera",
            "--task",
            "ria",
            "--metadata",
            meta.as_str(),
            "--regular",
            reg.as_str(),
        ],
        vec!["agree", reg.as_str(), reg.as_str()],
    ] {
        let (reader, writer) = std::io::pipe().expect("pipe");
        drop(reader);
        let o = bin()
            .args(&args)
            .stdout(writer)
            .stderr(Stdio::piped())
            .output()
            .expect("coglab runs");
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", text(&o.stderr));
        assert!(o.stderr.is_empty(), "{args:?}: {}", text(&o.stderr));
    }
}
