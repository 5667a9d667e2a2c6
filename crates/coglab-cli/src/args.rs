//! A small argument parser shared by the subcommands: `--flag`, `--option VALUE`, positionals.

use crate::commands::CliError;
use std::collections::HashMap;

/// Parsed arguments of one subcommand.
#[derive(Debug, Default)]
pub struct Args {
    /// Positional arguments, in order.
    pub positional: Vec<String>,
    options: HashMap<String, String>,
    flags: Vec<String>,
}

impl Args {
    /// Parses `words`. `flags` lists the options that take no value (e.g. `json`);
    /// `options` lists those that take one. Anything else starting with `--` is a usage error.
    pub fn parse(words: &[&str], flags: &[&str], options: &[&str]) -> Result<Self, CliError> {
        let mut out = Self::default();
        let mut it = words.iter();
        while let Some(word) = it.next() {
            if let Some(name) = word.strip_prefix("--") {
                let (name, inline) = match name.split_once('=') {
                    Some((n, v)) => (n, Some(v.to_string())),
                    None => (name, None),
                };
                if flags.contains(&name) {
                    out.flags.push(name.to_string());
                } else if options.contains(&name) {
                    let value = match inline {
                        Some(v) => v,
                        None => it
                            .next()
                            .ok_or_else(|| CliError::Usage(format!("--{name} needs a value")))?
                            .to_string(),
                    };
                    out.options.insert(name.to_string(), value);
                } else {
                    return Err(CliError::Usage(format!("unknown option --{name}")));
                }
            } else {
                out.positional.push((*word).to_string());
            }
        }
        Ok(out)
    }

    /// Whether a flag was given.
    pub fn flag(&self, name: &str) -> bool {
        self.flags.iter().any(|f| f == name)
    }

    /// An option's value, if given.
    pub fn option(&self, name: &str) -> Option<&str> {
        self.options.get(name).map(String::as_str)
    }

    /// An option's value, or a usage error naming it.
    pub fn required(&self, name: &str) -> Result<&str, CliError> {
        self.option(name)
            .ok_or_else(|| CliError::Usage(format!("--{name} is required")))
    }

    /// An option parsed as a number (or other `FromStr`), with a usage error on a bad value.
    pub fn parsed<T: std::str::FromStr>(&self, name: &str) -> Result<Option<T>, CliError> {
        match self.option(name) {
            None => Ok(None),
            Some(v) => v
                .parse()
                .map(Some)
                .map_err(|_| CliError::Usage(format!("--{name}: cannot read {v:?} as a number"))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_flags_options_and_positionals() {
        let a = Args::parse(
            &["--answers", "k.jsonl", "p.jsonl", "--json", "--seed=3"],
            &["json"],
            &["answers", "seed"],
        )
        .unwrap();
        assert_eq!(a.positional, vec!["p.jsonl"]);
        assert_eq!(a.option("answers"), Some("k.jsonl"));
        assert!(a.flag("json"));
        assert_eq!(a.parsed::<u64>("seed").unwrap(), Some(3));
    }

    #[test]
    fn unknown_and_missing_values_are_usage_errors() {
        assert!(matches!(
            Args::parse(&["--nope"], &[], &[]),
            Err(CliError::Usage(_))
        ));
        assert!(matches!(
            Args::parse(&["--answers"], &[], &["answers"]),
            Err(CliError::Usage(_))
        ));
    }
}
