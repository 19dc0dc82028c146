//! One search thread: principal-variation alpha-beta with a VCF quiescence
//! search at the horizon. The numbered steps of [`Worker::negamax`] each say
//! what they do and what they were measured to be worth.

use std::sync::atomic::{AtomicBool, Ordering};

use super::movegen::{self, generate, MoveList, Situation};
use super::params::Params;
use super::tt::{score_from_tt, score_to_tt, Bound, Entry, Tt};
use super::vcf::find_threat;
use super::{Limits, Observer, MATE, MATE_BOUND, MAX_DEPTH, MAX_PLY};
use crate::board::Board;
use crate::eval::threat::{self, threat_set, threat_table, ThreatTable};
use crate::eval::{self, EVAL_LIMIT};
use crate::rules::is_allowed;
use crate::types::{Color, Pattern, Pos, Threat, DIRECTIONS};

/// Per-ply slots of a worker (move lists, excluded moves): every ply a
/// node or its quiescence can reach.
const PLY_SLOTS: usize = MAX_PLY as usize + 2;

/// A recorded raw evaluation that children do not smooth theirs with.
const NO_EVAL: i32 = i32::MIN;

/// A score beyond every real one, for open windows.
pub const INFINITE: i32 = MATE + 1;

/// What every search thread of one search shares.
pub struct Shared<'a> {
    /// The transposition table.
    pub tt: &'a Tt,
    /// Set from outside (the protocol) to stop at once.
    pub stop: &'a AtomicBool,
    /// Set by the main thread when it is done, to stop the helpers.
    pub helpers_stop: AtomicBool,
    /// Time, depth and node limits.
    pub limits: Limits,
    /// The search's parameters.
    pub params: &'a Params,
    /// The root side's optimism in percent
    /// ([`Params::optimism_under`] for an optimistic search, else 0).
    pub optimism: i32,
    /// Told of the main thread's progress at the root, if set.
    pub observer: Option<&'a dyn Observer>,
}

/// The state of one search thread.
pub struct Worker<'a> {
    /// The position being searched (made and unmade in place).
    pub board: Board,
    shared: &'a Shared<'a>,
    /// Nodes this thread searched, quiescence included.
    pub nodes: u64,
    /// Whether a limit or a stop flag ended the search.
    pub stopped: bool,
    /// The main thread checks the clock and node limit; helpers only flags.
    main: bool,
    /// Per ply, the node's moves; then as many again for singular test
    /// searches, which run at the ply of the node they test.
    lists: Vec<MoveList>,
    /// Per ply, the move a singular-extension test search leaves out.
    excluded: Vec<Option<Pos>>,
    /// Per colour (by index), the threat term's table it is evaluated by.
    threat_tables: [&'static ThreatTable; 2],
    /// Per ply, the raw static evaluation of the node there (for the side
    /// to move at that ply), which its children smooth theirs with.
    raw_evals: Vec<i32>,
    /// Per ply, the static evaluation of the alpha-beta node there, for its
    /// grandchildren to tell whether the side to move is improving. The root
    /// (ply 0) is never an alpha-beta node: its slot keeps [`NO_EVAL`].
    evals: Vec<i32>,
    /// Per depth, how many quiet moves a non-PV node of that depth searches
    /// while improving (see [`Params::move_count_base`]).
    move_count_limits: [usize; MAX_DEPTH as usize + 1],
    /// [`Params::quiescence_near_ply_under`] this board's rule, read once
    /// rather than at every quiescence node.
    quiescence_near_ply: i32,
    /// [`Params::prunes_threes_under`] this board's rule.
    prunes_threes: bool,
    /// [`Params::reduces_answers_under`] this board's rule.
    reduces_answers: bool,
    /// Per colour (by index), the percentage its table sums weigh in the
    /// static evaluation: 100 for the root side, 100 less the search's
    /// optimism ([`Shared::optimism`]) for its opponent.
    sum_weights: [i32; 2],
}

/// How many plies a late quiet move is searched shallower: grows with the
/// logarithms of the depth left and of the move's place in the order.
#[inline]
fn late_move_reduction(params: &Params, depth: i32, index: usize) -> i32 {
    (params.lmr_base + (depth as f32).ln() * (index as f32).ln() / params.lmr_divisor) as i32
}

/// The plies a move at `index` is searched shallower at `depth`: the late
/// move reduction plus `more`, a ply less in a PV node, leaving at least
/// one ply to search.
fn reduction_of(params: &Params, depth: i32, index: usize, pv: bool, more: i32) -> i32 {
    (late_move_reduction(params, depth, index) - pv as i32 + more).clamp(0, depth - 2)
}

/// The move-count limit of each depth while improving:
/// `move_count_base + depth^move_count_exponent`, truncated.
fn move_count_limits(params: &Params) -> [usize; MAX_DEPTH as usize + 1] {
    std::array::from_fn(|depth| {
        (params.move_count_base + (depth as f32).powf(params.move_count_exponent)) as usize
    })
}

/// Whether a move makes no three or more of ours and takes no winning
/// point (a double three or four-three) from the opponent: the moves that
/// late-move reductions and move-count pruning may cut short. A move that
/// only stops one open three or one four of theirs counts as quiet.
// Quiet stops, with the smoothed evaluation: about +50 Elo against Rapfi with
// an eighth of the clock (258 games, two runs of one opening set pooled), +8
// to +9 points a hundred at equal time (docs/tuning.md). Alone: the noise.
#[inline]
fn is_quiet_move(board: &Board, pos: Pos, us: Color) -> bool {
    board.threat(pos, us) < Threat::Three
        && !matches!(
            board.threat(pos, us.opponent()),
            Threat::DoubleThree | Threat::FourThree | Threat::Flex4 | Threat::Five
        )
}

/// Whether a stone of `us` on `pos` makes one open three (and no four)
/// on a cell where the opponent would make at most one open three: a move
/// that move-count pruning may skip (a stop of a four or a double threat
/// is never skipped).
#[inline]
fn is_one_three(board: &Board, pos: Pos, us: Color) -> bool {
    board.threat(pos, us) == Threat::Three && board.threat(pos, us.opponent()) < Threat::DoubleThree
}

/// Whether `pos` lies in the neighbourhood of `centre` that a chain of fours
/// continues in: the 5×5 square around it and its four lines to four cells.
#[inline]
fn is_near(pos: Pos, centre: Pos) -> bool {
    let dx = pos.x().abs_diff(centre.x());
    let dy = pos.y().abs_diff(centre.y());
    (dx <= 2 && dy <= 2) || ((dx == 0 || dy == 0 || dx == dy) && dx.max(dy) <= 4)
}

/// Whether a stone of `us` on `pos` makes a four and, on another line, a
/// three or an open two.
#[inline]
fn is_plus_four(board: &Board, pos: Pos, us: Color) -> bool {
    let patterns = [0, 1, 2, 3].map(|d| board.pattern(pos, us, d));
    patterns.iter().enumerate().any(|(d, &p)| {
        p >= Pattern::Block4
            && patterns
                .iter()
                .enumerate()
                .any(|(e, &q)| e != d && q >= Pattern::Flex2)
    })
}

/// The cell where `color` completes a five, searched on the lines through
/// `near` first (the move that made the four) and then everywhere.
fn five_point(board: &Board, color: Color, near: Option<Pos>) -> Option<Pos> {
    if let Some(near) = near {
        for dir in DIRECTIONS {
            for k in (-4isize..=4).filter(|&k| k != 0) {
                let q = near.step(dir, k);
                if board.is_empty(q) && board.threat(q, color) == Threat::Five {
                    return Some(q);
                }
            }
        }
    }
    find_threat(board, color, Threat::Five)
}

impl<'a> Worker<'a> {
    /// A thread searching `board` within `shared`'s limits.
    pub fn new(board: &Board, shared: &'a Shared<'a>, main: bool) -> Worker<'a> {
        Worker {
            board: board.clone(),
            shared,
            nodes: 0,
            stopped: false,
            main,
            lists: (0..2 * PLY_SLOTS).map(|_| MoveList::default()).collect(),
            excluded: vec![None; PLY_SLOTS],
            raw_evals: vec![0; PLY_SLOTS],
            evals: vec![NO_EVAL; PLY_SLOTS],
            move_count_limits: move_count_limits(shared.params),
            quiescence_near_ply: shared.params.quiescence_near_ply_under(board.rule()),
            prunes_threes: shared.params.prunes_threes_under(board.rule()),
            reduces_answers: shared.params.reduces_answers_under(board.rule()),
            threat_tables: [Color::Black, Color::White]
                .map(|c| threat_table(threat_set(board.rule(), board.width(), board.height(), c))),
            sum_weights: [Color::Black, Color::White].map(|c| {
                if c == board.side_to_move() {
                    100
                } else {
                    100 - shared.optimism
                }
            }),
        }
    }

    /// The limits of this search.
    pub fn limits(&self) -> Limits {
        self.shared.limits
    }

    /// The parameters of this search.
    pub fn params(&self) -> &'a Params {
        self.shared.params
    }

    /// The observer, for the main thread only.
    pub fn observer(&self) -> Option<&'a dyn Observer> {
        self.shared.observer.filter(|_| self.main)
    }

    /// The shared transposition table.
    pub fn tt(&self) -> &'a Tt {
        self.shared.tt
    }

    fn check_limits(&mut self) {
        let shared = self.shared;
        let limits = &shared.limits;
        let stop = shared.stop.load(Ordering::Relaxed)
            || if self.main {
                limits.start.elapsed() >= limits.budget.hard
                    || (limits.max_nodes > 0 && self.nodes >= limits.max_nodes)
            } else {
                shared.helpers_stop.load(Ordering::Relaxed)
            };
        if stop {
            self.stopped = true;
        }
    }

    #[inline]
    fn count_node(&mut self) {
        self.nodes += 1;
        if self.nodes & 1023 == 0 {
            self.check_limits();
        }
    }

    /// Counts a node and settles it if it needs no search: 0 once stopped or
    /// on a full board, a mate score from the static mate rules.
    #[inline]
    fn enter_node(&mut self, ply: i32) -> Option<i32> {
        self.count_node();
        if self.stopped {
            return Some(0);
        }
        if let Some(score) = self.mate_rules(ply) {
            return Some(score);
        }
        (self.board.empty_count() == 0).then_some(0)
    }

    /// The static mate rules: our five point wins; two five points of the
    /// opponent lose; our open four wins when the opponent has no five
    /// point; our four-three or double three wins when the opponent cannot
    /// even make a four (so no reply of theirs forces ours).
    // Four-three and double-three rules (+3.5 Elo, 100 games; kept as sound)
    #[inline]
    fn mate_rules(&self, ply: i32) -> Option<i32> {
        let board = &self.board;
        let us = board.side_to_move();
        let them = us.opponent();
        if board.threat_count(us, Threat::Five) > 0 {
            return Some(MATE - ply - 1);
        }
        let their_fives = board.threat_count(them, Threat::Five);
        if their_fives >= 2 {
            return Some(-(MATE - ply - 2));
        }
        if their_fives > 0 {
            return None;
        }
        if board.threat_count(us, Threat::Flex4) > 0 {
            return Some(MATE - ply - 3);
        }
        // The three's open-four point may be forbidden to renju's black, and
        // a black point that looks like a double three may hide a four.
        let their_fours = [
            Threat::MaybeForbidden,
            Threat::Four,
            Threat::FourThree,
            Threat::Flex4,
        ]
        .iter()
        .map(|&t| board.threat_count(them, t))
        .sum::<usize>();
        if !board.rule().has_forbidden(us)
            && their_fours == 0
            && board.threat_count(us, Threat::FourThree)
                + board.threat_count(us, Threat::DoubleThree)
                > 0
        {
            return Some(MATE - ply - 5);
        }
        None
    }

    /// One iteration over the root moves within (`alpha`, `beta`). Returns
    /// the best move and score found, or `None` if the search stopped before
    /// the first move was searched. The best move moves to the front.
    pub fn search_root(
        &mut self,
        root: &mut MoveList,
        depth: i32,
        mut alpha: i32,
        beta: i32,
    ) -> Option<(Pos, i32)> {
        let mut best: Option<(Pos, i32)> = None;
        let mut best_index = 0;
        let observer = self.observer();
        self.record_raw_eval(0);
        for i in 0..root.len() {
            let pos = root.as_slice()[i].pos;
            if let Some(observer) = observer {
                observer.entering(depth, pos);
            }
            self.board.make(pos);
            let score = if i == 0 {
                -self.negamax(depth - 1, -beta, -alpha, 1, true)
            } else {
                let s = -self.negamax(depth - 1, -alpha - 1, -alpha, 1, false);
                if s > alpha && s < beta && !self.stopped {
                    -self.negamax(depth - 1, -beta, -alpha, 1, true)
                } else {
                    s
                }
            };
            self.board.unmake();
            if self.stopped {
                break;
            }
            let new_best = best.is_none() || score > alpha;
            if let Some(observer) = observer {
                observer.leaving(depth, pos, score, new_best);
            }
            if new_best {
                best = Some((pos, score));
                best_index = i;
                alpha = alpha.max(score);
                if score >= beta {
                    break;
                }
            }
        }
        root.as_mut_slice()[..=best_index].rotate_right(1);
        if let Some((pos, score)) = best {
            let bound = if score >= beta {
                Bound::Lower
            } else {
                Bound::Exact
            };
            let key = self.board.hash();
            self.shared
                .tt
                .store(key, Some(pos), score_to_tt(score, 0), depth, bound);
        }
        best
    }

    /// The alpha-beta search of a node `ply` plies below the root with
    /// `depth` plies to go.
    pub fn negamax(&mut self, depth: i32, mut alpha: i32, beta: i32, ply: i32, pv: bool) -> i32 {
        // 1. Quiescence at the horizon.
        if depth <= 0 {
            return self.quiescence(alpha, beta, ply, 0);
        }
        // 2. Stop flag, static mate rules, full board, ply limit.
        if let Some(score) = self.enter_node(ply) {
            return score;
        }
        if ply >= MAX_PLY {
            return self.static_eval(ply);
        }
        let us = self.board.side_to_move();

        // 3. Transposition table: a deep enough bound ends a non-PV node.
        // A singular-extension test search of this node (the same key)
        // neither ends on the table's bound nor stores its partial result.
        // (Rapfi's PV node searched shallower by its entry's depth
        // shortfall: −19.1 of 200 points against Rapfi; docs/tuning.md.)
        let excluded = self.excluded[ply as usize];
        let key = self.board.hash();
        let mut tt_entry = None;
        if let Some(entry) = self.shared.tt.probe(key) {
            let score = score_from_tt(entry.score, ply);
            tt_entry = Some(Entry { score, ..entry });
            let usable = match entry.bound {
                Bound::Exact => true,
                Bound::Lower => score >= beta,
                Bound::Upper => score <= alpha,
            };
            if !pv && excluded.is_none() && entry.depth >= depth && usable {
                return score;
            }
        }
        let tt_move = tt_entry.and_then(|entry| entry.best);

        let situation = movegen::situation(&self.board);
        let free = situation == Situation::Free;
        let static_eval = self.static_eval(ply);
        self.evals[ply as usize] = static_eval;

        // 4. Reverse futility pruning (+66.8 Elo, 100 games): far above beta
        // near the horizon with nothing forcing, assume the position holds.
        // (Null-move pruning and internal iterative reduction: tried, not
        // kept, see docs/tuning.md.)
        if !pv
            && free
            && depth <= self.shared.params.pruning_depth
            && beta.abs() < MATE_BOUND
            && static_eval - self.shared.params.futility_margin * depth >= beta
        {
            return static_eval;
        }

        // 5. Moves: forced blocks, the answers to a three, or every cell
        // near the stones; TT move first, then by the policy tables (in
        // Rapfi's search a better order than its own move scores, with its
        // history and without). (Killers and history on top: 0.0 Elo, 100
        // games; removed. A history table again: 13–37 % more bench nodes to
        // depth 8; Rapfi's, with Rapfi's reduction of every move: −9.5 of 200
        // against Rapfi, with main's reductions −4.5 of 200; docs/tuning.md.)
        // A singular test search keeps its moves apart from the node's own.
        let list = ply as usize + if excluded.is_some() { PLY_SLOTS } else { 0 };
        generate(&mut self.board, &mut self.lists[list]);
        if self.lists[list].is_empty() {
            // Every block is forbidden (renju's black), or nowhere to play.
            return if situation == Situation::FacingFour {
                -(MATE - ply - 2)
            } else {
                static_eval
            };
        }
        self.lists[list].put_first(tt_move);

        // 6. Blocking a four is forced: it does not use up depth.
        let new_depth = if situation == Situation::FacingFour {
            depth
        } else {
            depth - 1
        };

        // The side to move is improving unless its evaluation two plies up
        // (at its own last move) was as high or higher.
        let improving = ply < 2 || {
            let before = self.evals[ply as usize - 2];
            before == NO_EVAL || static_eval > before
        };
        let move_count_limit = {
            let limit = self.move_count_limits[depth.min(MAX_DEPTH) as usize];
            if improving {
                limit
            } else {
                limit / 2
            }
        };

        let original_alpha = alpha;
        let mut best_score = -INFINITE;
        let mut best_move = None;
        let mut quiet_searched = 0;
        for i in 0..self.lists[list].len() {
            let pos = self.lists[list].pick(i);
            if Some(pos) == excluded {
                continue;
            }
            let params = self.shared.params;
            let not_tt = Some(pos) != tt_move;
            let quiet = free && is_quiet_move(&self.board, pos, us) && not_tt;
            // 7. Move-count pruning at every depth, halved when not improving
            // (+52 Elo by the scores, 200 games against Rapfi, over 6/10/14/20
            // quiet moves at depths 1–4): late quiet moves are not searched
            // once a move has been and enough of them were. Under freestyle
            // late one-three moves too, with the answers to an open three
            // reduced below: +11.5 points of 400 against Rapfi. Renju
            // reduces the answers alone (+15.5 of 400; with this pruning too,
            // −6.5 of 200).
            let prunable = quiet
                || (self.prunes_threes && free && not_tt && is_one_three(&self.board, pos, us));
            if prunable && !pv && best_score > -MATE_BOUND && quiet_searched >= move_count_limit {
                continue;
            }
            if prunable {
                quiet_searched += 1;
            }
            // 8. Late-move reductions (+52.5 Elo, 100 games, against a flat
            // reduction): quiet moves after the first few, and facing an
            // open three the answers after the first, are searched
            // shallower first, and again at full depth if they raise alpha.
            // (Rapfi's PV flag, a ply less below nodes once on the PV: −5.6
            // of 200 against Rapfi; docs/tuning.md.)
            let reduction = if quiet && depth >= params.lmr_min_depth && i >= params.lmr_min_index {
                reduction_of(params, depth, i, pv, 0)
            } else if self.reduces_answers
                && situation == Situation::FacingThree
                && not_tt
                && i >= 1
            {
                self.answer_reduction(pos, us, depth, i, pv)
            } else {
                0
            };
            // 9. Singular extension (+29.1 Elo, 491 games, 10 s + 0.1 s): the
            // table move, when every other move falls short of its bound by
            // a margin in a shallower search, is searched a ply deeper; when
            // the others reach beta too, the node is cut (multi-cut).
            let extension = match tt_entry {
                Some(entry)
                    if Some(pos) == tt_move && excluded.is_none() && self.lists[list].len() > 1 =>
                {
                    match self.singular_extension(pos, entry, depth, beta, ply) {
                        Ok(extension) => extension,
                        Err(score) => return score,
                    }
                }
                _ => 0,
            };
            let child_depth = new_depth + extension;
            // The child probes the table unless it is a quiescence node:
            // fetch its bucket while the move is made (with the aligned
            // buckets 5–6 % faster at fixed depth; docs/tuning.md). The
            // first move is never reduced, so this is its first search's depth.
            if child_depth - reduction > 0 {
                self.shared.tt.prefetch(self.board.hash_after(pos));
            }
            self.board.make(pos);
            let score = if i == 0 {
                -self.negamax(child_depth, -beta, -alpha, ply + 1, pv)
            } else {
                let mut s =
                    -self.negamax(child_depth - reduction, -alpha - 1, -alpha, ply + 1, false);
                if reduction > 0 && s > alpha && !self.stopped {
                    s = -self.negamax(child_depth, -alpha - 1, -alpha, ply + 1, false);
                }
                if pv && s > alpha && s < beta && !self.stopped {
                    s = -self.negamax(child_depth, -beta, -alpha, ply + 1, true);
                }
                s
            };
            self.board.unmake();
            if self.stopped {
                return 0;
            }
            if score > best_score {
                best_score = score;
                best_move = Some(pos);
                if score > alpha {
                    alpha = score;
                    // (Rapfi's later moves a ply shallower from here: −1.6
                    // of 200 against Rapfi; docs/tuning.md.)
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        if excluded.is_some() {
            return if best_move.is_none() {
                alpha
            } else {
                best_score
            };
        }
        if best_move.is_none() {
            // Every move was pruned: the static evaluation stands.
            return static_eval;
        }
        let bound = if best_score >= beta {
            Bound::Lower
        } else if best_score > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.shared
            .tt
            .store(key, best_move, score_to_tt(best_score, ply), depth, bound);
        best_score
    }

    /// How many plies shallower the answer `pos` of `us` to an open three,
    /// at `index` in the order (≥ 1), is searched first: a defence
    /// [`Params::defence_reduction`] plies more than a late quiet move; a
    /// four that stops nothing, far from the opponent's last move (a
    /// delay), [`Params::distant_four_reduction`]; any other four none.
    fn answer_reduction(&self, pos: Pos, us: Color, depth: i32, index: usize, pv: bool) -> i32 {
        let params = self.shared.params;
        if !movegen::makes_four(&self.board, pos, us) {
            if depth < params.lmr_min_depth {
                return 0;
            }
            return reduction_of(params, depth, index, pv, params.defence_reduction);
        }
        let far = self
            .board
            .last_move()
            .is_some_and(|last| pos.distance(last) > 4);
        if far && !movegen::defends_four_point(&self.board, pos, us.opponent()) {
            params.distant_four_reduction.clamp(0, depth - 1)
        } else {
            0
        }
    }

    /// The static evaluation of the node at `ply` (≥ 1): the mean of the
    /// position's own and its parent's (seen from this side), which evens
    /// out the swing of whoever moved last, plus the threat term of the
    /// position itself. Records the position's own for its children.
    // Smoothed evaluation, with the quiet stops: about +50 Elo against Rapfi
    // with an eighth of the clock (258 games, docs/tuning.md). Alone: the noise.
    #[inline]
    fn static_eval(&mut self, ply: i32) -> i32 {
        let raw = self.record_raw_eval(ply);
        let smoothed = match self.raw_evals[ply as usize - 1] {
            NO_EVAL => raw,
            parent => (raw - parent) / 2,
        };
        (smoothed + self.threat_term()).clamp(-EVAL_LIMIT, EVAL_LIMIT)
    }

    /// The threat term of the position: the side to move's table's value
    /// of the threats both sides hold.
    // Threat term: 45.5 against 36.0 points over the same 200 games against
    // Rapfi, +47.4 Elo in self-play (214 games, 10 s + 0.1 s; docs/tuning.md).
    // Freestyle's refitted on 2 596 games of 2026-12-04/05: +30.8 points of
    // 500 against Rapfi (paired SE 11.8, 10 s + 0.1 s; docs/tuning.md).
    // Standard's refitted on 400 games: +13.0 points of 500 against Rapfi
    // (paired SE 12.3, 10 s + 0.1 s; docs/tuning.md). 20×20's own set,
    // fitted on 600 games: +16.0 points of 300 (paired SE 11.1), refitted
    // from its own values on 998: +32.0 points of 300 (paired SE 10.4).
    // Renju's two refitted on 700 games: +14.0 points of 400 (paired SE
    // 10.1).
    #[inline]
    fn threat_term(&self) -> i32 {
        let us = self.board.side_to_move();
        let mask = threat::mask(
            self.board.threat_counts(us),
            self.board.threat_counts(us.opponent()),
        );
        self.threat_tables[us.index()][mask]
    }

    /// Records the raw static evaluation of the node at `ply` for its
    /// children and returns it; a position with a five point is recorded as
    /// [`NO_EVAL`] (its evaluation counts the five point, which a block
    /// takes away at once).
    #[inline]
    fn record_raw_eval(&mut self, ply: i32) -> i32 {
        let raw = evaluate(&self.board, self.sum_weights);
        let us = self.board.side_to_move();
        let five_point = self.board.threat_count(us, Threat::Five)
            + self.board.threat_count(us.opponent(), Threat::Five)
            > 0;
        self.raw_evals[ply as usize] = if five_point { NO_EVAL } else { raw };
        raw
    }

    /// The singular-extension test of the table move `pos` of a node at
    /// `ply` with `depth` to go, `entry` its table entry (score already for
    /// this ply): `Ok(1)` when every other move, searched to half the depth,
    /// falls short of the entry's score by the margin; `Err(score)` when they
    /// reach beta too (multi-cut) or the search stopped; `Ok(0)` otherwise.
    fn singular_extension(
        &mut self,
        pos: Pos,
        entry: Entry,
        depth: i32,
        beta: i32,
        ply: i32,
    ) -> Result<i32, i32> {
        if depth < self.shared.params.singular_depth
            || entry.bound == Bound::Upper
            || entry.score.abs() >= MATE_BOUND
            || entry.depth < depth - self.shared.params.singular_tt_depth
        {
            return Ok(0);
        }
        let singular_beta = entry.score - self.shared.params.singular_margin * depth;
        self.excluded[ply as usize] = Some(pos);
        let score = self.negamax(
            (depth - 1) / 2,
            singular_beta - 1,
            singular_beta,
            ply,
            false,
        );
        self.excluded[ply as usize] = None;
        if self.stopped {
            Err(0)
        } else if score < singular_beta {
            Ok(1)
        } else if singular_beta >= beta {
            Err(singular_beta)
        } else {
            Ok(0)
        }
    }

    /// The VCF quiescence search: the side to move may stand pat on the
    /// static evaluation or continue with a four; a four's block is forced.
    // Quiescence of chains of fours (+71.0 Elo, 253 games, 10 s + 0.1 s,
    // against one four and its block, itself +41.9 against blocks only).
    fn quiescence(&mut self, mut alpha: i32, beta: i32, ply: i32, qply: i32) -> i32 {
        if let Some(score) = self.enter_node(ply) {
            return score;
        }
        let us = self.board.side_to_move();
        let them = us.opponent();
        if self.board.threat_count(them, Threat::Five) > 0 {
            // Facing a four: the block is the only move.
            let Some(block) = five_point(&self.board, them, self.board.last_move()) else {
                return self.static_eval(ply);
            };
            // A position with a five point: its children do not smooth.
            self.raw_evals[ply as usize] = NO_EVAL;
            if !is_allowed(&mut self.board, block, us) {
                return -(MATE - ply - 2);
            }
            self.board.make(block);
            let score = -self.quiescence(-beta, -alpha, ply + 1, qply + 1);
            self.board.unmake();
            return score;
        }
        let stand_pat = self.static_eval(ply);
        if stand_pat >= beta
            || ply >= MAX_PLY
            || qply >= self.shared.params.max_quiescence_ply
            || self.board.threat_count(us, Threat::Four)
                + self.board.threat_count(us, Threat::FourThree)
                == 0
        {
            return stand_pat;
        }
        alpha = alpha.max(stand_pat);
        let mut best = stand_pat;
        let list = ply as usize;
        self.lists[list].clear();
        // Only fours near our own last move continue the chain (under
        // freestyle, start it too: +3.5 points a hundred against Rapfi, see
        // `Params::freestyle_quiescence_near_ply`), and from the third on
        // only fours that also make a three or an open two.
        let history = self.board.history();
        let own_last = (qply >= self.quiescence_near_ply && history.len() >= 2)
            .then(|| history[history.len() - 2]);
        let plus_only = qply >= self.shared.params.quiescence_plus_four_ply;
        // The scan ends at the last of our four points, which the counts know.
        let fours = self.board.threat_count(us, Threat::Four)
            + self.board.threat_count(us, Threat::FourThree);
        let moves = &mut self.lists[list];
        movegen::scan_near_stones(
            &mut self.board,
            movegen::THREAT_REACH,
            fours,
            |board, pos| matches!(board.threat(pos, us), Threat::Four | Threat::FourThree),
            |board, pos| {
                if own_last.is_none_or(|last| is_near(pos, last))
                    && (!plus_only || is_plus_four(board, pos, us))
                {
                    moves.push(pos, movegen::order_score(board, pos, us));
                }
            },
        );
        for i in 0..self.lists[list].len() {
            let pos = self.lists[list].pick(i);
            if !is_allowed(&mut self.board, pos, us) {
                continue;
            }
            self.board.make(pos);
            let score = -self.quiescence(-beta, -alpha, ply + 1, qply + 1);
            self.board.unmake();
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        best
    }
}

/// The static evaluation for the side to move ([`eval::evaluate`] of the
/// board's table sums), each colour's sums weighed by its percentage in
/// `weights` (by colour index).
#[inline]
fn evaluate(board: &Board, weights: [i32; 2]) -> i32 {
    let us = board.side_to_move();
    let them = us.opponent();
    let weigh = |sum: i32, c: Color| (i64::from(sum) * i64::from(weights[c.index()]) / 100) as i32;
    eval::evaluate(
        weigh(board.table_sum(us, true), us),
        weigh(board.table_sum(them, false), them),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Limits;
    use crate::types::Rule;

    /// A worker over `board` with a small table and no limits.
    fn with_worker(board: &Board, f: impl FnOnce(&mut Worker)) {
        let tt = Tt::new(1 << 16);
        let stop = AtomicBool::new(false);
        let shared = Shared {
            tt: &tt,
            stop: &stop,
            helpers_stop: AtomicBool::new(false),
            limits: Limits::depth(1),
            params: &Params::DEFAULT,
            optimism: Params::DEFAULT.optimism_under(board.rule()),
            observer: None,
        };
        f(&mut Worker::new(board, &shared, true));
    }

    #[test]
    fn the_move_count_limit_grows_with_depth_from_four_quiet_moves() {
        let limits = move_count_limits(&Params::DEFAULT);
        assert_eq!(limits[1..=4], [4, 5, 7, 9]);
        assert_eq!(limits[10], 23);
        assert!(limits.windows(2).all(|pair| pair[0] <= pair[1]));
    }

    #[test]
    fn the_root_sides_opponent_weighs_less_under_freestyle_only() {
        let moves = "7,7 8,8 7,8 9,9";
        let freestyle = Board::from_moves(Rule::Freestyle, 15, moves).unwrap();
        with_worker(&freestyle, |worker| {
            // Black is the root side: white's sums weigh less.
            let optimism = Params::DEFAULT.freestyle_optimism;
            assert!(optimism > 0);
            assert_eq!(worker.sum_weights, [100, 100 - optimism]);
            let fair = evaluate(&worker.board, [100, 100]);
            assert!(
                worker.record_raw_eval(0) > fair,
                "black thinks better of itself"
            );
            worker.board.make(Pos::new(6, 6));
            let fair = evaluate(&worker.board, [100, 100]);
            assert!(
                worker.record_raw_eval(1) < fair,
                "and worse of white's chances"
            );
        });
        let renju = Board::from_moves(Rule::Renju, 15, moves).unwrap();
        with_worker(&renju, |worker| assert_eq!(worker.sum_weights, [100, 100]));
    }

    #[test]
    fn the_static_evaluation_is_the_mean_of_the_position_and_its_parent() {
        let board = Board::from_moves(Rule::Freestyle, 15, "7,7 8,8 7,8").unwrap();
        with_worker(&board, |worker| {
            let parent = worker.record_raw_eval(0);
            worker.board.make(Pos::new(9, 9));
            let own = evaluate(&worker.board, worker.sum_weights);
            assert_ne!(own, -parent, "the move changes the evaluation");
            let threat = worker.threat_term();
            assert_eq!(worker.static_eval(1), (own - parent) / 2 + threat);
        });
    }

    #[test]
    fn the_threat_term_is_the_side_to_moves_table_at_the_mask() {
        // White, to move, has a lone stone; black's open two (7,7)-(7,8)
        // gives black three points (an open three in one move): one flag.
        let board = Board::from_moves(Rule::Freestyle, 15, "7,7 8,8 7,8").unwrap();
        with_worker(&board, |worker| {
            let us = worker.board.side_to_move();
            let mask = threat::mask(
                worker.board.threat_counts(us),
                worker.board.threat_counts(us.opponent()),
            );
            assert_eq!(mask, 1 << 10, "white to move; black has three points");
            assert_eq!(worker.threat_term(), threat_table(0)[mask]);
        });
    }

    #[test]
    fn a_parent_with_a_five_point_leaves_the_evaluation_unsmoothed() {
        // Black's four (7,7)..(7,10) has a five point at (7,11) or (7,6).
        let board = Board::from_moves(Rule::Freestyle, 15, "7,7 0,0 7,8 0,2 7,9 0,4 7,10").unwrap();
        with_worker(&board, |worker| {
            worker.record_raw_eval(0);
            worker.board.make(Pos::new(7, 11));
            let threat = worker.threat_term();
            assert_eq!(
                worker.static_eval(1),
                evaluate(&worker.board, worker.sum_weights) + threat
            );
        });
    }
}
