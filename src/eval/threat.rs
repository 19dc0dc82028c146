//! The threat term: a value per combination of the threats both sides hold,
//! added to the cell tables' evaluation. The cell tables value each empty
//! cell alone; who can make a four or an open three, and whether the other
//! side can too, changes what the position is worth all at once.
//!
//! A position's [`mask`] has eleven flags, from the side to move's
//! view: the opponent has a five point; we and they have an open-four
//! point (an open three on the board); we have a four-three point, a four
//! point, a double-three point, an open-three point; and the opponent's
//! four-three, four, double-three and open-three points. The table of a
//! [threat set](threat_set) (each [table set](super::tables::table_set)'s,
//! and one for freestyle on boards larger than 15×15) gives each of the
//! 2048 masks a value in score points, fitted to game results by
//! `pbrain-wuzi tune --threats`. Renju's two sets and standard's start
//! from freestyle's values and are fitted on games of their rule
//! (`--prior-set 0`); caro's set is empty. Freestyle's was refitted the
//! same way, from its own values, on the games of a later play against
//! Rapfi; standard's then on the standard games of the same sessions, from
//! the values of a second freestyle refit (`--prior-file`; that refit
//! itself was not kept); the larger boards' set on 20×20 games, from
//! freestyle's values, then on more of them from its own; renju's two on
//! later renju games, each from its own values (`--prior-own`). The fits,
//! their data and what each measured are in `docs/tuning.md`.
//!
//! The tables live in `threats.bin` beside this file: the magic `WZM1`,
//! then per threat set [`MASKS`] little-endian `i32`s.

use std::sync::OnceLock;

use super::tables::{table_set, TABLE_SETS};
use crate::types::{Color, Rule, Threat};

/// Number of threat sets: one per [table set](super::tables::table_set),
/// and [`LARGE_FREESTYLE`].
pub const THREAT_SETS: usize = TABLE_SETS + 1;

/// The threat set of freestyle on a board larger than 15×15 (20×20), whose
/// games have more room around the threats than 15×15's.
pub const LARGE_FREESTYLE: usize = TABLE_SETS;

/// The threat set `color` plays by under `rule` on a board `width` by
/// `height`: its table set's, or on a larger freestyle board its own.
pub const fn threat_set(rule: Rule, width: usize, height: usize, color: Color) -> usize {
    match rule {
        Rule::Freestyle if width > 15 || height > 15 => LARGE_FREESTYLE,
        _ => table_set(rule, color),
    }
}

/// Number of masks: one bit per flag.
pub const MASKS: usize = 1 << 11;

/// The file's first four bytes.
pub const MAGIC: &[u8; 4] = b"WZM1";

/// Per threat class, how many empty cells of one colour have it (the
/// board's counts).
pub type ThreatCounts = [u16; Threat::COUNT];

/// The mask of a position from the threat counts of the side to move
/// (`ours`) and of the opponent (`theirs`).
#[inline]
pub fn mask(ours: &ThreatCounts, theirs: &ThreatCounts) -> usize {
    let has = |counts: &ThreatCounts, t: Threat| (counts[t as usize] > 0) as usize;
    has(theirs, Threat::Five)
        | has(ours, Threat::Flex4) << 1
        | has(theirs, Threat::Flex4) << 2
        | has(ours, Threat::FourThree) << 3
        | has(ours, Threat::Four) << 4
        | has(ours, Threat::DoubleThree) << 5
        | has(ours, Threat::Three) << 6
        | has(theirs, Threat::FourThree) << 7
        | has(theirs, Threat::Four) << 8
        | has(theirs, Threat::DoubleThree) << 9
        | has(theirs, Threat::Three) << 10
}

/// One table set's values, in score points, indexed by mask.
pub type ThreatTable = [i32; MASKS];

/// Reads every set from the bytes of a threats file.
pub fn parse(bytes: &[u8]) -> Result<Vec<ThreatTable>, String> {
    let mut words = super::file_words(bytes, MAGIC, THREAT_SETS * MASKS, "threats")?;
    Ok((0..THREAT_SETS)
        .map(|_| {
            let mut table = [0; MASKS];
            table
                .iter_mut()
                .for_each(|v| *v = words.next().unwrap_or(0));
            table
        })
        .collect())
}

/// The bytes of a threats file holding `sets`.
pub fn to_bytes(sets: &[ThreatTable]) -> Vec<u8> {
    super::file_bytes(MAGIC, sets.iter().flatten())
}

/// The built-in table of a threat set.
pub fn threat_table(set: usize) -> &'static ThreatTable {
    static SETS: OnceLock<Vec<ThreatTable>> = OnceLock::new();
    &SETS.get_or_init(|| parse(include_bytes!("threats.bin")).expect("src/eval/threats.bin"))[set]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn built_in_tables_round_trip() {
        let bytes = include_bytes!("threats.bin");
        let sets = parse(bytes).expect("src/eval/threats.bin parses");
        assert_eq!(sets.len(), THREAT_SETS);
        assert_eq!(to_bytes(&sets), bytes.to_vec());
        assert!(parse(&bytes[..bytes.len() - 4]).is_err());
        assert!(parse(b"WZT2").is_err());
    }

    #[test]
    fn larger_freestyle_boards_have_a_set_of_their_own() {
        let set = |rule, size, color| threat_set(rule, size, size, color);
        assert_eq!(set(Rule::Freestyle, 15, Color::White), 0);
        assert_eq!(set(Rule::Freestyle, 20, Color::Black), LARGE_FREESTYLE);
        assert_eq!(
            threat_set(Rule::Freestyle, 15, 16, Color::Black),
            LARGE_FREESTYLE
        );
        assert_eq!(set(Rule::Standard, 20, Color::Black), 1);
        assert_eq!(set(Rule::Renju, 15, Color::White), 3);
        assert_ne!(LARGE_FREESTYLE, table_set(Rule::Caro, Color::Black));
    }

    #[test]
    fn each_flag_is_its_own_bit() {
        let none = [0; Threat::COUNT];
        let with = |t: Threat| {
            let mut counts = none;
            counts[t as usize] = 2;
            counts
        };
        assert_eq!(mask(&none, &none), 0);
        assert_eq!(mask(&none, &with(Threat::Five)), 1);
        assert_eq!(
            mask(&with(Threat::Five), &none),
            0,
            "our five point: no flag"
        );
        let ours = [
            Threat::Flex4,
            Threat::FourThree,
            Threat::Four,
            Threat::DoubleThree,
            Threat::Three,
        ];
        let bits: Vec<usize> = ours.iter().map(|&t| mask(&with(t), &none)).collect();
        assert_eq!(bits, [1 << 1, 1 << 3, 1 << 4, 1 << 5, 1 << 6]);
        let bits: Vec<usize> = ours.iter().map(|&t| mask(&none, &with(t))).collect();
        assert_eq!(bits, [1 << 2, 1 << 7, 1 << 8, 1 << 9, 1 << 10]);
        assert_eq!(mask(&with(Threat::Two), &with(Threat::Two)), 0);
    }
}
