//! The engine as the terminal commands use it: the protocol's searcher with
//! a hash table kept between moves, limits from a time per move or a fixed
//! depth, and a deep stack for the search.

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use rand::SeedableRng;

use crate::board::Board;
use crate::levels::{self, Level};
use crate::search::time::TimeSettings;
use crate::search::tt::Tt;
use crate::search::{Limits, SearchResult, MAX_DEPTH, SEARCH_STACK_BYTES};

/// Hash table size of the terminal commands (the protocol's default).
pub const TT_BYTES: usize = 64 << 20;

/// How long the engine thinks about a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Think {
    /// This long per move (the protocol's `timeout_turn`, with its safety
    /// margin); zero answers at once with a depth-one search.
    Time(Duration),
    /// Exactly this deep, without a clock (reproducible).
    Depth(i32),
}

impl Think {
    /// Search limits for one move, starting now.
    pub fn limits(self) -> Limits {
        match self {
            Think::Depth(depth) => Limits::depth(depth.clamp(1, MAX_DEPTH)),
            Think::Time(time) => {
                let budget = TimeSettings {
                    turn_ms: Some(time.as_millis().min(u64::MAX as u128) as u64),
                    ..TimeSettings::default()
                }
                .budget();
                Limits {
                    start: Instant::now(),
                    budget,
                    max_depth: if budget.is_instant() { 1 } else { MAX_DEPTH },
                    max_nodes: 0,
                }
            }
        }
    }

    /// A short description: `1.0 s per move`, `depth 6`.
    pub fn describe(self) -> String {
        match self {
            Think::Time(time) => format!("{:.1} s per move", time.as_secs_f64()),
            Think::Depth(depth) => format!("depth {depth}"),
        }
    }
}

/// Longest time per move the terminal commands accept, in seconds (a day).
pub const MAX_SECONDS: f64 = 86_400.0;

/// Reads a time per move in seconds (`0.5`, `2`), from 0 to [`MAX_SECONDS`].
pub fn parse_seconds(text: &str) -> anyhow::Result<Duration> {
    match text.trim().parse::<f64>() {
        Ok(s) if (0.0..=MAX_SECONDS).contains(&s) => Ok(Duration::from_secs_f64(s)),
        _ => anyhow::bail!("bad time {text:?}: seconds from 0 to {MAX_SECONDS}"),
    }
}

/// Reads a fixed search depth, 1 to `MAX_DEPTH`.
pub fn parse_depth(text: &str) -> anyhow::Result<i32> {
    match text.trim().parse::<i32>() {
        Ok(d) if (1..=MAX_DEPTH).contains(&d) => Ok(d),
        _ => anyhow::bail!("bad depth {text:?}: 1 to {MAX_DEPTH}"),
    }
}

/// Runs `f` on a thread with the search's deep stack and returns its value
/// (on this thread if no new one can be had).
pub fn on_search_stack<T: Send>(f: impl FnOnce() -> T + Send) -> T {
    let mut job = Some(f);
    let mut value = None;
    std::thread::scope(|scope| {
        let (job, value) = (&mut job, &mut value);
        let spawned = std::thread::Builder::new()
            .name("search".into())
            .stack_size(SEARCH_STACK_BYTES)
            .spawn_scoped(scope, move || *value = job.take().map(|f| f()));
        if let Ok(handle) = spawned {
            if let Err(panic) = handle.join() {
                std::panic::resume_unwind(panic);
            }
        }
    });
    match (value, job) {
        (Some(value), _) => value,
        (None, Some(f)) => f(),
        (None, None) => unreachable!("the search thread took the job and returned"),
    }
}

/// A search's score in words: `+W5 (a win in 5 plies)`, `-L4 (a loss in 4
/// plies)`, or the evaluation (positive is good for the side to move).
pub fn describe_score(result: &SearchResult) -> String {
    let text = result.score_text();
    let plies = |n: &str| {
        if n == "1" {
            "1 ply".to_string()
        } else {
            format!("{n} plies")
        }
    };
    if let Some(n) = text.strip_prefix("+W") {
        format!("{text} (a win in {})", plies(n))
    } else if let Some(n) = text.strip_prefix("-L") {
        format!("{text} (a loss in {})", plies(n))
    } else {
        text
    }
}

/// The engine player: searcher, hash table, tie-breaking randomness and
/// how long to think.
pub struct Engine {
    tt: Tt,
    rng: rand::rngs::StdRng,
    /// How long to think per move.
    pub think: Think,
    /// Who chooses the engine's moves (hints always come from full strength).
    pub level: Level,
}

impl Engine {
    /// An engine thinking `think` per move; `seed` fixes its tie-breaking.
    pub fn new(think: Think, seed: Option<u64>) -> Engine {
        let rng = match seed {
            Some(seed) => rand::rngs::StdRng::seed_from_u64(seed),
            None => rand::rngs::StdRng::from_entropy(),
        };
        Engine {
            tt: Tt::new(TT_BYTES),
            rng,
            think,
            level: Level::Full,
        }
    }

    /// Forgets what earlier searches stored (a new game).
    pub fn clear(&mut self) {
        self.tt.clear();
    }

    /// Chooses the move for the side to move on `board` at the engine's
    /// strength level.
    pub fn choose_move(&mut self, board: &Board) -> SearchResult {
        self.choose_at(board, self.level)
    }

    /// The move full strength would play: a hint.
    pub fn hint(&mut self, board: &Board) -> SearchResult {
        self.choose_at(board, Level::Full)
    }

    fn choose_at(&mut self, board: &Board, level: Level) -> SearchResult {
        let limits = self.think.limits();
        let stop = AtomicBool::new(false);
        let (tt, rng) = (&mut self.tt, &mut self.rng);
        on_search_stack(move || levels::choose_move(board, level, limits, tt, &stop, 1, rng))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::{Pos, Rule};

    #[test]
    fn takes_a_five_and_reproduces_with_a_seed() {
        let board = Board::from_moves(Rule::Freestyle, 15, "7,7 0,0 8,7 0,2 9,7 0,4 10,7 0,6")
            .expect("legal");
        let mut engine = Engine::new(Think::Depth(2), Some(3));
        let result = engine.choose_move(&board);
        assert!([Pos::new(6, 7), Pos::new(11, 7)].contains(&result.best.expect("a move")));
        let open = Board::from_moves(Rule::Freestyle, 15, "7,7 8,8").expect("legal");
        let a = Engine::new(Think::Depth(3), Some(5)).choose_move(&open);
        let b = Engine::new(Think::Depth(3), Some(5)).choose_move(&open);
        assert_eq!((a.best, a.nodes), (b.best, b.nodes));
    }

    #[test]
    fn time_limits() {
        let instant = Think::Time(Duration::ZERO).limits();
        assert!(instant.budget.is_instant());
        assert_eq!(instant.max_depth, 1);
        let second = Think::Time(Duration::from_secs(1)).limits();
        assert!(second.budget.hard < Duration::from_secs(1));
        assert_eq!(Think::Depth(100).limits().max_depth, MAX_DEPTH);
        assert_eq!(
            Think::Time(Duration::from_millis(1500)).describe(),
            "1.5 s per move"
        );
    }
}
