//! Threat classes: the four line patterns through a cell combined into what a
//! stone there would threaten, and the tables that give every pattern
//! quadruple its class and its [pattern code](eval::code) (which indexes the
//! evaluation's tables).

use std::sync::OnceLock;

use crate::eval;
use crate::types::{Pattern, Threat};

/// Ordered choices of four patterns: the combination indices in use.
pub(crate) const COMBOS: usize = Pattern::COUNT * Pattern::COUNT * Pattern::COUNT * Pattern::COUNT;

/// Entries in a combination table: one per 16-bit index, so that a look-up
/// by a `u16` needs no bounds check. Those from [`COMBOS`] on are never
/// read, and a table's used part still fits in the second-level cache.
pub(crate) const COMBO_SLOTS: usize = 1 << 16;
const _: () = assert!(COMBOS <= COMBO_SLOTS);

/// A combination-table entry: what a stone on a cell with some four line
/// patterns threatens, and their pattern code, packed in two bytes (the
/// code in the low [`Combo::CODE_BITS`] bits, the threat class above) so
/// that a table fits in the first-level cache.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Combo(u16);

impl Combo {
    /// Bits of the pattern code: as many as count up to the code limit.
    const CODE_BITS: u32 = eval::code::CODE_LIMIT.trailing_zeros();

    /// The entry of a threat class and a pattern code.
    pub const fn new(threat: Threat, code: usize) -> Combo {
        debug_assert!(code < 1 << Combo::CODE_BITS);
        Combo((threat as u16) << Combo::CODE_BITS | code as u16)
    }

    /// Whether `other` has the same threat class.
    #[inline]
    pub fn same_threat(self, other: Combo) -> bool {
        (self.0 ^ other.0) >> Combo::CODE_BITS == 0
    }

    /// The threat class.
    #[inline]
    pub fn threat(self) -> Threat {
        Threat::from_u8((self.0 >> Combo::CODE_BITS) as u8)
    }

    /// The [pattern code](eval::code) of the quadruple.
    #[inline]
    pub fn code(self) -> u16 {
        self.0 & ((1 << Combo::CODE_BITS) - 1)
    }
}

/// Per restriction (free, renju black): every pattern quadruple's [`Combo`].
static COMBO_TABLES: [OnceLock<Box<[Combo; COMBO_SLOTS]>>; 2] = [OnceLock::new(), OnceLock::new()];

/// The combination table for a colour: `restricted` for renju's black.
/// Index it with [`combo_index`].
pub(crate) fn combo_table(restricted: bool) -> &'static [Combo; COMBO_SLOTS] {
    COMBO_TABLES[restricted as usize].get_or_init(|| {
        let unused = Combo::new(Threat::None, eval::code::DEAD);
        (0..COMBOS)
            .map(|i| {
                let digit =
                    |k: u32| Pattern::from_u8((i / Pattern::COUNT.pow(k) % Pattern::COUNT) as u8);
                let patterns = [digit(3), digit(2), digit(1), digit(0)];
                Combo::new(Threat::of(patterns, restricted), eval::code::code(patterns))
            })
            .chain(std::iter::repeat_n(unused, COMBO_SLOTS - COMBOS))
            .collect::<Box<[Combo]>>()
            .try_into()
            .expect("one entry per 16-bit index")
    })
}

/// The index of a pattern quadruple in a combination table.
#[inline]
pub(crate) fn combo_index(patterns: [Pattern; 4]) -> usize {
    let n = Pattern::COUNT;
    ((patterns[0] as usize * n + patterns[1] as usize) * n + patterns[2] as usize) * n
        + patterns[3] as usize
}

/// How much the [`combo_index`] of a quadruple grows per step up of the
/// pattern on each line.
pub(crate) const COMBO_STRIDES: [i32; 4] = [
    (Pattern::COUNT * Pattern::COUNT * Pattern::COUNT) as i32,
    (Pattern::COUNT * Pattern::COUNT) as i32,
    Pattern::COUNT as i32,
    1,
];

/// Per line and [pair-table](super::pattern::PairTable) entry: both
/// colours' terms of their [`combo_index`] for the entry's patterns on that
/// line, black's in the low 16 bits and white's in the high. The sum over a
/// cell's four lines holds both colours' indices at once, and a new pattern
/// pair on one line changes it by the difference of two terms.
pub(crate) static LINE_COMBO_TERMS: [[u32; 256]; 4] = {
    let mut terms = [[0; 256]; 4];
    let mut d = 0;
    while d < 4 {
        let mut entry = 0;
        while entry < 256 {
            let stride = COMBO_STRIDES[d] as u32;
            let (black, white) = (entry as u32 & 15, entry as u32 >> 4);
            terms[d][entry] = (black * stride) | ((white * stride) << 16);
            entry += 1;
        }
        d += 1;
    }
    terms
};

#[cfg(test)]
mod tests {
    use super::*;
    use Pattern::*;

    #[test]
    fn combos_unpack_to_their_class_and_code() {
        for restricted in [false, true] {
            let table = combo_table(restricted);
            for patterns in [[Flex3, Block4, Dead, Five], [Overline, Flex3, Flex2, Flex1]] {
                let combo = table[combo_index(patterns)];
                assert_eq!(combo.threat(), Threat::of(patterns, restricted));
                assert_eq!(combo.code() as usize, eval::code::code(patterns));
            }
            let mut patterns = [Block1, Flex4, Five, Dead];
            let index = combo_index(patterns) as i32;
            patterns[1] = Flex2;
            let stepped = index + (Flex2 as i32 - Flex4 as i32) * COMBO_STRIDES[1];
            assert_eq!(stepped as usize, combo_index(patterns));
        }
    }

    #[test]
    fn line_terms_add_up_to_both_colours_combo_indices() {
        let black = [Flex3, Block4, Dead, Five];
        let white = [Overline, Flex1, Flex4, Block2];
        let sum: u32 = (0..4)
            .map(|d| LINE_COMBO_TERMS[d][black[d] as usize | (white[d] as usize) << 4])
            .sum();
        assert_eq!(sum & 0xffff, combo_index(black) as u32);
        assert_eq!(sum >> 16, combo_index(white) as u32);
    }
}
