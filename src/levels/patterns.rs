//! The line-pattern scorer: a one-ply tutorial player.
//!
//! Every empty cell within two cells of a stone is scored by the line
//! patterns a stone there would make, for attack (our stone) and for defence
//! (the opponent's stone, weighted 4/5 so that an equal attack wins), from
//! the classic table: five, open four, four, open three, closed three, open
//! two, … each worth about ten times the next, plus a bonus for the
//! combinations that win as surely as an open four (four-three, double four)
//! or nearly (double three). The best cell is played, at random among ties.

use rand::RngCore;

use super::{pick_best, Scores, NOT_CANDIDATE};
use crate::board::pattern::Pattern;
use crate::board::{Board, Color, Pos, Threat, CELLS};

/// Value of each line pattern, in [`Pattern`] order: dead, overline, closed
/// one, open one, closed two, open two, closed three, open three, four,
/// double four on one line, open four, five.
const LINE_VALUE: [i64; Pattern::COUNT] = [
    0, 0, 1, 10, 10, 100, 100, 1_000, 1_000, 10_000, 10_000, 100_000,
];

/// Extra value of the combined threat classes, in [`Threat`] order: a
/// four-three or two fours win like an open four; a double three nearly.
const COMBO_BONUS: [i64; Threat::COUNT] = [0, 0, 0, 0, 0, 5_000, 0, 10_000, 10_000, 0];

/// The value of a stone of `color` on empty cell `pos`: its four line
/// patterns plus the combination bonus. Nothing for a cell forbidden to
/// `color` (renju's black).
pub fn stone_value(board: &Board, pos: Pos, color: Color) -> i64 {
    let threat = board.threat(pos, color);
    if threat == Threat::Forbidden {
        return 0;
    }
    let lines: i64 = (0..4)
        .map(|d| LINE_VALUE[board.pattern(pos, color, d) as usize])
        .sum();
    lines + COMBO_BONUS[threat as usize]
}

/// The score of empty cell `pos` for the side to move `us`: attack plus
/// four fifths of the defence.
pub fn cell_score(board: &Board, pos: Pos, us: Color) -> i64 {
    stone_value(board, pos, us) + stone_value(board, pos, us.opponent()) * 4 / 5
}

/// The pattern scorer's move for the side to move, with its score; `None`
/// only when no cell can be played.
pub fn choose(board: &Board, rng: &mut dyn RngCore) -> (Option<Pos>, i64) {
    let us = board.side_to_move();
    let mut scores: Scores = [NOT_CANDIDATE; CELLS];
    for pos in board.cells() {
        if board.is_empty(pos) && board.has_neighbour(pos) {
            scores[pos.index()] = cell_score(board, pos, us);
        }
    }
    pick_best(board, &scores, rng)
}
