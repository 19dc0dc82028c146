//! Yixin-Board support, where a byte-exact `.out` file cannot say it: the
//! live analysis output (its timing varies) in both dialects and its
//! absence without a GUI, the per-candidate `INFO` blocks of `YXNBEST`, the
//! balanced swap2 answer (one line or two), answers Yixin-Board plays on its
//! board, a new position stopping a search, and a position where a five
//! already stands. The command sequences are Yixin-Board's (see
//! `protocol-tests/yixin-*.in`); every engine run has a deadline.

mod common;

use std::time::Duration;

use common::{legal_reply, parse_move, run_engine, LiveEngine, Logging};
use regex::Regex;

/// Longest one scripted run may take.
const DEADLINE: Duration = Duration::from_secs(30);

/// A quiet middle-game position as Yixin-Board sends it (`start 15`, a
/// block with the side to move's stones as 1), ending in `command`.
fn position(command: &str) -> String {
    format!("start 15\n{command}\n7,7,2\n8,8,1\n7,8,2\n6,9,1\n9,6,2\ndone\n")
}

/// Runs `input` through the engine in script mode and returns its replies,
/// each checked to be a legal reply form.
fn replies(input: &str) -> Vec<String> {
    let run = run_engine(
        &["--script", "--seed", "1"],
        input.as_bytes().to_vec(),
        DEADLINE,
        Logging::Errors,
    );
    run.check_clean_exit().unwrap();
    let lines = run.lines();
    for line in &lines {
        legal_reply(line).unwrap_or_else(|e| panic!("{e}; replies {lines:#?}"));
    }
    lines
}

fn is_live(line: &str) -> bool {
    line.starts_with("MESSAGE REALTIME ") || line.starts_with("INFO ")
}

/// Checks every `INFO` block of `lines`: `PV i`, `NUMPV n`, `DEPTH d`,
/// `EVAL v|+Mn|-Mn`, `WINRATE w` (0..1), `BESTLINE x,y …`, `PV DONE`, in
/// that order and nothing else in between. Returns (i, n, d, first move)
/// per block.
fn info_blocks(lines: &[String]) -> Vec<(usize, usize, i32, (usize, usize))> {
    let info: Vec<&String> = lines.iter().filter(|l| l.starts_with("INFO ")).collect();
    assert_eq!(info.len() % 7, 0, "incomplete INFO blocks: {info:#?}");
    let eval = Regex::new(r"^INFO EVAL (-?\d+|[+-]M\d+)$").unwrap();
    let line_re = Regex::new(r"^INFO BESTLINE \d+,\d+( \d+,\d+)*$").unwrap();
    info.chunks(7)
        .map(|b| {
            let number = |line: &str, key: &str| -> i64 {
                line.strip_prefix(key)
                    .and_then(|n| n.parse().ok())
                    .unwrap_or_else(|| panic!("expected {key}n, got {line:?} in {b:#?}"))
            };
            let index = number(b[0], "INFO PV ") as usize;
            let count = number(b[1], "INFO NUMPV ") as usize;
            let depth = number(b[2], "INFO DEPTH ") as i32;
            assert!(eval.is_match(b[3]), "{b:#?}");
            let rate: f64 = b[4]
                .strip_prefix("INFO WINRATE ")
                .and_then(|w| w.parse().ok())
                .unwrap_or_else(|| panic!("bad WINRATE in {b:#?}"));
            assert!((0.0..=1.0).contains(&rate), "{b:#?}");
            assert!(line_re.is_match(b[5]), "{b:#?}");
            assert_eq!(b[6], "INFO PV DONE", "{b:#?}");
            assert!(index < count, "{b:#?}");
            let first = b[5]["INFO BESTLINE ".len()..]
                .split(' ')
                .next()
                .and_then(parse_move)
                .unwrap();
            (index, count, depth, first)
        })
        .collect()
}

/// The cells of [`position`].
const STONES: [(usize, usize); 5] = [(7, 7), (8, 8), (7, 8), (6, 9), (9, 6)];

fn on_free_cell(cell: (usize, usize)) -> bool {
    cell.0 < 15 && cell.1 < 15 && !STONES.contains(&cell)
}

/// The dhbloo build (show_detail 3): MESSAGE REALTIME lines and INFO blocks
/// while it thinks, before the move; all of them well-formed, on free
/// cells, and few (throttled).
#[test]
fn live_output_for_the_dhbloo_build() {
    let input = format!(
        "info show_detail 3\nyxshowinfo\nSTART 15\nINFO timeout_turn 1500\n{}end\n",
        position("board")
    );
    let lines = replies(&input);
    let mv = lines.iter().position(|l| parse_move(l).is_some()).unwrap();
    let live: Vec<&String> = lines[..mv].iter().filter(|l| is_live(l)).collect();
    assert!(
        live.iter().any(|l| l.starts_with("MESSAGE REALTIME BEST ")),
        "no live best move: {lines:#?}"
    );
    let blocks = info_blocks(&lines[..mv]);
    assert!(!blocks.is_empty(), "no INFO block: {lines:#?}");
    for &(index, count, depth, first) in &blocks {
        assert_eq!((index, count), (0, 1));
        assert!(depth >= 1);
        assert!(on_free_cell(first), "{first:?}");
    }
    for line in &live {
        if let Some(cell) = line
            .strip_prefix("MESSAGE REALTIME ")
            .and_then(|rest| rest.split_once(' '))
            .and_then(|(kind, cell)| (kind != "VAL" && kind != "PV").then_some(cell))
        {
            assert!(on_free_cell(parse_move(cell).unwrap()), "{line}");
        }
    }
    // Throttled: a report at most every half second of a ~0.9 s search
    // (11 lines each), plus a few moves being searched and new bests.
    let not_lost = live.iter().filter(|l| !l.contains(" LOSE ")).count();
    assert!(not_lost <= 60, "{not_lost} live lines: {lines:#?}");
}

/// The original build (show_detail 1): MESSAGE REALTIME lines, never an
/// INFO line (it would read one as the engine's move).
#[test]
fn live_output_for_the_original_build() {
    let input = format!(
        "info show_detail 1\nyxshowinfo\nstart 15 15\nINFO timeout_turn 1500\n{}yxnbest 2\nend\n",
        position("board").replace("start 15\n", "start 15 15\n")
    );
    let lines = replies(&input);
    assert!(lines
        .iter()
        .any(|l| l.starts_with("MESSAGE REALTIME BEST ")));
    assert!(!lines.iter().any(|l| l.starts_with("INFO")), "{lines:#?}");
}

/// Without a GUI asking (no YXSHOWINFO, show_detail 0..2) nothing new is
/// printed: no live line, no INFO block.
#[test]
fn no_live_output_without_a_gui() {
    for detail in ["", "INFO show_detail 1\n", "INFO show_detail 2\n"] {
        let input = format!(
            "{detail}START 15\nINFO timeout_turn 1500\n{}YXNBEST 2\nend\n",
            position("BOARD")
        );
        let lines = replies(&input);
        assert!(!lines.iter().any(|l| is_live(l)), "{lines:#?}");
        let summaries = lines
            .iter()
            .filter(|l| l.starts_with("MESSAGE depth ") || l.starts_with("MESSAGE nbest "))
            .count();
        assert_eq!(summaries, 3, "{lines:#?}");
    }
}

/// `YXNBEST 3` (dhbloo): after the `MESSAGE nbest` lines one INFO block per
/// candidate, indices 0..3 of 3, one depth, three different free cells, the
/// first of them the answer.
#[test]
fn nbest_blocks_cover_every_candidate() {
    let input = format!(
        "info show_detail 3\nyxshowinfo\nSTART 15\nINFO timeout_turn 1500\n{}yxnbest 3\nend\n",
        position("yxboard")
    );
    let lines = replies(&input);
    let last_message = lines
        .iter()
        .rposition(|l| l.starts_with("MESSAGE nbest 3 "))
        .expect("three nbest lines");
    let answer = parse_move(lines.last().unwrap()).expect("a move last");
    let blocks = info_blocks(&lines[last_message..]);
    assert_eq!(blocks.len(), 3, "{lines:#?}");
    let cells: Vec<(usize, usize)> = blocks.iter().map(|b| b.3).collect();
    for (i, &(index, count, depth, cell)) in blocks.iter().enumerate() {
        assert_eq!((index, count, depth), (i, 3, blocks[0].2));
        assert!(on_free_cell(cell));
        assert!(!cells[..i].contains(&cell), "{cells:?}");
    }
    assert_eq!(cells[0], answer);
}

/// Yixin-Board plays the answers of yxnbest and yxbalancetwo on its board
/// (and may then send `turn` without the position): so does the engine.
#[test]
fn analysis_answers_are_played() {
    let mut engine = LiveEngine::spawn(&["--seed", "1"], Logging::Errors, DEADLINE);
    let within = Duration::from_secs(20);
    let reply = |engine: &mut LiveEngine, lines: &[&str]| -> String {
        for line in lines {
            engine.send(line);
        }
        let (line, _) = engine
            .recv_reply(within)
            .unwrap_or_else(|| panic!("no reply: {:#?}", engine.transcript));
        line
    };
    assert_eq!(reply(&mut engine, &["START 15"]), "OK");
    engine.send("INFO timeout_turn 600");
    engine.send("INFO max_depth 3");
    let setup = position("yxboard");
    let setup: Vec<&str> = setup.lines().collect();
    assert_eq!(reply(&mut engine, &setup[..1]), "OK");
    for line in &setup[1..] {
        engine.send(line);
    }
    let answer = reply(&mut engine, &["yxnbest 2"]);
    let (x, y) = parse_move(&answer).unwrap();
    let again = reply(&mut engine, &[&format!("turn {x},{y}")]);
    assert!(again.starts_with("ERROR "), "{:#?}", engine.transcript);

    assert_eq!(reply(&mut engine, &setup[..1]), "OK");
    for line in &setup[1..] {
        engine.send(line);
    }
    let answer = reply(&mut engine, &["yxbalancetwo 0"]);
    let (a, b) = answer.split_once(' ').unwrap();
    let (a, b) = (parse_move(a).unwrap(), parse_move(b).unwrap());
    assert!(on_free_cell(a) && on_free_cell(b) && a != b);
    for (x, y) in [a, b] {
        let again = reply(&mut engine, &[&format!("turn {x},{y}")]);
        assert!(again.starts_with("ERROR "), "{:#?}", engine.transcript);
    }
    engine.send("END");
    let (status, _) = engine.wait_exit(within);
    assert!(status.is_some_and(|s| s.success()));
}

/// Swap2, second player, on an opening a short search finds balanced: take
/// black or stay white (one line), or add two stones on free cells (MOVE4,
/// MOVE5); nothing else, and no move line.
#[test]
fn swap2_second_player_forms() {
    let lines = replies(
        "START 15\nINFO timeout_turn 2000\nINFO max_depth 4\nINFO rule 1\n\
         start 15\nyxboard\n8,8,2\n6,6,1\n5,5,2\ndone\nyxswap2step2\nend\n",
    );
    let answer: Vec<&String> = lines.iter().filter(|l| l.contains("SWAP2")).collect();
    let one = Regex::new(r"^MESSAGE SWAP2 SWAP1 (YES|NO)$").unwrap();
    let four = Regex::new(r"^MESSAGE SWAP2 MOVE4 \d+ \d+$").unwrap();
    let five = Regex::new(r"^MESSAGE SWAP2 MOVE5 \d+ \d+$").unwrap();
    match answer.as_slice() {
        [a] => assert!(one.is_match(a), "{lines:#?}"),
        [a, b] => {
            assert!(four.is_match(a) && five.is_match(b), "{lines:#?}");
            let cell = |l: &str| {
                let mut n = l.rsplit(' ').map(|v| v.parse::<usize>().unwrap());
                let y = n.next().unwrap();
                (n.next().unwrap(), y)
            };
            let (c4, c5) = (cell(a), cell(b));
            for c in [c4, c5] {
                assert!(c.0 < 15 && c.1 < 15 && ![(8, 8), (6, 6), (5, 5)].contains(&c));
            }
            assert_ne!(c4, c5);
        }
        _ => panic!("{lines:#?}"),
    }
    assert!(!lines.iter().any(|l| parse_move(l).is_some()), "{lines:#?}");
}

/// A five already on the board (qpiskvork sends the winning move as a TURN
/// before END): a legal move at once with a MESSAGE that the game is over,
/// no search line and no win score.
#[test]
fn five_on_the_board_answers_at_once() {
    let lines = replies(
        "START 15\nINFO timeout_turn 5000\nYXBOARD\n3,3,2\n10,10,1\n4,3,2\n10,11,1\n\
         5,3,2\n11,12,1\n6,3,2\n1,1,1\ndone\nTURN 7,3\nend\n",
    );
    assert_eq!(lines.len(), 3, "{lines:#?}");
    assert!(
        lines[1].starts_with("MESSAGE game over: the opponent has five"),
        "{lines:#?}"
    );
    let answer = parse_move(&lines[2]).unwrap();
    let taken = [
        (3, 3),
        (10, 10),
        (4, 3),
        (10, 11),
        (5, 3),
        (11, 12),
        (6, 3),
        (1, 1),
        (7, 3),
    ];
    assert!(!taken.contains(&answer), "{answer:?}");
    assert!(!lines
        .iter()
        .any(|l| l.contains("+W") || l.contains("depth")));
}

/// Yixin-Board's New Game or Undo while the engine thinks sends a new
/// position without YXSTOP: the running search answers at once (the GUI
/// drops that answer) and the new position is searched.
#[test]
fn new_position_stops_the_search() {
    let mut engine = LiveEngine::spawn(&["--seed", "1"], Logging::Off, DEADLINE);
    engine.send("START 15");
    assert_eq!(engine.recv_reply(Duration::from_secs(10)).unwrap().0, "OK");
    engine.send("INFO timeout_turn 60000");
    for line in position("board").lines() {
        engine.send(line);
    }
    assert_eq!(engine.recv_reply(Duration::from_secs(10)).unwrap().0, "OK");
    // Thinking for up to a minute; a new game (empty board) arrives.
    std::thread::sleep(Duration::from_millis(300));
    engine.send("INFO timeout_turn 300");
    engine.send("start 15");
    engine.send("board");
    engine.send("done");
    let first = engine.recv_reply(Duration::from_secs(10));
    assert!(
        first.as_ref().is_some_and(|(l, _)| parse_move(l).is_some()),
        "{:#?}",
        engine.transcript
    );
    assert_eq!(
        engine.recv_reply(Duration::from_secs(10)).unwrap().0,
        "OK",
        "{:#?}",
        engine.transcript
    );
    let second = engine.recv_reply(Duration::from_secs(10)).unwrap().0;
    let (x, y) = parse_move(&second).unwrap();
    assert!((6..=8).contains(&x) && (6..=8).contains(&y), "{second}");
    engine.send("END");
    let (status, _) = engine.wait_exit(Duration::from_secs(10));
    assert!(status.is_some_and(|s| s.success()));
}
