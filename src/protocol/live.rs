//! Live analysis output for Yixin-Board, in its two dialects: the
//! `MESSAGE REALTIME …` lines both builds read (current best, move being
//! searched, losing moves) and the per-candidate `INFO PV …` blocks of the
//! dhbloo build (depth, evaluation, win rate and line of each candidate).
//! Off unless the GUI asks for it; throttled so that neither the pipe nor
//! the GUI is flooded.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use crate::search::{Iteration, Observer, SearchResult, MATE, MATE_BOUND};
use crate::types::Pos;

/// Nothing is shown before the search has run this long (short searches
/// only show their result).
const QUIET_START: Duration = Duration::from_millis(200);
/// Least time between two reports of the same kind (iteration summaries,
/// moves being searched, new best moves): at most a few lines per second.
const GAP: Duration = Duration::from_millis(500);
/// Scale of the logistic curve from score to win rate: the `K` Texel's fit
/// of the evaluation found for game results (`docs/tuning.md`).
const WIN_RATE_SCALE: f64 = 0.003734;

/// Which live output the GUI asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LiveMode {
    /// `MESSAGE REALTIME …` lines (both Yixin-Board builds).
    pub realtime: bool,
    /// `INFO PV …` blocks per candidate (the dhbloo build).
    pub detail: bool,
}

impl LiveMode {
    /// The live output for `show_detail` (0..=3) and whether `YXSHOWINFO`
    /// (which only Yixin-Board sends) announced a GUI: `MESSAGE REALTIME`
    /// for a GUI that has not turned details off, or for `show_detail 3`;
    /// `INFO` blocks only for `show_detail 3`, which only the dhbloo build
    /// sends (the original build would read an `INFO` line as a move).
    pub fn new(show_detail: u8, gui: bool) -> Option<LiveMode> {
        let detail = show_detail >= 3;
        let realtime = detail || (gui && show_detail >= 1);
        realtime.then_some(LiveMode { realtime, detail })
    }
}

/// The win rate the dhbloo build shows for a score: 0 to 1, a proven win 1.
pub fn win_rate(score: i32) -> f64 {
    if score > MATE_BOUND {
        1.0
    } else if score < -MATE_BOUND {
        0.0
    } else {
        1.0 / (1.0 + (-WIN_RATE_SCALE * score as f64).exp())
    }
}

/// A score as the dhbloo build reads `INFO EVAL`: the evaluation, or
/// `+M n` / `-M n` (no blank) for a win / loss in n plies.
pub fn eval_text(score: i32) -> String {
    if score > MATE_BOUND {
        format!("+M{}", MATE - score)
    } else if score < -MATE_BOUND {
        format!("-M{}", MATE + score)
    } else {
        score.to_string()
    }
}

fn line_text(pv: &[Pos]) -> String {
    pv.iter()
        .map(|p| p.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// One candidate's `INFO` block: candidate `index` of `count`, searched to
/// `depth`, its score and its line (starting with the candidate).
pub fn info_block(index: usize, count: usize, depth: i32, score: i32, pv: &[Pos]) -> Vec<String> {
    vec![
        format!("INFO PV {index}"),
        format!("INFO NUMPV {count}"),
        format!("INFO DEPTH {depth}"),
        format!("INFO EVAL {}", eval_text(score)),
        format!("INFO WINRATE {:.4}", win_rate(score)),
        format!("INFO BESTLINE {}", line_text(pv)),
        "INFO PV DONE".to_string(),
    ]
}

/// The `INFO` blocks of finished searches, one per candidate, best first.
/// All carry the shallowest depth among them: the dhbloo build drops the
/// marks of candidates searched less deeply than the last block's.
pub fn final_blocks(results: &[SearchResult]) -> Vec<String> {
    let found: Vec<&SearchResult> = results.iter().filter(|r| r.best.is_some()).collect();
    let depth = found.iter().map(|r| r.depth).min().unwrap_or(0);
    found
        .iter()
        .enumerate()
        .flat_map(|(i, r)| info_block(i, found.len(), depth, r.score, &r.pv))
        .collect()
}

/// What has been shown of the search so far.
struct Shown {
    /// Index of the current search among the n-best searches.
    index: usize,
    /// Searches begun.
    searches: usize,
    last_iteration: Option<Instant>,
    last_entering: Option<Instant>,
    last_best: Option<Instant>,
    /// The root move last shown as being searched, until it is done.
    searching: Option<Pos>,
    /// Root moves already shown as losing.
    lost: Vec<Pos>,
}

/// Watches a search and hands the lines to show to `emit`.
pub struct LiveOutput<F: Fn(Vec<String>) + Sync> {
    mode: LiveMode,
    start: Instant,
    /// Candidates the whole job reports (`YXNBEST n`: n; otherwise 1).
    count: AtomicUsize,
    shown: Mutex<Shown>,
    emit: F,
}

/// Whether `last` is at least [`GAP`] ago (or never).
fn due(last: Option<Instant>, now: Instant) -> bool {
    last.is_none_or(|t| now.duration_since(t) >= GAP)
}

impl<F: Fn(Vec<String>) + Sync> LiveOutput<F> {
    /// Live output in `mode` for a job that started at `start` and reports
    /// `count` candidates.
    pub fn new(mode: LiveMode, start: Instant, count: usize, emit: F) -> Self {
        LiveOutput {
            mode,
            start,
            count: AtomicUsize::new(count.max(1)),
            shown: Mutex::new(Shown {
                index: 0,
                searches: 0,
                last_iteration: None,
                last_entering: None,
                last_best: None,
                searching: None,
                lost: Vec::new(),
            }),
            emit,
        }
    }

    /// The output asked for.
    pub fn mode(&self) -> LiveMode {
        self.mode
    }

    /// The state, unless the search is too young to be shown.
    fn shown(&self) -> Option<(std::sync::MutexGuard<'_, Shown>, Instant)> {
        let now = Instant::now();
        if now.duration_since(self.start) < QUIET_START {
            return None;
        }
        let shown = self.shown.lock().unwrap_or_else(|e| e.into_inner());
        Some((shown, now))
    }
}

impl<F: Fn(Vec<String>) + Sync> Observer for LiveOutput<F> {
    fn candidates(&self, count: usize) {
        self.count.store(count.max(1), Ordering::Relaxed);
        let mut shown = self.shown.lock().unwrap_or_else(|e| e.into_inner());
        shown.searches = 0;
    }

    fn search_started(&self) {
        let mut shown = self.shown.lock().unwrap_or_else(|e| e.into_inner());
        shown.index = shown.searches.min(self.count.load(Ordering::Relaxed) - 1);
        shown.searches += 1;
        shown.searching = None;
    }

    fn entering(&self, _depth: i32, pos: Pos) {
        if !self.mode.realtime {
            return;
        }
        let Some((mut shown, now)) = self.shown() else {
            return;
        };
        if due(shown.last_entering, now) {
            shown.last_entering = Some(now);
            shown.searching = Some(pos);
            drop(shown);
            (self.emit)(vec![format!("MESSAGE REALTIME POS {pos}")]);
        }
    }

    fn leaving(&self, depth: i32, pos: Pos, score: i32, new_best: bool) {
        if !self.mode.realtime {
            return;
        }
        let now = Instant::now();
        let quiet = now.duration_since(self.start) < QUIET_START;
        let mut shown = self.shown.lock().unwrap_or_else(|e| e.into_inner());
        let mut lines = Vec::new();
        // Losing moves are shown at once: each once, so at most one line
        // per root move.
        if score < -MATE_BOUND && !shown.lost.contains(&pos) {
            shown.lost.push(pos);
            lines.push(format!("MESSAGE REALTIME LOSE {pos}"));
        }
        if shown.searching == Some(pos) {
            shown.searching = None;
            lines.push(format!("MESSAGE REALTIME DONE {pos}"));
        }
        if new_best && depth > 1 && !quiet && due(shown.last_best, now) {
            shown.last_best = Some(now);
            lines.push(format!("MESSAGE REALTIME BEST {pos}"));
        }
        drop(shown);
        if !lines.is_empty() {
            (self.emit)(lines);
        }
    }

    fn iteration(&self, iteration: &Iteration, pv: &[Pos]) {
        let Some((mut shown, now)) = self.shown() else {
            return;
        };
        if !due(shown.last_iteration, now) {
            return;
        }
        shown.last_iteration = Some(now);
        shown.last_best = Some(now);
        shown.searching = None;
        let index = shown.index;
        drop(shown);
        let mut lines = Vec::new();
        if self.mode.realtime {
            lines.push("MESSAGE REALTIME REFRESH".to_string());
            lines.push(format!("MESSAGE REALTIME BEST {}", iteration.best));
            lines.push(format!("MESSAGE REALTIME VAL {}", iteration.score));
            lines.push(format!("MESSAGE REALTIME PV {}", line_text(pv)));
        }
        if self.mode.detail {
            lines.extend(info_block(
                index,
                self.count.load(Ordering::Relaxed),
                iteration.depth,
                iteration.score,
                pv,
            ));
        }
        (self.emit)(lines);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn modes() {
        assert_eq!(LiveMode::new(1, false), None);
        assert_eq!(LiveMode::new(2, false), None);
        assert_eq!(LiveMode::new(0, true), None);
        assert_eq!(
            LiveMode::new(1, true),
            Some(LiveMode {
                realtime: true,
                detail: false
            })
        );
        assert_eq!(
            LiveMode::new(3, false),
            Some(LiveMode {
                realtime: true,
                detail: true
            })
        );
    }

    #[test]
    fn scores_as_the_gui_reads_them() {
        assert_eq!(eval_text(MATE - 7), "+M7");
        assert_eq!(eval_text(-(MATE - 4)), "-M4");
        assert_eq!(eval_text(-35), "-35");
        assert_eq!(win_rate(0), 0.5);
        assert!(win_rate(300) > 0.7 && win_rate(300) < 0.8);
        assert_eq!(win_rate(MATE - 3), 1.0);
        assert_eq!(win_rate(-(MATE - 3)), 0.0);
    }

    #[test]
    fn block_form() {
        let pv = [Pos::new(7, 7), Pos::new(8, 8)];
        let block = info_block(1, 3, 9, 120, &pv);
        assert_eq!(block[0], "INFO PV 1");
        assert_eq!(block[1], "INFO NUMPV 3");
        assert_eq!(block[2], "INFO DEPTH 9");
        assert_eq!(block[3], "INFO EVAL 120");
        assert!(block[4].starts_with("INFO WINRATE 0.6"));
        assert_eq!(block[5], "INFO BESTLINE 7,7 8,8");
        assert_eq!(block[6], "INFO PV DONE");
    }
}
