//! Threat classes: the four line patterns through a cell combined into what a
//! stone there would threaten, plus the per-cell value used by evaluation and
//! move ordering.

use std::sync::OnceLock;

use super::pattern::Pattern;

/// Entries in a combination table: one per ordered choice of four patterns.
pub(crate) const COMBOS: usize = Pattern::COUNT * Pattern::COUNT * Pattern::COUNT * Pattern::COUNT;

/// A combination-table entry: what a stone on a cell with some four line
/// patterns threatens, and the cell's value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Combo {
    /// The threat class.
    pub threat: Threat,
    /// The cell value.
    pub value: u16,
}

/// Per restriction (free, renju black): every pattern quadruple's [`Combo`].
static COMBO_TABLES: [OnceLock<Box<[Combo; COMBOS]>>; 2] = [OnceLock::new(), OnceLock::new()];

/// The combination table for a colour: `restricted` for renju's black.
/// Index it with [`combo_index`].
pub(crate) fn combo_table(restricted: bool) -> &'static [Combo; COMBOS] {
    COMBO_TABLES[restricted as usize].get_or_init(|| {
        (0..COMBOS)
            .map(|i| {
                let digit =
                    |k: u32| Pattern::from_u8((i / Pattern::COUNT.pow(k) % Pattern::COUNT) as u8);
                let patterns = [digit(3), digit(2), digit(1), digit(0)];
                let threat = Threat::classify(patterns, restricted);
                let value = Threat::cell_value(patterns, threat);
                let value = u16::try_from(value).expect("cell values fit in 16 bits");
                Combo { threat, value }
            })
            .collect::<Box<[Combo]>>()
            .try_into()
            .expect("one entry per pattern quadruple")
    })
}

/// The index of a pattern quadruple in a combination table.
#[inline]
pub(crate) fn combo_index(patterns: [Pattern; 4]) -> usize {
    let n = Pattern::COUNT;
    ((patterns[0] as usize * n + patterns[1] as usize) * n + patterns[2] as usize) * n
        + patterns[3] as usize
}

/// What one stone on a cell threatens, over all four lines, weakest first.
#[repr(u8)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Threat {
    /// Nothing worth naming.
    None = 0,
    /// A renju forbidden point for black (overline or double four).
    Forbidden,
    /// Black's two or more open threes in renju: forbidden unless all but one
    /// are false threes; [`crate::rules::renju::is_forbidden`] decides.
    MaybeForbidden,
    /// A closed three or an open two.
    Two,
    /// One open three.
    Three,
    /// Two or more open threes.
    DoubleThree,
    /// A four (one five point).
    Four,
    /// A four together with an open three.
    FourThree,
    /// An open four or a double four: wins unless the opponent fives first.
    Flex4,
    /// A five: the move wins.
    Five,
}

impl Threat {
    /// Number of threat classes.
    pub const COUNT: usize = 10;

    /// All classes, in discriminant order.
    pub const ALL: [Threat; Threat::COUNT] = [
        Threat::None,
        Threat::Forbidden,
        Threat::MaybeForbidden,
        Threat::Two,
        Threat::Three,
        Threat::DoubleThree,
        Threat::Four,
        Threat::FourThree,
        Threat::Flex4,
        Threat::Five,
    ];

    /// Combines a cell's four line patterns. `restricted` is true for renju's
    /// black, who may not make an overline, a double four or a double three.
    pub fn classify(patterns: [Pattern; 4], restricted: bool) -> Threat {
        let mut n = [0u8; Pattern::COUNT];
        for p in patterns {
            n[p as usize] += 1;
        }
        let count = |p: Pattern| n[p as usize];
        if count(Pattern::Five) > 0 {
            return Threat::Five;
        }
        let fours = count(Pattern::Block4) + count(Pattern::Flex4) + 2 * count(Pattern::DoubleFour);
        let threes = count(Pattern::Flex3);
        if restricted {
            if count(Pattern::Overline) > 0 || fours >= 2 {
                return Threat::Forbidden;
            }
            if threes >= 2 {
                return Threat::MaybeForbidden;
            }
        }
        if count(Pattern::Flex4) > 0 || fours >= 2 {
            Threat::Flex4
        } else if fours == 1 && threes > 0 {
            Threat::FourThree
        } else if fours == 1 {
            Threat::Four
        } else if threes >= 2 {
            Threat::DoubleThree
        } else if threes == 1 {
            Threat::Three
        } else if count(Pattern::Block3) > 0 || count(Pattern::Flex2) > 0 {
            Threat::Two
        } else {
            Threat::None
        }
    }

    /// The value of a stone on a cell with these patterns and this class:
    /// the sum of the line values plus a bonus for combined threats.
    pub fn cell_value(patterns: [Pattern; 4], class: Threat) -> i32 {
        if class == Threat::Forbidden {
            return 0;
        }
        let lines: i32 = patterns.iter().map(|&p| PATTERN_VALUE[p as usize]).sum();
        lines + CLASS_BONUS[class as usize]
    }
}

// Fitted by Texel's method (`pbrain-wuzi tune`, see `src/cli/tune.rs`), with
// the mixing weights in `src/eval.rs`:
//   pbrain-wuzi tune --games 2000 --depth 4 --nodes 20000 --seed 2024
// Texel-fitted tables (+20.9 Elo, 100 games; +86.9 Elo, 200 games); the fit
// and the old tables are in docs/tuning.md. The monotone constraints pooled
// the patterns from a closed three up to an open four at 51: the class
// bonuses carry threes and fours. Five (pattern and class) is not fitted: no
// quiet position has a five point.

/// Value of each line pattern, in [`Pattern`] order (fitted, see above).
pub(crate) const PATTERN_VALUE: [i32; Pattern::COUNT] =
    [0, 0, 3, 3, 7, 31, 51, 51, 51, 51, 51, 2000];

/// Extra value of each threat class, in [`Threat`] order (fitted, see above).
pub(crate) const CLASS_BONUS: [i32; Threat::COUNT] = [0, 0, 0, 0, 85, 179, 188, 660, 660, 2000];

#[cfg(test)]
mod tests {
    use super::*;
    use Pattern::*;

    #[test]
    fn combinations() {
        assert_eq!(
            Threat::classify([Block4, Flex3, Dead, Dead], false),
            Threat::FourThree
        );
        assert_eq!(
            Threat::classify([Block4, Block4, Dead, Dead], false),
            Threat::Flex4
        );
        assert_eq!(
            Threat::classify([Block4, Block4, Dead, Dead], true),
            Threat::Forbidden
        );
        assert_eq!(
            Threat::classify([DoubleFour, Dead, Dead, Dead], true),
            Threat::Forbidden
        );
        assert_eq!(
            Threat::classify([Overline, Flex3, Dead, Dead], true),
            Threat::Forbidden
        );
        assert_eq!(
            Threat::classify([Overline, Five, Dead, Dead], true),
            Threat::Five
        );
        assert_eq!(
            Threat::classify([Flex3, Flex3, Dead, Dead], true),
            Threat::MaybeForbidden
        );
        assert_eq!(
            Threat::classify([Flex3, Flex3, Dead, Dead], false),
            Threat::DoubleThree
        );
        assert_eq!(
            Threat::classify([Flex4, Flex3, Dead, Dead], true),
            Threat::Flex4
        );
        assert_eq!(
            Threat::classify([Flex2, Block1, Dead, Dead], false),
            Threat::Two
        );
    }
}
