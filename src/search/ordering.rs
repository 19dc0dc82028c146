//! Move-ordering memory of one search thread: killer moves per ply and a
//! history score per colour and cell, both learnt from beta cut-offs.

use crate::board::{Color, Pos, CELLS};

use super::MAX_PLY;

/// Ordering bonus of a killer move, above every quiet move's pattern score
/// but below the moves that make or stop a three.
pub const KILLER_BONUS: i32 = 300;
/// History scores are kept below this; move ordering adds a 32nd of them,
/// so they only break ties among moves of similar pattern value.
const HISTORY_LIMIT: i32 = 8192;

/// Killers and history of one search thread.
pub struct Ordering {
    killers: [[Option<Pos>; 2]; MAX_PLY as usize + 2],
    history: [[i32; CELLS]; 2],
}

impl Ordering {
    /// Empty memory (a new search).
    pub fn new() -> Box<Ordering> {
        Box::new(Ordering {
            killers: [[None; 2]; MAX_PLY as usize + 2],
            history: [[0; CELLS]; 2],
        })
    }

    /// Whether `pos` cut off a sibling node at `ply` recently.
    #[inline]
    pub fn is_killer(&self, ply: i32, pos: Pos) -> bool {
        self.killers[ply as usize].contains(&Some(pos))
    }

    /// The history bonus of `color` playing `pos` for move ordering, 0..256.
    #[inline]
    pub fn history_bonus(&self, color: Color, pos: Pos) -> i32 {
        self.history[color.index()][pos.index()] >> 5
    }

    /// Records that `pos`, played by `color` at `ply` with `depth` to go,
    /// caused a beta cut-off.
    #[inline]
    pub fn record_cutoff(&mut self, color: Color, ply: i32, depth: i32, pos: Pos) {
        let killers = &mut self.killers[ply as usize];
        if killers[0] != Some(pos) {
            killers[1] = killers[0];
            killers[0] = Some(pos);
        }
        let entry = &mut self.history[color.index()][pos.index()];
        *entry += depth * depth;
        if *entry >= HISTORY_LIMIT {
            // Age every score, keeping their order.
            for row in self.history.iter_mut() {
                for h in row.iter_mut() {
                    *h /= 2;
                }
            }
        }
    }

    /// Forgets the killers of the ply below `ply`'s children (called when a
    /// node starts, so killers stay relevant to sibling subtrees).
    #[inline]
    pub fn clear_killers(&mut self, ply: i32) {
        self.killers[ply as usize + 1] = [None; 2];
    }
}
