//! The search's tunable parameters, all in one place: every margin, depth,
//! move count, node budget and time factor the search plays by, named and
//! documented, so that a tuner (SPSA or by hand) reads and writes this file
//! alone. Values tried and not kept are named in one line; the full records
//! are in `docs/tuning.md`, each heuristic's own tag is at its code.
//!
//! Not here: the evaluation's tables (the evaluation owns them),
//! the limits that only size the search (`MAX_PLY`, `MAX_DEPTH`, the table
//! sizes), the clock's safety margin (`time.rs`: never losing on time is
//! not a trade-off) and the opening and swap2 probes (`opening.rs`).

use std::time::Duration;

// Iterative deepening

/// Half-width of the first aspiration window around the last score.
pub const ASPIRATION_WINDOW: i32 = 60;
/// Iterations from which aspiration windows are used.
pub const ASPIRATION_DEPTH: i32 = 5;
/// Factor by which a failed aspiration window widens.
pub const ASPIRATION_GROWTH: i32 = 2;

// Alpha-beta: pruning and reductions

/// Depth up to which reverse futility pruning applies. Tried: 6, with
/// move-count pruning to depth 6 too (27 and 35 quiet moves at depths 5 and
/// 6: −7.4 Elo, 236 games).
pub const PRUNING_DEPTH: i32 = 4;
/// Margin per remaining ply of reverse futility pruning. (Razoring at depths
/// 1 and 2 with margins 60 and 100 below alpha: −7.5 Elo, 600 games; into
/// the quiescence of chains of fours with 45 and 70: −14.6 Elo, 167 games;
/// neither kept.)
pub const FUTILITY_MARGIN: i32 = 90;
/// Move-count pruning: at every depth, a non-PV node searches at most
/// `MOVE_COUNT_BASE + depth^MOVE_COUNT_EXPONENT` quiet moves (truncated),
/// half as many when its static evaluation is not above its grandparent's
/// (the side to move is not improving). (Before: 6/10/14/20 quiet moves at
/// depths 1–4 only. Counting every move, in PV nodes too: −16.3 Elo, 277
/// games against Rapfi; counting every move and pruning one-three moves:
/// +18.0 Elo in self-play with two other changes, 1200 games, not kept;
/// docs/tuning.md.)
pub const MOVE_COUNT_BASE: f32 = 3.0;
/// The exponent of the move-count limit's growth with depth.
pub const MOVE_COUNT_EXPONENT: f32 = 1.32;
/// Late-move reductions apply from this depth on...
pub const LMR_MIN_DEPTH: i32 = 3;
/// ...to quiet moves from this place in the move order on (0 = first).
pub const LMR_MIN_INDEX: usize = 3;
/// Constant term of the late-move reduction `base + ln(depth)·ln(index) /
/// divisor` (truncated).
pub const LMR_BASE: f32 = 0.5;
/// Divisor of the late-move reduction's logarithmic term. Tried: 1.4
/// (−2.2 Elo, 472 games).
pub const LMR_DIVISOR: f32 = 1.8;

// Extensions

/// Depth from which a table move may be extended as singular...
pub const SINGULAR_DEPTH: i32 = 7;
/// ...when its table entry is at most this many plies shallower...
pub const SINGULAR_TT_DEPTH: i32 = 2;
/// ...and every other move, searched to half the depth, stays this far per
/// ply below the table score.
pub const SINGULAR_MARGIN: i32 = 2;

// Quiescence

/// Most plies the quiescence search follows: chains of fours of the side to
/// move and their blocks (blocks of fours already on the board always), the
/// chain kept near our last four and from the third four on to fours that
/// also make a three or an open two (+71.0 Elo, 253 games, 10 s + 0.1 s,
/// against one four and its block). Tried without those restrictions: 4
/// (−41.9 Elo, 100 games), 24 (−74.1 Elo, 100 games).
pub const MAX_QUIESCENCE_PLY: i32 = 16;
/// Quiescence plies from which the side to move's fours must lie near its
/// own last move (the 5×5 square around it, its lines to four cells): from
/// its second four on.
pub const QUIESCENCE_NEAR_PLY: i32 = 2;
/// Quiescence plies from which only fours that also make a three or an open
/// two continue the chain: from the side to move's third four on.
pub const QUIESCENCE_PLUS_FOUR_PLY: i32 = 4;

// Time: how much of the budget one search uses

/// Iterations from which the soft limit stretches or shrinks.
pub const TIME_SCALING_DEPTH: i32 = 4;
/// Share of the soft limit while the best move just changed.
pub const TIME_UNSTABLE_SHARE: f64 = 1.5;
/// Iterations the best move must hold before the soft limit shrinks...
pub const TIME_STABLE_ITERATIONS: i32 = 4;
/// ...to this share.
pub const TIME_STABLE_SHARE: f64 = 0.6;
/// A score this far below the last iteration's...
pub const TIME_SCORE_DROP: i32 = 2 * ASPIRATION_WINDOW;
/// ...multiplies the share by this.
pub const TIME_DROP_FACTOR: f64 = 1.3;
/// How many more own moves a game is assumed to last when sharing out the
/// game clock. 8 against 20: +41.9 Elo, 12 against 20: +27.9 (100 games
/// each).
pub const MOVES_TO_GO: u64 = 8;
/// Never spend more than this fraction (1/n) of the remaining game time on
/// one move.
pub const MAX_SHARE_OF_LEFT: u64 = 5;
/// The soft limit (start no new iteration) as a percentage of the optimum
/// time for a move.
pub const SOFT_PERCENT: u64 = 60;

// Root solvers and the safety check

/// Node budget of the VCF search at the root. Tried: 200 k nodes with 1/4
/// of the time (−40.7 Elo, 120 games).
pub const ROOT_VCF_NODES: u64 = 100_000;
/// The root VCF search gets at most this fraction (1/n) of the hard time
/// limit.
pub const ROOT_VCF_TIME_SHARE: u32 = 10;
/// Node budget of the VCT search at the root (its VCF searches included).
/// Tried: 300 k (+14.1 Elo in 1600 self-play games, but 22 against 37
/// points over the same 200 games against Rapfi).
pub const ROOT_VCT_NODES: u64 = 100_000;
/// The root VCT search gets at most this fraction (1/n) of the hard time
/// limit, counted from when it starts (after the VCF search).
pub const ROOT_VCT_TIME_SHARE: u32 = 10;
/// Nodes the safety check may spend proving that the chosen move does not
/// allow the opponent a win by fours, and looking for one that does not.
pub const SAFETY_VCF_NODES: u64 = 100_000;

// The VCT solver

/// Most attacker moves (forced blocks not counted) before the VCF tail: the
/// last iteration of the VCT's iterative deepening.
pub const VCT_MAX_THREATS: u32 = 24;
/// Nodes the VCF solver may spend at one attacker node of the VCT.
pub const VCT_VCF_NODES: u64 = 500;
/// Extra nodes for writing the VCT's winning line down...
pub const VCT_LINE_NODES: u64 = 20_000;
/// ...and extra time.
pub const VCT_LINE_TIME: Duration = Duration::from_millis(50);
