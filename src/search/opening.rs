//! Openings: random compact openings scored near even, the choices of the
//! swap2 and soosorv opening rules, and balancing moves, all decided by
//! short searches.

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

/// Searches for opening-rule decisions (swap2, soosorv) and balancing moves
/// within one move's limits.
pub struct OpeningSearch<'a> {
    /// The hash table to search with.
    pub tt: &'a mut Tt,
    /// Stops the searches early.
    pub stop: &'a AtomicBool,
    /// The limits of the whole decision.
    pub limits: Limits,
}

impl OpeningSearch<'_> {
    /// Scores `board` for its side to move with a full search within half
    /// the budget: the best move and its score.
    fn evaluate(&mut self, board: &Board) -> (Option<Pos>, i32) {
        let mut limits = self.limits;
        limits.budget.soft /= 2;
        limits.budget.hard /= 2;
        let result = Searcher::new(board, self.tt, self.stop, limits)
            .optimism(false)
            .run(None);
        (result.best, result.score)
    }

    /// Scores `board` for its side to move with a full search within
    /// 1/`parts` of the budget.
    fn evaluate_share(&mut self, board: &Board, parts: u32) -> i32 {
        let mut limits = self.limits;
        limits.budget.soft /= parts.max(1);
        limits.budget.hard /= parts.max(1);
        Searcher::new(board, self.tt, self.stop, limits)
            .optimism(false)
            .run(None)
            .score
    }

    /// Scores `board` with a short fixed-depth search.
    fn probe(&mut self, board: &Board) -> i32 {
        let limits = Limits {
            max_depth: PROBE_DEPTH,
            max_nodes: PROBE_NODES,
            ..self.limits
        };
        Searcher::new(board, self.tt, self.stop, limits)
            .optimism(false)
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
            0 => Some(Swap2Answer::Propose(self.propose(board, rng))),
            3 => Some(self.answer_three(board)),
            5 => Some(self.answer_five(board)),
            _ => None,
        }
    }

    /// Three stones as balanced as a few short searches can find.
    fn propose(&mut self, empty: &Board, rng: &mut impl Rng) -> [Pos; 3] {
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
        best.map_or(fallback, |(stones, _)| stones)
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

/// Most fifth-move candidates soosorv lets white ask for.
pub const SOOSORV_MAX_FIFTHS: usize = 8;
/// Score black gives up, in soosorv, for each fifth-move candidate beyond
/// the first that white may choose from (white takes the worst for black).
const FIFTH_CHOICE_COST: i32 = 50;
/// Score per extra fifth-move candidate white asks for in soosorv.
const FIFTH_DEMAND_STEP: i32 = 80;

/// The eight symmetries of a square board that map `board`'s stones onto
/// stones of the same colour (the identity included); only the identity on
/// rectangular boards.
fn stone_symmetries(board: &Board) -> Vec<u8> {
    let square = board.width() == board.height();
    (0..8u8)
        .filter(|&s| s == 0 || square)
        .filter(|&s| {
            board
                .history()
                .iter()
                .all(|&p| board.cell(transform(board, p, s)) == board.cell(p))
        })
        .collect()
}

/// `pos` under symmetry `s` (0..8: the rotations and reflections) of a
/// square board.
fn transform(board: &Board, pos: Pos, s: u8) -> Pos {
    let n = board.width() - 1;
    let (mut x, mut y) = (pos.x(), pos.y());
    if s & 4 != 0 {
        std::mem::swap(&mut x, &mut y);
    }
    if s & 2 != 0 {
        x = n - x;
    }
    if s & 1 != 0 {
        y = n - y;
    }
    Pos::new(x, y)
}

impl OpeningSearch<'_> {
    /// Swap2 after three stones, white to move: take black, play white's
    /// move, or add two stones (see [`Swap2Answer`]).
    pub fn swap2_three(&mut self, board: &Board) -> Swap2Answer {
        self.answer_three(board)
    }

    /// Swap2 after five stones, white to move: whether the opener (black)
    /// keeps black rather than take white.
    pub fn swap2_keep_black(&mut self, board: &Board) -> bool {
        self.answer_five(board) == Swap2Answer::Swap
    }

    /// The opener's three stones for Yixin-Board's swap2 and soosorv: one of
    /// the 26 canonical openings (the centre, a neighbour of it, a stone in
    /// the 5×5 square around it), the most balanced that short searches
    /// find. (`SWAP2BOARD` proposes more varied openings, for tournaments.)
    pub fn canonical_opening(&mut self, empty: &Board, rng: &mut impl Rng) -> [Pos; 3] {
        let (cx, cy) = (empty.width() / 2, empty.height() / 2);
        let centre = Pos::new(cx, cy);
        let mut candidates: Vec<[Pos; 3]> = Vec::new();
        for second in [Pos::new(cx + 1, cy), Pos::new(cx + 1, cy + 1)] {
            for y in cy - 2..=cy + 2 {
                for x in cx - 2..=cx + 2 {
                    let third = Pos::new(x, y);
                    if third != centre && third != second {
                        candidates.push([centre, second, third]);
                    }
                }
            }
        }
        // Shuffle, so that equally balanced openings vary from game to game.
        for i in (1..candidates.len()).rev() {
            candidates.swap(i, rng.gen_range(0..=i));
        }
        let mut best: Option<([Pos; 3], i32)> = None;
        for stones in candidates {
            if best.is_some() && !self.time_left() {
                break;
            }
            let mut board = empty.clone();
            for p in stones {
                board.make(p);
            }
            let score = self.probe(&board).abs();
            if best.is_none_or(|(_, s)| score < s) {
                best = Some((stones, score));
            }
        }
        best.map_or(
            [centre, Pos::new(cx + 1, cy), Pos::new(cx + 1, cy + 2)],
            |b| b.0,
        )
    }

    /// Soosorv after three stones, white to move: whether to take black.
    pub fn soosorv_take_black(&mut self, board: &Board) -> bool {
        let (best, score) = self.evaluate(board);
        best.is_none() || score < 0
    }

    /// Soosorv, white's fourth move and the number of fifth-move candidates
    /// black must offer: more the better black stands after the fourth.
    pub fn soosorv_fourth(&mut self, board: &Board) -> Option<(Pos, usize)> {
        let (fourth, _) = self.evaluate(board);
        let fourth = fourth?;
        let mut after = board.clone();
        after.make(fourth);
        let black = self.probe(&after);
        let extra = (black.max(0) / FIFTH_DEMAND_STEP) as usize;
        Some((fourth, (1 + extra).min(SOOSORV_MAX_FIFTHS)))
    }

    /// Soosorv after four stones, black to move, white to choose among
    /// `fifths` fifth moves: whether black takes white instead.
    pub fn soosorv_take_white(&mut self, board: &Board, fifths: usize) -> bool {
        let (best, score) = self.evaluate(board);
        let cost = FIFTH_CHOICE_COST * fifths.saturating_sub(1) as i32;
        best.is_none() || score - cost < 0
    }

    /// Soosorv, black's `fifths` fifth-move candidates: the best moves found,
    /// no two of them the same under a symmetry of the position.
    pub fn soosorv_fifths(&mut self, board: &Board, fifths: usize) -> Vec<Pos> {
        let symmetries = stone_symmetries(board);
        let fifths = fifths.clamp(1, SOOSORV_MAX_FIFTHS);
        let mut chosen: Vec<Pos> = Vec::new();
        let mut excluded: Vec<Pos> = Vec::new();
        for i in 0..fifths {
            let mut limits = self.limits;
            let elapsed = limits.start.elapsed();
            let parts = (fifths - i) as u32 + 1;
            limits.budget.soft = limits.budget.soft.saturating_sub(elapsed) / parts;
            limits.budget.hard = limits.budget.hard.saturating_sub(elapsed) / parts;
            limits.start = std::time::Instant::now();
            let found = Searcher::new(board, self.tt, self.stop, limits)
                .optimism(false)
                .excluding(&excluded)
                .run(None)
                .best;
            let Some(fifth) = found.filter(|p| !excluded.contains(p)) else {
                break;
            };
            chosen.push(fifth);
            excluded.extend(symmetries.iter().map(|&s| transform(board, fifth, s)));
        }
        chosen
    }

    /// Soosorv, white's pick among black's fifth-move candidates: the one
    /// after which white stands best.
    pub fn soosorv_pick_fifth(&mut self, board: &Board, fifths: &[Pos]) -> Option<Pos> {
        let mut best: Option<(Pos, i32)> = None;
        let parts = fifths.len() as u32;
        for &fifth in fifths {
            if best.is_some() && self.stop.load(std::sync::atomic::Ordering::Relaxed) {
                break;
            }
            let mut after = board.clone();
            after.make(fifth);
            let score = self.evaluate_share(&after, parts);
            if best.is_none_or(|(_, s)| score > s) {
                best = Some((fifth, score));
            }
        }
        best.map(|b| b.0)
    }

    /// The move for the side to move after which the position is the most
    /// balanced: its score for the mover nearest `target`. Returns the move
    /// and that score.
    pub fn balance_one(&mut self, board: &Board, target: i32) -> Option<(Pos, i32)> {
        let mut best: Option<(Pos, i32, i32)> = None;
        let mut after = board.clone();
        for first in balance_candidates(board) {
            if best.is_some() && !self.time_left() {
                break;
            }
            after.make(first);
            let score = -self.probe(&after);
            after.unmake();
            let miss = (score - target).abs();
            if best.is_none_or(|(_, _, m)| miss < m) {
                best = Some((first, score, miss));
            }
        }
        best.map(|(first, score, _)| (first, score))
    }

    /// A move of the side to move and a reply after which the position is
    /// the most balanced: its score for the side to move (the same side
    /// again) nearest `target`. Returns the two moves and that score.
    pub fn balance_two(&mut self, board: &Board, target: i32) -> Option<((Pos, Pos), i32)> {
        let mut best: Option<((Pos, Pos), i32, i32)> = None;
        let mut after = board.clone();
        'search: for first in balance_candidates(board).into_iter().take(BALANCE_WIDTH) {
            after.make(first);
            for second in balance_candidates(&after).into_iter().take(BALANCE_WIDTH) {
                if best.is_some() && !self.time_left() {
                    after.unmake();
                    break 'search;
                }
                after.make(second);
                let score = self.probe(&after);
                after.unmake();
                let miss = (score - target).abs();
                if best.is_none_or(|(_, _, m)| miss < m) {
                    best = Some(((first, second), score, miss));
                }
            }
            after.unmake();
        }
        best.map(|(moves, score, _)| (moves, score))
    }
}

/// Moves tried for each of the two stones of [`OpeningSearch::balance_two`].
const BALANCE_WIDTH: usize = 6;

/// The moves a balancing move is chosen from, best ordered first: the
/// generated moves, or on an empty board the cells within two of the centre.
fn balance_candidates(board: &Board) -> Vec<Pos> {
    let mut board = board.clone();
    if board.move_count() == 0 {
        let centre = Pos::new(board.width() / 2, board.height() / 2);
        let us = board.side_to_move();
        let near = board
            .cells()
            .filter(|p| p.distance(centre) <= 2)
            .filter(|&p| board.is_empty(p))
            .collect::<Vec<_>>();
        return near
            .into_iter()
            .filter(|&p| crate::rules::is_allowed(&mut board, p, us))
            .collect();
    }
    let mut moves = MoveList::default();
    generate(&mut board, &mut moves);
    moves.sort(None);
    moves
        .as_slice()
        .iter()
        .take(MAX_CANDIDATES)
        .map(|m| m.pos)
        .collect()
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
        let mut search = OpeningSearch {
            tt: &mut tt,
            stop: &stop,
            limits: Limits::depth(depth),
        };
        search.decide(board, &mut rand::rngs::StdRng::seed_from_u64(seed))
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
