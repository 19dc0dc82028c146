//! The static evaluation: its formula, its fitted data ([`weights`]) and the
//! fitter of that data ([`fit`]).
//!
//! Every empty cell carries, for each side, the value of a stone there: the
//! values of its four line patterns plus a bonus for its threat class
//! ([`cell_value`]). The board keeps these per-cell values and their sums up
//! to date move by move, reading them from a table it builds once with
//! [`cell_value`]. The sums measure each side's potential; the side to move
//! gets its own potential at a premium because it acts first ([`mix`]).
//!
//! This layer sits below the board: it knows patterns and threat classes by
//! name, not boards.

pub mod fit;
pub mod weights;

use crate::types::{Pattern, Threat};
use weights::{CLASS_BONUS, MIX_SCALE, OURS_WEIGHT, PATTERN_VALUE, THEIRS_WEIGHT};

/// Largest magnitude a static evaluation takes, well below the mate scores.
pub const EVAL_LIMIT: i32 = 20_000;

/// The value of a stone on a cell with these line patterns and this threat
/// class: the sum of the line values plus a bonus for combined threats. A
/// forbidden point is worth nothing.
pub fn cell_value(patterns: [Pattern; 4], class: Threat) -> i32 {
    if class == Threat::Forbidden {
        return 0;
    }
    let lines: i32 = patterns.iter().map(|&p| PATTERN_VALUE[p as usize]).sum();
    lines + CLASS_BONUS[class as usize]
}

/// The position's value for the side to move, in the search's score units,
/// from the sums of the cell values over empty cells: `ours` for the side to
/// move, `theirs` for the opponent.
#[inline]
pub fn mix(ours: i32, theirs: i32) -> i32 {
    ((ours * OURS_WEIGHT - theirs * THEIRS_WEIGHT) / MIX_SCALE).clamp(-EVAL_LIMIT, EVAL_LIMIT)
}
