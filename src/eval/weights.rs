//! The evaluation's fitted data: the value of each line pattern, the bonus
//! of each threat class, and the weights that mix the two sides' sums.
//!
//! Written by `pbrain-wuzi tune` (Texel's method, [`super::fit`]), which
//! rewrites the whole file; notes added by hand (such as the match that
//! validated a refit) go into the record below. The side to move's weight
//! and the scale stay fixed, as does the value of a dead line, an overline,
//! a forbidden point and a five. The fitting run:
//!
//! ```text
//! pbrain-wuzi tune --games 2000 --depth 4 --nodes 20000 --seed 2024
//! 2000 self-play games (15×15: 70 % freestyle, 15 % standard, 15 % renju),
//! 40 794 quiet positions (36 528 to fit, 4 266 of held-out games); K = 0.003734
//! fitted to the old weights; loss 0.200640 → 0.191464 (held out 0.197588 →
//! 0.193222). The monotone constraints pooled the patterns from a closed three
//! up to an open four at 51: the class bonuses carry threes and fours.
//! Against the old hand-set tables: +86.9 Elo (+39.0 … +138.3), 200 games,
//! 100 ms/move (the record and the old tables are in docs/tuning.md).
//! Five (pattern and class) is not fitted: no quiet position has a five point.
//! ```

use crate::types::{Pattern, Threat};

/// Value of each line pattern, by [`Pattern`].
pub const PATTERN_VALUE: [i32; Pattern::COUNT] = [
    0,    // Dead
    0,    // Overline
    3,    // Block1
    3,    // Flex1
    7,    // Block2
    31,   // Flex2
    51,   // Block3
    51,   // Flex3
    51,   // Block4
    51,   // DoubleFour
    51,   // Flex4
    2000, // Five
];

/// Extra value of each threat class, by [`Threat`].
pub const CLASS_BONUS: [i32; Threat::COUNT] = [
    0,    // None
    0,    // Forbidden
    0,    // MaybeForbidden
    0,    // Two
    85,   // Three
    179,  // DoubleThree
    188,  // Four
    660,  // FourThree
    660,  // Flex4
    2000, // Five
];

/// Weight of the side to move's value sum, in 1/[`MIX_SCALE`] units.
pub const OURS_WEIGHT: i32 = 24;
/// Weight of the opponent's value sum, in 1/[`MIX_SCALE`] units.
pub const THEIRS_WEIGHT: i32 = 21;
/// Denominator of the two mixing weights.
pub const MIX_SCALE: i32 = 64;
