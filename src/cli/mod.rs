//! Run modes besides the protocol: command-line parsing and developer tools.

pub mod bench;
pub mod openings;

use anyhow::{bail, Context, Result};

use crate::levels::FULL_STRENGTH;

/// What the command line asks for.
#[derive(Debug, PartialEq, Eq)]
pub enum Mode {
    /// Speak the pbrain protocol on stdin/stdout.
    Protocol,
    /// Run the fixed-depth benchmark.
    Bench { depth: i32 },
    /// Generate balanced openings.
    Openings(openings::Options),
    /// Print usage.
    Help,
    /// Print the version.
    Version,
}

/// Parsed command line: the mode and the options shared by all modes.
#[derive(Debug, PartialEq, Eq)]
pub struct Args {
    /// What to run.
    pub mode: Mode,
    /// `--seed N`: fixes the tie-breaking seed.
    pub seed: Option<u64>,
    /// `--script`: take piped commands strictly in order (see
    /// [`crate::protocol::InputMode::Script`]).
    pub script: bool,
    /// `--strength N` (0..=100): the protocol's starting `INFO strength`.
    pub strength: Option<u8>,
}

/// Usage text for `--help`.
pub const USAGE: &str = "\
usage: pbrain-wuzi [--seed N] [--script] [--strength N]
                                         speak the pbrain protocol on stdin/stdout
                                         (--script: piped command files, every
                                         command waits for the move before it;
                                         --strength 0..100: weaker play, 100 = full)
       pbrain-wuzi bench [DEPTH]         fixed-depth benchmark (default depth 6)
       pbrain-wuzi openings --rule R --size N --count K [--plies P] [--depth D] [--max-score S] [--seed N]
                                         print balanced random openings (offset format)
       pbrain-wuzi --help | --version
logging (off by default): WUZI_LOG=debug and WUZI_LOG_FILE=path";

fn number<T: std::str::FromStr>(flag: &str, value: Option<&String>) -> Result<T> {
    let value = value.with_context(|| format!("{flag} needs a value"))?;
    value
        .parse()
        .ok()
        .with_context(|| format!("bad value for {flag}: {value}"))
}

/// Parses the arguments after the program name.
pub fn parse_args(args: &[String]) -> Result<Args> {
    let mut seed = None;
    let mut script = false;
    let mut strength = None;
    let mut rest = Vec::new();
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--seed" => seed = Some(number("--seed", it.next())?),
            "--script" => script = true,
            "--strength" => {
                let n: u8 = number("--strength", it.next())?;
                if n > FULL_STRENGTH {
                    bail!("bad value for --strength: {n} (0 to {FULL_STRENGTH})");
                }
                strength = Some(n);
            }
            _ => rest.push(arg.clone()),
        }
    }
    let mode = match rest.first().map(String::as_str) {
        None => Mode::Protocol,
        Some("--help" | "-h" | "help") => Mode::Help,
        Some("--version" | "-V") => Mode::Version,
        Some("bench") => match rest.get(1) {
            None => Mode::Bench {
                depth: bench::DEFAULT_DEPTH,
            },
            Some(d) => Mode::Bench {
                depth: number("bench depth", Some(d))?,
            },
        },
        Some("openings") => Mode::Openings(openings::Options::parse(&rest[1..])?),
        Some(other) => bail!("unknown argument {other:?}\n{USAGE}"),
    };
    Ok(Args {
        mode,
        seed,
        script,
        strength,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &str) -> Result<Args> {
        let args: Vec<String> = args.split_whitespace().map(String::from).collect();
        parse_args(&args)
    }

    #[test]
    fn strength_flag() {
        let args = parse("--strength 20 --seed 3").expect("valid");
        assert_eq!(args.strength, Some(20));
        assert_eq!(args.seed, Some(3));
        assert_eq!(args.mode, Mode::Protocol);
        assert_eq!(parse("").expect("valid").strength, None);
        assert_eq!(parse("--strength 100").expect("valid").strength, Some(100));
        for bad in [
            "--strength",
            "--strength 101",
            "--strength -1",
            "--strength x",
        ] {
            assert!(parse(bad).is_err(), "{bad}");
        }
    }
}
