//! The transposition table: one entry per slot, replaced when the new result
//! is deeper or the old one is from an earlier search.

use crate::board::Pos;

/// Whether a stored score is exact or a bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true score is at most this (no move beat alpha).
    Upper = 1,
    /// The true score is at least this (a move reached beta).
    Lower = 2,
    /// The exact score.
    Exact = 3,
}

/// What a probe finds.
#[derive(Clone, Copy, Debug)]
pub struct Entry {
    /// The best move found, if any.
    pub best: Option<Pos>,
    /// The score, mate scores relative to the probing node (see [`score_from_tt`]).
    pub score: i32,
    /// The remaining depth the score was searched to.
    pub depth: i32,
    /// What kind of score it is.
    pub bound: Bound,
}

/// One slot: the position key and the packed entry. A plain array, so a new
/// table is allocated already zeroed (no page is touched before it is used).
type Slot = [u64; 2];
const KEY: usize = 0;
const DATA: usize = 1;

/// Bytes one table slot takes.
pub const SLOT_BYTES: usize = std::mem::size_of::<Slot>();

/// A fixed-size hash table of search results.
pub struct Tt {
    slots: Vec<Slot>,
    generation: u8,
}

impl Tt {
    /// A table taking at most `bytes` bytes (at least one slot; a power of two).
    pub fn new(bytes: usize) -> Tt {
        Tt {
            slots: vec![[0; 2]; Tt::slot_count(bytes)],
            generation: 0,
        }
    }

    fn slot_count(bytes: usize) -> usize {
        let wanted = (bytes / SLOT_BYTES).max(1);
        if wanted.is_power_of_two() {
            wanted
        } else {
            wanted.next_power_of_two() / 2
        }
    }

    /// The size in bytes of a table made by `Tt::new(bytes)`.
    pub fn new_size(bytes: usize) -> usize {
        Tt::slot_count(bytes) * SLOT_BYTES
    }

    /// The memory the table holds, in bytes.
    pub fn bytes(&self) -> usize {
        self.slots.len() * SLOT_BYTES
    }

    /// Forgets every entry.
    pub fn clear(&mut self) {
        self.slots.iter_mut().for_each(|s| *s = [0; 2]);
        self.generation = 0;
    }

    /// Marks the start of a new search, so older entries give way first.
    pub fn new_search(&mut self) {
        self.generation = self.generation.wrapping_add(1);
    }

    #[inline]
    fn index(&self, key: u64) -> usize {
        (key as usize) & (self.slots.len() - 1)
    }

    /// The entry for position `key`, if stored.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let slot = self.slots[self.index(key)];
        if slot[KEY] != key || slot[DATA] == 0 {
            return None;
        }
        let d = slot[DATA];
        let mv = (d & 0xFFFF) as u16;
        let bound = match (d >> 40) & 3 {
            1 => Bound::Upper,
            2 => Bound::Lower,
            _ => Bound::Exact,
        };
        Some(Entry {
            best: (mv != 0).then_some(Pos(mv)),
            score: ((d >> 16) & 0xFFFF) as u16 as i16 as i32,
            depth: ((d >> 32) & 0xFF) as u8 as i8 as i32,
            bound,
        })
    }

    /// Stores a result for position `key`.
    #[inline]
    pub fn store(&mut self, key: u64, best: Option<Pos>, score: i32, depth: i32, bound: Bound) {
        let idx = self.index(key);
        let old = self.slots[idx];
        let old_generation = ((old[DATA] >> 48) & 0xFF) as u8;
        let old_depth = ((old[DATA] >> 32) & 0xFF) as u8 as i8 as i32;
        if old[KEY] == key || old_generation != self.generation || depth >= old_depth {
            let mv = best.map_or(0, |p| p.0) as u64;
            let data = mv
                | ((score as i16 as u16 as u64) << 16)
                | ((depth.clamp(-128, 127) as i8 as u8 as u64) << 32)
                | ((bound as u64) << 40)
                | ((self.generation as u64) << 48);
            self.slots[idx] = [key, data];
        }
    }
}

/// Converts a score for storing: mate scores become relative to this node.
pub fn score_to_tt(score: i32, ply: i32) -> i32 {
    if score > super::MATE_BOUND {
        score + ply
    } else if score < -super::MATE_BOUND {
        score - ply
    } else {
        score
    }
}

/// Converts a stored score back: mate scores become relative to the root.
pub fn score_from_tt(score: i32, ply: i32) -> i32 {
    if score > super::MATE_BOUND {
        score - ply
    } else if score < -super::MATE_BOUND {
        score + ply
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn store_and_probe() {
        let mut tt = Tt::new(1 << 16);
        assert_eq!(tt.bytes(), 1 << 16);
        tt.store(12345, Some(Pos(300)), -29_990, 7, Bound::Lower);
        let e = tt.probe(12345).expect("stored");
        assert_eq!(e.best, Some(Pos(300)));
        assert_eq!(e.score, -29_990);
        assert_eq!(e.depth, 7);
        assert_eq!(e.bound, Bound::Lower);
        assert!(tt.probe(12346).is_none());
        tt.clear();
        assert!(tt.probe(12345).is_none());
    }
}
