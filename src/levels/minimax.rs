//! The depth-3 minimax: a tutorial player that looks three plies ahead.
//!
//! A plain negamax alpha-beta (our move, the reply, our next move), without
//! the main search's hash table, VCF or move ordering. Each node tries only
//! the best few cells by a quick score (the classic line-pattern table, for
//! attack and four fifths of it for defence), or just the blocks when the
//! opponent threatens a five. Such a forced block does not use up depth,
//! and a four the opponent plays on the last ply is blocked before the
//! position is judged (our own last-ply fours are not followed up).
//!
//! Positions are judged by static rules first: a five point for the side to
//! move wins; two five points against it lose; an open four to make, a
//! four-three, or a double three (when the opponent has no four to answer
//! with) win. Otherwise its own evaluation counts, for each side, the line
//! patterns a stone would make on the empty cells near stones plus a bonus
//! for the open threes, double threes, four-threes and open fours among
//! them, the side to move weighted up by a fifth.
//!
//! Measured on freestyle 15×15 (200 ms a move): without the forced-block
//! rules it scored 72 % against the old pattern scorer, with them 90 %
//! (200 games each). Against the stronger pattern scorer of today it scored
//! 78 % without the threat bonus (2 000 games in-process) and 81 % with it
//! (`scripts/match.py`, 400 games), while full strength scored 97 %
//! against it (466-14 of 480 games in four runs). Larger bonuses, or ordering the moves by the
//! pattern scorer's urgency, made it 87–90 % against the pattern scorer but
//! let full strength score only 95 % (80 games): it attacked too well for a
//! tutorial player, as did following up its own last-ply fours (91 %
//! against the old pattern scorer, full strength 78 %).

use rand::{Rng, RngCore};

use crate::board::Board;
use crate::eval::EVAL_LIMIT;
use crate::rules::is_allowed;
use crate::search::{nearest_free_cell, MATE};
use crate::types::{Color, Pattern, Pos, Threat};

/// Plies searched.
pub const DEPTH: i32 = 3;
/// Moves tried at the root.
const ROOT_WIDTH: usize = 16;
/// Moves tried below the root.
const WIDTH: usize = 10;
/// Larger than any score.
const INFINITE: i32 = MATE + 1;

/// Evaluation value of each line pattern a stone on an empty cell would
/// make, in [`Pattern`] order (a five point is worth most: it must be
/// answered).
const LINE_VALUE: [i32; Pattern::COUNT] = [0, 0, 1, 4, 6, 30, 25, 200, 150, 1_000, 1_000, 3_000];

/// Evaluation bonus of the threat a stone on an empty cell would make, in
/// [`Threat`] order: an open three, a double three, a four-three and an open
/// four are worth more than their lines.
const CLASS_BONUS: [i32; Threat::COUNT] = [0, 0, 0, 0, 200, 600, 0, 800, 1_000, 0];

/// Move-ordering value of each line pattern a stone would make, in
/// [`Pattern`] order: the classic table, each pattern worth about ten
/// times the next weaker one.
const ORDER_VALUE: [i64; Pattern::COUNT] = [
    0, 0, 1, 10, 10, 100, 100, 1_000, 1_000, 10_000, 10_000, 100_000,
];

/// Extra move-ordering value of the combined threats, in [`Threat`] order:
/// a four-three or an open four wins like it, a double three nearly.
const ORDER_BONUS: [i64; Threat::COUNT] = [0, 0, 0, 0, 0, 5_000, 0, 10_000, 10_000, 0];

/// What the minimax found.
#[derive(Clone, Copy, Debug)]
pub struct Found {
    /// The move (`None` only when no cell can be played).
    pub best: Option<Pos>,
    /// Its score for the side to move, in the search's units (`MATE - n`
    /// is a win in n plies).
    pub score: i32,
    /// Positions visited.
    pub nodes: u64,
}

/// A candidate move and its ordering score.
#[derive(Clone, Copy, Default)]
struct Candidate {
    pos: Pos,
    score: i64,
}

/// The minimax's move for the side to move.
pub fn choose(board: &Board, rng: &mut dyn RngCore) -> Found {
    let mut board = board.clone();
    let us = board.side_to_move();
    let mut found = Found {
        best: None,
        score: 0,
        nodes: 1,
    };
    // A five wins at once (a five the rule accepts is never forbidden).
    if let Some(five) = board
        .cells()
        .find(|&p| board.is_empty(p) && board.threat(p, us) == Threat::Five)
    {
        found.best = Some(five);
        found.score = MATE - 1;
        return found;
    }
    let mut moves = [Candidate::default(); ROOT_WIDTH];
    let n = candidates(&mut board, &mut moves, Some(rng));
    if n == 0 {
        found.best = nearest_free_cell(&mut board);
        return found;
    }
    let mut alpha = -INFINITE;
    for m in &moves[..n] {
        board.make(m.pos);
        let score = -negamax(
            &mut board,
            DEPTH - 1,
            -INFINITE,
            -alpha,
            1,
            &mut found.nodes,
        );
        board.unmake();
        if score > alpha {
            alpha = score;
            found.best = Some(m.pos);
        }
    }
    found.score = alpha;
    found
}

/// The score of the position for the side to move, searched `depth` plies.
fn negamax(
    board: &mut Board,
    depth: i32,
    mut alpha: i32,
    beta: i32,
    ply: i32,
    nodes: &mut u64,
) -> i32 {
    *nodes += 1;
    let us = board.side_to_move();
    let them = us.opponent();
    if board.threat_count(us, Threat::Five) > 0 {
        return MATE - ply - 1;
    }
    let their_fives = board.threat_count(them, Threat::Five);
    if their_fives >= 2 {
        return -(MATE - ply - 2);
    }
    if their_fives == 0 && board.threat_count(us, Threat::Flex4) > 0 {
        return MATE - ply - 3;
    }
    if their_fives == 0 && !can_four(board, them) {
        if board.threat_count(us, Threat::FourThree) > 0 {
            return MATE - ply - 5;
        }
        if board.threat_count(us, Threat::DoubleThree) > 0 {
            return MATE - ply - 5;
        }
    }
    if board.empty_count() == 0 {
        return 0;
    }
    // At the horizon only the opponent's four (we are to move: the root
    // side moves on even plies) is followed by its block.
    if depth <= 0 && (their_fives == 0 || ply % 2 == 1) {
        return evaluate(board);
    }
    let mut moves = [Candidate::default(); WIDTH];
    let n = candidates(board, &mut moves, None);
    if n == 0 {
        // Every block is forbidden (renju's black), or nothing is near.
        return if their_fives > 0 {
            -(MATE - ply - 2)
        } else {
            evaluate(board)
        };
    }
    // Blocking a four is forced: it does not use up depth.
    let new_depth = if their_fives > 0 { depth } else { depth - 1 };
    let mut best = -INFINITE;
    for m in &moves[..n] {
        board.make(m.pos);
        let score = -negamax(board, new_depth, -beta, -alpha, ply + 1, nodes);
        board.unmake();
        best = best.max(score);
        alpha = alpha.max(score);
        if alpha >= beta {
            break;
        }
    }
    best
}

/// Fills `out` with the best allowed moves for the side to move, best
/// first, and returns how many: the blocks when the opponent has a five
/// point, else the cells near stones by the pattern scorer's score. `rng`
/// (at the root) breaks ties at random.
fn candidates(
    board: &mut Board,
    out: &mut [Candidate],
    mut rng: Option<&mut dyn RngCore>,
) -> usize {
    let us = board.side_to_move();
    let them = us.opponent();
    let facing_five = board.threat_count(them, Threat::Five) > 0;
    let mut n = 0;
    for pos in board.cells() {
        let wanted = board.is_empty(pos)
            && if facing_five {
                board.threat(pos, them) == Threat::Five
            } else {
                board.has_neighbour(pos)
            };
        if !wanted || !is_allowed(board, pos, us) {
            continue;
        }
        let mut score = order_score(board, pos, us) * 16;
        if let Some(rng) = rng.as_mut() {
            score += rng.gen_range(0..16);
        }
        // Insert into the sorted list, dropping the worst when full.
        if n == out.len() && score <= out[n - 1].score {
            continue;
        }
        let mut i = n.min(out.len() - 1);
        while i > 0 && out[i - 1].score < score {
            out[i] = out[i - 1];
            i -= 1;
        }
        out[i] = Candidate { pos, score };
        n = (n + 1).min(out.len());
    }
    n
}

/// The move-ordering score of empty cell `pos` for the side to move `us`:
/// what our stone there would make, plus four fifths of what the
/// opponent's would.
fn order_score(board: &Board, pos: Pos, us: Color) -> i64 {
    let value = |color: Color| {
        let threat = board.threat(pos, color);
        if threat == Threat::Forbidden {
            return 0;
        }
        (0..4)
            .map(|d| ORDER_VALUE[board.pattern(pos, color, d) as usize])
            .sum::<i64>()
            + ORDER_BONUS[threat as usize]
    };
    value(us) + value(us.opponent()) * 4 / 5
}

/// Whether `color` has a cell that makes a four or better.
fn can_four(board: &Board, color: Color) -> bool {
    [Threat::Four, Threat::FourThree, Threat::Flex4]
        .iter()
        .any(|&t| board.threat_count(color, t) > 0)
}

/// The static value of the position for the side to move: the line
/// patterns its stones could make on the empty cells near stones, minus the
/// opponent's, with the side to move's potential weighted up by a fifth.
fn evaluate(board: &Board) -> i32 {
    let us = board.side_to_move();
    let them = us.opponent();
    let (mut ours, mut theirs) = (0, 0);
    for pos in board.cells() {
        if board.is_empty(pos) && board.has_neighbour(pos) {
            ours += potential(board, pos, us);
            theirs += potential(board, pos, them);
        }
    }
    (ours * 6 / 5 - theirs).clamp(-EVAL_LIMIT, EVAL_LIMIT)
}

/// The evaluation value of a stone of `color` on empty cell `pos` (nothing
/// on a cell forbidden to it).
fn potential(board: &Board, pos: Pos, color: Color) -> i32 {
    let threat = board.threat(pos, color);
    if threat == Threat::Forbidden {
        return 0;
    }
    (0..4)
        .map(|d| LINE_VALUE[board.pattern(pos, color, d) as usize])
        .sum::<i32>()
        + CLASS_BONUS[threat as usize]
}
