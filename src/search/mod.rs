//! Iterative-deepening principal-variation alpha-beta search.
//!
//! Each node first applies the static mate rules (our five point wins; two
//! five points of the opponent lose; our open four wins when the opponent has
//! no five point), then probes the transposition table, generates the forced
//! or candidate moves and searches them best-first. A forced block of a four
//! does not use up depth.

pub mod movegen;
pub mod opening;
pub mod time;
pub mod tt;
pub mod vcf;
pub mod vct;

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use rand::Rng;

use crate::board::{Board, Pos, Threat};
use crate::eval::evaluate;
use movegen::{generate, is_allowed, MoveList, Situation};
use time::Budget;
use tt::{score_from_tt, score_to_tt, Bound, Tt};
use vcf::{Limit, Vcf};
use vct::Vct;

/// The score of a win at the root; a win in n plies scores `MATE - n`.
pub const MATE: i32 = 30_000;
/// Scores beyond this (in magnitude) are wins or losses.
pub const MATE_BOUND: i32 = MATE - 1_000;
/// Deepest ply the search reaches, extensions included.
pub const MAX_PLY: i32 = 120;
/// Deepest iteration the iterative deepening starts.
pub const MAX_DEPTH: i32 = 64;
const INFINITE: i32 = MATE + 1;
/// Node budget of the VCF search at the root.
const VCF_NODES: u64 = 100_000;
/// The root VCF search gets at most this fraction (1/n) of the hard time limit.
/// Root VCF with 1/10 and 100 k nodes: +8.7 Elo (−53.6 … +71.6), 120 games,
/// 200 ms/move, freestyle 15×15, against no VCF; with 1/4 and 200 k nodes it
/// cost time: −40.7 (−104.2 … +20.2). Kept for the forced wins it proves
/// (all 70 test-set VCF puzzles, four of them beyond the alpha-beta alone).
const VCF_TIME_SHARE: u32 = 10;
/// Nodes the root may spend checking that its move does not allow the
/// opponent a win by fours, and looking for one that does not.
const AVOID_VCF_NODES: u64 = 100_000;
/// Node budget of the VCT search at the root (its VCF searches included).
const VCT_NODES: u64 = 100_000;
/// The root VCT search gets at most this fraction (1/n) of the hard time
/// limit, counted from when it starts (after the VCF search).
const VCT_TIME_SHARE: u32 = 10;

/// What stops a search, besides its stop flag.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// When the search started (when the move was asked for).
    pub start: Instant,
    /// The time budget.
    pub budget: Budget,
    /// Deepest iteration to search.
    pub max_depth: i32,
    /// Stop after about this many nodes (0 = no limit).
    pub max_nodes: u64,
}

impl Limits {
    /// Limits for a fixed-depth search without a clock (bench, tests).
    pub fn depth(depth: i32) -> Limits {
        Limits {
            start: Instant::now(),
            budget: Budget {
                soft: Duration::MAX,
                hard: Duration::MAX,
            },
            max_depth: depth,
            max_nodes: 0,
        }
    }
}

/// What a search found.
#[derive(Clone, Debug)]
pub struct SearchResult {
    /// The move to play (`None` only on a full board).
    pub best: Option<Pos>,
    /// Its score for the side to move.
    pub score: i32,
    /// The last completed iteration's depth.
    pub depth: i32,
    /// Nodes searched.
    pub nodes: u64,
    /// Time taken.
    pub elapsed: Duration,
    /// The expected line of play, starting with `best`.
    pub pv: Vec<Pos>,
}

impl SearchResult {
    /// The score as text: `+W12` / `-L12` for a win / loss in 12 plies,
    /// else the evaluation.
    pub fn score_text(&self) -> String {
        if self.score > MATE_BOUND {
            format!("+W{}", MATE - self.score)
        } else if self.score < -MATE_BOUND {
            format!("-L{}", MATE + self.score)
        } else {
            self.score.to_string()
        }
    }
}

/// The allowed empty cell nearest the centre: the move for a board with no
/// candidates (the first move, or every candidate forbidden), and the answer
/// of last resort.
pub fn nearest_free_cell(board: &mut Board) -> Option<Pos> {
    let (cx, cy) = (board.width() / 2, board.height() / 2);
    let us = board.side_to_move();
    let mut cells: Vec<Pos> = board.cells().collect();
    cells.sort_by_key(|p| (p.x().abs_diff(cx).max(p.y().abs_diff(cy)), p.y(), p.x()));
    cells
        .into_iter()
        .find(|&p| board.is_empty(p) && is_allowed(board, p, us))
}

/// A search over one position.
pub struct Searcher<'a> {
    board: Board,
    tt: &'a mut Tt,
    stop: &'a AtomicBool,
    limits: Limits,
    nodes: u64,
    stopped: bool,
    move_lists: Vec<MoveList>,
    excluded: Vec<Pos>,
}

impl<'a> Searcher<'a> {
    /// A search of `board` using table `tt`, stopped early by `stop`.
    pub fn new(board: &Board, tt: &'a mut Tt, stop: &'a AtomicBool, limits: Limits) -> Self {
        let move_lists = (0..=MAX_PLY).map(|_| MoveList::default()).collect();
        Searcher {
            board: board.clone(),
            tt,
            stop,
            limits,
            nodes: 0,
            stopped: false,
            move_lists,
            excluded: Vec::new(),
        }
    }

    /// Leaves these moves out at the root (for finding the n best moves).
    pub fn excluding(mut self, moves: &[Pos]) -> Self {
        self.excluded = moves.to_vec();
        self
    }

    fn check_limits(&mut self) {
        if self.stop.load(Ordering::Relaxed)
            || self.limits.start.elapsed() >= self.limits.budget.hard
            || (self.limits.max_nodes > 0 && self.nodes >= self.limits.max_nodes)
        {
            self.stopped = true;
        }
    }

    /// Runs iterative deepening and returns the best move found. `rng`, when
    /// given, breaks ties between equally ordered root moves at random.
    pub fn run(mut self, rng: Option<&mut dyn rand::RngCore>) -> SearchResult {
        self.tt.new_search();
        let mut root = MoveList::default();
        generate(&mut self.board, &mut root);
        root.retain(|p| !self.excluded.contains(&p));
        let us = self.board.side_to_move();
        let mut result = SearchResult {
            best: None,
            score: 0,
            depth: 0,
            nodes: 0,
            elapsed: Duration::ZERO,
            pv: Vec::new(),
        };
        // A five wins now (even when the opponent has a four, so it is not
        // among the blocks generated).
        let board = &self.board;
        let five = board.cells().find(|&p| {
            board.is_empty(p) && board.threat(p, us) == Threat::Five && !self.excluded.contains(&p)
        });
        if five.is_some() {
            result.best = five;
            result.score = MATE - 1;
            return self.finish(result);
        }
        if root.is_empty() {
            result.best = nearest_free_cell(&mut self.board).filter(|p| !self.excluded.contains(p));
            return self.finish(result);
        }
        if let Some(rng) = rng {
            for m in root.as_mut_slice() {
                m.score = m.score * 16 + rng.gen_range(0..16);
            }
        }
        root.sort(None);
        result.best = Some(root.as_slice()[0].pos);
        // A single legal move needs no thought.
        if root.len() == 1 {
            return self.finish(result);
        }
        // A win by continuous fours, or else by threats, is played without
        // further search.
        if !self.limits.budget.is_instant() && self.excluded.is_empty() {
            let mut vcf = Vcf::new(
                &self.board,
                self.stop,
                self.limits.start,
                self.limits.budget.hard / VCF_TIME_SHARE,
                VCF_NODES,
            );
            let mut line = vcf.solve();
            self.nodes += vcf.nodes();
            // A win by threats (fours and open threes) likewise.
            if line.is_none() {
                let time = self.limits.budget.hard / VCT_TIME_SHARE;
                let mut vct = Vct::new(&self.board, self.stop, Instant::now(), time, VCT_NODES);
                line = vct.solve();
                self.nodes += vct.nodes();
            }
            if let Some(line) = line {
                result.best = line.first().copied();
                result.score = MATE - line.len() as i32;
                result.pv = line;
                return self.finish(result);
            }
        }
        for depth in 1..=self.limits.max_depth.min(MAX_DEPTH) {
            let (best, score) = self.search_root(&mut root, depth);
            if self.stopped && depth > 1 {
                break;
            }
            result.best = Some(best);
            result.score = score;
            result.depth = depth;
            if self.stopped
                || score.abs() > MATE_BOUND
                || self.limits.start.elapsed() >= self.limits.budget.soft
            {
                break;
            }
        }
        // A move that lets the opponent win by fours gives way to one that
        // does not (the score stays the search's).
        let unproved = result.score.abs() <= MATE_BOUND && self.excluded.is_empty();
        if let Some(best) = result.best.filter(|_| unproved) {
            let (start, hard) = (self.limits.start, self.limits.budget.hard);
            let mut limit = Limit::new(self.stop, start, hard, AVOID_VCF_NODES);
            let others = root.as_slice().iter().map(|m| m.pos);
            if let Some(safer) = vcf::avoid_vcf(&self.board, best, others, &mut limit) {
                result.best = Some(safer);
                result.pv = vec![safer];
            }
            self.nodes += limit.nodes();
        }
        self.finish(result)
    }

    fn finish(self, mut result: SearchResult) -> SearchResult {
        result.nodes = self.nodes;
        result.elapsed = self.limits.start.elapsed();
        if result.pv.is_empty() {
            result.pv = self.principal_variation(result.best);
        }
        result
    }

    fn principal_variation(&self, best: Option<Pos>) -> Vec<Pos> {
        let mut board = self.board.clone();
        let mut pv = Vec::new();
        let mut next = best;
        while let Some(pos) = next {
            if pv.len() >= MAX_DEPTH as usize || !board.is_empty(pos) {
                break;
            }
            pv.push(pos);
            board.make(pos);
            next = self.tt.probe(board.hash()).and_then(|e| e.best);
        }
        pv
    }

    /// One iteration over the root moves; keeps the best one at the front.
    fn search_root(&mut self, root: &mut MoveList, depth: i32) -> (Pos, i32) {
        let mut alpha = -INFINITE;
        let beta = INFINITE;
        let mut best = root.as_slice()[0].pos;
        let mut best_index = 0;
        for i in 0..root.len() {
            let pos = root.as_slice()[i].pos;
            self.board.make(pos);
            let score = if i == 0 {
                -self.negamax(depth - 1, -beta, -alpha, 1, true)
            } else {
                let s = -self.negamax(depth - 1, -alpha - 1, -alpha, 1, false);
                if s > alpha && !self.stopped {
                    -self.negamax(depth - 1, -beta, -alpha, 1, true)
                } else {
                    s
                }
            };
            self.board.unmake();
            if self.stopped {
                break;
            }
            if score > alpha {
                alpha = score;
                best = pos;
                best_index = i;
            }
        }
        root.as_mut_slice()[..=best_index].rotate_right(1);
        let key = self.board.hash();
        self.tt
            .store(key, Some(best), score_to_tt(alpha, 0), depth, Bound::Exact);
        (best, alpha)
    }

    fn negamax(&mut self, depth: i32, mut alpha: i32, beta: i32, ply: i32, pv_node: bool) -> i32 {
        self.nodes += 1;
        if self.nodes & 1023 == 0 {
            self.check_limits();
        }
        if self.stopped {
            return 0;
        }
        let us = self.board.side_to_move();
        let them = us.opponent();

        // Static mate rules.
        if self.board.threat_count(us, Threat::Five) > 0 {
            return MATE - ply - 1;
        }
        let their_fives = self.board.threat_count(them, Threat::Five);
        if their_fives >= 2 {
            return -(MATE - ply - 2);
        }
        if their_fives == 0 && self.board.threat_count(us, Threat::Flex4) > 0 {
            return MATE - ply - 3;
        }
        if self.board.empty_count() == 0 {
            return 0;
        }
        if ply >= MAX_PLY || (depth <= 0 && their_fives == 0) {
            return evaluate(&self.board);
        }

        // Transposition table.
        let key = self.board.hash();
        let mut tt_move = None;
        if let Some(entry) = self.tt.probe(key) {
            tt_move = entry.best;
            let score = score_from_tt(entry.score, ply);
            let usable = match entry.bound {
                Bound::Exact => true,
                Bound::Lower => score >= beta,
                Bound::Upper => score <= alpha,
            };
            if !pv_node && entry.depth >= depth && usable {
                return score;
            }
        }

        let list = ply as usize;
        generate(&mut self.board, &mut self.move_lists[list]);
        if self.move_lists[list].is_empty() {
            // Every block is forbidden (renju's black), or nowhere to play.
            return if their_fives > 0 {
                -(MATE - ply - 2)
            } else {
                evaluate(&self.board)
            };
        }
        self.move_lists[list].sort(tt_move);
        // Blocking a four is forced: it does not use up depth.
        let forced = movegen::situation(&self.board) == Situation::FacingFour;
        let new_depth = if forced { depth } else { depth - 1 };

        let original_alpha = alpha;
        let mut best_score = -INFINITE;
        let mut best_move = None;
        for i in 0..self.move_lists[list].len() {
            let pos = self.move_lists[list].as_slice()[i].pos;
            self.board.make(pos);
            let score = if i == 0 {
                -self.negamax(new_depth, -beta, -alpha, ply + 1, pv_node)
            } else {
                let s = -self.negamax(new_depth, -alpha - 1, -alpha, ply + 1, false);
                if pv_node && s > alpha && s < beta && !self.stopped {
                    -self.negamax(new_depth, -beta, -alpha, ply + 1, true)
                } else {
                    s
                }
            };
            self.board.unmake();
            if self.stopped {
                break;
            }
            if score > best_score {
                best_score = score;
                best_move = Some(pos);
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        if self.stopped {
            return 0;
        }
        let bound = if best_score >= beta {
            Bound::Lower
        } else if best_score > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt
            .store(key, best_move, score_to_tt(best_score, ply), depth, bound);
        best_score
    }
}
