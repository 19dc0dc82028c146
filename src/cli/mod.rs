//! Run modes besides the protocol: command-line parsing, the terminal game
//! and analysis, and developer tools.

pub mod analyze;
pub mod bench;
pub mod diagram;
pub mod engine;
pub mod game;
pub mod openings;
pub mod play;
pub mod record;
pub mod tune;

use anyhow::{bail, Context, Result};

use crate::levels::FULL_STRENGTH;
use crate::types::{Rule, MAX_SIZE};

/// What the command line asks for.
#[derive(Debug, PartialEq, Eq)]
pub enum Mode {
    /// Speak the pbrain protocol on stdin/stdout.
    Protocol,
    /// Run the fixed-depth benchmark.
    Bench { depth: i32 },
    /// Generate balanced openings.
    Openings(openings::Options),
    /// Play a game in the terminal.
    Play(play::Options),
    /// Analyse one position.
    Analyze(analyze::Options),
    /// Fit the evaluation weights to self-play results.
    Tune(tune::Options),
    /// Serve the board in the browser; the arguments after `gui`, which
    /// `wuzi::web::GuiOptions::parse` reads (the web layer sits beside this one).
    Gui(Vec<String>),
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
       pbrain-wuzi play [--black human|engine] [--white human|engine] [--rule R] [--size N]
                        [--time S | --depth D] [--coords] [--seed N]
                                         a game in the terminal (default: you are black,
                                         the engine white, freestyle 15x15, 1 s per move);
                                         moves h8 or 7,7; type help for the commands
       pbrain-wuzi analyze [--rule R] [--size N] [--time S | --depth D] [--nbest K]
                           [--solve [vcf|vct]] [--offset] POSITION
                                         best move, score, line, depth and nodes of a
                                         position: a move string (h8i9j10), an x,y list
                                         (7,7 8,8; --offset: from the centre) or a .psq
                                         file (default 3 s); --nbest K the K best moves;
                                         --solve only the threat solvers (VCF, then VCT)
       pbrain-wuzi gui [--port P] [--host H] [--open] [--threads N] [--hash MB]
                                         play and analyse on a board in the browser:
                                         serves it on http://127.0.0.1:5015/ (--port 0:
                                         any free port; --open: open the browser)
       pbrain-wuzi bench [DEPTH]         fixed-depth benchmark (default depth 8)
       pbrain-wuzi openings --rule R --size N --count K [--plies P] [--depth D] [--max-score S] [--seed N]
                                         print balanced random openings (offset format)
       pbrain-wuzi tune [--games N] [--depth D] [--nodes N] [--iterations I] [--save FILE]
                        [--load FILE] [--seed N]
                                         fit the evaluation weights to fixed-depth self-play
                                         games (Texel's method); prints the new tables
       pbrain-wuzi --help | --version
rules (R): freestyle standard renju caro caro9, or Gomocup's numbers 0 1 4 8 9
logging (off by default): WUZI_LOG=debug and WUZI_LOG_FILE=path";

fn number<T: std::str::FromStr>(flag: &str, value: Option<&String>) -> Result<T> {
    let value = value.with_context(|| format!("{flag} needs a value"))?;
    value
        .parse()
        .ok()
        .with_context(|| format!("bad value for {flag}: {value}"))
}

/// Reads a rule: a name (`freestyle`, `standard`, `renju`, `caro`,
/// `caro9`) or the protocol's `INFO rule` number (0, 1, 4, 8, 9, …).
pub fn parse_rule(text: &str) -> Result<Rule> {
    let by_name = [
        Rule::Freestyle,
        Rule::Standard,
        Rule::Renju,
        Rule::Caro,
        Rule::CaroExact,
    ]
    .into_iter()
    .find(|r| r.name().eq_ignore_ascii_case(text));
    let by_number = || {
        text.parse::<u32>()
            .ok()
            .filter(|&n| n < 16)
            .map(Rule::from_bits)
    };
    by_name.or_else(by_number).with_context(|| {
        format!("bad rule {text:?}: freestyle, standard, renju, caro, caro9 or 0, 1, 4, 8, 9")
    })
}

/// Reads a board side (5 to 22).
pub fn parse_size(text: &str) -> Result<usize> {
    text.parse()
        .ok()
        .filter(|s| (5..=MAX_SIZE).contains(s))
        .with_context(|| format!("bad board size {text:?}: 5 to {MAX_SIZE}"))
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
        Some("play") => Mode::Play(play::Options::parse(&rest[1..])?),
        Some("analyze" | "analyse") => Mode::Analyze(analyze::Options::parse(&rest[1..])?),
        Some("tune") => Mode::Tune(tune::Options::parse(&rest[1..])?),
        Some("gui") => Mode::Gui(rest[1..].to_vec()),
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

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn rules_by_name_or_number() {
        assert_eq!(parse_rule("renju").ok(), Some(Rule::Renju));
        assert_eq!(parse_rule("Caro9").ok(), Some(Rule::CaroExact));
        assert_eq!(parse_rule("1").ok(), Some(Rule::Standard));
        assert_eq!(parse_rule("8").ok(), Some(Rule::Caro));
        for bad in ["", "go", "16", "-1"] {
            assert!(parse_rule(bad).is_err(), "{bad:?}");
        }
        assert_eq!(parse_size("22").ok(), Some(22));
        assert!(parse_size("4").is_err() && parse_size("23").is_err());
    }

    #[test]
    fn subcommands() {
        let play = parse_args(&args("play --seed 5 --rule renju")).expect("parses");
        assert_eq!(play.seed, Some(5));
        assert!(matches!(play.mode, Mode::Play(ref o) if o.rule == Rule::Renju));
        let analyze = parse_args(&args("analyse --nbest 2 h8i9")).expect("parses");
        assert!(matches!(analyze.mode, Mode::Analyze(ref o) if o.nbest == 2));
        assert!(parse_args(&args("play --size 99")).is_err());
    }
}
