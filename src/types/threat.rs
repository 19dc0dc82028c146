//! Threat classes by name, and how a cell's four line patterns combine into one.

use super::Pattern;

/// What one stone on a cell threatens, over all four lines, weakest first.
#[repr(u8)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Threat {
    /// Nothing worth naming.
    None = 0,
    /// A renju forbidden point for black (overline or double four).
    Forbidden,
    /// Black's two or more open threes in renju: forbidden unless all but one
    /// are false threes; the renju rules (`rules::renju::is_forbidden`) decide.
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

    /// The class with discriminant `v`. Panics on a number that is no
    /// class's. (A match, which compiles to a range check, where an index
    /// into [`Threat::ALL`] would load from memory.)
    #[inline]
    pub fn from_u8(v: u8) -> Threat {
        match v {
            0 => Threat::None,
            1 => Threat::Forbidden,
            2 => Threat::MaybeForbidden,
            3 => Threat::Two,
            4 => Threat::Three,
            5 => Threat::DoubleThree,
            6 => Threat::Four,
            7 => Threat::FourThree,
            8 => Threat::Flex4,
            9 => Threat::Five,
            _ => panic!("no threat class has number {v}"),
        }
    }

    /// The class of a cell's four line patterns combined. `restricted` is
    /// true for renju's black, who may not make an overline, a double four
    /// or a double three.
    pub fn of(patterns: [Pattern; 4], restricted: bool) -> Threat {
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
}

#[cfg(test)]
mod tests {
    use super::*;
    use Pattern::*;

    #[test]
    fn combinations() {
        let cases = [
            ([Block4, Flex3, Dead, Dead], false, Threat::FourThree),
            ([Block4, Block4, Dead, Dead], false, Threat::Flex4),
            ([Block4, Block4, Dead, Dead], true, Threat::Forbidden),
            ([DoubleFour, Dead, Dead, Dead], true, Threat::Forbidden),
            ([Overline, Flex3, Dead, Dead], true, Threat::Forbidden),
            ([Overline, Five, Dead, Dead], true, Threat::Five),
            ([Flex3, Flex3, Dead, Dead], true, Threat::MaybeForbidden),
            ([Flex3, Flex3, Dead, Dead], false, Threat::DoubleThree),
            ([Flex4, Flex3, Dead, Dead], true, Threat::Flex4),
            ([Flex2, Block1, Dead, Dead], false, Threat::Two),
        ];
        for (patterns, restricted, class) in cases {
            assert_eq!(Threat::of(patterns, restricted), class, "{patterns:?}");
        }
    }
}
