//! The formula the built-in tables were made by, with its numbers named, so
//! that a tuner can change them without a rebuild.
//!
//! A cell's value `v` is the sum of its four line patterns' values plus its
//! threat class's bonus (a renju forbidden point is worth nothing); its
//! table entries are `mover`·v and `waiter`·v, and its policy scores 2·v
//! (attack) and v (defence). [`Formula::BUILT_IN`] makes `tables.bin`
//! exactly, entry for entry (a test checks); the search's parameters carry
//! these numbers, and the command line's `--param` installs tables made from
//! other ones ([`super::tables::install`]).

use super::code::{all_patterns, CODES};
use super::tables::{table_set, Tables, TABLE_SETS};
use crate::types::{Color, Pattern, Rule, Threat};

/// The numbers of the tables' formula.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Formula {
    /// Value of each line pattern, by [`Pattern`].
    pub pattern: [i32; Pattern::COUNT],
    /// Extra value of each threat class, by [`Threat`].
    pub class: [i32; Threat::COUNT],
    /// A cell's worth to the side to move, per unit of value.
    pub mover: i32,
    /// A cell's worth to the side waiting, per unit of value.
    pub waiter: i32,
}

impl Formula {
    /// The numbers `tables.bin` was made by (Texel-fitted, 2026-11-22;
    /// docs/tuning.md, "Evaluation").
    pub const BUILT_IN: Formula = Formula {
        // Dead, Overline, Block1, Flex1, Block2, Flex2, Block3, Flex3,
        // Block4, DoubleFour, Flex4, Five
        pattern: [0, 0, 3, 3, 7, 31, 51, 51, 51, 51, 51, 2000],
        // None, Forbidden, MaybeForbidden, Two, Three, DoubleThree, Four,
        // FourThree, Flex4, Five
        class: [0, 0, 0, 0, 85, 179, 188, 660, 660, 2000],
        mover: 24,
        waiter: 21,
    };

    /// The value of a stone on a cell with these line patterns; `restricted`
    /// for renju's black.
    pub fn value(&self, patterns: [Pattern; 4], restricted: bool) -> i32 {
        let class = Threat::of(patterns, restricted);
        if class == Threat::Forbidden {
            return 0;
        }
        let lines: i32 = patterns.iter().map(|&p| self.pattern[p as usize]).sum();
        lines + self.class[class as usize]
    }

    /// Every table set made by the formula (renju's black restricted).
    pub fn tables(&self) -> Vec<Tables> {
        let patterns = all_patterns();
        // Per code, the value unrestricted and restricted: every set but
        // renju's black reads the first.
        let values = [false, true].map(|restricted| -> Vec<i32> {
            (0..CODES)
                .map(|code| self.value(patterns[code], restricted))
                .collect()
        });
        let restricted_set = table_set(Rule::Renju, Color::Black);
        (0..TABLE_SETS)
            .map(|set| {
                let value = &values[(set == restricted_set) as usize];
                let table = |weight: i32| std::array::from_fn(|code| weight * value[code]);
                Tables {
                    mover: table(self.mover),
                    waiter: table(self.waiter),
                    attack: table(2),
                    defence: table(1),
                }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The built-in formula makes the built-in file, every entry of every
    /// set; another number makes other tables.
    #[test]
    fn the_built_in_formula_makes_the_built_in_tables() {
        let file = super::super::tables::parse(include_bytes!("tables.bin")).unwrap();
        assert_eq!(Formula::BUILT_IN.tables(), file);
        let mut other = Formula::BUILT_IN;
        other.pattern[Pattern::Flex2 as usize] += 1;
        assert_ne!(other.tables(), file);
    }
}
