//! `pbrain-wuzi`: the Wuzi engine. Without arguments it speaks the Gomocup
//! pbrain protocol on stdin/stdout; subcommands serve developers.

use std::io::Write;

use wuzi::cli::{self, Cli, Command};
use wuzi::protocol::{self, session::Settings, InputMode};

/// Switches logging on only when asked: `WUZI_LOG_FILE` sends it to a file,
/// `WUZI_LOG` alone to stderr (never by default: Piskvork reads stderr as
/// part of the engine's replies).
fn init_logging() {
    let level = std::env::var("WUZI_LOG").ok();
    let file = std::env::var_os("WUZI_LOG_FILE");
    if level.is_none() && file.is_none() {
        return;
    }
    let filter = level
        .as_deref()
        .and_then(|l| l.parse().ok())
        .unwrap_or(log::LevelFilter::Info);
    let mut builder = env_logger::Builder::new();
    builder.filter_level(filter);
    builder.format(|out, record| writeln!(out, "[{}] {}", record.level(), record.args()));
    if let Some(path) = file {
        match std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
        {
            Ok(f) => {
                builder.target(env_logger::Target::Pipe(Box::new(f)));
            }
            Err(_) => return,
        }
    }
    let _ = builder.try_init();
}

fn main() {
    init_logging();
    // clap prints --help and --version (exit 0) and usage errors (exit 2).
    let args = Cli::from_env();
    let outcome = match &args.command {
        None => {
            // stdout and stderr belong to the manager: a panic goes to the log.
            std::panic::set_hook(Box::new(|info| log::error!("panic: {info}")));
            let options = &args.protocol;
            if let Err(e) = options.params.install() {
                eprintln!("pbrain-wuzi: {e:#}");
                std::process::exit(2);
            }
            let defaults = Settings::default();
            let settings = Settings {
                seed: options.seed,
                strength: options.strength.unwrap_or(defaults.strength),
                ..defaults
            };
            let stdin = std::io::BufReader::new(std::io::stdin());
            let mode = if options.script {
                InputMode::Script
            } else {
                InputMode::Live
            };
            protocol::run(stdin, std::io::stdout().lock(), settings, mode);
            // Do not wait for a search thread that may still be unwinding.
            std::process::exit(0);
        }
        Some(Command::Play(options)) => cli::play::run(options),
        Some(Command::Analyze(options)) => cli::analyze::run(options),
        Some(Command::Bench(options)) => cli::bench::run(options),
        Some(Command::Openings(options)) => cli::openings::run(options),
        Some(Command::Tune(options)) => cli::tune::run(options),
        Some(Command::Gui(args)) => wuzi::web::run(&args.into(), |url| {
            println!("Wuzi board: {url}  (Ctrl-C stops it)")
        }),
    };
    if let Err(e) = outcome {
        eprintln!("pbrain-wuzi: {e:#}");
        std::process::exit(1);
    }
}
