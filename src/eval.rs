//! Static evaluation from the board's incremental cell values.
//!
//! Every empty cell carries, for each side, the value of a stone there (line
//! patterns plus combined threats). Their sums measure each side's potential;
//! the side to move gets its own potential at a premium because it acts first.

use crate::board::Board;

/// Largest magnitude a static evaluation takes, well below the mate scores.
pub const EVAL_LIMIT: i32 = 20_000;

// The mixing weights: `THEIRS_WEIGHT` is fitted with the tables of
// `src/board/threat.rs` (see the comment there); `OURS_WEIGHT` stays fixed, as
// it only sets the overall scale.

/// Weight of the side to move's value sum, in 1/[`MIX_SCALE`] units.
pub const OURS_WEIGHT: i32 = 24;
/// Weight of the opponent's value sum, in 1/[`MIX_SCALE`] units.
pub const THEIRS_WEIGHT: i32 = 21;
/// Denominator of the two mixing weights.
pub const MIX_SCALE: i32 = 64;

/// The position's value for the side to move, in the search's score units.
#[inline]
pub fn evaluate(board: &Board) -> i32 {
    let us = board.side_to_move();
    let ours = board.value_sum(us);
    let theirs = board.value_sum(us.opponent());
    ((ours * OURS_WEIGHT - theirs * THEIRS_WEIGHT) / MIX_SCALE).clamp(-EVAL_LIMIT, EVAL_LIMIT)
}
