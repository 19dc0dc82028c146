//! `pbrain-wuzi analyze` on positions with known answers: ten VCF puzzles
//! of `tests/data/vcf-puzzles.txt` (freestyle, standard and renju on 15×15,
//! freestyle on 20×20), each given in one of the position forms (x,y list,
//! move string, offsets from the centre, `.psq` file); the printed best move
//! must be one of the puzzle's winning first moves. Also `--solve` (the VCF
//! on a puzzle, the VCT on the wins by threats of
//! `tests/data/threat-positions.txt`), `--nbest` and bad input.

mod common;

use std::path::PathBuf;
use std::time::Duration;

use common::board::parse_pos;
use common::data::vcf_puzzles;
use common::fixtures::threat_fixtures;
use common::{run_engine, Logging};
use wuzi::types::{Color, Pos};

/// Longest one analysis may take (each takes milliseconds: the root VCF
/// solver finds these wins before the alpha-beta search starts).
const DEADLINE: Duration = Duration::from_secs(60);

/// The puzzles used, by their line in the file, with the form the position
/// is given in.
const CHOSEN: &[(usize, Form)] = &[
    (18, Form::XyList),     // freestyle 15
    (22, Form::MoveString), // standard 15
    (23, Form::XyList),     // renju 15
    (27, Form::Psq),        // freestyle 15
    (37, Form::XyList),     // standard 15
    (41, Form::MoveString), // renju 15
    (60, Form::Psq),        // standard 15
    (61, Form::XyList),     // renju 15
    (72, Form::Offsets),    // freestyle 20
    (81, Form::MoveString), // freestyle 20
];

/// How a position is handed to `analyze`.
#[derive(Clone, Copy, Debug)]
enum Form {
    /// `3,7 3,1 …` as separate arguments.
    XyList,
    /// `d8d2e3…` as one argument.
    MoveString,
    /// `--offset`: x,y from the centre.
    Offsets,
    /// A `.psq` file written for the test.
    Psq,
}

/// A cell in the `h8` notation.
fn name(pos: Pos) -> String {
    format!("{}{}", (b'a' + pos.x() as u8) as char, pos.y() + 1)
}

/// Runs `analyze` with `args`; returns stdout, checking a clean exit.
fn analyze(args: &[String]) -> String {
    let mut all = vec!["analyze"];
    all.extend(args.iter().map(String::as_str));
    let run = run_engine(&all, Vec::new(), DEADLINE, Logging::Off);
    let out = String::from_utf8_lossy(&run.stdout).into_owned();
    if let Err(e) = run.check_clean_exit() {
        panic!("analyze {args:?}: {e}\n{out}");
    }
    out
}

/// The `best move: h8 (7,7)` line's square, checking both forms agree.
fn best_move(out: &str) -> Pos {
    let line = out
        .lines()
        .find_map(|l| l.strip_prefix("best move: "))
        .unwrap_or_else(|| panic!("no best move in:\n{out}"));
    let (letters, xy) = line.split_once(' ').expect("two forms");
    let square = parse_pos(xy.trim_matches(|c| c == '(' || c == ')'));
    assert_eq!(letters, name(square), "{line}");
    square
}

fn scratch() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("analyze");
    std::fs::create_dir_all(&dir).expect("scratch directory");
    dir
}

#[test]
fn ten_puzzles_best_move_is_a_winner() {
    let all = vcf_puzzles();
    let mut rules = Vec::new();
    for &(line, form) in CHOSEN {
        let p = all
            .iter()
            .find(|p| p.line == line)
            .unwrap_or_else(|| panic!("no puzzle on line {line}"));
        assert_eq!(p.board.side_to_move(), Color::Black, "line {line}");
        let mut args: Vec<String> = ["--rule", p.rule.name(), "--depth", "8"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        match form {
            Form::XyList => {
                args.extend(["--size".to_string(), p.size.to_string()]);
                args.extend(p.moves.iter().map(Pos::to_string));
            }
            Form::MoveString => {
                args.extend(["--size".to_string(), p.size.to_string()]);
                args.push(p.moves.iter().map(|&m| name(m)).collect());
            }
            Form::Offsets => {
                let c = (p.size / 2) as i64;
                args.extend([
                    "--size".to_string(),
                    p.size.to_string(),
                    "--offset".to_string(),
                ]);
                let offsets: Vec<String> = p
                    .moves
                    .iter()
                    .map(|p| format!("{},{}", p.x() as i64 - c, p.y() as i64 - c))
                    .collect();
                args.push(offsets.join(", "));
            }
            Form::Psq => {
                let mut text = format!("Piskvorky {0}x{0}, 11:11, 0\n", p.size);
                for m in &p.moves {
                    text.push_str(&format!("{},{},0\n", m.x() + 1, m.y() + 1));
                }
                text.push_str("pbrain-a.exe\npbrain-b.exe\n-1\n");
                let file = scratch().join(format!("puzzle-{line}.psq"));
                std::fs::write(&file, text).expect("psq written");
                args.push(file.display().to_string());
            }
        }
        let out = analyze(&args);
        let header = format!(
            "{} {}x{}, {} stones, black to move",
            p.rule.name(),
            p.size,
            p.size,
            p.moves.len()
        );
        assert!(out.starts_with(&header), "line {line} ({form:?}):\n{out}");
        let best = best_move(&out);
        assert!(
            p.accepted.contains(&best),
            "line {line} ({form:?}): {} is not a winning move\n{out}",
            name(best)
        );
        assert!(
            out.contains("score: +W"),
            "line {line}: no win found\n{out}"
        );
        assert!(
            out.contains("\nline: ") && out.contains(" nodes, "),
            "{out}"
        );
        rules.push(p.rule.name());
    }
    for rule in ["freestyle", "standard", "renju"] {
        assert!(rules.contains(&rule), "no {rule} puzzle");
    }
}

#[test]
fn solve_prints_the_vcf_or_none() {
    let all = vcf_puzzles();
    let p = all.iter().find(|p| p.line == 23).expect("line 23"); // renju
    let mut args: Vec<String> = vec!["--rule".into(), "renju".into(), "--solve".into()];
    args.push(p.moves.iter().map(|&m| name(m)).collect());
    let out = analyze(&args);
    assert!(out.contains("VCF: black wins in "), "{out}");
    assert!(p.accepted.contains(&best_move(&out)), "{out}");
    let none = analyze(&["--solve".into(), "h8".into(), "i9".into()]);
    assert!(none.contains("no VCF or VCT found"), "{none}");
}

/// A win by threats of `tests/data/threat-positions.txt` (one with no win
/// by fours) as `analyze` arguments: rule, size and the stones as an x,y
/// list, black and white alternating; with its winning first moves.
struct ThreatWin {
    name: String,
    args: Vec<String>,
    winners: Vec<Pos>,
}

/// Every `kind: win` fixture with `vcf: none` whose stones a game could
/// have played in any order (black first, the side to move next).
fn threat_wins() -> Vec<ThreatWin> {
    let mut out = Vec::new();
    for fixture in threat_fixtures() {
        if fixture.field("kind") != Some("win") || fixture.field("vcf") != Some("none") {
            continue;
        }
        let (black, white) = (fixture.cells('X'), fixture.cells('O'));
        let black_to_move = fixture.field("to-move") == Some("black");
        if black.len() != white.len() + usize::from(!black_to_move) {
            continue;
        }
        let mut args = vec![
            "--rule".to_string(),
            fixture.field("rule").expect("a rule").to_string(),
            "--size".to_string(),
            fixture.rows.len().to_string(),
            "--solve".to_string(),
        ];
        for (i, (x, y)) in black.iter().enumerate() {
            args.push(format!("{x},{y}"));
            if let Some((x, y)) = white.get(i) {
                args.push(format!("{x},{y}"));
            }
        }
        out.push(ThreatWin {
            winners: fixture
                .cells('a')
                .into_iter()
                .map(|(x, y)| Pos::new(x, y))
                .collect(),
            name: fixture.name,
            args,
        });
    }
    out
}

#[test]
fn solve_finds_wins_by_threats() {
    let wins = threat_wins();
    assert!(wins.len() >= 5, "only {} threat wins", wins.len());
    for win in &wins {
        let out = analyze(&win.args);
        assert!(
            out.contains("VCT: ") && out.contains(" wins in "),
            "{}: {out}",
            win.name
        );
        let best = best_move(&out);
        assert!(
            win.winners.contains(&best),
            "{}: {} is not a winning move\n{out}",
            win.name,
            name(best)
        );
    }
}

#[test]
fn nbest_lists_ranked_moves() {
    let args: Vec<String> = [
        "--rule", "standard", "--depth", "3", "--nbest", "3", "7,7", "8,8",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let out = analyze(&args);
    let ranked: Vec<&str> = out
        .lines()
        .filter(|l| ["1. ", "2. ", "3. "].iter().any(|n| l.starts_with(n)))
        .collect();
    assert_eq!(ranked.len(), 3, "{out}");
    let first = ranked[0].split_whitespace().nth(1).expect("a move");
    assert!(out.contains(&format!("best move: {first} ")), "{out}");
}

#[test]
fn bad_positions_are_reported() {
    for (args, status, message) in [
        (vec!["h8", "h8"], 1, "move 2: h8 (7,7) is already taken"),
        (vec!["--size", "9", "z1"], 1, "z1 (25,0) is off the board"),
        (vec!["7,7", "8"], 1, "even count"),
        (vec!["--rule", "go", "h8"], 2, "bad rule"),
    ] {
        let mut all = vec!["analyze"];
        all.extend(args.iter());
        let run = run_engine(&all, Vec::new(), DEADLINE, Logging::Off);
        let err = String::from_utf8_lossy(&run.stderr);
        assert_eq!(
            run.status.and_then(|s| s.code()),
            Some(status),
            "{args:?}: {err}"
        );
        assert!(err.contains(message), "{args:?}: {err}");
    }
}
