//! `pbrain-wuzi play` driven through a pipe, as a script of typed lines:
//!
//! - `scripted_game_with_undo_hint_save_and_load`: human (black) against the
//!   engine (white, fixed depth and seed, so the game is the same every
//!   run) with a hint, an undo, a save and reload in the middle, played to
//!   the engine's five, then saved and reloaded as a `.psq` file;
//! - `garbage_lines_get_messages`: unknown commands, bad and illegal moves,
//!   bad arguments and raw bytes each get a message and the game goes on;
//! - `engines_play_each_other_to_the_end`: engine against engine;
//! - `renju_forbidden_point_refused`: black's double three is refused.

mod common;

use std::path::PathBuf;
use std::time::Duration;

use common::{run_engine, Logging, Run};

/// Longest a scripted session may take (they take well under a second).
const DEADLINE: Duration = Duration::from_secs(60);

/// Runs `play` with `args`, typing `input`.
fn play(args: &[&str], input: &[u8]) -> (Run, String) {
    let mut all = vec!["play"];
    all.extend_from_slice(args);
    let run = run_engine(&all, input.to_vec(), DEADLINE, Logging::Off);
    let text = String::from_utf8_lossy(&run.stdout).into_owned();
    if let Err(e) = run.check_clean_exit() {
        panic!("{e}\n--- stdout ---\n{text}");
    }
    (run, text)
}

/// A fresh scratch directory for this test's files.
fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch directory");
    dir
}

/// The boards in a transcript, each with the line index where it starts:
/// from a column-letter header line to the legend line.
fn boards(text: &str) -> Vec<(usize, String)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut found = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        if lines[i].ends_with("   a  b  c  d  e") || lines[i].contains("    a  b  c  d  e  f") {
            let start = i;
            while i < lines.len() && !lines[i].starts_with("X black, O white") {
                i += 1;
            }
            found.push((start, lines[start..=i.min(lines.len() - 1)].join("\n")));
        }
        i += 1;
    }
    found
}

/// The index of the first line containing `needle`.
fn line_of(text: &str, needle: &str) -> usize {
    text.lines()
        .position(|l| l.contains(needle))
        .unwrap_or_else(|| panic!("no line with {needle:?} in:\n{text}"))
}

/// Letters and row numbers only, e.g. `h8i9a10`: returns the move count.
fn move_string_length(text: &str) -> usize {
    let text = text.trim();
    assert!(
        !text.is_empty()
            && text.starts_with(|c: char| c.is_ascii_lowercase())
            && text
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit()),
        "not a move string: {text:?}"
    );
    text.chars().filter(|c| c.is_ascii_lowercase()).count()
}

#[test]
fn scripted_game_with_undo_hint_save_and_load() {
    let dir = scratch("play-scripted");
    let text_file = dir.join("middle.txt");
    let psq_file = dir.join("end.psq");
    // Black's moves after the opening: every other cell of the lower rows,
    // no two of them adjacent, so black never makes a line and the engine
    // wins. A cell the engine took gets "already taken" and the next line
    // is tried.
    let mut script = vec![
        "h8".to_string(),
        "hint".to_string(),
        "a1".to_string(),
        "undo".to_string(),
        "c1".to_string(),
        format!("save {}", text_file.display()),
        format!("load {}", text_file.display()),
    ];
    for y in [1, 3, 5] {
        for x in (0..15).step_by(2) {
            script.push(format!("{}{}", (b'a' + x) as char, y));
        }
    }
    script.push(format!("save {}", psq_file.display()));
    script.push(format!("load {}", psq_file.display()));
    script.push("quit".to_string());
    let input = script.join("\n") + "\n";
    let (_, out) = play(&["--depth", "3", "--seed", "7"], input.as_bytes());

    assert!(out.contains("black plays h8 (7,7)"), "{out}");
    assert!(out.contains("hint: "), "{out}");
    assert!(out.contains("took back 2 moves"), "{out}");

    // The mid-game save holds black h8 c1 and two engine moves.
    let saved = std::fs::read_to_string(&text_file).expect("saved move string");
    assert_eq!(move_string_length(&saved), 4, "{saved:?}");
    assert!(saved.starts_with("h8"), "{saved:?}");
    let all = boards(&out);
    let saved_at = line_of(&out, "saved 4 moves to ");
    let loaded_at = line_of(&out, "loaded 4 moves from ");
    let before = &all
        .iter()
        .rev()
        .find(|(i, _)| *i < saved_at)
        .expect("a board")
        .1;
    let after = &all.iter().find(|(i, _)| *i > loaded_at).expect("a board").1;
    assert_eq!(before, after, "the reloaded position differs");

    // The engine wins, and the result is announced once at the end of the
    // game and again when the saved game is loaded.
    let results: Vec<&str> = out.lines().filter(|l| l.contains("result: ")).collect();
    assert_eq!(results.len(), 2, "{out}");
    assert_eq!(results[0], results[1]);
    assert!(
        results[1].starts_with("result: white wins (five "),
        "{}",
        results[1]
    );
    let last_board = &all.last().expect("a board").1;
    assert!(last_board.matches("[O]").count() >= 5, "{last_board}");
    assert!(out.contains("the game is over; type new, undo, load or quit"));

    let psq = std::fs::read_to_string(&psq_file).expect("saved psq");
    let lines: Vec<&str> = psq.lines().collect();
    assert_eq!(lines[0], "Piskvorky 15x15, 0:11, 0");
    assert_eq!(lines.last(), Some(&"-1"));
    let moves = lines.len() - 2;
    assert!(moves.is_multiple_of(2), "white made the last move: {psq}");
    for line in &lines[1..=moves] {
        let fields: Vec<u32> = line
            .split(',')
            .map(|f| f.parse().expect("number"))
            .collect();
        assert!(
            fields.len() == 3 && (1..=15).contains(&fields[0]) && (1..=15).contains(&fields[1])
        );
    }
    assert_eq!(lines[1].split(',').take(2).collect::<Vec<_>>(), ["8", "8"]);
    let loaded = line_of(&out, &format!("loaded {moves} moves from "));
    let end_board = &all
        .iter()
        .rev()
        .find(|(i, _)| *i < loaded)
        .expect("a board")
        .1;
    let reloaded = &all.iter().find(|(i, _)| *i > loaded).expect("a board").1;
    assert_eq!(end_board, reloaded, "the reloaded .psq position differs");
}

#[test]
fn garbage_lines_get_messages() {
    let mut input: Vec<u8> = Vec::new();
    let lines: &[(&[u8], &str)] = &[
        (b"undo", "nothing to undo"),
        (b"foo", "unknown command \"foo\""),
        (b"z99", "is off the board"),
        (b"99,99", "is off the board"),
        (b"-1,-1", "not a move"),
        (b"h0", "not a move"),
        (b"7,7,7", "not a move"),
        (b"h8 h8", "one move at a time"),
        (b"\x00\xff\xfe garbage", "unknown command"),
        (b"time -1", "bad time"),
        (b"time abc", "bad time"),
        (b"time 1e308", "bad time"),
        (b"save", "usage: save"),
        (b"load", "usage: load"),
        (b"load /nonexistent/dir/game.psq", "cannot read"),
        (b"h8", "black plays h8 (7,7)"),
        (b"h8\r", "is already taken"),
    ];
    for (line, _) in lines {
        input.extend_from_slice(line);
        input.push(b'\n');
    }
    let long = "x".repeat(100_000);
    input.extend_from_slice(long.as_bytes());
    input.push(b'\n');
    // No quit: the end of input ends the session.
    let (_, out) = play(&["--black", "human", "--white", "human"], &input);
    let mut from = 0;
    let text: Vec<&str> = out.lines().collect();
    for (line, expected) in lines {
        let at = text[from..]
            .iter()
            .position(|l| l.contains(expected))
            .unwrap_or_else(|| {
                panic!(
                    "no {expected:?} after {:?}:\n{out}",
                    String::from_utf8_lossy(line)
                )
            });
        from += at + 1;
    }
    assert!(text[from..].iter().any(|l| l.contains("unknown command")));
    assert!(
        out.ends_with("white (O) to move> \n") || out.ends_with("\n\n"),
        "{out:?}"
    );
}

#[test]
fn engines_play_each_other_to_the_end() {
    let (_, out) = play(
        &[
            "--black", "engine", "--white", "engine", "--size", "9", "--depth", "2", "--seed", "3",
        ],
        b"",
    );
    assert!(out.contains("black (X, engine) plays "), "{out}");
    assert!(out.contains("white (O, engine) plays "), "{out}");
    assert_eq!(out.matches("result: ").count(), 1, "{out}");
}

#[test]
fn renju_forbidden_point_refused() {
    // Black g8 i8 h7 h9: h8 would be a double three.
    let (_, out) = play(
        &["--rule", "renju", "--white", "human"],
        b"g8\na1\ni8\na3\nh7\na5\nh9\na7\nh8\n",
    );
    assert!(
        out.contains("illegal move: h8 (7,7) is forbidden for black under renju (a double three)"),
        "{out}"
    );
    // The forbidden point is drawn as x while black is to move.
    assert!(out.contains(" 8  .  .  .  .  .  .  X  x  X "), "{out}");
}

#[test]
fn strength_levels_play_and_can_change() {
    // --strength 0: the five-tuple scorer answers (depth 1, no search nodes);
    // `strength 60` switches to the minimax, a bad value is refused.
    let (_, out) = play(
        &["--strength", "0", "--seed", "4"],
        b"h8\nstrength\nstrength 60\nj10\nstrength 101\nstrength\n",
    );
    assert!(
        out.contains("engine plays as: five-tuple scorer (one ply)"),
        "{out}"
    );
    assert!(out.contains("depth 1, 0 nodes"), "{out}");
    assert!(out.contains("engine plays as: depth-3 minimax"), "{out}");
    assert!(out.contains("depth 3, "), "{out}");
    assert!(out.contains("strength is a number from 0 to 100"), "{out}");
}
