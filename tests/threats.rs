//! Threat-space positions of `tests/data/threat-positions.txt`, solved by
//! the VCF and VCT solvers and by the full search, each within a fixed node
//! budget (no clock, so the results are deterministic).
//!
//! Every answer in that file was verified independently of the engine by
//! `scripts/prove.py` (its own bitboard fives, the match referee's renju
//! rules, a full-width defender); the file's header says what each kind of
//! claim means and `scripts/test_prove.py` re-checks a few of them. Kinds:
//!
//! - `win`: the marked `a` cells are every threat move that wins with at
//!   most `threes` moves that are not fours (`vcf: none`: no win by fours
//!   exists). The VCT solver and the search must play one of them.
//! - `vcf`: the `a` cells are every first move of a win by fours, the
//!   shortest taking `moves` moves. The VCF solver, the VCT solver and the
//!   search must play one of them.
//! - `defence`: every legal move but the `a` cells loses; the search must
//!   choose an `a` cell and not score the position as lost, and after that
//!   move the opponent's VCT solver must find no win.
//!
//! `f` cells are renju forbidden points: no solver and no search may play
//! them.

mod common;

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use common::board::{parse_color, search, Diagram};
use common::fixtures::{threat_fixtures, Fixture};
use wuzi::board::Board;
use wuzi::rules::is_allowed;
use wuzi::search::vcf::Vcf;
use wuzi::search::vct::Vct;
use wuzi::search::{MATE_BOUND, MAX_DEPTH};
use wuzi::types::{Pos, Threat};

/// Node budget of the solvers (far more than the positions need).
const SOLVER_NODES: u64 = 2_000_000;
/// Depth and node budget of the full search.
const SEARCH_DEPTH: i32 = 8;
const SEARCH_NODES: u64 = 500_000;
/// Node budget of the opponent's VCT after a defence.
const REFUTE_NODES: u64 = 200_000;
/// No clock: a day.
const NO_CLOCK: Duration = Duration::from_secs(86_400);

/// The rule, side to move and board of a fixture, with its `a` and `f` cells.
fn position(fixture: &Fixture) -> (Board, Vec<Pos>, Vec<Pos>) {
    let name = &fixture.name;
    let field = |key: &str| {
        fixture
            .field(key)
            .unwrap_or_else(|| panic!("{name}: no {key}"))
    };
    let rule = wuzi::cli::parse_rule(field("rule")).unwrap_or_else(|e| panic!("{name}: {e}"));
    let diagram = Diagram::new(
        rule,
        parse_color(field("to-move")),
        &fixture.rows.join("\n"),
    );
    diagram.check_marks("af");
    let (accepted, refused) = (diagram.marked('a'), diagram.marked('f'));
    (diagram.board, accepted, refused)
}

fn fmt(cells: &[Pos]) -> String {
    cells
        .iter()
        .map(|p| p.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// Plays `line`: every move on an empty cell and allowed for its side when
/// it is played; the last one a five of the side that moved first.
fn check_line(board: &Board, line: &[Pos]) -> Result<(), String> {
    let mut board = board.clone();
    let attacker = board.side_to_move();
    let (last, moves) = line.split_last().ok_or("empty line")?;
    for &p in moves {
        let side = board.side_to_move();
        if !board.is_empty(p) || !is_allowed(&mut board, p, side) {
            return Err(format!("{p} cannot be played"));
        }
        board.make(p);
    }
    if board.threat(*last, attacker) != Threat::Five {
        return Err(format!("{last} is not a five"));
    }
    Ok(())
}

fn vct(board: &Board, nodes: u64) -> Option<Vec<Pos>> {
    let stop = AtomicBool::new(false);
    Vct::new(board, &stop, Instant::now(), NO_CLOCK, nodes).solve()
}

fn vcf(board: &Board) -> Option<Vec<Pos>> {
    let stop = AtomicBool::new(false);
    Vcf::new(board, &stop, Instant::now(), NO_CLOCK, SOLVER_NODES).solve()
}

/// A solver's line: it exists, starts with an accepted move and wins.
fn check_solver(
    what: &str,
    board: &Board,
    line: Option<Vec<Pos>>,
    accepted: &[Pos],
    refused: &[Pos],
) -> Option<String> {
    let Some(line) = line else {
        return Some(format!("{what}: no win found"));
    };
    if !accepted.contains(&line[0]) || refused.contains(&line[0]) {
        return Some(format!("{what}: first move {} not accepted", line[0]));
    }
    check_line(board, &line)
        .err()
        .map(|e| format!("{what}: line {}: {e}", fmt(&line)))
}

/// Checks one fixture; returns its problems.
fn check(fixture: &Fixture) -> Vec<String> {
    let (board, accepted, refused) = position(fixture);
    let kind = fixture.field("kind").unwrap_or("");
    let mut problems = Vec::new();
    if accepted.is_empty() {
        problems.push("no accepted (a) cell".to_string());
    }
    let result = search(&board, SEARCH_DEPTH, SEARCH_NODES);
    let best = result.best.expect("a move");
    if !accepted.contains(&best) || refused.contains(&best) {
        problems.push(format!(
            "search played {best} (score {})",
            result.score_text()
        ));
    }
    match kind {
        "win" | "vcf" => {
            if result.score <= MATE_BOUND {
                problems.push(format!("search score {} is no win", result.score_text()));
            }
            let line = vct(&board, SOLVER_NODES);
            problems.extend(check_solver("vct", &board, line, &accepted, &refused));
            let line = vcf(&board);
            if kind == "vcf" {
                problems.extend(check_solver("vcf", &board, line, &accepted, &refused));
            } else if fixture.field("vcf") == Some("none") && line.is_some() {
                problems.push("vcf solver claims a win by fours".to_string());
            }
        }
        "defence" => {
            if result.score < -MATE_BOUND {
                problems.push(format!("search score {} is a loss", result.score_text()));
            }
            let mut after = board.clone();
            after.make(best);
            if let Some(line) = vct(&after, REFUTE_NODES) {
                problems.push(format!("after {best} the opponent wins by {}", fmt(&line)));
            }
        }
        other => problems.push(format!("unknown kind {other:?}")),
    }
    problems
}

#[test]
fn threat_positions_solved_within_budget() {
    let all = threat_fixtures();
    let count = |kind: &str| all.iter().filter(|f| f.field("kind") == Some(kind)).count();
    let renju_decides = all
        .iter()
        .filter(|f| f.field("f-wins-under").is_some() || f.field("no-win-under").is_some())
        .count();
    let longest_vcf = all
        .iter()
        .filter_map(|f| f.field("moves")?.parse::<usize>().ok())
        .max();
    assert!(
        count("win") >= 10 && count("defence") >= 10 && renju_decides >= 5,
        "fixture counts"
    );
    assert!(longest_vcf >= Some(16), "a VCF of 15 fours or more");
    let mut failures = Vec::new();
    for fixture in &all {
        let problems = check(fixture);
        if !problems.is_empty() {
            let (board, _, _) = position(fixture);
            failures.push(format!(
                "{} ({}): {}\n{board:?}",
                fixture.name,
                fixture.field("source").unwrap_or("?"),
                problems.join("; ")
            ));
        }
    }
    println!("{} positions, {} failed", all.len(), failures.len());
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// `max_nodes` bounds the whole search, the root VCF and VCT included: on
/// positions where the solvers search without finding a win, a small limit
/// still returns a move within about that many nodes: the alpha-beta checks
/// its limit every 1024 nodes, and each solver stops one node past its
/// budget (a few nodes of slack in all).
#[test]
fn node_limit_covers_the_root_solvers() {
    const LIMIT: u64 = 5_000;
    for fixture in threat_fixtures() {
        let (board, _, _) = position(&fixture);
        let result = search(&board, MAX_DEPTH, LIMIT);
        assert!(result.best.is_some(), "{}: no move", fixture.name);
        assert!(
            result.nodes <= LIMIT + 1024 + 8,
            "{}: {} nodes for a limit of {LIMIT}",
            fixture.name,
            result.nodes
        );
    }
}

/// Under a node limit the root solvers take a share of it, as their time
/// is a share of the hard limit: on positions where they find no win, more
/// than half of the limit is left to the alpha-beta (before, the root VCT
/// could take all but its last thousand nodes, and a move was played at
/// depth 2).
#[test]
fn node_limit_leaves_the_alpha_beta_its_share() {
    const LIMIT: u64 = 20_000;
    let mut unsolved = 0;
    for fixture in threat_fixtures() {
        let (board, _, _) = position(&fixture);
        let result = search(&board, MAX_DEPTH, LIMIT);
        if result.score.abs() > MATE_BOUND {
            continue;
        }
        unsolved += 1;
        let alpha_beta: u64 = result.thread_nodes.iter().sum();
        assert!(
            alpha_beta > LIMIT / 2,
            "{}: the alpha-beta searched {alpha_beta} of {} nodes",
            fixture.name,
            result.nodes
        );
    }
    assert!(
        unsolved >= 5,
        "only {unsolved} positions the solvers leave open"
    );
}
