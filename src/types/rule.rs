//! The winning rules Gomocup plays, and what each makes a five.

use super::Color;

/// A game rule, decoded from the protocol's `INFO rule` bitmask.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Rule {
    /// Rule 0: five or more in a row wins.
    #[default]
    Freestyle,
    /// Rule 1: exactly five wins; six or more does not.
    Standard,
    /// Rule 4: black needs exactly five and may not make a double three, a
    /// double four or an overline; white wins with five or more.
    Renju,
    /// Rule 8: caro; a five blocked at both ends by the opponent does not win,
    /// an overline does.
    Caro,
    /// Rule 9: caro with exactly five.
    CaroExact,
}

impl Rule {
    /// Decodes the `INFO rule` bitmask (1 exact five, 2 continuous game,
    /// 4 renju, 8 caro). Yixin-Board (and Rapfi) send 2 for renju, and no
    /// Gomocup manager sends the continuous-game bit, so 2 reads as renju.
    pub fn from_bits(bits: u32) -> Rule {
        if bits & 8 != 0 {
            if bits & 1 != 0 {
                Rule::CaroExact
            } else {
                Rule::Caro
            }
        } else if bits & (4 | 2) != 0 {
            Rule::Renju
        } else if bits & 1 != 0 {
            Rule::Standard
        } else {
            Rule::Freestyle
        }
    }

    /// The protocol bitmask for this rule.
    pub fn bits(self) -> u32 {
        match self {
            Rule::Freestyle => 0,
            Rule::Standard => 1,
            Rule::Renju => 4,
            Rule::Caro => 8,
            Rule::CaroExact => 9,
        }
    }

    /// A short lower-case name (`freestyle`, `standard`, `renju`, `caro`, `caro9`).
    pub fn name(self) -> &'static str {
        match self {
            Rule::Freestyle => "freestyle",
            Rule::Standard => "standard",
            Rule::Renju => "renju",
            Rule::Caro => "caro",
            Rule::CaroExact => "caro9",
        }
    }

    /// What counts as a five for `color` under this rule.
    pub fn five_rule(self, color: Color) -> FiveRule {
        match (self, color) {
            (Rule::Freestyle, _) | (Rule::Renju, Color::White) => FiveRule::FiveOrMore,
            (Rule::Standard, _) | (Rule::Renju, Color::Black) => FiveRule::ExactFive,
            (Rule::Caro, _) => FiveRule::CaroOverline,
            (Rule::CaroExact, _) => FiveRule::CaroExact,
        }
    }

    /// Whether `color` is barred from forbidden points under this rule.
    pub fn has_forbidden(self, color: Color) -> bool {
        self == Rule::Renju && color == Color::Black
    }
}

/// How a row of stones must look to win, as far as one line can tell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FiveRule {
    /// Five or more wins (freestyle; renju's white).
    FiveOrMore,
    /// Exactly five wins (standard; renju's black).
    ExactFive,
    /// Caro with overlines: a five blocked at both ends by the opponent does
    /// not win, six or more always does.
    CaroOverline,
    /// Caro with exactly five: a five must not be blocked at both ends by the
    /// opponent, six or more does not win.
    CaroExact,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bitmask_round_trip() {
        for bits in [0, 1, 4, 8, 9] {
            assert_eq!(Rule::from_bits(bits).bits(), bits);
        }
        assert_eq!(Rule::from_bits(2), Rule::Renju);
        assert_eq!(Rule::from_bits(3), Rule::Renju);
        assert_eq!(Rule::from_bits(5), Rule::Renju);
    }
}
