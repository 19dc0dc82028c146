//! The line-pattern scorer: a one-ply tutorial player.
//!
//! Every empty cell within two cells of a stone is scored by the line
//! patterns a stone there would make, for attack (our stone) and for defence
//! (the opponent's stone). First comes the urgency of the threats, in the
//! order the game asks for them:
//!
//! 1. our five;
//! 2. blocking the opponent's five;
//! 3. our open four (or double four), then our four-three;
//! 4. blocking a cell where the opponent would make an open four, then one
//!    where it would make a four-three;
//! 5. our double three, then blocking the opponent's double-three cell.
//!
//! Among cells of equal urgency (most of the game: none of the above) the
//! quiet value decides: for each side the values of its line patterns
//! (twos, threes, fours, open and closed), plus a bonus for two open twos,
//! or an open two with a three or a four, which set up the next double
//! threat. The best cell is played, at random among ties.
//!
//! The quiet values were tuned by playing the five-tuple scorer (thousands
//! of games in-process, then checked with `scripts/match.py`, freestyle
//! 15×15, 200 ms a move). The old scorer (the classic table, each pattern
//! worth ten times the one below, defence four fifths of attack, no
//! urgency order) scored 58 % of 200 games; with the urgency order alone
//! 60 %; tuned, 81.75 % (325-71-4 of 400). Most of the gain came from
//! valuing a closed three above an open two, a plain four low (a four the
//! opponent simply blocks wastes its potential) and the open-two bonuses.

use rand::RngCore;

use super::{pick_best, Scores, NOT_CANDIDATE};
use crate::board::Board;
use crate::types::{Color, Pattern, Pos, Threat, CELLS};

/// Quiet value of each line pattern our stone makes, in [`Pattern`] order:
/// dead, overline, closed one, open one, closed two, open two, closed
/// three, open three, four (the stronger patterns are urgent threats and
/// ranked by urgency instead).
const ATTACK: [i64; Pattern::COUNT] = [0, 0, 2, 20, 13, 50, 200, 2_000, 300, 0, 0, 0];

/// Quiet value of each line pattern the opponent's stone would make there
/// (the value of taking the cell from it), in [`Pattern`] order.
const DEFENCE: [i64; Pattern::COUNT] = [0, 0, 1, 8, 8, 80, 80, 800, 616, 0, 0, 0];

/// Bonus (attack, defence) for two or more open twos through the cell.
const TWO_TWOS: [i64; 2] = [500, 400];

/// Bonus (attack, defence) for an open two together with a three or a four.
const TWO_AND_THREE: [i64; 2] = [500, 400];

/// The weight of one urgency step: above any quiet value.
const URGENCY_STEP: i64 = 100_000_000;

/// How urgent a cell is, from what our stone (`attack`) and the
/// opponent's (`defence`) would make there: 0 for a quiet cell, higher
/// first (the order of the module documentation).
fn urgency(attack: Threat, defence: Threat) -> i64 {
    use Threat::*;
    match (attack, defence) {
        (Five, _) => 8,
        (_, Five) => 7,
        (Flex4, _) => 6,
        (FourThree, _) => 5,
        (_, Flex4) => 4,
        (_, FourThree) => 3,
        (DoubleThree, _) => 2,
        (_, DoubleThree) => 1,
        _ => 0,
    }
}

/// The quiet value of a stone of `color` on empty cell `pos`, from the
/// attack (`side` 0) or defence (`side` 1) tables.
fn quiet_value(board: &Board, pos: Pos, color: Color, side: usize) -> i64 {
    let table = if side == 0 { &ATTACK } else { &DEFENCE };
    let (mut value, mut open_twos, mut threes) = (0, 0, 0);
    for d in 0..4 {
        let pattern = board.pattern(pos, color, d);
        value += table[pattern as usize];
        match pattern {
            Pattern::Flex2 => open_twos += 1,
            Pattern::Block3 | Pattern::Flex3 | Pattern::Block4 => threes += 1,
            _ => {}
        }
    }
    if open_twos >= 2 {
        value += TWO_TWOS[side];
    }
    if open_twos >= 1 && threes >= 1 {
        value += TWO_AND_THREE[side];
    }
    value
}

/// The score of empty cell `pos` for the side to move `us`: its urgency
/// step, then the quiet values of attack and defence. A cell forbidden to
/// a side (renju's black) is worth nothing to that side.
fn cell_score(board: &Board, pos: Pos, us: Color) -> i64 {
    let them = us.opponent();
    let (attack, defence) = (board.threat(pos, us), board.threat(pos, them));
    let mut score = urgency(attack, defence) * URGENCY_STEP;
    if attack != Threat::Forbidden {
        score += quiet_value(board, pos, us, 0);
    }
    if defence != Threat::Forbidden {
        score += quiet_value(board, pos, them, 1);
    }
    score
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
