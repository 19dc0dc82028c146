//! Pattern codes: the four line patterns through a cell as an unordered
//! combination, numbered `0..CODES`. The evaluation's tables are indexed by
//! them (which line carries which pattern does not matter to a stone's
//! worth), so that a cell with an open three and an open two is one entry,
//! whatever the directions.

use crate::types::Pattern;

/// Number of pattern codes: the combinations with repetition of four of the
/// [`Pattern::COUNT`] patterns, C(12 + 3, 4).
pub const CODES: usize = 1365;

/// The power of two above every code: the board packs a code in as many
/// bits, and a table this long, indexed by such a code, needs no bounds
/// check.
pub const CODE_LIMIT: usize = 1 << 11;
const _: () = assert!(CODES <= CODE_LIMIT);

/// The code of the all-dead cell (no five possible through it on any line).
pub const DEAD: usize = 0;

/// C(n, k) for the small numbers of the code numbering.
const fn binomial(n: usize, k: usize) -> usize {
    if k > n {
        return 0;
    }
    let mut result = 1;
    let mut i = 0;
    while i < k {
        result = result * (n - i) / (i + 1);
        i += 1;
    }
    result
}

/// The code of a cell's four line patterns, in any order: the patterns
/// sorted weakest first and numbered by the combinatorial number system.
pub fn code(patterns: [Pattern; 4]) -> usize {
    let mut p = patterns.map(|p| p as usize);
    p.sort_unstable();
    (0..4).map(|i| binomial(p[i] + i, i + 1)).sum()
}

/// The patterns of every code, weakest first, indexed by code.
pub fn all_patterns() -> Vec<[Pattern; 4]> {
    let mut table = vec![[Pattern::Dead; 4]; CODES];
    for a in 0..Pattern::COUNT {
        for b in a..Pattern::COUNT {
            for c in b..Pattern::COUNT {
                for d in c..Pattern::COUNT {
                    let patterns = [a, b, c, d].map(|p| Pattern::from_u8(p as u8));
                    table[code(patterns)] = patterns;
                }
            }
        }
    }
    table
}

/// Per code, the codes one step weaker: one of its four patterns one
/// [`Pattern`] lower (the order of the enum, weakest first). Every code's
/// weaker codes come before it in [`by_strength`].
pub fn weaker(code_of: usize) -> Vec<usize> {
    let patterns = all_patterns()[code_of];
    let mut out: Vec<usize> = (0..4)
        .filter(|&i| patterns[i] != Pattern::Dead)
        .map(|i| {
            let mut p = patterns;
            p[i] = Pattern::from_u8(p[i] as u8 - 1);
            code(p)
        })
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// Every code, ordered so that each comes after the codes [`weaker`] than
/// it: by the sum of its patterns' ranks.
pub fn by_strength() -> Vec<usize> {
    let all = all_patterns();
    let mut codes: Vec<usize> = (0..CODES).collect();
    codes.sort_by_key(|&c| (all[c].iter().map(|&p| p as usize).sum::<usize>(), c));
    codes
}

#[cfg(test)]
mod tests {
    use super::*;
    use Pattern::*;

    #[test]
    fn codes_number_the_combinations_one_to_one() {
        let all = all_patterns();
        let mut seen = vec![false; CODES];
        for (i, &patterns) in all.iter().enumerate() {
            assert_eq!(code(patterns), i);
            assert!(!seen[i]);
            seen[i] = true;
        }
        assert!(seen.iter().all(|&s| s), "every code is some combination");
        assert_eq!(code([Dead; 4]), DEAD);
        assert_eq!(code([Five; 4]), CODES - 1);
    }

    #[test]
    fn weaker_codes_come_first() {
        let order = by_strength();
        let mut rank = vec![0; CODES];
        for (i, &c) in order.iter().enumerate() {
            rank[c] = i;
        }
        for c in 0..CODES {
            for w in weaker(c) {
                assert!(rank[w] < rank[c], "{c} {w}");
            }
        }
        assert!(weaker(DEAD).is_empty());
        assert_eq!(weaker(code([Flex3, Flex2, Dead, Dead])), {
            let mut v = vec![
                code([Block3, Flex2, Dead, Dead]),
                code([Flex3, Block2, Dead, Dead]),
            ];
            v.sort_unstable();
            v
        });
    }

    #[test]
    fn order_of_the_lines_does_not_matter() {
        assert_eq!(
            code([Flex3, Dead, Flex2, Block1]),
            code([Block1, Flex2, Flex3, Dead])
        );
        assert_ne!(
            code([Flex3, Flex3, Dead, Dead]),
            code([Flex3, Flex2, Dead, Dead])
        );
    }
}
