//! The subcommands, one module per benchmark, plus shared helpers for reading files.

/// `writeln!` into a `String` (formatting into a `String` cannot fail).
macro_rules! outln {
    ($out:expr, $($arg:tt)*) => {{
        use std::fmt::Write as _;
        let _ = writeln!($out, $($arg)*);
    }};
}

pub mod export;
pub mod items;
pub mod kiva;
pub mod mmiq;
pub mod mmopera;
pub mod publish;
pub mod rank;
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
