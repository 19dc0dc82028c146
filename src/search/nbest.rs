//! The `n` best root moves, for Yixin-Board's `YXNBEST` and `analyze --nbest`.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use super::movegen::{generate, MoveList};
use super::time::Budget;
use super::tt::Tt;
use super::{Limits, Observer, SearchResult, Searcher};
use crate::board::Board;
use crate::types::Pos;

/// Finds the `n` best root moves one after another, each search leaving out
/// the moves already found and taking an equal share of the time left.
/// `excluded` moves are never chosen; `observer` watches each search.
pub fn n_best(
    board: &Board,
    tt: &mut Tt,
    stop: &AtomicBool,
    limits: Limits,
    n: usize,
    excluded: &[Pos],
    observer: Option<&dyn Observer>,
) -> Vec<SearchResult> {
    let mut results: Vec<SearchResult> = Vec::new();
    let mut found: Vec<Pos> = excluded.to_vec();
    let mut candidates = MoveList::default();
    generate(&mut board.clone(), &mut candidates);
    let n = n.min(candidates.len()).max(1);
    for i in 0..n {
        let elapsed = limits.start.elapsed();
        let share = |d: std::time::Duration| d.saturating_sub(elapsed) / (n - i) as u32;
        let part = Limits {
            start: Instant::now(),
            budget: Budget {
                soft: share(limits.budget.soft),
                hard: share(limits.budget.hard),
            },
            ..limits
        };
        let result = Searcher::new(board, tt, stop, part)
            .excluding(&found)
            .observed(observer)
            .run(None);
        let Some(best) = result.best else { break };
        found.push(best);
        results.push(result);
        if stop.load(Ordering::Relaxed) {
            break;
        }
    }
    results
}
