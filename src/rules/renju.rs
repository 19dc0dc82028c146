//! Renju's forbidden points for black, decided exactly.
//!
//! Overlines and double fours are read straight from the line patterns. A
//! double three needs more: a three counts only if one of the moves that turn
//! it into a straight four is itself not forbidden, which recurses.

use crate::board::Board;
use crate::types::{Color, Pattern, Pos, Threat, DIRECTIONS};

/// How deep the false-three recursion may go; real positions need two or three.
const MAX_NESTING: u32 = 6;

/// Whether black may not play on empty cell `pos` under renju. Always false
/// under other rules. Probes stones with [`Board::with_probe`], leaving
/// `board` as it was.
pub fn is_forbidden(board: &mut Board, pos: Pos) -> bool {
    is_forbidden_nested(board, pos, 0)
}

fn is_forbidden_nested(board: &mut Board, pos: Pos, nesting: u32) -> bool {
    if !board.rule().has_forbidden(Color::Black) || !board.is_empty(pos) {
        return false;
    }
    match board.threat(pos, Color::Black) {
        Threat::Forbidden => true,
        Threat::MaybeForbidden => nesting < MAX_NESTING && real_threes(board, pos, nesting) >= 2,
        _ => false,
    }
}

/// Counts the lines through `pos` where a black stone there makes a real
/// three: one with a straight-four point that is not itself forbidden.
fn real_threes(board: &mut Board, pos: Pos, nesting: u32) -> usize {
    let is_three = |d: usize| board.pattern(pos, Color::Black, d) == Pattern::Flex3;
    let three_dirs = [is_three(0), is_three(1), is_three(2), is_three(3)];
    board.with_probe(pos, Color::Black, |board| {
        (0..4)
            .filter(|&d| three_dirs[d])
            .filter(|&d| {
                let dir = DIRECTIONS[d];
                (-4isize..=4).filter(|&k| k != 0).any(|k| {
                    let q = pos.step(dir, k);
                    board.is_empty(q)
                        && board.pattern(q, Color::Black, d) == Pattern::Flex4
                        && !is_forbidden_nested(board, q, nesting + 1)
                })
            })
            .count()
    })
}

/// The kind of a forbidden point, as renju names them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Foul {
    /// Six or more in a row.
    Overline,
    /// Two or more fours at once.
    DoubleFour,
    /// Two or more real open threes at once.
    DoubleThree,
}

/// Why black may not play on `pos`, or `None` if the move is allowed.
pub fn foul_at(board: &mut Board, pos: Pos) -> Option<Foul> {
    if !is_forbidden(board, pos) {
        return None;
    }
    // The threat class already tells the kinds apart: `Forbidden` is an
    // overline or a double four, `MaybeForbidden` (found real) a double three.
    let overline = (0..4).any(|d| board.pattern(pos, Color::Black, d) == Pattern::Overline);
    Some(if overline {
        Foul::Overline
    } else if board.threat(pos, Color::Black) == Threat::Forbidden {
        Foul::DoubleFour
    } else {
        Foul::DoubleThree
    })
}

/// Every point black may not play in the current position, row by row
/// (empty under rules without forbidden points).
pub fn forbidden_points(board: &Board) -> Vec<Pos> {
    let mut probe = board.clone();
    board
        .cells()
        .filter(|&pos| is_forbidden(&mut probe, pos))
        .collect()
}
