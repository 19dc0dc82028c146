//! Strength levels: weaker players for people to beat.
//!
//! `INFO strength` (and `--strength`) takes 0..=100 and maps it to a
//! [`Level`]: three classic tutorial players, each its own move chooser, and
//! the full engine.
//!
//! | strength | player |
//! | --- | --- |
//! | 0–29 | [`tuples`]: the five-tuple scorer (every window of five cells scored by the stones it holds), one ply |
//! | 30–59 | [`patterns`]: the line-pattern scorer (what a stone on a cell makes for attack and defence), one ply |
//! | 60–99 | [`minimax`]: a depth-3 alpha-beta over its own line-pattern evaluation |
//! | 100 | the main [`Searcher`], full strength (the default) |
//!
//! The order comes from matches (`scripts/ladder.sh`, freestyle 15×15, 200 ms
//! a move, each level against the one below). With `--games 400
//! --full-games 160`: the pattern scorer scored 81.75 % against the
//! five-tuple scorer (325-71-4 of 400), the minimax 81 % against the
//! pattern scorer (303-55-42 of 400), full strength 97.5 % against the
//! minimax (156-4-0 of 160); with the defaults (100, 100 and 80 games)
//! 83.5 %, 80 % and 95 %. Searches
//! capped by nodes were tried between the minimax and full strength and
//! dropped: none both scored 75 % against the minimax and conceded 25 % to
//! full strength (40 games each: 2 000 nodes scored 39 % against the
//! minimax, 10 000 nodes 72.5 % while full strength scored 67.5 % against
//! it, 20 000 nodes 85 %, about what full strength scores at 200 ms a
//! move).
//!
//! Every player answers a legal move: an empty cell, and never a forbidden
//! point for renju's black. Randomness (ties) comes only from the `rng`
//! passed in, so a seeded generator makes every level deterministic.

pub mod minimax;
pub mod patterns;
pub mod tuples;

use std::sync::atomic::AtomicBool;

use rand::{Rng, RngCore};

use crate::board::Board;
use crate::eval::EVAL_LIMIT;
use crate::rules::is_allowed;
use crate::search::tt::Tt;
use crate::search::{nearest_free_cell, Limits, SearchResult, Searcher};
use crate::types::{Pos, CELLS};

/// The strength meaning "play as well as possible" (the default).
pub const FULL_STRENGTH: u8 = 100;

/// Who chooses the move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    /// The five-tuple scorer ([`tuples`]).
    Tuples,
    /// The line-pattern scorer ([`patterns`]).
    Patterns,
    /// The depth-3 alpha-beta ([`minimax`]).
    Minimax,
    /// The main search with only the manager's limits.
    Full,
}

/// The levels from weakest to strongest, with the lowest strength of each.
/// A strength picks the last entry whose threshold it reaches.
pub const LADDER: [(u8, Level); 4] = [
    (0, Level::Tuples),
    (30, Level::Patterns),
    (60, Level::Minimax),
    (FULL_STRENGTH, Level::Full),
];

impl Level {
    /// The level for a strength (0..=100; larger values mean full strength).
    pub fn from_strength(strength: u8) -> Level {
        LADDER
            .iter()
            .rev()
            .find(|(from, _)| strength >= *from)
            .map_or(Level::Full, |&(_, level)| level)
    }

    /// What the level's player is, in a few words.
    pub fn name(self) -> &'static str {
        match self {
            Level::Tuples => "five-tuple scorer (one ply)",
            Level::Patterns => "pattern scorer (one ply)",
            Level::Minimax => "depth-3 minimax",
            Level::Full => "full search",
        }
    }
}

/// Chooses the move for the side to move of `board` at `level`.
///
/// `limits`, `tt`, `stop` and `threads` serve full strength, which runs the main
/// search (the tutorial players answer at once and ignore them); `rng`
/// breaks ties. Returns a [`SearchResult`] like the search does: `best` is
/// `None` only on a full board, `score` is the player's own judgement in the
/// search's units, and for the tutorial players `pv` is the move alone and
/// `depth` the plies they look ahead (1 for the one-ply scorers).
pub fn choose_move(
    board: &Board,
    level: Level,
    limits: Limits,
    tt: &mut Tt,
    stop: &AtomicBool,
    threads: usize,
    rng: &mut dyn RngCore,
) -> SearchResult {
    let quick = |best: Option<Pos>, score: i32, depth: i32, nodes: u64| SearchResult {
        best,
        score,
        depth,
        nodes,
        elapsed: limits.start.elapsed(),
        pv: best.into_iter().collect(),
        iterations: Vec::new(),
        thread_nodes: Vec::new(),
    };
    match level {
        Level::Tuples => {
            let (best, score) = tuples::choose(board, rng);
            quick(best, clamp_score(score), 1, 0)
        }
        Level::Patterns => {
            let (best, score) = patterns::choose(board, rng);
            quick(best, clamp_score(score), 1, 0)
        }
        Level::Minimax => {
            let found = minimax::choose(board, rng);
            quick(found.best, found.score, minimax::DEPTH, found.nodes)
        }
        Level::Full => Searcher::new(board, tt, stop, limits)
            .threads(threads)
            .run(Some(rng)),
    }
}

/// A one-ply score squeezed into the evaluation range, so that it never
/// reads as a win or a loss.
fn clamp_score(score: i64) -> i32 {
    score.clamp(-(EVAL_LIMIT as i64), EVAL_LIMIT as i64) as i32
}

/// A per-cell score table (indexed by [`Pos::index`]); [`NOT_CANDIDATE`]
/// marks cells not to play.
type Scores = [i64; CELLS];

/// The score of a cell that is not a candidate.
const NOT_CANDIDATE: i64 = i64::MIN;

/// The allowed candidate with the highest score in `scores`, chosen at
/// random among equal scores (reservoir sampling: one pass, no list), with
/// its score. Falls back on the free cell nearest the centre when no
/// candidate is allowed.
fn pick_best(board: &Board, scores: &Scores, rng: &mut dyn RngCore) -> (Option<Pos>, i64) {
    let us = board.side_to_move();
    // A copy to probe renju's forbidden points on, made only if needed.
    let mut probe: Option<Board> = None;
    let mut best = None;
    let mut best_score = NOT_CANDIDATE;
    let mut ties = 0u32;
    for pos in board.cells() {
        let score = scores[pos.index()];
        if score == NOT_CANDIDATE || score < best_score || !board.is_empty(pos) {
            continue;
        }
        if board.rule().has_forbidden(us) {
            let probe = probe.get_or_insert_with(|| board.clone());
            if !is_allowed(probe, pos, us) {
                continue;
            }
        }
        if score > best_score {
            best_score = score;
            ties = 0;
        }
        ties += 1;
        if rng.gen_range(0..ties) == 0 {
            best = Some(pos);
        }
    }
    match best {
        Some(pos) => (Some(pos), best_score),
        None => (nearest_free_cell(&mut board.clone()), 0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Cell;
    use crate::search::time::Budget;
    use crate::types::{Color, Rule};
    use rand::SeedableRng;
    use std::time::Duration;

    /// Time a tutorial player may take at most (debug builds, loaded machine).
    const QUICK: Duration = Duration::from_millis(500);

    /// Every level (full strength under a short clock).
    const PLAYERS: [Level; 4] = [Level::Tuples, Level::Patterns, Level::Minimax, Level::Full];

    fn play(board: &Board, level: Level, seed: u64) -> Option<Pos> {
        let mut tt = Tt::new(1 << 20);
        let stop = AtomicBool::new(false);
        let limits = Limits {
            budget: Budget {
                soft: Duration::from_millis(200),
                hard: Duration::from_millis(400),
            },
            ..Limits::depth(64)
        };
        let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
        let result = choose_move(board, level, limits, &mut tt, &stop, 1, &mut rng);
        if matches!(level, Level::Tuples | Level::Patterns | Level::Minimax) {
            assert!(
                result.elapsed < QUICK,
                "{level:?} took {:?}",
                result.elapsed
            );
        }
        result.best
    }

    fn diagram(rule: Rule, to_move: Color, picture: &str) -> (Board, Vec<(char, Pos)>) {
        Board::from_diagram(rule, to_move, picture).expect("valid diagram")
    }

    #[test]
    fn strength_maps_to_levels_in_order() {
        assert_eq!(Level::from_strength(0), Level::Tuples);
        assert_eq!(Level::from_strength(29), Level::Tuples);
        assert_eq!(Level::from_strength(30), Level::Patterns);
        assert_eq!(Level::from_strength(59), Level::Patterns);
        assert_eq!(Level::from_strength(60), Level::Minimax);
        assert_eq!(Level::from_strength(99), Level::Minimax);
        assert_eq!(Level::from_strength(100), Level::Full);
        assert_eq!(Level::from_strength(255), Level::Full);
        assert!(LADDER.windows(2).all(|w| w[0].0 < w[1].0));
    }

    #[test]
    fn a_board_already_holding_a_five_is_no_trouble() {
        // Managers may send such boards (the fuzz tests do): every player
        // still answers with an empty cell.
        let board = Board::from_moves(
            Rule::Freestyle,
            15,
            "0,0 7,7 0,2 7,8 0,4 7,9 0,6 7,10 0,8 7,11",
        )
        .expect("legal moves");
        for level in PLAYERS {
            let pos = play(&board, level, 1).expect("a move");
            assert!(board.is_empty(pos), "{level:?} {pos}");
        }
    }

    #[test]
    fn empty_board_opens_in_the_middle() {
        for level in PLAYERS {
            let board = Board::new(15, 15, Rule::Freestyle);
            let pos = play(&board, level, 1).expect("a move");
            // The five-tuple scorer finds every cell four or more from the
            // edges equal (each lies in twenty empty windows).
            let reach = if level == Level::Tuples { 3 } else { 1 };
            assert!(
                pos.x().abs_diff(7) <= reach && pos.y().abs_diff(7) <= reach,
                "{level:?} {pos}"
            );
        }
    }

    #[test]
    fn random_games_stay_legal_and_deterministic() {
        use rand::Rng;
        for rule in [Rule::Freestyle, Rule::Standard, Rule::Renju, Rule::Caro] {
            for level in [Level::Tuples, Level::Patterns, Level::Minimax] {
                let mut rng = rand::rngs::StdRng::seed_from_u64(rule.bits() as u64);
                let mut board = Board::new(11, 9, rule);
                // A few random stones, then the player plays both sides to
                // the end of the game or the board.
                for _ in 0..6 {
                    let pos = Pos::new(rng.gen_range(0..11), rng.gen_range(0..9));
                    let us = board.side_to_move();
                    if board.is_empty(pos) && is_allowed(&mut board, pos, us) {
                        board.make(pos);
                    }
                }
                let mut seed = 0;
                while board.empty_count() > 0 {
                    seed += 1;
                    let Some(pos) = play(&board, level, seed) else {
                        break;
                    };
                    assert_eq!(play(&board, level, seed), Some(pos), "deterministic");
                    assert!(board.contains(pos.x(), pos.y()) && board.is_empty(pos));
                    let us = board.side_to_move();
                    assert!(is_allowed(&mut board, pos, us), "{level:?} forbidden {pos}");
                    board.make(pos);
                    if board.is_five_at(pos) {
                        break;
                    }
                }
            }
        }
    }

    #[test]
    fn takes_a_five() {
        // Black has four in a row with one end free ('a'), white an open
        // four: black must take the five, not block.
        let (board, marks) = diagram(
            Rule::Freestyle,
            Color::Black,
            "
            . . . . . . . . .
            . O O O O . . . .
            . . . . . . . . .
            . . . . . . . . .
            O X X X X a . . .
            . . . . . . . . .
            . . . . . . . . .
            ",
        );
        for level in PLAYERS {
            assert_eq!(play(&board, level, 3), Some(marks[0].1), "{level:?}");
        }
    }

    #[test]
    fn blocks_a_four() {
        // White threatens a five at 'a' (a broken four); black has only twos.
        let (board, marks) = diagram(
            Rule::Freestyle,
            Color::Black,
            "
            . . . . . . . . . .
            . . . . . . . . . .
            . O O a O O X . . .
            . . . . . . . . . .
            . . . X . . . . . .
            . . . X . . . . . .
            . . . . . . . . . .
            . . . . . . . . . .
            ",
        );
        for level in PLAYERS {
            assert_eq!(play(&board, level, 4), Some(marks[0].1), "{level:?}");
        }
    }

    #[test]
    fn blocks_an_open_three() {
        // White's open three on the diagonal: black blocks at an end ('a')
        // or the far ends ('b'); black has nothing of its own.
        let (board, marks) = diagram(
            Rule::Freestyle,
            Color::Black,
            "
            . . . . . . . . . . .
            . b . . . . . . . . .
            . . a . . . . . . . .
            . . . O . . . . . . .
            . . . . O . . . X . .
            . . . . . O . . . . .
            . . . . . . a . . . .
            . . . . . . . b . . .
            . . . X . . . . . . .
            . . . . . . . . . . .
            ",
        );
        let accepted: Vec<Pos> = marks.iter().map(|m| m.1).collect();
        for level in PLAYERS {
            let pos = play(&board, level, 5).expect("a move");
            assert!(accepted.contains(&pos), "{level:?} played {pos}");
        }
    }

    #[test]
    fn renju_black_avoids_forbidden_points() {
        // The upper 'f' would give black a double three, the lower one an
        // overline: black's best-looking cells are forbidden. White has
        // nothing.
        let (mut board, marks) = diagram(
            Rule::Renju,
            Color::Black,
            "
            O . . . . . . . . . O
            . . . . . . . . . . .
            . . . . . X . . . . .
            . . . . . X . . . . .
            . . . X X f . . . . .
            . . . . . . . . . . .
            . . . . . . . . . . .
            . . . . . . . . . . .
            . . . . . X X f X X X
            . . . . . . . . . . .
            O . . . . . . . . . O
            ",
        );
        for &(_, pos) in &marks {
            assert!(
                !is_allowed(&mut board, pos, Color::Black),
                "{pos} not forbidden"
            );
        }
        for level in PLAYERS {
            for seed in 0..4 {
                let pos = play(&board, level, seed).expect("a move");
                assert!(!marks.iter().any(|m| m.1 == pos), "{level:?} played {pos}");
            }
        }
    }

    #[test]
    fn full_board_and_walls() {
        // 5x5 with one free cell left.
        let mut board = Board::new(5, 5, Rule::Freestyle);
        for pos in board.clone().cells() {
            if pos != Pos::new(2, 2) {
                board.block(pos);
            }
        }
        for level in PLAYERS {
            assert_eq!(play(&board, level, 1), Some(Pos::new(2, 2)));
        }
        board.block(Pos::new(2, 2));
        assert_eq!(board.cell(Pos::new(2, 2)), Cell::Wall);
        for level in PLAYERS {
            assert_eq!(play(&board, level, 1), None);
        }
    }
}
