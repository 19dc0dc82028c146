//! Openings: random compact openings scored near even, and the choices of
//! the swap2 opening rule, all decided by short searches.

use std::sync::atomic::AtomicBool;

use rand::Rng;

use super::movegen::{generate, MoveList};
use super::tt::Tt;
use super::{Limits, Searcher};
use crate::board::Board;
use crate::rules::renju;
use crate::types::{Pos, Threat};

/// A score within this of zero (for the side to move) counts as balanced.
pub const BALANCED: i32 = 150;
/// Depth of the searches that score candidate openings.
const PROBE_DEPTH: i32 = 4;
/// Node cap of one such search.
const PROBE_NODES: u64 = 300_000;
/// Most candidates tried for one decision.
const MAX_CANDIDATES: usize = 12;

/// Places `plies` random stones: the first within one cell of the centre,
/// each next one within two cells of a stone already placed. Skips forbidden
/// points and moves that make a four or better. False if it got stuck.
pub fn random_opening(board: &mut Board, plies: usize, rng: &mut impl Rng) -> bool {
    let (cx, cy) = (board.width() as i64 / 2, board.height() as i64 / 2);
    for _ in 0..plies {
        let mut placed = false;
        for _ in 0..100 {
            let (ax, ay, reach) = match board.history() {
                [] => (cx, cy, 1),
                stones => {
                    let anchor = stones[rng.gen_range(0..stones.len())];
                    (anchor.x() as i64, anchor.y() as i64, 2)
                }
            };
            let x = ax + rng.gen_range(-reach..=reach);
            let y = ay + rng.gen_range(-reach..=reach);
            if x < 0 || y < 0 || !board.contains(x as usize, y as usize) {
                continue;
            }
            let pos = Pos::new(x as usize, y as usize);
            let us = board.side_to_move();
            if !board.is_empty(pos)
                || board.threat(pos, us) >= Threat::Four
                || (board.rule().has_forbidden(us) && renju::is_forbidden(board, pos))
            {
                continue;
            }
            board.make(pos);
            placed = true;
            break;
        }
        if !placed {
            return false;
        }
    }
    true
}

/// A decision under the swap2 opening rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Swap2Answer {
    /// Take black (the opponent continues as white).
    Swap,
    /// Stay white and play this move.
    Move(Pos),
    /// Add a white and a black stone and hand the choice of colour back.
    TwoMoves(Pos, Pos),
    /// The three opening stones (black, white, black).
    Propose([Pos; 3]),
}

impl std::fmt::Display for Swap2Answer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Swap2Answer::Swap => write!(f, "SWAP"),
            Swap2Answer::Move(p) => write!(f, "{p}"),
            Swap2Answer::TwoMoves(a, b) => write!(f, "{a} {b}"),
            Swap2Answer::Propose([a, b, c]) => write!(f, "{a} {b} {c}"),
        }
    }
}

/// Searches for swap2 decisions within one move's limits.
pub struct Swap2<'a> {
    /// The hash table to search with.
    pub tt: &'a mut Tt,
    /// Stops the searches early.
    pub stop: &'a AtomicBool,
    /// The limits of the whole decision.
    pub limits: Limits,
}

impl Swap2<'_> {
    /// Scores `board` for its side to move with a full search within half
    /// the budget: the best move and its score.
    fn evaluate(&mut self, board: &Board) -> (Option<Pos>, i32) {
        let mut limits = self.limits;
        limits.budget.soft /= 2;
        limits.budget.hard /= 2;
        let result = Searcher::new(board, self.tt, self.stop, limits).run(None);
        (result.best, result.score)
    }

    /// Scores `board` with a short fixed-depth search.
    fn probe(&mut self, board: &Board) -> i32 {
        let limits = Limits {
            max_depth: PROBE_DEPTH,
            max_nodes: PROBE_NODES,
            ..self.limits
        };
        Searcher::new(board, self.tt, self.stop, limits)
            .run(None)
            .score
    }

    fn time_left(&self) -> bool {
        self.limits.start.elapsed() < self.limits.budget.soft.min(self.limits.budget.hard / 2)
    }

    /// The decision for a board holding 0, 3 or 5 opening stones (black,
    /// white, black, …); `None` for other counts.
    pub fn decide(&mut self, board: &Board, rng: &mut impl Rng) -> Option<Swap2Answer> {
        match board.move_count() {
            0 => Some(self.propose(board, rng)),
            3 => Some(self.answer_three(board)),
            5 => Some(self.answer_five(board)),
            _ => None,
        }
    }

    /// Three stones as balanced as a few short searches can find.
    fn propose(&mut self, empty: &Board, rng: &mut impl Rng) -> Swap2Answer {
        let mut best: Option<([Pos; 3], i32)> = None;
        for tried in 0..MAX_CANDIDATES {
            if tried > 0 && !self.time_left() {
                break;
            }
            let mut board = empty.clone();
            if !random_opening(&mut board, 3, rng) {
                continue;
            }
            let score = self.probe(&board).abs();
            let stones = [board.history()[0], board.history()[1], board.history()[2]];
            if best.is_none_or(|(_, s)| score < s) {
                best = Some((stones, score));
            }
        }
        let (cx, cy) = (empty.width() / 2, empty.height() / 2);
        let fallback = [
            Pos::new(cx, cy),
            Pos::new(cx + 1, cy),
            Pos::new(cx + 1, cy + 2),
        ];
        Swap2Answer::Propose(best.map_or(fallback, |(stones, _)| stones))
    }

    /// With three stones, white to move: play on when white is better, take
    /// black when black is better, else add two stones that keep it even.
    fn answer_three(&mut self, board: &Board) -> Swap2Answer {
        let (best, score) = self.evaluate(board);
        let Some(white) = best else {
            return Swap2Answer::Swap;
        };
        if score > BALANCED {
            return Swap2Answer::Move(white);
        }
        if score < -BALANCED {
            return Swap2Answer::Swap;
        }
        let mut after = board.clone();
        after.make(white);
        let mut replies = MoveList::default();
        generate(&mut after, &mut replies);
        replies.sort(None);
        let mut chosen: Option<(Pos, i32)> = None;
        for m in replies.as_slice().iter().take(MAX_CANDIDATES) {
            if chosen.is_some() && !self.time_left() {
                break;
            }
            after.make(m.pos);
            let balance = self.probe(&after).abs();
            after.unmake();
            if chosen.is_none_or(|(_, b)| balance < b) {
                chosen = Some((m.pos, balance));
            }
        }
        match chosen {
            Some((black, _)) => Swap2Answer::TwoMoves(white, black),
            None => Swap2Answer::Move(white),
        }
    }

    /// With five stones, white to move: play on unless black is better.
    fn answer_five(&mut self, board: &Board) -> Swap2Answer {
        match self.evaluate(board) {
            (Some(white), score) if score >= 0 => Swap2Answer::Move(white),
            _ => Swap2Answer::Swap,
        }
    }
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;

    use super::*;
    use crate::types::{Color, Rule};

    /// Decides for `board` with searches to `depth` and no clock.
    fn decide(board: &Board, depth: i32, seed: u64) -> Option<Swap2Answer> {
        let mut tt = Tt::new(1 << 20);
        let stop = AtomicBool::new(false);
        let mut swap2 = Swap2 {
            tt: &mut tt,
            stop: &stop,
            limits: Limits::depth(depth),
        };
        swap2.decide(board, &mut rand::rngs::StdRng::seed_from_u64(seed))
    }

    fn board(moves: &str) -> Board {
        Board::from_moves(Rule::Freestyle, 15, moves).unwrap()
    }

    #[test]
    fn answers_print_as_the_protocol_wants() {
        let (a, b, c) = (Pos::new(7, 7), Pos::new(8, 7), Pos::new(0, 14));
        assert_eq!(Swap2Answer::Swap.to_string(), "SWAP");
        assert_eq!(Swap2Answer::Move(a).to_string(), "7,7");
        assert_eq!(Swap2Answer::TwoMoves(a, b).to_string(), "7,7 8,7");
        assert_eq!(Swap2Answer::Propose([a, b, c]).to_string(), "7,7 8,7 0,14");
    }

    #[test]
    fn only_zero_three_or_five_stones_get_a_decision() {
        for moves in [
            "7,7",
            "7,7 8,8",
            "7,7 8,8 9,9 6,6",
            "7,7 8,8 9,9 6,6 5,5 4,4",
        ] {
            assert_eq!(decide(&board(moves), 2, 1), None, "{moves}");
        }
    }

    #[test]
    fn proposal_is_three_free_compact_stones_without_a_four() {
        for seed in 0..3 {
            let Some(Swap2Answer::Propose(stones)) = decide(&board(""), 2, seed) else {
                panic!("no proposal");
            };
            let (first, second, third) = (stones[0], stones[1], stones[2]);
            assert!(first.x().abs_diff(7) <= 1 && first.y().abs_diff(7) <= 1);
            let near = |p: Pos, q: Pos| p.x().abs_diff(q.x()) <= 2 && p.y().abs_diff(q.y()) <= 2;
            assert!(near(second, first), "{stones:?}");
            assert!(near(third, first) || near(third, second), "{stones:?}");
            assert!(first != second && second != third && first != third);
        }
    }

    #[test]
    fn five_stones_take_black_when_black_is_better() {
        // Black's open three on row 7; white's two stones far away: white,
        // to move, is worse, so the engine takes black.
        let better_black = board("6,7 0,0 7,7 14,14 8,7");
        assert_eq!(decide(&better_black, 4, 1), Some(Swap2Answer::Swap));
        // Black's stones scattered on the edges, white's two together in the
        // middle: white plays on, on a free cell.
        let better_white = board("0,0 7,7 14,0 8,7 0,14");
        match decide(&better_white, 4, 1) {
            Some(Swap2Answer::Move(p)) => assert!(better_white.is_empty(p), "{p}"),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn three_stones_get_a_legal_answer() {
        let three = board("7,7 8,8 8,6");
        match decide(&three, 2, 1) {
            Some(Swap2Answer::Swap) => {}
            Some(Swap2Answer::Move(white)) => assert!(three.is_empty(white)),
            Some(Swap2Answer::TwoMoves(white, black)) => {
                assert!(three.is_empty(white) && three.is_empty(black) && white != black);
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn random_opening_places_legal_stones_near_the_centre() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(7);
        for rule in [Rule::Freestyle, Rule::Renju] {
            for _ in 0..20 {
                let mut board = Board::new(15, 15, rule);
                assert!(random_opening(&mut board, 5, &mut rng));
                assert_eq!(board.move_count(), 5);
                let first = board.history()[0];
                assert!(first.x().abs_diff(7) <= 1 && first.y().abs_diff(7) <= 1);
                // Replaying the stones: none made a four or was forbidden.
                let mut replay = Board::new(15, 15, rule);
                for &p in board.history() {
                    let us = replay.side_to_move();
                    assert!(replay.threat(p, us) < Threat::Four, "{p}");
                    assert!(!(us == Color::Black && renju::is_forbidden(&mut replay, p)));
                    replay.make(p);
                }
            }
        }
    }
}
