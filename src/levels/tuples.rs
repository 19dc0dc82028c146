//! The five-tuple scorer: a one-ply tutorial player.
//!
//! Every window of five consecutive cells on the board (rows, columns and
//! both diagonals) is scored by what it holds, from the classic table: an
//! empty window 7; one, two, three, four stones of the side to move 35, 800,
//! 15 000, 800 000; of the opponent 15, 400, 1 800, 100 000; both colours
//! (or a blocked cell) 0. An empty cell scores the sum over the windows that
//! contain it, and the best cell is played, at random among ties.
//!
//! The table knows nothing of the rule, so one correction is made: a cell
//! where our stone makes a five the rule accepts comes first (under exact
//! five rules a full window can still give an overline).

use rand::RngCore;

use super::{pick_best, Scores, NOT_CANDIDATE};
use crate::board::{Board, Cell};
use crate::types::{Color, Pos, Threat, CELLS, DIRECTIONS};

/// Score of a window without stones.
const EMPTY_WINDOW: i64 = 7;
/// Score of a window holding only the side to move's stones, by count.
const OWN_WINDOW: [i64; 5] = [EMPTY_WINDOW, 35, 800, 15_000, 800_000];
/// Score of a window holding only the opponent's stones, by count.
const THEIR_WINDOW: [i64; 5] = [EMPTY_WINDOW, 15, 400, 1_800, 100_000];
/// Score of a cell where our stone makes a five: above any window sum.
const FIVE: i64 = 1 << 40;

/// What a window of five holds: its score for `us`, or `None` when it holds
/// both colours or five stones, or runs over the edge or a blocked cell.
fn window_score(board: &Board, start: Pos, dir: isize, us: Color) -> Option<i64> {
    let (mut own, mut theirs) = (0, 0);
    for k in 0..5 {
        match board.cell(start.step(dir, k)) {
            Cell::Empty => {}
            Cell::Stone(c) if c == us => own += 1,
            Cell::Stone(_) => theirs += 1,
            Cell::Wall => return None,
        }
    }
    // A full window (a five already on the board) has no cell to score.
    match (own, theirs) {
        (0, _) => THEIR_WINDOW.get(theirs).copied(),
        (_, 0) => OWN_WINDOW.get(own).copied(),
        _ => None,
    }
}

/// The five-tuple scorer's move for the side to move, with its score; `None`
/// only when no cell can be played.
pub fn choose(board: &Board, rng: &mut dyn RngCore) -> (Option<Pos>, i64) {
    let us = board.side_to_move();
    let mut scores: Scores = [NOT_CANDIDATE; CELLS];
    for pos in board.cells() {
        if board.is_empty(pos) {
            scores[pos.index()] = if board.threat(pos, us) == Threat::Five {
                FIVE
            } else {
                0
            };
        }
    }
    // Every window starts on the board; one that leaves it meets the wall
    // padding (never more than four steps past the edge).
    for start in board.cells() {
        for &dir in &DIRECTIONS {
            let Some(score) = window_score(board, start, dir, us) else {
                continue;
            };
            for k in 0..5 {
                let pos = start.step(dir, k);
                if board.is_empty(pos) {
                    scores[pos.index()] += score;
                }
            }
        }
    }
    pick_best(board, &scores, rng)
}
