//! `YXSHOWFORBID` agrees with the forbidden-point fixtures: every 15×15 renju
//! position of `tests/data/forbidden-cases.txt` is sent to the engine as a
//! `YXBOARD` (black's stones listed first as the engine's own, as Yixin-Board
//! and Rapfi do), and the `FORBID …` reply must list exactly the points the
//! library finds (which `tests/rules.rs` checks against the expected sets).

use std::io::Write;
use std::process::{Command, Stdio};

use wuzi::board::{Board, Cell};
use wuzi::rules::renju::forbidden_points;
use wuzi::types::{Color, Pos, Rule};

struct Case {
    line: usize,
    black: Vec<Pos>,
    white: Vec<Pos>,
}

fn cases() -> Vec<Case> {
    let text = include_str!("data/forbidden-cases.txt");
    let mut cases = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let fields: Vec<&str> = line.split('\t').collect();
        if line.starts_with('#') || fields.len() < 5 || fields[0] != "renju" || fields[1] != "15" {
            continue;
        }
        if fields[4] == "skipped" {
            continue;
        }
        let (mut black, mut white) = (Vec::new(), Vec::new());
        for (n, token) in fields[2].split_whitespace().enumerate() {
            if token == "pass" {
                continue;
            }
            let (x, y) = token.split_once(',').expect("x,y");
            let pos = Pos::new(x.parse().expect("x"), y.parse().expect("y"));
            if n % 2 == 0 {
                black.push(pos);
            } else {
                white.push(pos);
            }
        }
        cases.push(Case {
            line: i + 1,
            black,
            white,
        });
    }
    cases
}

fn library_reply(case: &Case) -> String {
    let mut board = Board::new(15, 15, Rule::Renju);
    for (stones, color) in [(&case.black, Color::Black), (&case.white, Color::White)] {
        for &pos in stones {
            assert_eq!(board.cell(pos), Cell::Empty);
            board.set_side_to_move(color);
            board.make(pos);
        }
    }
    let points: String = forbidden_points(&board)
        .iter()
        .map(|p| format!("{:02}{:02}", p.x(), p.y()))
        .collect();
    format!("FORBID {points}.")
}

#[test]
fn yxshowforbid_agrees_with_fixtures() {
    let cases = cases();
    assert!(cases.len() >= 25, "only {} cases read", cases.len());
    let mut input = String::from("START 15\nINFO rule 4\n");
    for case in &cases {
        input.push_str("YXBOARD\n");
        for p in &case.black {
            input.push_str(&format!("{},{},1\n", p.x(), p.y()));
        }
        for p in &case.white {
            input.push_str(&format!("{},{},2\n", p.x(), p.y()));
        }
        input.push_str("DONE\nYXSHOWFORBID\n");
    }
    input.push_str("END\n");
    let mut child = Command::new(env!("CARGO_BIN_EXE_pbrain-wuzi"))
        .arg("--script")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("engine starts");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes())
        .expect("write");
    let output = child.wait_with_output().expect("engine exits");
    assert!(output.status.success());
    assert!(
        output.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let stdout = String::from_utf8(output.stdout).expect("utf-8");
    let replies: Vec<&str> = stdout.lines().collect();
    assert_eq!(replies.first(), Some(&"OK"));
    assert_eq!(replies.len(), cases.len() + 1, "{stdout}");
    for (case, reply) in cases.iter().zip(&replies[1..]) {
        assert_eq!(
            *reply,
            library_reply(case),
            "forbidden-cases.txt line {}",
            case.line
        );
    }
}
