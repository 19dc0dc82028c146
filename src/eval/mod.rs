//! The static evaluation: fitted tables indexed by pattern codes
//! ([`tables`], [`code`]), the threat term ([`threat`]) and their fitters
//! ([`fit`], [`threat_fit`]).
//!
//! Every empty cell has, for each side, a [pattern code](code): the four
//! line patterns a stone there would make, as an unordered combination. Each
//! side's tables give a code's worth when that side moves next (`mover`) and
//! when it waits (`waiter`); the board keeps both sums over the empty cells
//! up to date move by move, and the evaluation is the side to move's mover
//! sum minus the opponent's waiter sum ([`evaluate`]). The same codes index
//! the move policy (`attack`, `defence`) that orders the search's moves.
//!
//! This layer sits below the board: it knows patterns by name, not boards.

pub mod code;
pub mod fit;
pub mod tables;
pub mod threat;
pub mod threat_fit;

/// Largest magnitude a static evaluation takes, well below the mate scores.
pub const EVAL_LIMIT: i32 = 20_000;

/// The position's value for the side to move, in the search's score units,
/// from the table sums ([`tables`]): `mover`, the side to move's sum of its
/// mover entries, and `waiter`, the opponent's sum of its waiter entries.
#[inline]
pub fn evaluate(mover: i32, waiter: i32) -> i32 {
    ((mover - waiter) / tables::UNIT).clamp(-EVAL_LIMIT, EVAL_LIMIT)
}
