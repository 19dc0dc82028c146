//! The formula the built-in tables were made by, with its numbers named, so
//! that a tuner can change them without a rebuild.
//!
//! A cell's value `v` is the sum of its four line patterns' values plus its
//! threat class's bonus (a renju forbidden point is worth nothing); its
//! table entries are `mover`·v and `waiter`·v, and its policy scores 2·v
//! (attack) and v (defence). Each table set has its numbers: [`BUILT_IN`]
//! makes `tables.bin` exactly, entry for entry (a test checks). The search's
//! parameters carry freestyle's, renju's and standard's numbers, and the
//! command line's `--param` installs tables made from other ones
//! ([`super::tables::install`]).

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
    /// Freestyle's numbers: the Texel fit's ([`Formula::FITTED`]), then
    /// twelve of them tuned by SPSA in freestyle self-play (2026-11-28, two
    /// runs, 1340 iterations): +51.9 Elo (+24.7 … +79.8) over 600 games at
    /// 2 s + 0.02 s (docs/tuning.md, "The formula's numbers tuned by SPSA").
    pub const FREESTYLE: Formula = Formula {
        // Dead, Overline, Block1, Flex1, Block2, Flex2, Block3, Flex3,
        // Block4, DoubleFour, Flex4, Five
        pattern: [0, 0, 3, 2, 9, 37, 56, 56, 59, 51, 51, 2000],
        // None, Forbidden, MaybeForbidden, Two, Three, DoubleThree, Four,
        // FourThree, Flex4, Five
        class: [0, 0, 0, 0, 88, 191, 181, 604, 660, 2000],
        mover: 23,
        waiter: 22,
    };

    /// Renju's numbers, both colours' (black's forbidden points are worth
    /// nothing): the Texel-fitted ones. Tried: 600 iterations of renju
    /// self-play SPSA (+15.6 Elo, −11.8 … +43.3, 600 games; against Rapfi
    /// 69.0 of 200 points where these scored 71.5).
    pub const RENJU: Formula = Formula::FITTED;

    /// Standard's numbers: the Texel-fitted ones. Tried: freestyle's SPSA
    /// numbers (+4.0 of 200 points against Rapfi, paired SE 8.4); 800
    /// iterations of standard self-play SPSA (54.5 of 200 points against
    /// Rapfi where these scored 65.0).
    pub const STANDARD: Formula = Formula::FITTED;

    /// The Texel-fitted numbers (2026-11-22; docs/tuning.md, "Evaluation"),
    /// which the other rules keep: freestyle's SPSA numbers scored 6 to 10
    /// points fewer of 100 renju games against Rapfi.
    pub const FITTED: Formula = Formula {
        pattern: [0, 0, 3, 3, 7, 31, 51, 51, 51, 51, 51, 2000],
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
}

/// The formula of each table set that `tables.bin` was made by: freestyle's,
/// renju's and standard's own numbers, the Texel-fitted ones for caro.
pub const BUILT_IN: [Formula; TABLE_SETS] = {
    let mut formulas = [Formula::FITTED; TABLE_SETS];
    formulas[table_set(Rule::Freestyle, Color::Black)] = Formula::FREESTYLE;
    formulas[table_set(Rule::Renju, Color::Black)] = Formula::RENJU;
    formulas[table_set(Rule::Renju, Color::White)] = Formula::RENJU;
    formulas[table_set(Rule::Standard, Color::Black)] = Formula::STANDARD;
    formulas
};

/// Every table set made by its formula (renju's black restricted).
pub fn tables(formulas: &[Formula; TABLE_SETS]) -> Vec<Tables> {
    let patterns = all_patterns();
    let restricted_set = table_set(Rule::Renju, Color::Black);
    formulas
        .iter()
        .enumerate()
        .map(|(set, formula)| {
            let restricted = set == restricted_set;
            let value: Vec<i32> = (0..CODES)
                .map(|code| formula.value(patterns[code], restricted))
                .collect();
            let table = |weight: i32| std::array::from_fn(|code| weight * value[code]);
            Tables {
                mover: table(formula.mover),
                waiter: table(formula.waiter),
                attack: table(2),
                defence: table(1),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The built-in formulas make the built-in file, every entry of every
    /// set; another number in one set's formula makes other tables for that
    /// set alone.
    #[test]
    fn the_built_in_formula_makes_the_built_in_tables() {
        let file = super::super::tables::parse(include_bytes!("tables.bin")).unwrap();
        assert_eq!(tables(&BUILT_IN), file);
        let mut other = BUILT_IN;
        other[table_set(Rule::Renju, Color::White)].pattern[Pattern::Flex2 as usize] += 1;
        let other = tables(&other);
        assert_ne!(other, file);
        // Only the changed set differs.
        let differing: Vec<usize> = (0..TABLE_SETS)
            .filter(|&set| other[set] != file[set])
            .collect();
        assert_eq!(differing, [table_set(Rule::Renju, Color::White)]);
    }
}
