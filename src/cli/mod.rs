//! Run modes besides the protocol: command-line parsing, the terminal game
//! and analysis, and developer tools.
//!
//! The command line is [`Cli`], parsed by clap: without a subcommand the
//! engine speaks the pbrain protocol (with [`ProtocolOptions`]); each
//! subcommand is a variant of [`Command`] holding the `Options` of its
//! module, defined next to that module's `run`. A new subcommand is a
//! module with an `Options` struct deriving [`clap::Args`] and a `run`, one
//! variant here and one arm in `main`.

pub mod analyze;
pub mod bench;
pub mod diagram;
pub mod engine;
pub mod game;
pub mod openings;
pub mod play;
pub mod record;
pub mod tune;

use std::ffi::OsString;

use anyhow::{Context, Result};
use clap::{Parser, Subcommand};

use crate::levels::FULL_STRENGTH;
use crate::search::params;
use crate::types::{Rule, MAX_SIZE};

/// Text after the top-level `--help`.
const AFTER_HELP: &str = "\
Without a command the engine speaks the Gomocup pbrain protocol on stdin/stdout.
Rules (R): freestyle standard renju caro caro9, or Gomocup's numbers 0 1 4 8 9.
Logging (off by default): WUZI_LOG=debug and WUZI_LOG_FILE=path.";

/// The command line of `pbrain-wuzi`.
#[derive(Debug, Parser)]
#[command(
    name = "pbrain-wuzi",
    version,
    about,
    after_help = AFTER_HELP,
    args_conflicts_with_subcommands = true,
    args_override_self = true
)]
pub struct Cli {
    /// What to run; none: the pbrain protocol.
    #[command(subcommand)]
    pub command: Option<Command>,
    /// The protocol's settings (only without a command).
    #[command(flatten)]
    pub protocol: ProtocolOptions,
}

impl Cli {
    /// Parses the process's arguments; on `--help`, `--version` or a usage
    /// error prints clap's text and exits (0 or 2).
    pub fn from_env() -> Cli {
        Cli::try_from_args(std::env::args_os()).unwrap_or_else(|e| e.exit())
    }

    /// Parses `args` (the program name first), reading a word that starts
    /// with a minus, a digit and has a comma (`-1,0`, an offset of `analyze
    /// --offset`) as a value: clap would take it for short flags. Such a
    /// word gets a leading blank, which the position's reader skips.
    pub fn try_from_args<I, T>(args: I) -> Result<Cli, clap::Error>
    where
        I: IntoIterator<Item = T>,
        T: Into<OsString>,
    {
        Cli::try_parse_from(args.into_iter().map(|arg| {
            let arg: OsString = arg.into();
            match arg.to_str() {
                Some(text) if is_negative_pair(text) => format!(" {text}").into(),
                _ => arg,
            }
        }))
    }
}

/// Whether `word` is an x,y word with a negative first number (`-1,0`,
/// `-2,3,`), never a flag.
fn is_negative_pair(word: &str) -> bool {
    word.strip_prefix('-')
        .is_some_and(|rest| rest.starts_with(|c: char| c.is_ascii_digit()) && rest.contains(','))
}

/// Settings of the protocol mode (no subcommand).
#[derive(Debug, Default, PartialEq, Eq, clap::Args)]
pub struct ProtocolOptions {
    /// Take piped commands strictly in order: every command (and the end of
    /// input) waits for the move before it
    #[arg(long)]
    pub script: bool,
    /// Fix the random choice among equally ordered moves
    #[arg(long, value_name = "N")]
    pub seed: Option<u64>,
    /// The starting INFO strength: 0 to 100, weaker play below 100 (full
    /// strength)
    #[arg(long, value_name = "N", value_parser = parse_strength)]
    pub strength: Option<u8>,
    /// The search's parameters.
    #[command(flatten)]
    pub params: ParamArgs,
}

/// Settings of the search's parameters for tuning: `--param NAME=VALUE`,
/// repeated (protocol mode, `analyze` and `bench`).
#[derive(Clone, Debug, Default, PartialEq, Eq, clap::Args)]
pub struct ParamArgs {
    /// Set a search parameter, for tuning (repeatable; NAME is a field of
    /// src/search/params.rs, e.g. futility_margin=95)
    #[arg(long = "param", value_name = "NAME=VALUE", value_parser = parse_param)]
    pub settings: Vec<String>,
}

impl ParamArgs {
    /// Makes these settings, over the defaults, the parameters of every
    /// search of this process (nothing without settings).
    pub fn install(&self) -> Result<()> {
        if self.settings.is_empty() {
            return Ok(());
        }
        params::install(params::parse_settings(&self.settings)?)
    }
}

/// Checks one `NAME=VALUE` parameter setting.
fn parse_param(text: &str) -> Result<String> {
    params::parse_settings(&[text])?;
    Ok(text.to_string())
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Play a game in the terminal (moves h8 or 7,7; type help for the
    /// commands)
    Play(play::Options),
    /// Best move, score, line, depth and nodes of a position
    #[command(alias = "analyse")]
    Analyze(analyze::Options),
    /// Fixed-depth benchmark: nodes, speed and the search's signature
    Bench(bench::Options),
    /// Print balanced random openings (offset format)
    Openings(openings::Options),
    /// Play self-play records (--play) or fit the evaluation's tables to
    /// records (--records; the threat term's with --threats); writes
    /// src/eval/tables.bin (threats.bin) with --write
    Tune(tune::Options),
    /// Play and analyse on a board in the browser, served on
    /// http://127.0.0.1:5015/
    Gui(GuiArgs),
}

/// The port `gui` listens on unless `--port` says otherwise.
pub const GUI_PORT: u16 = 5015;

/// Most search threads `gui --threads` takes (the searcher's own limit).
const MAX_GUI_THREADS: usize = crate::search::MAX_THREADS;
/// Largest hash table per tab `gui --hash` takes, in MiB.
const MAX_GUI_HASH_MB: usize = 4096;

/// Settings of `gui`, the board in the browser. The server itself is the
/// `web` layer's, above this one; `main` hands these to it.
#[derive(Debug, PartialEq, Eq, clap::Args)]
pub struct GuiArgs {
    /// Address to listen on; any other than loopback lets other machines
    /// use the board and the engine (gui warns)
    #[arg(long, value_name = "H", default_value = "127.0.0.1")]
    pub host: String,
    /// Port; 0 takes any free one
    #[arg(long, value_name = "P", default_value_t = GUI_PORT)]
    pub port: u16,
    /// Open the page in the default browser
    #[arg(long)]
    pub open: bool,
    /// Threads of each search, 1 to 64 (default: the cores, up to 4)
    #[arg(long, value_name = "N", value_parser = parse_threads)]
    pub threads: Option<usize>,
    /// Hash table of each browser tab, in MiB (1 to 4096)
    #[arg(long, value_name = "MB", default_value = "64", value_parser = parse_hash_mb)]
    pub hash: usize,
}

fn parse_threads(text: &str) -> Result<usize> {
    text.parse()
        .ok()
        .filter(|n| (1..=MAX_GUI_THREADS).contains(n))
        .with_context(|| format!("bad thread count {text:?}: 1 to {MAX_GUI_THREADS}"))
}

fn parse_hash_mb(text: &str) -> Result<usize> {
    text.parse()
        .ok()
        .filter(|n| (1..=MAX_GUI_HASH_MB).contains(n))
        .with_context(|| format!("bad hash size {text:?}: 1 to {MAX_GUI_HASH_MB} MiB"))
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

/// Reads a strength level (0 to 100, [`FULL_STRENGTH`]).
pub fn parse_strength(text: &str) -> Result<u8> {
    text.parse()
        .ok()
        .filter(|&n| n <= FULL_STRENGTH)
        .with_context(|| format!("bad strength {text:?}: 0 to {FULL_STRENGTH}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &str) -> Result<Cli, clap::Error> {
        Cli::try_from_args(std::iter::once("pbrain-wuzi").chain(args.split_whitespace()))
    }

    #[test]
    fn protocol_options() {
        let args = parse("--strength 20 --seed 3").expect("valid");
        assert!(args.command.is_none());
        assert_eq!(
            args.protocol,
            ProtocolOptions {
                script: false,
                seed: Some(3),
                strength: Some(20),
                params: ParamArgs::default(),
            }
        );
        let args = parse("--seed 1 --script --strength 30 --seed 2").expect("valid");
        assert_eq!(
            args.protocol,
            ProtocolOptions {
                script: true,
                seed: Some(2),
                strength: Some(30),
                params: ParamArgs::default(),
            }
        );
        assert_eq!(
            parse("").expect("valid").protocol,
            ProtocolOptions::default()
        );
        assert_eq!(
            parse("--strength 100").expect("valid").protocol.strength,
            Some(100)
        );
        assert_eq!(
            parse("--param futility_margin=95 --param lmr_divisor=1.7")
                .expect("valid")
                .protocol
                .params
                .settings,
            ["futility_margin=95", "lmr_divisor=1.7"]
        );
        for bad in [
            "--strength",
            "--strength 101",
            "--strength -1",
            "--strength x",
            "--seed x",
            "--bogus",
            "--param",
            "--param futility_margin",
            "--param futility_margin=x",
            "--param no_such=1",
        ] {
            assert!(parse(bad).is_err(), "{bad}");
        }
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
        let command = |args: &str| parse(args).expect("parses").command;
        let Some(Command::Play(play)) = command("play --seed 5 --rule renju") else {
            panic!("not play")
        };
        assert_eq!((play.rule, play.seed), (Rule::Renju, Some(5)));
        let Some(Command::Analyze(analyze)) = command("analyse --nbest 2 h8i9") else {
            panic!("not analyze")
        };
        assert_eq!(analyze.nbest, 2);
        let Some(Command::Bench(bench)) = command("bench 6") else {
            panic!("not bench")
        };
        assert_eq!(bench.depth, 6);
        let Some(Command::Openings(o)) = command("openings --count 3") else {
            panic!("not openings")
        };
        assert_eq!(
            (o.rule, o.size, o.count, o.plies, o.depth, o.max_score),
            (Rule::Freestyle, 15, 3, 4, 4, 150)
        );
        let Some(Command::Tune(o)) = command("tune --play games.rec --games 2 --seed 9") else {
            panic!("not tune")
        };
        assert_eq!(
            (o.games, o.depth, o.nodes, o.seed, o.play.is_some()),
            (2, 6, 50_000, Some(9), true)
        );
        let Some(Command::Tune(o)) = command("tune --records a.rec b.rec --write t.bin") else {
            panic!("not tune")
        };
        assert_eq!((o.records.len(), o.iterations, o.free), (2, 1000, false));
        let Some(Command::Gui(gui)) = command("gui") else {
            panic!("not gui")
        };
        assert_eq!(
            gui,
            GuiArgs {
                host: "127.0.0.1".into(),
                port: GUI_PORT,
                open: false,
                threads: None,
                hash: 64
            }
        );
        let Some(Command::Gui(gui)) = command("gui --port 0 --open --host 0.0.0.0 --threads 2")
        else {
            panic!("not gui")
        };
        assert_eq!(
            (gui.host.as_str(), gui.port, gui.open, gui.threads),
            ("0.0.0.0", 0, true, Some(2))
        );
        for bad in [
            "play --size 99",
            "analyze --seed 3 h8",
            "analyze --strength 3 h8",
            "bench --seed 1",
            "bench x",
            "openings --plies 0",
            "tune --records a.rec --iterations 0",
            "tune --games 3",
            "tune --play a.rec --records b.rec",
            "gui --port 70000",
            "gui --port",
            "gui --threads 0",
            "gui --hash 0",
            "gui --seed 1",
            "--seed 1 play",
            "--script bench",
            "fly",
        ] {
            assert!(parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn clap_definition_is_consistent() {
        use clap::CommandFactory;
        Cli::command().debug_assert();
    }
}
