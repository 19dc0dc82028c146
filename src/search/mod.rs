//! The search: a five or a VCF at the root is played at once; otherwise
//! iterative deepening with aspiration windows drives the alpha-beta search
//! of [`worker`], on one thread or several (Lazy SMP).

pub mod movegen;
pub mod nbest;
pub mod opening;
pub mod time;
pub mod tt;
pub mod vcf;
pub mod vct;
mod worker;

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use rand::Rng;

use crate::board::Board;
use crate::rules::is_allowed;
use crate::types::{Pos, Threat};
use movegen::{generate, MoveList};
use time::Budget;
use tt::Tt;
use vcf::{Limit, Vcf};
use vct::Vct;
use worker::{Shared, Worker, INFINITE};

/// The score of a win at the root; a win in n plies scores `MATE - n`.
pub const MATE: i32 = 30_000;
/// Scores beyond this (in magnitude) are wins or losses.
pub const MATE_BOUND: i32 = MATE - 1_000;
/// Deepest ply the search reaches, extensions included.
pub const MAX_PLY: i32 = 120;
/// Deepest iteration the iterative deepening starts.
pub const MAX_DEPTH: i32 = 64;
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
    /// Stop after about this many nodes (0 = no limit), the root solvers'
    /// nodes included.
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
    /// One entry per completed iteration of the main thread, shallowest first.
    pub iterations: Vec<Iteration>,
}

/// What one completed iteration of the deepening found.
#[derive(Clone, Copy, Debug)]
pub struct Iteration {
    /// The iteration's depth.
    pub depth: i32,
    /// The best move's score.
    pub score: i32,
    /// The best move.
    pub best: Pos,
    /// Nodes the main thread had searched by then.
    pub nodes: u64,
    /// Time since the search started.
    pub elapsed: Duration,
}

impl SearchResult {
    /// The score as text: `+W12` / `-L12` for a win / loss in 12 plies,
    /// else the evaluation.
    pub fn score_text(&self) -> String {
        score_text(self.score)
    }
}

/// A score as text: `+W12` / `-L12` for a win / loss in 12 plies, else the
/// evaluation.
pub fn score_text(score: i32) -> String {
    if score > MATE_BOUND {
        format!("+W{}", MATE - score)
    } else if score < -MATE_BOUND {
        format!("-L{}", MATE + score)
    } else {
        score.to_string()
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

/// Most search threads, whatever the manager asks.
pub const MAX_THREADS: usize = 64;
/// Stack size of a thread that runs a search (the recursion goes up to
/// `MAX_PLY` plies deep, quiescence included).
pub const SEARCH_STACK_BYTES: usize = 64 << 20;
/// Half-width of the first aspiration window around the last score.
const ASPIRATION_WINDOW: i32 = 60;
/// Iterations from which aspiration windows are used. Against full windows:
/// +34.9 Elo (−32.4 … +104.9), 100 games, 100 ms/move, freestyle 15×15.
const ASPIRATION_DEPTH: i32 = 5;

/// A search over one position.
pub struct Searcher<'a> {
    board: Board,
    tt: &'a mut Tt,
    stop: &'a AtomicBool,
    limits: Limits,
    threads: usize,
    excluded: Vec<Pos>,
}

impl<'a> Searcher<'a> {
    /// A search of `board` using table `tt`, stopped early by `stop`.
    pub fn new(board: &Board, tt: &'a mut Tt, stop: &'a AtomicBool, limits: Limits) -> Self {
        Searcher {
            board: board.clone(),
            tt,
            stop,
            limits,
            threads: 1,
            excluded: Vec::new(),
        }
    }

    /// Leaves these moves out at the root (for finding the n best moves).
    pub fn excluding(mut self, moves: &[Pos]) -> Self {
        self.excluded = moves.to_vec();
        self
    }

    /// Searches with `threads` threads (Lazy SMP: helpers share the table
    /// and search the same position, their results steer the main thread
    /// through it). One thread is deterministic.
    pub fn threads(mut self, threads: usize) -> Self {
        self.threads = threads.clamp(1, MAX_THREADS);
        self
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
            iterations: Vec::new(),
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
            return self.finish(result, 0);
        }
        if root.is_empty() {
            result.best = nearest_free_cell(&mut self.board).filter(|p| !self.excluded.contains(p));
            return self.finish(result, 0);
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
            return self.finish(result, 0);
        }
        let mut nodes = 0;
        // A win by continuous fours, or else by threats, is played without
        // further search.
        if !self.limits.budget.is_instant() && self.excluded.is_empty() {
            let mut vcf = Vcf::new(
                &self.board,
                self.stop,
                self.limits.start,
                self.limits.budget.hard / VCF_TIME_SHARE,
                self.nodes_left(VCF_NODES, nodes),
            );
            let mut line = vcf.solve();
            nodes += vcf.nodes();
            // A win by threats (fours and open threes) likewise.
            if line.is_none() {
                let time = self.limits.budget.hard / VCT_TIME_SHARE;
                let budget = self.nodes_left(VCT_NODES, nodes);
                let mut vct = Vct::new(&self.board, self.stop, Instant::now(), time, budget);
                line = vct.solve();
                nodes += vct.nodes();
            }
            if let Some(line) = line {
                result.best = line.first().copied();
                result.score = MATE - line.len() as i32;
                result.pv = line;
                return self.finish(result, nodes);
            }
        }
        let mut limits = self.limits;
        if limits.max_nodes > 0 {
            // What the solvers left; at least one node, since 0 means none.
            limits.max_nodes = self.nodes_left(u64::MAX, nodes).max(1);
        }
        let shared = Shared {
            tt: self.tt,
            stop: self.stop,
            helpers_stop: AtomicBool::new(false),
            limits,
        };
        let board = &self.board;
        let helper_nodes = std::thread::scope(|scope| {
            let helpers: Vec<_> = (1..self.threads)
                .map(|index| {
                    let (shared, mut root) = (&shared, root.clone());
                    let builder = std::thread::Builder::new().stack_size(SEARCH_STACK_BYTES);
                    builder.spawn_scoped(scope, move || {
                        let mut worker = Worker::new(board, shared, false);
                        // Half the helpers run one iteration ahead, so the
                        // threads spread over two depths.
                        let skew = (index % 2) as i32;
                        for depth in 1 + skew..=shared.limits.max_depth.min(MAX_DEPTH) {
                            worker.search_root(&mut root, depth, -INFINITE, INFINITE);
                            if worker.stopped {
                                break;
                            }
                        }
                        worker.nodes
                    })
                })
                // A helper the system refuses to start is simply not used.
                .filter_map(Result::ok)
                .collect();
            let mut main = Worker::new(board, &shared, true);
            iterate(&mut main, &mut root, &mut result);
            shared.helpers_stop.store(true, Ordering::Relaxed);
            let helper_nodes: u64 = helpers.into_iter().map(|h| h.join().unwrap_or(0)).sum();
            nodes += main.nodes;
            helper_nodes
        });
        nodes += helper_nodes;
        // A move that lets the opponent win by fours gives way to one that
        // does not (the score stays the search's).
        let unproved = result.score.abs() <= MATE_BOUND && self.excluded.is_empty();
        if let Some(best) = result.best.filter(|_| unproved) {
            let (start, hard) = (self.limits.start, self.limits.budget.hard);
            let budget = self.nodes_left(AVOID_VCF_NODES, nodes);
            let mut limit = Limit::new(self.stop, start, hard, budget);
            let others = root.as_slice().iter().map(|m| m.pos);
            if let Some(safer) = vcf::avoid_vcf(&self.board, best, others, &mut limit) {
                result.best = Some(safer);
                result.pv = vec![safer];
            }
            nodes += limit.nodes();
        }
        self.finish(result, nodes)
    }

    /// The nodes a part of the search may use: its own `budget`, within
    /// what the node limit leaves after the `used` nodes.
    fn nodes_left(&self, budget: u64, used: u64) -> u64 {
        match self.limits.max_nodes {
            0 => budget,
            max => budget.min(max.saturating_sub(used)),
        }
    }

    fn finish(self, mut result: SearchResult, nodes: u64) -> SearchResult {
        result.nodes = nodes;
        result.elapsed = self.limits.start.elapsed();
        if result.pv.is_empty() {
            result.pv = principal_variation(&self.board, self.tt, result.best);
        }
        result
    }
}

/// The main thread's iterative deepening, with aspiration windows and a
/// soft time limit that stretches while the best move is unstable.
fn iterate(worker: &mut Worker, root: &mut MoveList, result: &mut SearchResult) {
    let limits = worker.limits();
    let mut stable_iterations = 0;
    for depth in 1..=limits.max_depth.min(MAX_DEPTH) {
        let previous = result.score;
        let mut window = ASPIRATION_WINDOW;
        let (mut alpha, mut beta) = if depth >= ASPIRATION_DEPTH && previous.abs() < MATE_BOUND {
            (previous - window, previous + window)
        } else {
            (-INFINITE, INFINITE)
        };
        let found = loop {
            let found = worker.search_root(root, depth, alpha, beta);
            match found {
                Some((_, score)) if !worker.stopped && score <= alpha && alpha > -INFINITE => {
                    alpha = (score - window).max(-INFINITE);
                }
                Some((_, score)) if !worker.stopped && score >= beta && beta < INFINITE => {
                    beta = (score + window).min(INFINITE);
                }
                _ => break found,
            }
            window *= 2;
        };
        let Some((best, score)) = found else {
            break;
        };
        // A stopped iteration still searched its best move fully.
        stable_iterations = if Some(best) == result.best {
            stable_iterations + 1
        } else {
            0
        };
        result.best = Some(best);
        result.score = score;
        result.depth = depth;
        result.iterations.push(Iteration {
            depth,
            score,
            best,
            nodes: worker.nodes,
            elapsed: limits.start.elapsed(),
        });
        if worker.stopped || score.abs() > MATE_BOUND {
            break;
        }
        // Time: more while the best move keeps changing or the score falls,
        // less once it has held for several iterations. Against a fixed soft
        // limit: +20.9 Elo (−47.4 … +90.8), 100 games, 3 s + 0.03 s per game,
        // freestyle 15×15.
        let mut share = if stable_iterations == 0 && depth > 4 {
            1.5
        } else if stable_iterations >= 4 {
            0.6
        } else {
            1.0
        };
        if depth > 4 && score < previous - 2 * ASPIRATION_WINDOW {
            share *= 1.3;
        }
        let soft = Duration::try_from_secs_f64(limits.budget.soft.as_secs_f64() * share)
            .unwrap_or(Duration::MAX)
            .min(limits.budget.hard);
        if limits.start.elapsed() >= soft {
            break;
        }
    }
}

/// The expected line from `best` on, read from the table.
fn principal_variation(board: &Board, tt: &Tt, best: Option<Pos>) -> Vec<Pos> {
    let mut board = board.clone();
    let mut pv = Vec::new();
    let mut next = best;
    while let Some(pos) = next {
        if pv.len() >= MAX_DEPTH as usize || !board.is_empty(pos) {
            break;
        }
        pv.push(pos);
        board.make(pos);
        next = tt.probe(board.hash()).and_then(|e| e.best);
    }
    pv
}
