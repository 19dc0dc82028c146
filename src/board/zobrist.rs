//! Zobrist keys for hashing positions.

use crate::types::CELLS;

const fn splitmix(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (state, z ^ (z >> 31))
}

const fn build() -> [[u64; CELLS]; 2] {
    let mut keys = [[0u64; CELLS]; 2];
    let mut state = 0x5755_5A49_2D5A_4F42;
    let mut colour = 0;
    while colour < 2 {
        let mut cell = 0;
        while cell < CELLS {
            let (next, value) = splitmix(state);
            state = next;
            keys[colour][cell] = value;
            cell += 1;
        }
        colour += 1;
    }
    keys
}

/// One random key per colour and cell, fixed at compile time so hashes (and
/// `bench` signatures) are the same on every run.
pub static STONE_KEYS: [[u64; CELLS]; 2] = build();

/// Key toggled on every move, so the side to move is part of the hash.
pub const SIDE_KEY: u64 = 0xA5C3_96E1_0F2B_7D49;
