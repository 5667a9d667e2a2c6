//! The command line itself (clap): help for every command, version, and exit codes of usage
//! errors, including the bounded counts of issue 27 defect 2 and `--bootstrap 1` (defect 10).

use std::process::{Command, Output};

fn coglab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_coglab"))
        .args(args)
        .output()
        .expect("coglab runs")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

#[test]
fn help_for_every_command_exits_0() {
    for args in [
        vec!["help"],
        vec!["--help"],
        vec!["score", "--help"],
        vec!["score", "mmiq", "--help"],
        vec!["score", "kiva", "--help"],
        vec!["score", "mmopera", "--help"],
        vec!["extract", "mmiq", "--help"],
        vec!["compare", "mmiq", "--help"],
        vec!["agree", "--help"],
        vec!["describe", "--help"],
        vec!["sem", "--help"],
        vec!["help", "sem"],
        vec!["help", "score", "kiva"],
    ] {
        let o = coglab(&args);
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", text(&o.stderr));
        assert!(text(&o.stdout).contains("Usage: coglab"), "{args:?}");
    }
    // Doc comments are the help text.
    let o = coglab(&["sem", "--help"]);
    assert!(text(&o.stdout)
        .contains("Bootstrap resamples for standard errors and intervals (2 to 100,000)"));
    let o = coglab(&["help"]);
    assert!(text(&o.stdout).contains("2 on a usage error"));
}

#[test]
fn version_prints_the_crate_version() {
    let o = coglab(&["--version"]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(text(&o.stdout).trim(), "coglab 0.1.0");
}

#[test]
fn clap_usage_errors_exit_2() {
    for args in [
        vec![],
        vec!["nope"],
        vec!["score"],
        vec!["score", "gold"],
        vec!["describe", "--nope", "x.csv"],
        vec!["describe"],
        vec!["extract", "mmiq", "a", "b"],
        vec!["sem", "--spec", "s.json", "d.csv", "--seed", "3"],
        vec!["sem", "--spec", "s.json", "d.csv", "--missing", "zero"],
        vec![
            "score",
            "mmopera",
            "--task",
            "both",
            "--metadata",
            "m",
            "--regular",
            "r",
        ],
    ] {
        let o = coglab(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", text(&o.stderr));
        assert!(o.stdout.is_empty(), "{args:?}");
    }
}

/// Issue 27 defect 2: counts beyond the stated maxima are usage errors at parse time (these
/// used to panic with a capacity overflow, abort allocating 8 TB, or run forever). The files
/// do not exist: the count is refused before any file is read.
#[test]
fn unbounded_counts_are_refused_at_parse_time() {
    for (args, expected) in [
        (
            vec![
                "compare",
                "mmiq",
                "--answers",
                "k",
                "a",
                "b",
                "--resamples",
                "18446744073709551615",
            ],
            "resamples: at most 1000000 allowed, found 18446744073709551615",
        ),
        (
            vec!["sem", "--spec", "s", "d", "--bootstrap", "1000000000000"],
            "bootstrap: at most 100000 allowed, found 1000000000000",
        ),
        (
            vec!["agree", "a", "b", "--resamples", "1e12"],
            "expected a whole number from 1 to 1000000, found \"1e12\"",
        ),
        (
            vec!["agree", "a", "b", "--resamples", "1000001"],
            "resamples: at most 1000000 allowed, found 1000001",
        ),
        (
            vec!["sem", "--spec", "s", "d", "--max-iter", "100001"],
            "max-iter: at most 100000 allowed, found 100001",
        ),
        (
            vec![
                "compare",
                "mmiq",
                "--answers",
                "k",
                "a",
                "b",
                "--resamples",
                "0",
            ],
            "resamples: at least 1 needed, found 0",
        ),
    ] {
        let o = coglab(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", text(&o.stderr));
        assert!(
            text(&o.stderr).contains(expected),
            "{args:?}: {}",
            text(&o.stderr)
        );
    }
}

/// Issue 27 defect 10: `--bootstrap 1` cannot give a standard error; it was reported as bad
/// input (exit 1) after reading the files, and is now a usage error (exit 2).
#[test]
fn bootstrap_of_one_is_a_usage_error() {
    let o = coglab(&["sem", "--spec", "s", "d", "--bootstrap", "1"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    assert!(text(&o.stderr).contains("bootstrap: at least 2 needed, found 1"));
}
