//! The evaluation's fitted tables: for each table set (a rule, and for renju
//! a colour) and each [pattern code](super::code), the worth of an empty
//! cell with that code to the side to move (`mover`) and to the side waiting
//! (`waiter`), in 1/[`UNIT`] of a score point; and the move policy: how
//! likely the side to move plays a cell for its own code there (`attack`)
//! and for the opponent's code there (`defence`), on a log scale.
//!
//! They live in `tables.bin` beside this file, written by `pbrain-wuzi tune
//! --records … --write src/eval/tables.bin` (the fit, its data and its losses are
//! recorded in `docs/tuning.md`). The file is the magic `WZT2`, then per set
//! and table (mover, waiter, attack, defence) [`CODES`] little-endian
//! `i32`s.

use std::sync::OnceLock;

use super::code::{CODES, CODE_LIMIT};
use crate::types::{Color, Rule};

/// The tables' unit: a table entry of `UNIT` is one score point.
pub const UNIT: i32 = 64;

/// Number of table sets: freestyle, standard, renju's black, renju's white,
/// caro (both caro rules).
pub const TABLE_SETS: usize = 5;

/// The file's first four bytes.
pub const MAGIC: &[u8; 4] = b"WZT2";

/// Tables per set in the file.
const TABLES_PER_SET: usize = 4;

/// One colour's tables under one rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tables {
    /// Per code: the cell's worth to its colour when that colour moves next.
    pub mover: [i32; CODES],
    /// Per code: the cell's worth to its colour when the other colour moves
    /// next.
    pub waiter: [i32; CODES],
    /// Per code: the policy score of a cell for the side to move, by its own
    /// code there.
    pub attack: [i32; CODES],
    /// Per code: the policy score of a cell for the side to move, by the
    /// opponent's code there (what playing it denies).
    pub defence: [i32; CODES],
}

/// The table set `color` plays by under `rule`.
pub const fn table_set(rule: Rule, color: Color) -> usize {
    match (rule, color) {
        (Rule::Freestyle, _) => 0,
        (Rule::Standard, _) => 1,
        (Rule::Renju, Color::Black) => 2,
        (Rule::Renju, Color::White) => 3,
        (Rule::Caro | Rule::CaroExact, _) => 4,
    }
}

/// Reads every set from the bytes of a tables file.
pub fn parse(bytes: &[u8]) -> Result<Vec<Tables>, String> {
    let count = TABLE_SETS * TABLES_PER_SET * CODES;
    let mut words = super::file_words(bytes, MAGIC, count, "tables")?;
    let mut read = || {
        let mut table = [0; CODES];
        table
            .iter_mut()
            .for_each(|v| *v = words.next().unwrap_or(0));
        table
    };
    Ok((0..TABLE_SETS)
        .map(|_| {
            let mover = read();
            let waiter = read();
            let attack = read();
            let defence = read();
            Tables {
                mover,
                waiter,
                attack,
                defence,
            }
        })
        .collect())
}

/// The bytes of a tables file holding `sets`.
pub fn to_bytes(sets: &[Tables]) -> Vec<u8> {
    let tables = sets
        .iter()
        .flat_map(|set| [&set.mover, &set.waiter, &set.attack, &set.defence]);
    super::file_bytes(MAGIC, tables.flatten())
}

/// The tables this process evaluates by: the [`install`]ed ones, else the
/// built-in file's.
static SETS: OnceLock<Vec<Tables>> = OnceLock::new();

/// Makes `sets` (one per table set) the tables of every evaluation of this
/// process, in place of the built-in file's. Only the command line calls
/// it, for tuning (`--param`), before the first evaluation; it fails once
/// the tables are in use.
pub fn install(sets: Vec<Tables>) -> Result<(), String> {
    if sets.len() != TABLE_SETS {
        return Err(format!("{} table sets, expected {TABLE_SETS}", sets.len()));
    }
    SETS.set(sets)
        .map_err(|_| "the evaluation's tables are already in use".to_string())
}

/// The tables of a set.
pub fn tables(set: usize) -> &'static Tables {
    &SETS.get_or_init(|| parse(include_bytes!("tables.bin")).expect("src/eval/tables.bin"))[set]
}

/// Per code: a set's `mover` and `waiter` entries side by side, which the
/// board reads together; as long as a combination's code field can count
/// (the codes past [`CODES`] worth nothing), so that the board's look-ups
/// need no bounds check.
pub type Worths = [[i32; 2]; CODE_LIMIT];

/// The built-in `mover` and `waiter` tables of a set, side by side.
pub fn worths(set: usize) -> &'static Worths {
    static SETS: OnceLock<Vec<Worths>> = OnceLock::new();
    &SETS.get_or_init(|| {
        (0..TABLE_SETS)
            .map(|set| side_by_side(&tables(set).mover, &tables(set).waiter))
            .collect()
    })[set]
}

/// Per code: a set's `attack` and `defence` entries side by side; as long
/// as a combination's code field can count (the codes past [`CODES`] score
/// nothing), so that move ordering's look-ups need no bounds check.
pub type Policies = [[i32; 2]; CODE_LIMIT];

/// The built-in `attack` and `defence` tables of a set, side by side.
pub fn policies(set: usize) -> &'static Policies {
    static SETS: OnceLock<Vec<Policies>> = OnceLock::new();
    &SETS.get_or_init(|| {
        (0..TABLE_SETS)
            .map(|set| side_by_side(&tables(set).attack, &tables(set).defence))
            .collect()
    })[set]
}

/// Two tables' entries side by side per code, as long as a combination's
/// code field can count: the codes past [`CODES`] get zeros.
fn side_by_side(first: &[i32], second: &[i32]) -> [[i32; 2]; CODE_LIMIT] {
    std::array::from_fn(|code| {
        if code < CODES {
            [first[code], second[code]]
        } else {
            [0, 0]
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::code::DEAD;

    /// The built-in file parses, writes back byte for byte, and the
    /// all-dead cell is worth nothing in every value table.
    #[test]
    fn built_in_tables_round_trip() {
        let bytes = include_bytes!("tables.bin");
        let sets = parse(bytes).expect("src/eval/tables.bin parses");
        assert_eq!(sets.len(), TABLE_SETS);
        assert_eq!(to_bytes(&sets), bytes.to_vec());
        for set in &sets {
            assert_eq!((set.mover[DEAD], set.waiter[DEAD]), (0, 0));
        }
        assert!(parse(&bytes[..bytes.len() - 4]).is_err());
        assert!(parse(b"WZT1").is_err());
    }
}
