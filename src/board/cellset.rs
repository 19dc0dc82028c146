//! A set of cells, one bit per cell of the padded board array: what the
//! board keeps of the cells where a stone makes a four or an open three,
//! so that the threat solvers visit those cells alone rather than the whole
//! board.

use crate::types::{Pos, CELLS};

/// Words of a [`CellSet`].
const WORDS: usize = CELLS / 64;
const _: () = assert!(CELLS.is_multiple_of(64));

/// Cells by their array index.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CellSet([u64; WORDS]);

impl CellSet {
    /// No cell.
    pub const EMPTY: CellSet = CellSet([0; WORDS]);

    /// If `flip`, takes the cell with array index `index` out of the set
    /// if it is in, else puts it in; without a branch.
    #[inline(always)]
    fn toggle_if(&mut self, index: usize, flip: bool) {
        self.0[index / 64 % WORDS] ^= u64::from(flip) << (index % 64);
    }

    /// Whether `pos` is in the set (the tests' view: the solvers iterate).
    #[cfg(test)]
    pub fn contains(&self, pos: Pos) -> bool {
        let index = pos.index();
        self.0[index / 64 % WORDS] >> (index % 64) & 1 != 0
    }

    /// Whether the set holds no cell.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }

    /// The cells, by array index: row by row, as [`Board::cells`] meets
    /// them. The iterator holds a copy, so a loop over it may change the
    /// board.
    ///
    /// [`Board::cells`]: super::Board::cells
    #[inline]
    pub fn iter(&self) -> Cells {
        Cells {
            words: self.0,
            word: 0,
        }
    }
}

/// The board's threat cell sets (black's four cells, black's three cells,
/// white's four cells, white's three cells), with a log of the changes
/// since some mark, so that taking a stone back undoes them without looking
/// at the cells it restores.
#[derive(Clone)]
pub(crate) struct ThreatCells {
    sets: [CellSet; 4],
    /// Per change: the cell's array index, and above bit 16 the sets it
    /// entered or left. Allocated by the first [`ThreatCells::reset`], so
    /// that a board that never keeps the sets copies no log when cloned.
    log: Box<[u32]>,
    len: usize,
    /// The log's room, once allocated.
    capacity: usize,
}

impl ThreatCells {
    /// Empty sets, whose log will hold `changes` changes.
    pub(crate) fn new(changes: usize) -> ThreatCells {
        ThreatCells {
            sets: [CellSet::EMPTY; 4],
            log: Box::default(),
            len: 0,
            capacity: changes,
        }
    }

    /// Set `k` (0 to 3).
    #[inline]
    pub(crate) fn set(&self, k: usize) -> &CellSet {
        &self.sets[k % 4]
    }

    /// Moves the cell with array index `index` in or out of each set `k`
    /// with bit `k` of `sets` set (none when `sets` is 0), and logs it.
    #[inline(always)]
    pub(crate) fn toggle(&mut self, index: usize, sets: u32) {
        if sets == 0 {
            return;
        }
        self.apply(index, sets);
        self.log[self.len] = index as u32 | sets << 16;
        self.len += 1;
    }

    /// The log's length: a mark to undo back to.
    #[inline]
    pub(crate) fn mark(&self) -> usize {
        self.len
    }

    /// Undoes the changes logged since `mark`, newest first.
    #[inline]
    pub(crate) fn undo(&mut self, mark: usize) {
        while self.len > mark {
            self.len -= 1;
            let entry = self.log[self.len];
            self.apply((entry & 0xffff) as usize, entry >> 16);
        }
    }

    /// Empties the sets and the log (allocating the log the first time),
    /// then puts each `(index, sets)` cell in each set `k` with bit `k` of
    /// `sets` set, without logging it: the sets built anew.
    pub(crate) fn reset(&mut self, cells: impl IntoIterator<Item = (usize, u32)>) {
        self.sets = [CellSet::EMPTY; 4];
        self.len = 0;
        if self.log.is_empty() {
            self.log = vec![0; self.capacity].into_boxed_slice();
        }
        for (index, sets) in cells {
            self.apply(index, sets);
        }
    }

    /// Flips the cell in the sets of `sets`, without branches: the board
    /// inlines this into every cell's update.
    #[inline(always)]
    fn apply(&mut self, index: usize, sets: u32) {
        for (k, set) in self.sets.iter_mut().enumerate() {
            set.toggle_if(index, sets >> k & 1 != 0);
        }
    }
}

/// The cells of a [`CellSet`], lowest index first.
pub struct Cells {
    words: [u64; WORDS],
    word: usize,
}

impl Iterator for Cells {
    type Item = Pos;

    #[inline]
    fn next(&mut self) -> Option<Pos> {
        while self.word < WORDS {
            let bits = self.words[self.word];
            if bits != 0 {
                self.words[self.word] = bits & (bits - 1);
                return Some(Pos((self.word * 64) as u16 + bits.trailing_zeros() as u16));
            }
            self.word += 1;
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_come_back_in_index_order() {
        let mut set = CellSet::EMPTY;
        assert!(set.is_empty());
        let cells = [
            Pos::new(14, 14),
            Pos::new(0, 0),
            Pos::new(3, 7),
            Pos::new(21, 0),
        ];
        for p in cells {
            set.toggle_if(p.index(), true);
        }
        let mut sorted = cells.to_vec();
        sorted.sort();
        assert_eq!(set.iter().collect::<Vec<_>>(), sorted);
        set.toggle_if(Pos::new(0, 0).index(), true);
        assert!(!set.contains(Pos::new(0, 0)) && set.contains(Pos::new(21, 0)));
        assert_eq!(set.iter().count(), 3);
    }
}
