//! Tactical positions solved by the search with a fixed depth and node budget
//! (no clock, so the results are deterministic):
//!
//! - the VCF puzzles of `tests/data/vcf-puzzles.txt` (copied unchanged from
//!   the shared test sets, with their source citations);
//! - hand-made positions drawn as ASCII diagrams.
//!
//! Diagram legend (one character per cell, spaces ignored, rows top to bottom
//! = y 0, 1, …; the board is exactly as large as the drawing):
//!
//! | char | meaning |
//! | --- | --- |
//! | `X` / `O` | black / white stone |
//! | `.` | empty |
//! | `a` | empty, an accepted best move (if there is none, any move is accepted) |
//! | `f` | empty, a move that must NOT be chosen (a forbidden or fake winning point) |
//!
//! Every hand-made answer was worked out by hand (see the comments) and
//! cross-checked with an independent brute-force prover (own rule code,
//! full-width defence: every empty cell is tried for the defender).

use std::sync::atomic::AtomicBool;

use wuzi::board::Board;
use wuzi::search::tt::Tt;
use wuzi::search::{Limits, SearchResult, Searcher, MATE_BOUND};
use wuzi::types::{Color, Pos, Rule};

// ---------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------

const TT_BYTES: usize = 16 << 20;

fn parse_pos(token: &str) -> Pos {
    let (x, y) = token
        .split_once(',')
        .unwrap_or_else(|| panic!("bad coordinate {token:?}"));
    Pos::new(x.trim().parse().unwrap(), y.trim().parse().unwrap())
}

fn parse_rule(name: &str) -> Rule {
    match name {
        "freestyle" => Rule::Freestyle,
        "standard" => Rule::Standard,
        "renju" => Rule::Renju,
        other => panic!("unknown rule {other}"),
    }
}

/// A board from a move list in play order, black first; `pass` skips a turn.
fn board_from_moves(rule: Rule, size: usize, moves: &str) -> Board {
    Board::from_moves(rule, size, moves).unwrap_or_else(|e| panic!("{e} in {moves:?}"))
}

/// Searches `board` to `depth` with at most `nodes` nodes and a fresh table.
fn search(board: &Board, depth: i32, nodes: u64) -> SearchResult {
    let mut tt = Tt::new(TT_BYTES);
    let stop = AtomicBool::new(false);
    let limits = Limits {
        max_nodes: nodes,
        ..Limits::depth(depth)
    };
    Searcher::new(board, &mut tt, &stop, limits).run(None)
}

fn describe(result: &SearchResult) -> String {
    let pv: Vec<String> = result.pv.iter().map(|p| p.to_string()).collect();
    format!(
        "best {} score {} depth {} nodes {} pv {}",
        result.best.map_or("none".to_string(), |p| p.to_string()),
        result.score_text(),
        result.depth,
        result.nodes,
        pv.join(" ")
    )
}

// ---------------------------------------------------------------------------
// VCF puzzles (tests/data/vcf-puzzles.txt)
// ---------------------------------------------------------------------------

/// Budget for the puzzles: the brief's "depth 10, 2 M nodes".
const VCF_DEPTH: i32 = 10;
const VCF_NODES: u64 = 2_000_000;

/// Puzzles where a DIFFERENT winning first move from the VCF first moves the
/// file lists also wins (the file lists every VCF first move; these wins
/// start with a quiet move or a three, i.e. they are VCTs, and most are
/// shorter than the listed VCF). Each was proved to win by an independent
/// brute-force prover with full-width defence (every empty cell tried for the
/// defender) within the stated number of attacker moves. Before the root VCF
/// solver the search played these; it is accepted should the VCF solver run
/// out of budget.
const VCF_OTHER_WINS: &[(usize, &str, &str)] = &[
    (27, "5,13", "wins within 4 black moves (VCF needs 5)"),
    (28, "5,13", "wins within 4 black moves (VCF needs 5)"),
    (
        74,
        "7,15",
        "= line 27 moved by (+2,+2): wins within 4 black moves",
    ),
    (48, "12,9", "wins within 5 black moves"),
    (49, "12,9", "wins within 5 black moves"),
    (50, "12,9", "wins within 5 black moves"),
    (55, "7,12", "wins within 6 black moves"),
    (59, "11,12", "wins within 7 black moves"),
];

struct Puzzle {
    line: usize,
    rule: &'static str,
    board: Board,
    accepted: Vec<Pos>,
    source: &'static str,
}

fn puzzles() -> Vec<Puzzle> {
    let text: &'static str = include_str!("data/vcf-puzzles.txt");
    let mut out = Vec::new();
    for (index, line) in text.lines().enumerate() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let f: Vec<&'static str> = line.split('\t').collect();
        let rule = parse_rule(f[0]);
        let size: usize = f[1].parse().unwrap();
        let board = board_from_moves(rule, size, f[3]);
        let side = match f[2] {
            "black" => Color::Black,
            "white" => Color::White,
            other => panic!("bad side {other}"),
        };
        assert_eq!(
            board.side_to_move(),
            side,
            "line {}: side to move",
            index + 1
        );
        out.push(Puzzle {
            line: index + 1,
            rule: f[0],
            board,
            accepted: f[4].split_whitespace().map(parse_pos).collect(),
            source: f[5],
        });
    }
    out
}

/// Solves the puzzles whose line number passes `select`, accepting the file's
/// first moves plus `extra(line)`; returns the failure reports.
fn solve_puzzles(select: impl Fn(usize) -> bool, extra: impl Fn(usize) -> Vec<Pos>) -> Vec<String> {
    let mut failures = Vec::new();
    let mut count = 0;
    for p in puzzles().into_iter().filter(|p| select(p.line)) {
        count += 1;
        let result = search(&p.board, VCF_DEPTH, VCF_NODES);
        let mut accepted = p.accepted.clone();
        accepted.extend(extra(p.line));
        let best_ok = result.best.is_some_and(|b| accepted.contains(&b));
        if !best_ok || result.score <= MATE_BOUND {
            let acc: Vec<String> = accepted.iter().map(|p| p.to_string()).collect();
            failures.push(format!(
                "line {} ({} {}x{}, {}): {}; accepted {}\n{:?}",
                p.line,
                p.rule,
                p.board.width(),
                p.board.height(),
                p.source,
                describe(&result),
                acc.join(" "),
                p.board
            ));
        }
    }
    println!("{count} puzzles searched, {} failed", failures.len());
    failures
}

/// Every puzzle, including line 24-26/73 (item i=3, a VCF of 11 black moves,
/// beyond the alpha-beta search alone) and line 56 (renju, where the search
/// once claimed a false win with 9,9 because white's defence on a point
/// forbidden to black was never generated; that bug is fixed and has its own
/// test, `renju_white_blocks_on_a_black_forbidden_point`).
#[test]
fn vcf_puzzles_solved_within_budget() {
    let all = puzzles();
    assert_eq!(all.len(), 70, "vcf-puzzles.txt holds 70 puzzles");
    for (line, _, _) in VCF_OTHER_WINS {
        assert!(
            all.iter().any(|p| p.line == *line),
            "no puzzle on line {line}"
        );
    }
    let failures = solve_puzzles(
        |_| true,
        |line| {
            VCF_OTHER_WINS
                .iter()
                .filter(|&&(l, _, _)| l == line)
                .map(|&(_, m, _)| parse_pos(m))
                .collect()
        },
    );
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

// ---------------------------------------------------------------------------
// Hand-made positions
// ---------------------------------------------------------------------------

/// What the search must conclude besides its move.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Expect {
    /// A win: score > MATE_BOUND.
    Win,
    /// Not lost: score > -MATE_BOUND.
    Hold,
    /// A loss: score < -MATE_BOUND.
    Loss,
    /// Only the move is checked: the position may be lost whatever is
    /// played, and the test is about which defence comes first.
    MoveOnly,
}

/// Depth and node budget of the hand-made positions.
const TACTIC_DEPTH: i32 = 8;
const TACTIC_NODES: u64 = 300_000;

/// Parses `picture`, searches it with `to_move` to play and checks the move
/// against the `a` / `f` marks and the score against `expect`.
fn tactic(rule: Rule, to_move: Color, expect: Expect, picture: &str) {
    let (board, marks) =
        Board::from_diagram(rule, to_move, picture).unwrap_or_else(|e| panic!("{e}"));
    let marked =
        |mark: char| -> Vec<Pos> { marks.iter().filter(|m| m.0 == mark).map(|m| m.1).collect() };
    let (accepted, refused) = (marked('a'), marked('f'));
    if let Some((other, _)) = marks.iter().find(|m| m.0 != 'a' && m.0 != 'f') {
        panic!("unknown diagram character {other:?}");
    }
    let result = search(&board, TACTIC_DEPTH, TACTIC_NODES);
    let best = result.best.expect("a move");
    let mut problems = Vec::new();
    if !accepted.is_empty() && !accepted.contains(&best) {
        let acc: Vec<String> = accepted.iter().map(|p| p.to_string()).collect();
        problems.push(format!("best move not in {{{}}}", acc.join(" ")));
    }
    if refused.contains(&best) {
        problems.push("chose a refused (f) cell".to_string());
    }
    let score_ok = match expect {
        Expect::Win => result.score > MATE_BOUND,
        Expect::Hold => result.score > -MATE_BOUND,
        Expect::Loss => result.score < -MATE_BOUND,
        Expect::MoveOnly => true,
    };
    if !score_ok {
        problems.push(format!("score does not match {expect:?}"));
    }
    assert!(
        problems.is_empty(),
        "{rule:?}, {to_move:?} to move: {}\n{}\n{board:?}",
        problems.join("; "),
        describe(&result)
    );
}

// --- Winning at once -------------------------------------------------------

#[test]
fn win_in_one_at_either_end_of_a_four() {
    // Black's open four (4..7, 7): either end makes five.
    tactic(
        Rule::Freestyle,
        Color::Black,
        Expect::Win,
        "
        ...............
        ...............
        ...............
        ...............
        ...............
        .....O.........
        ......O........
        ...aXXXXa......
        .....O.O.......
        .........O.....
        ...............
        ...............
        ...............
        ...............
        ...............",
    );
}

#[test]
fn win_in_one_in_the_gap_despite_their_three() {
    // Black's diagonal XX.XX ((3,3), (4,4), (6,6), (7,7)): the gap (5,5)
    // makes five. White's open three on row 10 does not matter.
    tactic(
        Rule::Freestyle,
        Color::Black,
        Expect::Win,
        "
        ...............
        ...............
        ...............
        ...X...........
        ....X..........
        .....a.........
        ......X........
        .......X.......
        ...............
        ...............
        ......OOO......
        ...............
        ...............
        ...............
        ...............",
    );
}

#[test]
fn take_our_five_instead_of_blocking_their_four() {
    // Both sides have a four; black to move completes five at (8,4) rather
    // than blocking white's five point (11,10).
    tactic(
        Rule::Freestyle,
        Color::Black,
        Expect::Win,
        "
        ...............
        ...............
        ...............
        ...............
        ...OXXXXa......
        ...............
        ...............
        ...............
        ...............
        ...............
        ......XOOOO....
        ...............
        ...............
        ...............
        ...............",
    );
}

#[test]
fn win_in_one_in_the_corner_of_a_20x20_board() {
    // Column 19 (the right edge), black on y = 15..18: (19,19) in the
    // corner or (19,14) makes five.
    tactic(
        Rule::Freestyle,
        Color::Black,
        Expect::Win,
        "
        ....................
        ....................
        ....................
        ....................
        ....................
        ....................
        ....................
        ....................
        ....................
        ..........O.........
        ...........O........
        ............O.......
        ....................
        ....................
        ...................a
        ...................X
        ...................X
        ...................X
        ...................X
        ...................a",
    );
}

// --- Forced defence ---------------------------------------------------------

#[test]
fn block_the_four_the_only_move() {
    // White's four XOOOO. on row 7 has one five point, (8,7): black must
    // take it. Black has nothing of its own.
    tactic(
        Rule::Freestyle,
        Color::Black,
        Expect::Hold,
        "
        ...............
        ...............
        ...............
        ...............
        ...............
        ...............
        .....X.........
        ...XOOOOa......
        ......X........
        ...............
        ...............
        ...............
        ...............
        ...............
        ...............",
    );
}

#[test]
fn block_the_four_even_with_our_open_three() {
    // Black has an open three (5..7, 3), but white's four on column 10
    // (capped by X on (10,5)) threatens five at (10,10): black must block
    // there first; the three can wait.
    tactic(
        Rule::Freestyle,
        Color::Black,
        Expect::Hold,
        "
        ...............
        ...............
        ...............
        .....XXX.......
        ...............
        ..........X....
        ..........O....
        ..........O....
        ..........O....
        ..........O....
        ..........a....
        ...............
        ...............
        ...............
        ...............",
    );
}

#[test]
fn stop_an_open_three() {
    // White's open three ..OOO.. (6..8, 7) with room on both sides; black
    // has no attack. Only the two adjacent ends stop it: after a block one
    // further out (e.g. (4,7)) white plays (9,7) and has an open four.
    // (White, a tempo ahead, may win anyway — the search finds a win in 12
    // plies after the block — so only the move is checked.)
    tactic(
        Rule::Freestyle,
        Color::Black,
        Expect::MoveOnly,
        "
        ...............
        ...............
        ...............
        ...............
        ...............
        ...............
        ...............
        .....aOOOa.....
        ...............
        ...............
        ...X...........
        ...............
        ...........X...
        ...............
        ...............",
    );
}

#[test]
fn stop_a_split_three() {
    // White's split three .O.OO. (5, 7, 8 on row 7): the gap (6,7) and the
    // two ends (4,7), (9,7) each leave white at most a capped four.
    tactic(
        Rule::Freestyle,
        Color::Black,
        Expect::Hold,
        "
        ...............
        ...............
        ...............
        ...............
        ...............
        ...............
        ...............
        ....aOaOOa.....
        ...............
        ...............
        ...X...........
        ...............
        ...........X...
        ...............
        ...............",
    );
}

#[test]
fn recognise_a_lost_position() {
    // White already has an open four (5..8, 7); black has nothing: lost.
    tactic(
        Rule::Freestyle,
        Color::Black,
        Expect::Loss,
        "
        ...............
        ...............
        ...............
        ...............
        ...............
        ...X...........
        ...............
        ....OOOO.......
        ...X...........
        .....X.........
        ...............
        ...............
        ...............
        ...............
        ...............",
    );
}

// --- Making the winning threat ---------------------------------------------

#[test]
fn open_four_when_the_opponent_has_nothing() {
    // Black's open three (6..8, 7); white has no four and no three: either
    // end makes an open four, a win in 3 plies. Nothing else wins as fast.
    tactic(
        Rule::Freestyle,
        Color::Black,
        Expect::Win,
        "
        ...............
        ...............
        ...............
        ...............
        ...O...........
        ...............
        ...............
        .....aXXXa.....
        ...............
        ...........O...
        ..O............
        ...............
        ...............
        ...............
        ...............",
    );
}

const FOUR_THREE: &str = "
        ...............
        ...............
        ...............
        ...............
        ...............
        .......X.......
        .......X.......
        ...OXXXa.......
        ...............
        ...............
        ...........O...
        ..O............
        ...............
        ...............
        ...............";

#[test]
fn four_three_wins() {
    // (7,7): the row four O X X X * (five point (8,7)) plus the column
    // open three (7,5), (7,6), *: white must block (8,7), then black opens
    // the column four. The only win in 5 plies (no 4-4 or open four exists).
    tactic(Rule::Freestyle, Color::Black, Expect::Win, FOUR_THREE);
}

#[test]
fn renju_four_three_is_legal_and_wins() {
    // The same position under renju: a four plus one three is allowed.
    tactic(Rule::Renju, Color::Black, Expect::Win, FOUR_THREE);
}

#[test]
fn double_four_on_one_line_wins_in_freestyle() {
    // Row 7: X.X.X.X (4, 6, 8, 10): (7,7) makes X.XXX.X, two five points:
    // a double four, a win in 3 plies in freestyle.
    tactic(
        Rule::Freestyle,
        Color::Black,
        Expect::Win,
        "
        ...............
        ...............
        ...............
        ...............
        ...........O...
        ...............
        ...............
        ....X.XaX.X....
        ...............
        ...O...........
        ...............
        .........O.....
        ...............
        ...............
        ...............",
    );
}

#[test]
fn double_four_across_two_lines_wins() {
    // Two capped threes, row (4..6, 7) capped at (3,7) and column (7, 4..6)
    // capped at (7,3), meet at (7,7): black there has two fours.
    tactic(
        Rule::Freestyle,
        Color::Black,
        Expect::Win,
        "
        ...............
        ...............
        ...............
        .......O.......
        .......X.......
        .......X.......
        .......X.......
        ...OXXXa.......
        ...............
        ...............
        ...............
        ..........O....
        ...............
        ...............
        ...............",
    );
}

const THREE_THREE: &str = "
        ...............
        ...............
        ...............
        ...............
        ...............
        .......X.......
        .......X.......
        .....XX*.......
        ...............
        ...............
        ...............
        ..O........O...
        ...............
        ...............
        ...............";

#[test]
fn double_three_wins_in_freestyle() {
    // (7,7) makes two open threes (row 5..7, column 5..7); white, without a
    // four of its own, can stop only one: a win in 5 plies.
    tactic(
        Rule::Freestyle,
        Color::Black,
        Expect::Win,
        &THREE_THREE.replace('*', "a"),
    );
}

#[test]
fn renju_double_three_point_is_not_played() {
    // The same position under renju: (7,7) is a double three, forbidden for
    // black. Black still wins, by threats starting at (6,6) (three threes;
    // scripts/prove.py, fixture `forbidden-three-three` of
    // tests/data/threat-positions.txt, which lists every winning move),
    // found by the root VCT. This test once expected no win: the search
    // alone saw none within its depth.
    tactic(
        Rule::Renju,
        Color::Black,
        Expect::Win,
        &THREE_THREE.replace('*', "f"),
    );
}

// --- Renju ------------------------------------------------------------------

#[test]
fn renju_black_avoids_the_double_four_and_wins_with_four_three() {
    // Row 7: X.X.X.X (4, 6, 8, 10): (7,7) would be a double four: forbidden.
    // Black wins instead with the four-three at (13,12): the row four
    // O X X X * (five point (14,12)) and the column open three (13,10),
    // (13,11), *. (In freestyle (7,7) would win faster, see
    // double_four_on_one_line_wins_in_freestyle.)
    tactic(
        Rule::Renju,
        Color::Black,
        Expect::Win,
        "
        ...............
        ...............
        ...............
        ...............
        ...........O...
        ...............
        ...............
        ....X.XfX.X....
        ...............
        ...O...........
        .............X.
        .............X.
        .........OXXXa.
        ...............
        ...O...........",
    );
}

#[test]
fn renju_white_forces_black_onto_a_forbidden_point() {
    // Black's row XXX.XX (4, 5, 6, 8, 9 on row 7) makes (7,7) an overline
    // point for black. White's column three (7,3)..(7,5), capped by X on
    // (7,2): white (7,6) makes a four whose only five point is (7,7), which
    // black may not take: white wins in 3 plies.
    tactic(
        Rule::Renju,
        Color::White,
        Expect::Win,
        "
        ...............
        ...............
        .......X.......
        .......O.......
        .......O.......
        .......O.......
        .......a.......
        ....XXX.XX.....
        ...............
        ...............
        ..O............
        ...............
        ...............
        ...............
        ...............",
    );
}

const OVERLINE_POINT: &str = "
        ...............
        ...............
        ...........X...
        ...........O...
        ...........O...
        ...........O...
        ...........O...
        ...XXX*XX..a...
        ...............
        ...............
        ...............
        ...............
        ...............
        ...............
        ...............";

#[test]
fn renju_overline_point_is_not_a_win() {
    // Black's XXX.XX: the gap (6,7) is an overline, forbidden; white's
    // column four (capped by X on (11,2)) must be blocked at (11,7).
    tactic(
        Rule::Renju,
        Color::Black,
        Expect::Hold,
        &OVERLINE_POINT.replace('*', "f"),
    );
}

#[test]
fn renju_white_must_not_fear_a_black_overline() {
    // White to move in the overline position, renju, with white's four
    // removed: (6,7) is no threat for black (overline), so white need not
    // block it; white has a free move and must not think it is lost.
    tactic(
        Rule::Renju,
        Color::White,
        Expect::Hold,
        "
        ...............
        ...............
        ...............
        ...............
        ...............
        ...............
        ...............
        ...XXX.XX......
        ...............
        ...O.......O...
        ...............
        ......O........
        ...............
        ...............
        ...............",
    );
}

/// Found with puzzle line 56: white's only defence is a point forbidden for
/// black, and the move generator never offers it.
///
/// Black threatens (a) the split three X.XX on column 9 ((9,7), (9,9),
/// (9,10)), whose open four comes from (9,8), and (b) the four-three (8,10):
/// the diagonal (5,7), (6,8), (7,9) + (8,10), capped by O on (4,6), has its
/// five point on (9,11), and the anti-diagonal (6,12), (8,10), (9,9) becomes
/// an open three. Only (9,11) — the end of the column three AND the five
/// point of the diagonal — stops both: after any other white move black wins
/// within 4 moves, after (9,11) black has no win within 5 moves (both by the
/// brute-force prover; the white stones on (8,8), (8,9), (6,10), (10,10) only
/// take away black's other resources).
///
/// For black, (9,11) is a double four (column X.XXX and diagonal XXX.X), so
/// its threat class is `Forbidden`, and `movegen::generate`, facing a three,
/// keeps only the cells where either side's class is `Four` or better:
/// (9,11) was never searched, and the search answered (9,8) with score -L6
/// (white believed it was lost). Fixed: facing a three, the opponent's cells
/// are now taken by line pattern (a four on some line), not by threat class.
#[test]
fn renju_white_blocks_on_a_black_forbidden_point() {
    tactic(
        Rule::Renju,
        Color::White,
        Expect::Hold,
        "
        ...............
        ...............
        ...............
        ...............
        ...............
        ...............
        ....O..........
        .....X...X.....
        ......X.O......
        .......XOX.....
        ......O..XO....
        .........a.....
        ......X........
        ...............
        ..O.........O..",
    );
}

// --- Standard and caro: what is not a five ----------------------------------

#[test]
fn standard_overline_point_is_not_a_win() {
    // Standard: the gap of XXX.XX makes six, no win, so black must block
    // white's four at (11,7).
    tactic(
        Rule::Standard,
        Color::Black,
        Expect::Hold,
        &OVERLINE_POINT.replace('*', "f"),
    );
}

#[test]
fn freestyle_overline_point_wins() {
    // Freestyle, same stones: six in a row wins, at once.
    tactic(
        Rule::Freestyle,
        Color::Black,
        Expect::Win,
        &OVERLINE_POINT.replace('a', ".").replace('*', "a"),
    );
}

#[test]
fn caro_overline_rule_8_wins() {
    // Caro rule 8 (Rule::Caro): an overline wins.
    tactic(
        Rule::Caro,
        Color::Black,
        Expect::Win,
        &OVERLINE_POINT.replace('a', ".").replace('*', "a"),
    );
}

#[test]
fn caro_exact_overline_is_not_a_win() {
    // Caro rule 9 (Rule::CaroExact): six does not win: block at (11,7).
    tactic(
        Rule::CaroExact,
        Color::Black,
        Expect::Hold,
        &OVERLINE_POINT.replace('*', "f"),
    );
}

const BLOCKED_FIVE: &str = "
        ...............
        ...............
        ...........X...
        ...........O...
        ...........O...
        ...........O...
        ...........O...
        ..OXXXX*O..a...
        ...............
        ...............
        ...............
        ...............
        ...............
        ...............
        ...............";

#[test]
fn caro_five_blocked_at_both_ends_is_not_a_win() {
    // Caro: (7,7) would make OXXXXXO, exactly five capped by white at both
    // ends: no win. Black must block white's four at (11,7) instead.
    tactic(
        Rule::CaroExact,
        Color::Black,
        Expect::Hold,
        &BLOCKED_FIVE.replace('*', "f"),
    );
    tactic(
        Rule::Caro,
        Color::Black,
        Expect::Hold,
        &BLOCKED_FIVE.replace('*', "f"),
    );
}

#[test]
fn freestyle_blocked_five_wins() {
    // Freestyle: the same five wins.
    tactic(
        Rule::Freestyle,
        Color::Black,
        Expect::Win,
        &BLOCKED_FIVE.replace('a', ".").replace('*', "a"),
    );
}

#[test]
fn caro_five_blocked_at_one_end_wins() {
    // Caro: with (8,7) empty the five is capped at one end only: it wins.
    tactic(
        Rule::CaroExact,
        Color::Black,
        Expect::Win,
        &BLOCKED_FIVE
            .replace('a', ".")
            .replace("*O", "a.")
            .replace('*', "a"),
    );
}

const WHITE_OVERLINE_FOUR: &str = "
        ...............
        ...............
        ...............
        ...............
        .....*XXX*.....
        ...............
        ...............
        ...............
        ...............
        ...............
        ..XOOOO#O......
        ...............
        ...............
        ...............
        ...............";

#[test]
fn standard_white_overline_four_is_no_threat() {
    // Standard: white's only "five point" (7,10) would join six (3..8), so
    // white has no four; black's open three (6..8, 4) turns into an open
    // four at either end and wins.
    tactic(
        Rule::Standard,
        Color::Black,
        Expect::Win,
        &WHITE_OVERLINE_FOUR.replace('*', "a").replace('#', "."),
    );
}

#[test]
fn freestyle_white_overline_four_must_be_blocked() {
    // Freestyle: six wins for white too, so (7,10) is a real five point and
    // black must block it before anything else.
    tactic(
        Rule::Freestyle,
        Color::Black,
        Expect::Hold,
        &WHITE_OVERLINE_FOUR.replace('*', ".").replace('#', "a"),
    );
}
