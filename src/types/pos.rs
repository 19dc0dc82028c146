//! Cell coordinates on the padded board.

/// Largest board side the engine plays on.
pub const MAX_SIZE: usize = 22;
/// Cells of padding around the board, enough for a ±5 line window.
pub const PAD: usize = 5;
/// Row stride of the padded board array.
pub const STRIDE: usize = MAX_SIZE + 2 * PAD;
/// Number of cells in the padded board array.
pub const CELLS: usize = STRIDE * STRIDE;
const _: () = assert!(CELLS.is_power_of_two());

/// The four line directions as index steps: horizontal, vertical, the main
/// diagonal and the anti-diagonal.
pub const DIRECTIONS: [isize; 4] = [1, STRIDE as isize, STRIDE as isize + 1, STRIDE as isize - 1];

/// A cell, as an index into the padded board array.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Pos(pub u16);

impl Pos {
    /// The cell at column `x`, row `y` (0-based, not checked against a board).
    pub const fn new(x: usize, y: usize) -> Pos {
        Pos(((y + PAD) * STRIDE + x + PAD) as u16)
    }

    /// Column, 0-based.
    pub const fn x(self) -> usize {
        self.0 as usize % STRIDE - PAD
    }

    /// Row, 0-based.
    pub const fn y(self) -> usize {
        self.0 as usize / STRIDE - PAD
    }

    /// The array index, below [`CELLS`]. Every cell's number is (the
    /// constructors and on-board steps keep it so); the index is taken
    /// modulo `CELLS` anyway, a power of two, so that the compiler knows the
    /// bound and array look-ups by it need no bounds check.
    #[inline]
    pub const fn index(self) -> usize {
        debug_assert!((self.0 as usize) < CELLS);
        self.0 as usize % CELLS
    }

    /// How many cells apart `self` and `other` are: the larger of the two
    /// coordinate distances (a king's moves).
    #[inline]
    pub const fn distance(self, other: Pos) -> usize {
        let dx = self.x().abs_diff(other.x());
        let dy = self.y().abs_diff(other.y());
        if dx > dy {
            dx
        } else {
            dy
        }
    }

    /// The cell `steps` steps along direction `dir` (a [`DIRECTIONS`] entry).
    /// Stays inside the padded array for any on-board cell and |steps| ≤ 5.
    #[inline]
    pub fn step(self, dir: isize, steps: isize) -> Pos {
        Pos((self.0 as isize + dir * steps) as u16)
    }
}

impl std::fmt::Display for Pos {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{},{}", self.x(), self.y())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The distance is the larger coordinate difference, either way round.
    #[test]
    fn the_distance_is_the_larger_coordinate_difference() {
        let a = Pos::new(3, 7);
        assert_eq!(a.distance(a), 0);
        assert_eq!(a.distance(Pos::new(7, 5)), 4);
        assert_eq!(Pos::new(7, 5).distance(a), 4);
        assert_eq!(a.distance(Pos::new(2, 12)), 5);
    }
}
