//! Line patterns by name; the tables that find them are the board's.

/// What a stone placed on a cell makes on one line, weakest first.
#[repr(u8)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Pattern {
    /// No five can ever be made through the cell on this line.
    Dead = 0,
    /// Six or more in a row where only an exact five wins.
    Overline,
    /// One stone with room for a five on one side only.
    Block1,
    /// One stone with room to grow both ways.
    Flex1,
    /// A two that can only become a closed three.
    Block2,
    /// An open two: one move from an open three.
    Flex2,
    /// A closed three: one move from a four.
    Block3,
    /// An open three: one move from an open (straight) four.
    Flex3,
    /// A four: exactly one move completes a five.
    Block4,
    /// Two fours on one line (such as `X.XXX.X`): two five points that are not
    /// one straight four. A double four for renju's black.
    DoubleFour,
    /// An open (straight) four: two five points, unstoppable.
    Flex4,
    /// A five (exact or longer, as the rule allows).
    Five,
}

impl Pattern {
    /// All patterns, in discriminant order.
    pub const ALL: [Pattern; 12] = [
        Pattern::Dead,
        Pattern::Overline,
        Pattern::Block1,
        Pattern::Flex1,
        Pattern::Block2,
        Pattern::Flex2,
        Pattern::Block3,
        Pattern::Flex3,
        Pattern::Block4,
        Pattern::DoubleFour,
        Pattern::Flex4,
        Pattern::Five,
    ];

    /// Number of patterns.
    pub const COUNT: usize = 12;

    /// The pattern for a stored table byte. Panics on a byte that is no
    /// pattern's. (A match, which compiles to a range check, where an index
    /// into [`Pattern::ALL`] would load from memory.)
    #[inline]
    pub fn from_u8(v: u8) -> Pattern {
        match v {
            0 => Pattern::Dead,
            1 => Pattern::Overline,
            2 => Pattern::Block1,
            3 => Pattern::Flex1,
            4 => Pattern::Block2,
            5 => Pattern::Flex2,
            6 => Pattern::Block3,
            7 => Pattern::Flex3,
            8 => Pattern::Block4,
            9 => Pattern::DoubleFour,
            10 => Pattern::Flex4,
            11 => Pattern::Five,
            _ => panic!("no pattern has number {v}"),
        }
    }
}
