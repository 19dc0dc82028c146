//! The command line, run as a user would (every run with a deadline):
//!
//! - `subcommands_answer_help`: `--help` of each subcommand exits 0 and
//!   lists its options with their defaults; the top level lists the
//!   subcommands and the protocol's options; `--version` names the version;
//! - `unknown_flags_exit_2_naming_them`: an unknown flag (or a protocol
//!   option given to a subcommand that does not take it) exits 2 with a
//!   message naming it, and a near name is suggested;
//! - `bad_values_exit_2`: a bad value exits 2 with a message naming the flag;
//! - `protocol_options_in_any_order`: the protocol mode with `--seed 1
//!   --script` (and the options in other orders, `--param` among them)
//!   answers START with OK;
//! - `the_formula_rebuilds_the_built_in_tables`: `tune --formula --write`
//!   writes `src/eval/tables.bin` byte for byte.
//! - `a_search_parameter_changes_the_search`: `bench --param` with a
//!   parameter's default keeps the bench signature, another value changes it
//!   (a search parameter, and a number of the evaluation's formula).

mod common;

use std::time::Duration;

use common::{run_engine, Logging, Run};

/// Longest a run may take (each takes milliseconds).
const DEADLINE: Duration = Duration::from_secs(30);

/// Runs the engine with the words of `args` and no input.
fn run(args: &str) -> Run {
    let words: Vec<&str> = args.split_whitespace().collect();
    run_engine(&words, Vec::new(), DEADLINE, Logging::Off)
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Runs `args`, expects exit status 2, nothing on stdout, and returns stderr.
fn usage_error(args: &str) -> String {
    let run = run(args);
    let err = text(&run.stderr);
    assert_eq!(
        run.status.and_then(|s| s.code()),
        Some(2),
        "{args}: {err}{}",
        text(&run.stdout)
    );
    assert!(run.stdout.is_empty(), "{args}: {}", text(&run.stdout));
    err
}

#[test]
fn subcommands_answer_help() {
    for (command, options) in [
        (
            "play",
            &[
                "--black <PLAYER>",
                "[default: human]",
                "--seed <N>",
                "--strength <N>",
                "[default: 100]",
            ][..],
        ),
        (
            "analyze",
            &[
                "--nbest <K>",
                "--solve",
                "--time <S>",
                "[default: 3]",
                "--param <NAME=VALUE>",
                "[POSITION]...",
            ],
        ),
        (
            "bench",
            &["[DEPTH]", "[default: 8]", "--param <NAME=VALUE>"],
        ),
        (
            "openings",
            &["--max-score <S>", "[default: 150]", "--seed <N>"],
        ),
        (
            "tune",
            &[
                "--iterations <I>",
                "[default: 1000]",
                "--seed <N>",
                "--play <FILE>",
                "--records <FILE>...",
            ],
        ),
        (
            "gui",
            &["--port <P>", "[default: 5015]", "--host <H>", "--open"],
        ),
    ] {
        for help in ["--help", "-h"] {
            let run = run(&format!("{command} {help}"));
            let out = text(&run.stdout);
            if let Err(e) = run.check_clean_exit() {
                panic!("{command} {help}: {e}\n{out}");
            }
            assert!(
                out.contains(&format!("Usage: pbrain-wuzi {command} ")),
                "{command} {help}:\n{out}"
            );
            for option in options {
                assert!(
                    out.contains(option),
                    "{command} {help}: no {option}:\n{out}"
                );
            }
        }
    }
    // Every openings option has a default: the usage shows none as required.
    let out = text(&run("openings --help").stdout);
    assert!(
        out.contains("Usage: pbrain-wuzi openings [OPTIONS]\n"),
        "{out}"
    );

    let run = run("--help");
    let out = text(&run.stdout);
    run.check_clean_exit().expect("--help exits 0");
    for word in [
        "play",
        "analyze",
        "bench",
        "openings",
        "tune",
        "--script",
        "--seed <N>",
        "--strength <N>",
        "--param <NAME=VALUE>",
    ] {
        assert!(out.contains(word), "--help: no {word}:\n{out}");
    }
}

#[test]
fn version() {
    for flag in ["--version", "-V"] {
        let run = run(flag);
        run.check_clean_exit().expect("--version exits 0");
        assert_eq!(
            text(&run.stdout),
            format!("pbrain-wuzi {}\n", env!("CARGO_PKG_VERSION"))
        );
    }
}

#[test]
fn unknown_flags_exit_2_naming_them() {
    for (args, named, suggested) in [
        ("play --foo", "'--foo'", None),
        ("play --tme 2", "'--tme'", Some("'--time'")),
        ("analyze --nbst 2 h8", "'--nbst'", Some("'--nbest'")),
        ("analyze --seed 3 h8", "'--seed'", None),
        ("analyze --strength 30 h8", "'--strength'", None),
        ("bench --seed 1", "'--seed'", None),
        ("openings --cont 2", "'--cont'", Some("'--count'")),
        ("tune --gmes 3", "'--gmes'", Some("'--games'")),
        ("--sed 1", "'--sed'", Some("'--seed'")),
        ("--seed 1 play", "'--seed <N>'", None),
        ("fly", "'fly'", Some("'play'")),
    ] {
        let err = usage_error(args);
        assert!(err.contains(named), "{args}: {err}");
        if let Some(suggested) = suggested {
            assert!(err.contains(suggested), "{args}: {err}");
        }
    }
}

#[test]
fn bad_values_exit_2() {
    for (args, named) in [
        ("play --size 30", "'--size <N>'"),
        ("play --black robot", "'--black <PLAYER>'"),
        ("play --time -1", "'--time <S>'"),
        ("play --time 1 --depth 3", "'--depth <D>'"),
        ("play --strength 101", "'--strength <N>'"),
        ("analyze --rule go h8", "'--rule <R>'"),
        ("analyze --nbest 0 h8", "'--nbest <K>'"),
        ("bench 0", "'[DEPTH]'"),
        ("openings --plies 13", "'--plies <P>'"),
        ("tune --depth x", "'--depth <D>'"),
        ("--strength 101", "'--strength <N>'"),
        ("--seed x", "'--seed <N>'"),
        ("--seed", "'--seed <N>'"),
        ("--param moves_to_go=0", "'--param <NAME=VALUE>'"),
        ("bench --param no_such=1", "'--param <NAME=VALUE>'"),
    ] {
        let err = usage_error(args);
        assert!(err.contains(named), "{args}: {err}");
    }
}

#[test]
fn protocol_options_in_any_order() {
    for args in [
        "--seed 1 --script",
        "--script --seed 1 --strength 30",
        "--strength 30 --seed 1 --script",
        "--param futility_margin=95 --script --param lmr_divisor=1.7",
        "",
    ] {
        let words: Vec<&str> = args.split_whitespace().collect();
        let run = run_engine(
            &words,
            b"START 15\nEND\n".to_vec(),
            DEADLINE,
            Logging::Errors,
        );
        if let Err(e) = run.check_clean_exit() {
            panic!("{args}: {e}");
        }
        assert_eq!(run.lines(), ["OK"], "{args}");
    }
}

/// The signature line of `bench` run with `args`.
fn bench_signature(args: &str) -> String {
    let run = run(&format!("bench 4 {args}"));
    run.check_clean_exit().expect("bench exits 0");
    let out = text(&run.stdout);
    let line = out.lines().find(|l| l.starts_with("signature "));
    line.expect("a signature line").to_string()
}

#[test]
fn the_formula_rebuilds_the_built_in_tables() {
    let path = std::env::temp_dir().join(format!("wuzi-formula-{}.bin", std::process::id()));
    let run = run(&format!("tune --formula --write {}", path.display()));
    assert_eq!(
        run.status.and_then(|s| s.code()),
        Some(0),
        "{}",
        text(&run.stderr)
    );
    let written = std::fs::read(&path).expect("the tables file is written");
    let _ = std::fs::remove_file(&path);
    assert_eq!(written, include_bytes!("../src/eval/tables.bin").to_vec());
}

#[test]
fn a_search_parameter_changes_the_search() {
    let default = bench_signature("");
    assert_eq!(bench_signature("--param futility_margin=90"), default);
    assert_ne!(bench_signature("--param futility_margin=0"), default);
    // Freestyle's evaluation formula: its built-in number makes the
    // built-in tables, another number other ones.
    assert_eq!(bench_signature("--param cell_flex2=37"), default);
    assert_ne!(bench_signature("--param cell_flex2=31"), default);
    // Renju's, the same.
    assert_eq!(bench_signature("--param renju_cell_flex2=31"), default);
    assert_ne!(bench_signature("--param renju_cell_flex2=37"), default);
}
