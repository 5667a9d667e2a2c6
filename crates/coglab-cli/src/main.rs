//! `coglab`: score cognitive-benchmark result files from the command line.
//!
//! A thin wrapper over `coglab-core`: it reads files, calls the library and prints a readable
//! table or JSON. Run `coglab help` (or `coglab <command> --help`) for the commands.

mod cli;
mod commands;

use clap::Parser;
use cli::{
    Cli, Command, CompareCommand, ExportCommand, ExtractCommand, ScoreCommand, SelftestCommand,
};
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            // Help and version go to stdout and exit 0; usage errors to stderr with exit 2.
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    let result = match &cli.command {
        Command::Score(ScoreCommand::Mmiq(a)) => commands::mmiq::score(a),
        Command::Score(ScoreCommand::Kiva(a)) => commands::kiva::score(a),
        Command::Score(ScoreCommand::Mmopera(a)) => commands::mmopera::score(a),
        Command::Extract(ExtractCommand::Mmiq(a)) => commands::mmiq::extract(a),
        Command::Compare(CompareCommand::Mmiq(a)) => commands::mmiq::compare(a),
        Command::Agree(a) => commands::mmopera::agree(a),
        Command::Describe(a) => commands::sem::describe(a),
        Command::Sem(a) => commands::sem::sem(a),
        Command::Items(a) => {
            commands::items::ItemsOptions::from_cli(a).and_then(|opts| commands::items::run(&opts))
        }
        Command::Estimate(a) => commands::estimate::run(a),
        Command::Selftest(SelftestCommand::Simulate(a)) => commands::selftest::simulate(a),
        Command::Publish(a) => commands::publish::publish(a),
        Command::Verify(a) => commands::publish::verify(a),
        Command::Export(ExportCommand::Eee(a)) => commands::export::eee(a),
        Command::Export(ExportCommand::Hf(a)) => commands::export::hf(a),
        Command::Plan(a) => {
            commands::plan::PlanOptions::from_cli(a).and_then(|opts| commands::plan::run(&opts))
        }
        Command::Quality(a) => commands::quality::run(a),
        Command::Rank(a) => {
            commands::rank::RankOptions::from_cli(a).and_then(|opts| commands::rank::run(&opts))
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(commands::CliError::Usage(msg)) => {
            let msg = commands::escape_controls(&msg);
            eprintln!("coglab: {msg}\n\nFor more information, try 'coglab help'.");
            ExitCode::from(2)
        }
        Err(commands::CliError::Input(located)) => {
            eprintln!(
                "coglab: error: {}",
                commands::escape_controls(&located.message)
            );
            ExitCode::from(1)
        }
    }
}
