//! Time management: turns the manager's clock settings into a per-move
//! budget that is never overstepped.

use std::time::Duration;

use super::params;

/// Time per move assumed when the manager sends no limits at all.
pub const DEFAULT_TURN_MS: u64 = 5_000;
/// `time_left` value managers use for "unlimited".
pub const UNLIMITED_MS: i64 = 2_147_483_647;

/// The clock settings a manager sends with `INFO` (all in milliseconds).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct TimeSettings {
    /// `timeout_turn`: time per move; 0 means move at once.
    pub turn_ms: Option<u64>,
    /// `timeout_match`: time per game; 0 means no game limit.
    pub match_ms: u64,
    /// `time_left`: game time left for this engine; may be ≤ 0.
    pub left_ms: Option<i64>,
    /// `time_increment`: added to the game time after each move.
    pub increment_ms: u64,
    /// How late recent replies went out past their hard limit (decaying);
    /// added to the safety margin, see [`TimeSettings::note_lateness`].
    pub lag_ms: u64,
}

/// How long one move may take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Past this, start no new iteration.
    pub soft: Duration,
    /// Past this, abandon the search and answer with the best move so far.
    pub hard: Duration,
}

impl Budget {
    /// The budget for answering at once: a depth-one search only.
    pub const INSTANT: Budget = Budget {
        soft: Duration::ZERO,
        hard: Duration::ZERO,
    };

    /// Whether this budget asks for an immediate answer.
    pub fn is_instant(&self) -> bool {
        self.hard.is_zero()
    }
}

/// Safety margin kept back from a hard limit: covers stopping the search,
/// answering, process scheduling and pipe latency on a loaded machine.
/// 30 ms + 5 % (at most 0.5 s); beyond 1 s also a seventh of the rest (at
/// most 0.6 s), for the delays of a busy machine and of Wine that do not
/// shrink with the limit (Piskvork under Wine timed a reply 185 ms after a
/// 4720 ms hard limit, a loaded two-core machine 416 ms after 4320 ms); plus
/// the recent lateness `lag_ms` (at most a quarter of the limit).
fn margin(limit_ms: u64, lag_ms: u64) -> u64 {
    (30 + limit_ms / 20).min(500)
        + (limit_ms.saturating_sub(1_000) / 7).min(600)
        + lag_ms.min(limit_ms / 4)
}

impl TimeSettings {
    /// The game time left, if the game clock limits this move.
    fn game_time_left(&self) -> Option<i64> {
        match self.left_ms {
            Some(left) if left != UNLIMITED_MS && (self.match_ms > 0 || left <= 0) => Some(left),
            _ => None,
        }
    }

    /// Records how long after its hard limit a reply went out (zero if in
    /// time): the margin grows by the largest recent lateness, which decays
    /// by a quarter with every reply.
    pub fn note_lateness(&mut self, late: Duration) {
        let late_ms = late.as_millis().min(u64::MAX as u128) as u64;
        self.lag_ms = late_ms.max(self.lag_ms * 3 / 4);
    }

    /// The budget for the next move.
    pub fn budget(&self) -> Budget {
        let params = params::active();
        let turn = self.turn_ms.unwrap_or(DEFAULT_TURN_MS);
        if turn == 0 {
            return Budget::INSTANT;
        }
        let (mut max_ms, mut optimum_ms) = (turn, turn);
        if let Some(left) = self.game_time_left() {
            if left <= 0 {
                return Budget::INSTANT;
            }
            let left = left as u64;
            max_ms = max_ms
                .min(left / params.max_share_of_left + self.increment_ms)
                .min(left);
            optimum_ms = optimum_ms.min(left / params.moves_to_go + self.increment_ms);
        }
        let hard_ms = max_ms.saturating_sub(margin(max_ms, self.lag_ms)).max(1);
        let soft_ms = (optimum_ms.saturating_mul(params.soft_percent) / 100).min(hard_ms);
        Budget {
            soft: Duration::from_millis(soft_ms),
            hard: Duration::from_millis(hard_ms),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(d: Duration) -> u64 {
        d.as_millis() as u64
    }

    #[test]
    fn turn_limit_with_margin() {
        let t = TimeSettings {
            turn_ms: Some(200),
            ..TimeSettings::default()
        };
        let b = t.budget();
        assert!(ms(b.hard) < 200 && ms(b.hard) >= 100, "{b:?}");
        assert!(b.soft <= b.hard);
    }

    #[test]
    fn zero_turn_or_no_time_left_is_instant() {
        let zero = TimeSettings {
            turn_ms: Some(0),
            ..TimeSettings::default()
        };
        assert!(zero.budget().is_instant());
        let flagged = TimeSettings {
            turn_ms: Some(30_000),
            match_ms: 180_000,
            left_ms: Some(-5),
            increment_ms: 0,
            lag_ms: 0,
        };
        assert!(flagged.budget().is_instant());
    }

    #[test]
    fn game_clock_shares_time_out() {
        let t = TimeSettings {
            turn_ms: Some(30_000),
            match_ms: 180_000,
            left_ms: Some(10_000),
            increment_ms: 0,
            lag_ms: 0,
        };
        let b = t.budget();
        assert!(ms(b.hard) <= 2_000, "{b:?}");
        assert!(ms(b.soft) <= 800, "{b:?}");
        let unlimited = TimeSettings {
            left_ms: Some(UNLIMITED_MS),
            ..t
        };
        assert!(ms(unlimited.budget().hard) > 20_000);
    }

    #[test]
    fn late_replies_widen_the_margin() {
        let mut t = TimeSettings {
            turn_ms: Some(5_000),
            ..TimeSettings::default()
        };
        let before = t.budget().hard;
        assert_eq!(ms(before), 5_000 - 851);
        t.note_lateness(Duration::from_millis(200));
        let after = t.budget().hard;
        assert_eq!(before - after, Duration::from_millis(200));
        // It decays once replies are in time again.
        t.note_lateness(Duration::ZERO);
        assert_eq!(t.lag_ms, 150);
        for _ in 0..30 {
            t.note_lateness(Duration::ZERO);
        }
        assert_eq!(t.budget().hard, before);
        // Never more than a quarter of the limit.
        t.note_lateness(Duration::from_secs(60));
        assert_eq!(ms(t.budget().hard), 5_000 - 851 - 1_250);
    }

    #[test]
    fn defaults_to_a_few_seconds() {
        let b = TimeSettings::default().budget();
        assert!(ms(b.hard) <= DEFAULT_TURN_MS && ms(b.hard) >= 4_000);
    }
}
