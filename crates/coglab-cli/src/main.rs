//! `coglab`: score cognitive-benchmark result files from the command line.
//!
//! A thin wrapper over `coglab-core`: it reads files, calls the library and prints a readable
//! table or JSON. Run `coglab help` for the commands.

mod args;
mod commands;

use std::process::ExitCode;

const USAGE: &str = "\
coglab: score cognitive benchmarks of multimodal models (MM-IQ, KiVA, MM-OPERA, Gold)

USAGE:
  coglab score mmiq --answers KEY PRED [--json] [--items]
  coglab extract mmiq PRED
  coglab compare mmiq --answers KEY PRED_A PRED_B [--json] [--seed S] [--resamples N]
  coglab score kiva PATH... [--json] [--trials] [--human ADULTS_CSV]
  coglab score mmopera --task ria|ica --metadata META --regular REG[,REG2...]
                       [--reasoning REAS[,REAS2...]] [--answers ANS] [--alpha A] [--gamma G]
                       [--min-length CHARS] [--paper-decay] [--exclude-invalid] [--per-label]
                       [--skip-bad-hop-items] [--items] [--json]
  coglab agree A B [--json] [--seed S] [--resamples N] [--alpha A] [--gamma G]
  coglab describe DATA [--json]
  coglab sem --spec SPEC DATA [--bootstrap N] [--seed S] [--prune] [--missing listwise|mean]
             [--max-iter N] [--json]
  coglab items [--model rasch|2pl] [--json] [--answers KEY] [--stage all|cross|within|extrapolation]
               [--threshold T] [--per-subdomain] [--subset information|discrimination|none] [--tau T]
               [--curves] INPUT...
  coglab help | --version

  --json      machine-readable output (the field names scripts rely on; see the README)
  --items     (score mmiq/mmopera) include one row per item
  --trials    (score kiva) include one row per trial
  --human F   (score kiva) adults' data: adds their report and the RT-error correlation
  items INPUT: one response-matrix CSV (id, then 1/0/empty per item); KiVA run folders (one
              model each) and/or human_adults_KiVA.csv; or MM-IQ predictions with --answers

Options and definitions: README.md and docs/glossary-*.md.
Exit status: 0 on success, 1 on bad input (the message names file, line and field),
2 on a usage error.";

fn main() -> ExitCode {
    let argv: Vec<String> = std::env::args().skip(1).collect();
    let words: Vec<&str> = argv.iter().map(String::as_str).collect();
    let result = match words.as_slice() {
        [] | ["help" | "--help" | "-h", ..] => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        ["--version" | "-V", ..] => {
            println!("coglab {}", env!("CARGO_PKG_VERSION"));
            return ExitCode::SUCCESS;
        }
        ["score", "mmiq", rest @ ..] => commands::mmiq::score(rest),
        ["extract", "mmiq", rest @ ..] => commands::mmiq::extract(rest),
        ["compare", "mmiq", rest @ ..] => commands::mmiq::compare(rest),
        ["score", "kiva", rest @ ..] => commands::kiva::score(rest),
        ["score", "mmopera", rest @ ..] => commands::mmopera::score(rest),
        ["agree", rest @ ..] => commands::mmopera::agree(rest),
        ["describe", rest @ ..] => commands::sem::describe(rest),
        ["sem", rest @ ..] => commands::sem::sem(rest),
        ["items", rest @ ..] => {
            commands::items::ItemsOptions::parse(rest).and_then(|opts| commands::items::run(&opts))
        }
        _ => Err(commands::CliError::Usage(format!(
            "unknown command: {}",
            argv.join(" ")
        ))),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(commands::CliError::Usage(msg)) => {
            eprintln!("coglab: {msg}\n\n{USAGE}");
            ExitCode::from(2)
        }
        Err(commands::CliError::Input(msg)) => {
            eprintln!("coglab: error: {msg}");
            ExitCode::from(1)
        }
    }
}
