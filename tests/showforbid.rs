//! `YXSHOWFORBID` agrees with the forbidden-point fixtures: every 15×15 renju
//! position of `tests/data/forbidden-cases.txt` is sent to the engine as a
//! `YXBOARD` (black's stones listed first as the engine's own, as Yixin-Board
//! and Rapfi do), and the `FORBID …` reply must list exactly the points the
//! library finds (which `tests/rules.rs` checks against the expected sets).

mod common;

use std::time::Duration;

use common::board::stones;
use common::data::forbidden_cases;
use common::{run_engine, Logging};
use wuzi::board::Board;
use wuzi::rules::renju::forbidden_points;
use wuzi::types::Color;

/// Longest the engine may take for all the cases (it takes milliseconds).
const DEADLINE: Duration = Duration::from_secs(60);

/// The reply the library's forbidden points make.
fn library_reply(board: &Board) -> String {
    let points: String = forbidden_points(board)
        .iter()
        .map(|p| format!("{:02}{:02}", p.x(), p.y()))
        .collect();
    format!("FORBID {points}.")
}

#[test]
fn yxshowforbid_agrees_with_fixtures() {
    let (all, _) = forbidden_cases();
    let cases: Vec<_> = all.iter().filter(|c| c.board.width() == 15).collect();
    assert!(cases.len() >= 25, "only {} cases read", cases.len());
    let mut input = String::from("START 15\nINFO rule 4\n");
    for case in &cases {
        input.push_str("YXBOARD\n");
        for (color, owner) in [(Color::Black, 1), (Color::White, 2)] {
            for p in stones(&case.board, color) {
                input.push_str(&format!("{},{},{owner}\n", p.x(), p.y()));
            }
        }
        input.push_str("DONE\nYXSHOWFORBID\n");
    }
    input.push_str("END\n");
    let run = run_engine(&["--script"], input.into_bytes(), DEADLINE, Logging::Off);
    if let Err(e) = run.check_clean_exit() {
        panic!("{e}");
    }
    let replies = run.lines();
    assert_eq!(replies.first().map(String::as_str), Some("OK"));
    assert_eq!(replies.len(), cases.len() + 1, "{replies:#?}");
    for (case, reply) in cases.iter().zip(&replies[1..]) {
        assert_eq!(
            *reply,
            library_reply(&case.board),
            "forbidden-cases.txt line {}",
            case.line
        );
    }
}
