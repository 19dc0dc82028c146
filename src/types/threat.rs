//! Threat classes by name; the board combines a cell's line patterns into one.

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
}
