//! The vocabulary every layer shares: sides, rules, cells, line patterns and
//! threat classes. Plain data only; the board computes patterns and threats,
//! the rules layer judges moves.

mod color;
mod pattern;
mod pos;
mod rule;
mod threat;

pub use color::Color;
pub use pattern::Pattern;
pub use pos::{Pos, CELLS, DIRECTIONS, MAX_SIZE, PAD, STRIDE};
pub use rule::{FiveRule, Rule};
pub use threat::Threat;
