//! The subcommands, one module per benchmark, plus shared helpers for reading files.

/// `writeln!` into a `String` (formatting into a `String` cannot fail), one line of table
/// text: a line break that comes from the data (a model name, a category, a label with a
/// newline) is escaped as `\u{a}` ([`data_line`]), so a file cannot print a forged row.
macro_rules! outln {
    ($out:expr, $fmt:literal $($arg:tt)*) => {{
        use std::fmt::Write as _;
        let line = format!($fmt $($arg)*);
        let _ = writeln!($out, "{}", $crate::commands::data_line(&line, $fmt));
    }};
}

pub mod estimate;
pub mod export;
pub mod items;
pub mod kiva;
pub mod mmiq;
pub mod mmopera;
pub mod plan;
pub mod publish;
pub mod quality;
pub mod rank;
pub mod selftest;
pub mod sem;

use std::io::Write;

/// Why a command failed: a usage error (exit 2) or bad input (exit 1), shared with the Python
/// package (`coglab_run::RunError`).
pub use coglab_run::RunError as CliError;
pub use coglab_run::{file_name, read_bytes};

/// Escapes what a terminal would act on: control characters other than newline and tab,
/// and the bidirectional overrides. Table output shows labels, ids and file names taken from
/// the input, so an escape sequence in a category name is shown as `\u{1b}` rather than
/// sent to the terminal (issue 27, defect 8). Error messages quote values the same way.
pub fn escape_controls(text: &str) -> std::borrow::Cow<'_, str> {
    let bad = |c: char| {
        (c.is_control() && c != '\n' && c != '\t')
            || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
    };
    if !text.chars().any(bad) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        if bad(c) {
            out.extend(c.escape_unicode());
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
}

/// `line` as [`outln!`] writes it: the line breaks its format string `fmt` starts with are
/// kept, every other one (which can only come from the data formatted into it) is escaped as
/// [`escape_controls`] escapes other control characters (`\u{a}`, `\u{d}`).
pub fn data_line<'a>(line: &'a str, fmt: &str) -> std::borrow::Cow<'a, str> {
    let lead = fmt.len() - fmt.trim_start_matches('\n').len();
    let (head, rest) = line.split_at(lead.min(line.len()));
    if !rest.contains(['\n', '\r']) {
        return std::borrow::Cow::Borrowed(line);
    }
    let mut out = String::with_capacity(line.len() + 8);
    out.push_str(head);
    for c in rest.chars() {
        match c {
            '\n' | '\r' => out.extend(c.escape_unicode()),
            _ => out.push(c),
        }
    }
    std::borrow::Cow::Owned(out)
}

/// Writes table text to stdout, control characters escaped ([`escape_controls`]); a closed
/// pipe (e.g. `| head`) ends the output quietly (exit 0).
pub fn emit(text: &str) -> Result<(), CliError> {
    emit_raw(&escape_controls(text))
}

/// Writes text to stdout as it is (JSON, whose strings serde_json escapes itself); a closed
/// pipe ends the output quietly (exit 0).
pub fn emit_raw(text: &str) -> Result<(), CliError> {
    let mut stdout = std::io::stdout().lock();
    match stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
    {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            Err(CliError::input(format!("writing output: {e}")))
        }
        _ => Ok(()),
    }
}

/// Prints a value as pretty JSON on stdout, as [`emit_raw`].
pub fn print_json<T: serde::Serialize>(value: &T) -> Result<(), CliError> {
    let mut text = serde_json::to_string_pretty(value)?;
    text.push('\n');
    emit_raw(&text)
}
