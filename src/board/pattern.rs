//! Line patterns: what one more stone at a cell makes on one line through it.
//!
//! A line key holds the ten neighbours of a cell on one line (five each side),
//! two bits each: [`EMPTY`], [`MINE`], [`THEIRS`] or [`WALL`]. Tables built once
//! per five-rule map every key to the [`Pattern`] that placing one's own stone
//! on the centre cell creates on that line. The tables are filled by the
//! classic recursive definition: a four is one move from a five, an open four
//! has two such moves, a three is one move from a four, and so on down.

use std::sync::OnceLock;

use crate::types::{FiveRule, Pattern};

/// Line-key field value of an empty neighbour.
pub const EMPTY: u32 = 0;
/// Line-key field value of a neighbour holding the evaluated side's stone.
pub const MINE: u32 = 1;
/// Line-key field value of a neighbour holding the other side's stone.
pub const THEIRS: u32 = 2;
/// Line-key field value of a neighbour off the board.
pub const WALL: u32 = 3;

/// Number of neighbour fields in a line key (five on each side).
pub const KEY_FIELDS: usize = 10;
/// Number of distinct line keys.
pub const KEY_COUNT: usize = 1 << (2 * KEY_FIELDS);

/// The field index in a line key of the neighbour at `offset` (−5..=5, not 0).
pub const fn field_of(offset: i32) -> usize {
    if offset < 0 {
        (offset + 5) as usize
    } else {
        (offset + 4) as usize
    }
}

/// Swaps the roles of [`MINE`] and [`THEIRS`] in a key, leaving walls alone,
/// so that one table serves both colours.
#[inline]
pub fn swap_sides(key: u32) -> u32 {
    const LOW: u32 = 0x5_5555;
    ((key & LOW) << 1) | ((key >> 1) & LOW)
}

/// The pattern one move short of `pattern` on the same line.
fn one_step_down(pattern: Pattern) -> Pattern {
    match pattern {
        Pattern::Flex4 => Pattern::Flex3,
        Pattern::Block4 | Pattern::DoubleFour => Pattern::Block3,
        Pattern::Flex3 => Pattern::Flex2,
        Pattern::Block3 => Pattern::Block2,
        Pattern::Flex2 => Pattern::Flex1,
        Pattern::Block2 => Pattern::Block1,
        _ => Pattern::Dead,
    }
}

/// A line of eleven cells, the centre (index 5) holding the evaluated stone.
type Line = [u32; 11];

fn line_of(key: u32) -> Line {
    let mut line = [MINE; 11];
    for offset in -5i32..=5 {
        if offset != 0 {
            line[(offset + 5) as usize] = (key >> (2 * field_of(offset))) & 3;
        }
    }
    line
}

fn key_of(line: &Line) -> u32 {
    let mut key = 0;
    for offset in -5i32..=5 {
        if offset != 0 {
            key |= line[(offset + 5) as usize] << (2 * field_of(offset));
        }
    }
    key
}

/// What the run of own stones through the centre amounts to.
#[derive(PartialEq, Eq)]
enum Run {
    Five,
    Overline,
    Short,
}

fn run_through_centre(line: &Line, rule: FiveRule) -> Run {
    let mut lo = 5;
    while lo > 0 && line[lo - 1] == MINE {
        lo -= 1;
    }
    let mut hi = 5;
    while hi < 10 && line[hi + 1] == MINE {
        hi += 1;
    }
    let len = hi - lo + 1;
    if len < 5 {
        return Run::Short;
    }
    let long = len > 5;
    match rule {
        FiveRule::FiveOrMore => Run::Five,
        FiveRule::ExactFive | FiveRule::CaroExact if long => Run::Overline,
        FiveRule::CaroOverline if long => Run::Five,
        FiveRule::ExactFive => Run::Five,
        FiveRule::CaroOverline | FiveRule::CaroExact => {
            // An exact five spans at most offsets -4..=4, so both ends are seen.
            let blocked = |cell: u32| cell == THEIRS;
            if blocked(line[lo - 1]) && blocked(line[hi + 1]) {
                Run::Short
            } else {
                Run::Five
            }
        }
    }
}

fn is_valid_key(key: u32) -> bool {
    // Walls come only as a block at the far ends of the line.
    let field = |i: usize| (key >> (2 * i)) & 3;
    let left_ok = (1..5).all(|i| field(i - 1) == WALL || field(i) != WALL);
    let right_ok = (5..9).all(|i| field(i + 1) == WALL || field(i) != WALL);
    left_ok && right_ok
}

const UNKNOWN: u8 = u8::MAX;

fn classify(key: u32, rule: FiveRule, memo: &mut [u8]) -> Pattern {
    let stored = memo[key as usize];
    if stored != UNKNOWN {
        return Pattern::from_u8(stored);
    }
    let mut line = line_of(key);
    let pattern = match run_through_centre(&line, rule) {
        Run::Five => Pattern::Five,
        Run::Overline => Pattern::Overline,
        Run::Short => {
            let mut five_points = [0usize; 9];
            let mut n_five = 0;
            for i in 1..10 {
                if line[i] == EMPTY {
                    line[i] = MINE;
                    if run_through_centre(&line, rule) == Run::Five {
                        five_points[n_five] = i;
                        n_five += 1;
                    }
                    line[i] = EMPTY;
                }
            }
            if n_five >= 2 {
                let straight = n_five == 2
                    && five_points[1] - five_points[0] == 5
                    && (five_points[0] + 1..five_points[1]).all(|i| line[i] == MINE);
                if straight {
                    Pattern::Flex4
                } else {
                    Pattern::DoubleFour
                }
            } else if n_five == 1 {
                Pattern::Block4
            } else {
                let mut best = Pattern::Dead;
                for i in 1..10 {
                    if line[i] == EMPTY {
                        line[i] = MINE;
                        let next = one_step_down(classify(key_of(&line), rule, memo));
                        best = best.max(next);
                        line[i] = EMPTY;
                    }
                }
                best
            }
        }
    };
    memo[key as usize] = pattern as u8;
    pattern
}

fn build_table(rule: FiveRule) -> Vec<u8> {
    let mut memo = vec![UNKNOWN; KEY_COUNT];
    for key in 0..KEY_COUNT as u32 {
        if memo[key as usize] == UNKNOWN && is_valid_key(key) {
            classify(key, rule, &mut memo);
        }
    }
    for entry in memo.iter_mut() {
        if *entry == UNKNOWN {
            *entry = Pattern::Dead as u8;
        }
    }
    memo
}

static TABLES: [OnceLock<Vec<u8>>; 4] = [
    OnceLock::new(),
    OnceLock::new(),
    OnceLock::new(),
    OnceLock::new(),
];

/// The pattern table for a five-rule, built on first use (a few tens of ms).
/// Index it with a line key seen from the side placing the stone.
pub fn table(rule: FiveRule) -> &'static [u8] {
    TABLES[rule as usize].get_or_init(|| build_table(rule))
}

/// Both colours' patterns for every line key under one pair of five-rules:
/// black's in the low four bits, white's in the high four, so one look-up
/// serves both colours. A copyable view of entries built once per pair of
/// five-rules; its two shapes have fixed sizes, so that a look-up in a
/// known shape needs no bounds check.
#[derive(Clone, Copy)]
pub enum PairTable {
    /// Under five-or-more for both colours: by keys without the fields ±5.
    Short(&'static [u8; SHORT_KEYS]),
    /// Under any other pair of rules: by full keys.
    Full(&'static [u8; KEY_COUNT]),
}

impl PairTable {
    /// Black's and white's patterns for a full line key seen from black.
    #[inline]
    pub fn get(&self, key: u32) -> (Pattern, Pattern) {
        let entry = self.entry(key);
        (pair_entry_pattern(entry, 0), pair_entry_pattern(entry, 1))
    }

    /// The entry for a full line key seen from black: black's pattern in
    /// the low four bits, white's in the high four.
    #[inline]
    pub fn entry(&self, key: u32) -> u8 {
        match self {
            PairTable::Short(entries) => short_pair_entry(entries, key),
            PairTable::Full(entries) => full_pair_entry(entries, key),
        }
    }
}

/// The entry of a short pair table for a full line key.
#[inline(always)]
pub fn short_pair_entry(entries: &[u8; SHORT_KEYS], key: u32) -> u8 {
    entries[(key >> SHORT_KEY_SHIFT) as usize & (SHORT_KEYS - 1)]
}

/// The entry of a full pair table for a full line key.
#[inline(always)]
pub fn full_pair_entry(entries: &[u8; KEY_COUNT], key: u32) -> u8 {
    entries[key as usize & (KEY_COUNT - 1)]
}

/// The pattern number of colour `color` (by index) in a pair-table entry.
#[inline]
pub fn pair_entry_field(entry: u8, color: usize) -> u8 {
    (entry >> (4 * color)) & 15
}

/// The pattern of colour `color` (by index) in a pair-table entry.
#[inline]
pub fn pair_entry_pattern(entry: u8, color: usize) -> Pattern {
    Pattern::from_u8(pair_entry_field(entry, color))
}

/// Key fields ±5 matter only where an overline or a blocked five changes the
/// outcome; under five-or-more for both colours the table drops them, which
/// makes it 64 KiB instead of 1 MiB and keeps it in cache.
const SHORT_KEY_SHIFT: u32 = 2;
/// Keys of the short pair table.
pub const SHORT_KEYS: usize = 1 << 16;

/// The entries for every key of the short pair table (`short`) or of the
/// full one.
fn build_pair_entries(black: FiveRule, white: FiveRule, short: bool) -> Box<[u8]> {
    let (black_table, white_table) = (table(black), table(white));
    let keys = if short { SHORT_KEYS } else { KEY_COUNT };
    (0..keys as u32)
        .map(|index| {
            let key = if short { full_key(index) } else { index };
            black_table[key as usize] | (white_table[swap_sides(key) as usize] << 4)
        })
        .collect()
}

/// The full key a short key (fields ±4 only) stands for: the cells at ±5 are
/// empty, or walls where the wall already reaches ±4.
fn full_key(short: u32) -> u32 {
    let mut key = short << SHORT_KEY_SHIFT;
    for (inner, outer) in [(field_of(-4), field_of(-5)), (field_of(4), field_of(5))] {
        if (key >> (2 * inner)) & 3 == WALL {
            key |= WALL << (2 * outer);
        }
    }
    key
}

static PAIR_ENTRIES: [OnceLock<Box<[u8]>>; 16] = [const { OnceLock::new() }; 16];

/// The pair table for black's and white's five-rules, its entries built on
/// first use.
pub fn pair_table(black: FiveRule, white: FiveRule) -> PairTable {
    let short = black == FiveRule::FiveOrMore && white == FiveRule::FiveOrMore;
    let entries: &'static [u8] = PAIR_ENTRIES[black as usize * 4 + white as usize]
        .get_or_init(|| build_pair_entries(black, white, short));
    let sized = "a pair table has one entry per key of its shape";
    if short {
        PairTable::Short(entries.try_into().expect(sized))
    } else {
        PairTable::Full(entries.try_into().expect(sized))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Builds a key from a picture of the line: `X` own stone, `O` opponent,
    /// `.` empty, `#` wall, `*` the centre cell being played. Missing cells on
    /// either side are walls.
    fn key(picture: &str) -> u32 {
        let centre = picture.find('*').expect("picture has a centre");
        let mut key = 0;
        for offset in -5i32..=5 {
            if offset == 0 {
                continue;
            }
            let idx = centre as i32 + offset;
            let c = if idx < 0 {
                '#'
            } else {
                picture.chars().nth(idx as usize).unwrap_or('#')
            };
            let v = match c {
                'X' => MINE,
                'O' => THEIRS,
                '.' => EMPTY,
                _ => WALL,
            };
            key |= v << (2 * field_of(offset));
        }
        key
    }

    fn pat(rule: FiveRule, picture: &str) -> Pattern {
        Pattern::from_u8(table(rule)[key(picture) as usize])
    }

    #[test]
    fn fives_and_overlines() {
        let free = FiveRule::FiveOrMore;
        let exact = FiveRule::ExactFive;
        assert_eq!(pat(free, "...XX*XX..."), Pattern::Five);
        assert_eq!(pat(free, "..XXX*XX..."), Pattern::Five);
        assert_eq!(pat(exact, "..XXX*XX..."), Pattern::Overline);
        assert_eq!(pat(exact, "...XX*XX..."), Pattern::Five);
        assert_eq!(pat(exact, "#XXXX*....."), Pattern::Five);
    }

    #[test]
    fn fours() {
        let free = FiveRule::FiveOrMore;
        let exact = FiveRule::ExactFive;
        assert_eq!(pat(free, "....XX*X..."), Pattern::Flex4);
        assert_eq!(pat(free, "...OXX*X..."), Pattern::Block4);
        assert_eq!(pat(free, "....X*XX.X."), Pattern::Flex4);
        assert_eq!(pat(exact, "....X*XX.X."), Pattern::Block4);
        assert_eq!(pat(free, "..X.X*X.X.."), Pattern::DoubleFour);
        // A straight four next to an own stone is only a four under exact five.
        assert_eq!(pat(free, "..X.XX*X..."), Pattern::Flex4);
        assert_eq!(pat(exact, "..X.XX*X..."), Pattern::Block4);
        assert_eq!(pat(free, "#XX*X......"), Pattern::Block4);
    }

    #[test]
    fn threes_and_twos() {
        let free = FiveRule::FiveOrMore;
        let exact = FiveRule::ExactFive;
        assert_eq!(pat(free, "....X*X...."), Pattern::Flex3);
        assert_eq!(pat(free, "...X.*X...."), Pattern::Flex3);
        assert_eq!(pat(free, "...OX*X...."), Pattern::Block3);
        assert_eq!(pat(free, "..O.X*X.O.."), Pattern::Block3);
        assert_eq!(pat(exact, ".X..X*X...."), Pattern::Flex3);
        assert_eq!(pat(exact, "X.XX*.O...."), Pattern::Block4);
        assert_eq!(pat(free, ".....*X...."), Pattern::Flex2);
        assert_eq!(pat(free, "....O*X...."), Pattern::Block2);
        assert_eq!(pat(free, "....O*X..O."), Pattern::Dead);
    }

    #[test]
    fn caro_five_blocked_both_ends() {
        let caro = FiveRule::CaroExact;
        assert_eq!(pat(caro, "..OXX*XXO.."), Pattern::Dead);
        assert_eq!(pat(caro, "..OXX*XX..."), Pattern::Five);
        // The board edge does not block.
        assert_eq!(pat(caro, "#XX*XXO...."), Pattern::Five);
        assert_eq!(pat(caro, "..XXX*XX..."), Pattern::Overline);
        assert_eq!(pat(FiveRule::CaroOverline, ".OXXX*XXO.."), Pattern::Five);
        // A four whose only five would be blocked at both ends is no four.
        assert_eq!(pat(caro, "..OXX*X.O.."), Pattern::Dead);
    }

    #[test]
    fn five_or_more_ignores_the_outer_cells() {
        // The short pair table relies on this: under five-or-more, the cells
        // five steps away never change the pattern.
        let free = table(FiveRule::FiveOrMore);
        for key in 0..KEY_COUNT as u32 {
            if is_valid_key(key) {
                let short = (key >> SHORT_KEY_SHIFT) & (SHORT_KEYS as u32 - 1);
                assert_eq!(
                    free[key as usize],
                    free[full_key(short) as usize],
                    "{key:x}"
                );
            }
        }
    }

    #[test]
    fn pair_tables_agree_with_single_tables() {
        let rules = [
            (FiveRule::FiveOrMore, FiveRule::FiveOrMore),
            (FiveRule::ExactFive, FiveRule::FiveOrMore),
            (FiveRule::CaroExact, FiveRule::CaroExact),
        ];
        for (black, white) in rules {
            let pair = pair_table(black, white);
            for k in [
                "...XX*XX...",
                "#XO*.O",
                "..OXX*XXO..",
                "XXXXX*O....",
                ".X..X*X....",
            ] {
                let k = key(k);
                let expected = (
                    Pattern::from_u8(table(black)[k as usize]),
                    Pattern::from_u8(table(white)[swap_sides(k) as usize]),
                );
                assert_eq!(pair.get(k), expected, "{k:x}");
            }
        }
    }

    #[test]
    fn swap_sides_swaps_stones_not_walls() {
        let k = key("#OX*.X");
        assert_eq!(swap_sides(k), key("#XO*.O"));
    }
}
