//! Static evaluation from the board's incremental cell values.
//!
//! Every empty cell carries, for each side, the value of a stone there (line
//! patterns plus combined threats). Their sums measure each side's potential;
//! the side to move gets its own potential at a premium because it acts first.

use crate::board::Board;

/// Largest magnitude a static evaluation takes, well below the mate scores.
pub const EVAL_LIMIT: i32 = 20_000;

/// The position's value for the side to move, in the search's score units.
#[inline]
pub fn evaluate(board: &Board) -> i32 {
    let us = board.side_to_move();
    let ours = board.value_sum(us);
    let theirs = board.value_sum(us.opponent());
    ((ours * 6 - theirs * 5) / 16).clamp(-EVAL_LIMIT, EVAL_LIMIT)
}
