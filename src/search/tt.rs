//! The transposition table: buckets of four entries shared by the search
//! threads without locks.

use std::sync::atomic::{AtomicU64, Ordering};

use crate::types::Pos;

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

/// Slots per bucket: one bucket fills a 64-byte cache line.
const BUCKET_SLOTS: usize = 4;
/// Bytes one table slot takes: the key (xor the data) and the packed data.
const SLOT_BYTES: usize = 16;
const BUCKET_BYTES: usize = BUCKET_SLOTS * SLOT_BYTES;

// The table is allocated as zeroed `u64`s (no page is touched before it is
// used) and then read as atomics, which have the same size and alignment.
const _: () = assert!(std::mem::align_of::<u64>() == std::mem::align_of::<AtomicU64>());
const _: () = assert!(std::mem::size_of::<u64>() == std::mem::size_of::<AtomicU64>());

/// A fixed-size hash table of search results, shared by the search threads
/// without locks: each slot stores `key ^ data` beside `data`, so a slot torn
/// by two threads writing at once fails its key check and reads as empty.
/// Buckets of four slots; a new result replaces the same position's entry,
/// else the shallowest entry, entries from earlier searches first.
pub struct Tt {
    words: Box<[AtomicU64]>,
    /// The index of the first word of the first bucket: buckets start on a
    /// cache line, so a probe reads one line, not two.
    first: usize,
    buckets: usize,
    generation: u8,
}

impl Tt {
    /// A table of at most `bytes` bytes (a power-of-two number of buckets,
    /// at least one); the allocation is one bucket (64 bytes) larger, so
    /// that the buckets can start on a cache line.
    pub fn new(bytes: usize) -> Tt {
        let buckets = Tt::bucket_count(bytes);
        // One bucket's worth more, to start the first bucket on a line (the
        // allocator aligns large blocks to 16 bytes, not 64). A 64-byte
        // aligned type would not do: the allocator zeroes such a block by
        // writing every page, where `calloc` leaves them untouched.
        let zeroed = vec![0u64; (buckets + 1) * BUCKET_SLOTS * 2].into_boxed_slice();
        let misalignment = zeroed.as_ptr() as usize % BUCKET_BYTES;
        let first = (BUCKET_BYTES - misalignment) % BUCKET_BYTES / std::mem::size_of::<u64>();
        // Safety: `AtomicU64` has the same size, alignment (asserted above)
        // and bit validity as `u64`, and the box is uniquely owned.
        let words = unsafe { Box::from_raw(Box::into_raw(zeroed) as *mut [AtomicU64]) };
        Tt {
            words,
            first,
            buckets,
            generation: 0,
        }
    }

    fn bucket_count(bytes: usize) -> usize {
        let wanted = (bytes / BUCKET_BYTES).max(1);
        if wanted.is_power_of_two() {
            wanted
        } else {
            wanted.next_power_of_two() / 2
        }
    }

    /// The size in bytes a table made by `Tt::new(bytes)` has.
    pub fn new_size(bytes: usize) -> usize {
        Tt::bucket_count(bytes) * BUCKET_BYTES
    }

    /// The table's size in bytes.
    pub fn bytes(&self) -> usize {
        self.buckets * BUCKET_BYTES
    }

    /// Forgets every entry (a new game).
    pub fn clear(&mut self) {
        self.words.iter_mut().for_each(|w| *w.get_mut() = 0);
        self.generation = 0;
    }

    /// Marks the start of a new search, so older entries are replaced first.
    pub fn new_search(&mut self) {
        self.generation = self.generation.wrapping_add(1);
    }

    /// How full the table is, in thousandths: the share of used slots
    /// among the first thousand buckets (or all, if fewer).
    pub fn usage_permille(&self) -> usize {
        let buckets = self.buckets.min(1000);
        let used = self.words[self.first..self.first + buckets * BUCKET_SLOTS * 2]
            .chunks(2)
            .filter(|slot| slot[1].load(Ordering::Relaxed) != 0)
            .count();
        used * 1000 / (buckets * BUCKET_SLOTS)
    }

    #[inline]
    fn bucket(&self, key: u64) -> &[AtomicU64] {
        let start = self.first + (key as usize & (self.buckets - 1)) * BUCKET_SLOTS * 2;
        &self.words[start..start + BUCKET_SLOTS * 2]
    }

    /// Asks the processor to fetch `key`'s bucket into the cache, so that a
    /// probe soon after does not wait for memory.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let line = self.bucket(key).as_ptr() as *const i8;
            // Safety: a prefetch only hints the cache; the address is in the
            // table, and the instruction is part of SSE, which every x86_64
            // processor has.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(line) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The entry stored for `key`, if any.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let bucket = self.bucket(key);
        (0..BUCKET_SLOTS).find_map(|i| {
            let data = bucket[2 * i + 1].load(Ordering::Relaxed);
            let stored_key = bucket[2 * i].load(Ordering::Relaxed) ^ data;
            (data != 0 && stored_key == key).then(|| unpack(data))
        })
    }

    /// Stores a search result for `key` (mate scores already made relative
    /// to this node by [`score_to_tt`]). A result without a move keeps the
    /// move an earlier result for the same position had.
    #[inline]
    pub fn store(&self, key: u64, best: Option<Pos>, score: i32, depth: i32, bound: Bound) {
        let bucket = self.bucket(key);
        let mut victim = 0;
        let mut victim_worth = i32::MAX;
        let mut old_move = 0;
        for i in 0..BUCKET_SLOTS {
            let data = bucket[2 * i + 1].load(Ordering::Relaxed);
            let stored_key = bucket[2 * i].load(Ordering::Relaxed) ^ data;
            if data == 0 || stored_key == key {
                victim = i;
                old_move = if data == 0 { 0 } else { data & 0xFFFF };
                break;
            }
            // Worth keeping: depth, less 8 per search since it was stored.
            let age = self.generation.wrapping_sub((data >> 48) as u8) as i32;
            let worth = ((data >> 32) & 0xFF) as u8 as i8 as i32 - 8 * age;
            if worth < victim_worth {
                victim = i;
                victim_worth = worth;
            }
        }
        let mv = best.map_or(old_move, |p| p.0 as u64);
        let data = mv
            | ((score as i16 as u16 as u64) << 16)
            | ((depth.clamp(-128, 127) as i8 as u8 as u64) << 32)
            | ((bound as u64) << 40)
            | ((self.generation as u64) << 48);
        bucket[2 * victim].store(key ^ data, Ordering::Relaxed);
        bucket[2 * victim + 1].store(data, Ordering::Relaxed);
    }
}

fn unpack(data: u64) -> Entry {
    let mv = (data & 0xFFFF) as u16;
    let bound = match (data >> 40) & 3 {
        1 => Bound::Upper,
        2 => Bound::Lower,
        _ => Bound::Exact,
    };
    Entry {
        best: (mv != 0).then_some(Pos(mv)),
        score: ((data >> 16) & 0xFFFF) as u16 as i16 as i32,
        depth: ((data >> 32) & 0xFF) as u8 as i8 as i32,
        bound,
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
    fn full_bucket_replaces_the_shallowest_oldest_entry() {
        let mut tt = Tt::new(1 << 12);
        // Keys with equal low bits share a bucket.
        let key = |i: u64| (i << 40) | 7;
        for i in 1..=4 {
            tt.store(key(i), Some(Pos(i as u16)), 0, 10 + i as i32, Bound::Exact);
        }
        tt.store(key(5), Some(Pos(5)), 0, 20, Bound::Exact);
        assert!(tt.probe(key(1)).is_none(), "the shallowest entry goes");
        assert!((2..=5).all(|i| tt.probe(key(i)).is_some()));
        // After a new search an old deep entry gives way to a new shallow one.
        for _ in 0..4 {
            tt.new_search();
        }
        tt.store(key(6), None, 0, 1, Bound::Upper);
        assert!(tt.probe(key(6)).is_some());
        assert_eq!((2..=5).filter(|&i| tt.probe(key(i)).is_some()).count(), 3);
        // Storing without a move keeps the position's old move.
        tt.store(key(5), None, 3, 21, Bound::Lower);
        assert_eq!(tt.probe(key(5)).and_then(|e| e.best), Some(Pos(5)));
    }

    #[test]
    fn store_and_probe() {
        let mut tt = Tt::new(1 << 16);
        assert_eq!(Tt::new_size(100_000), 1 << 16);
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

    #[test]
    fn every_bucket_fills_one_cache_line() {
        for bytes in [1 << 12, 1 << 16, 1 << 20] {
            let tt = Tt::new(bytes);
            for key in [0, 1, 12345, u64::MAX] {
                let start = tt.bucket(key).as_ptr() as usize;
                assert_eq!(start % BUCKET_BYTES, 0, "{bytes} bytes, key {key}");
            }
            // The last bucket is inside the allocation (slicing past it panics).
            assert_eq!(tt.bucket(u64::MAX).len(), BUCKET_SLOTS * 2);
        }
    }
}
