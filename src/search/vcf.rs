//! VCF: victory by continuous fours. The attacker plays only fours; each
//! four leaves the defender one move, the block on its five point (in caro
//! also a stone capping the five at its far end, and every such answer is
//! searched). A depth-first search over these lines proves a win or gives
//! up within a node budget.
//!
//! The search itself (`Fours`) works on a board its caller owns and counts
//! nodes against a shared `Quota`, so the VCT solver runs it at every
//! attacker node; [`Vcf`] wraps it for a search of one position.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::movegen::makes_four;
use crate::board::{Board, MAX_MOVES};
use crate::rules::is_allowed;
use crate::types::{Color, Pos, Rule, Threat, DIRECTIONS};

/// Most attacker fours in one line of play.
const MAX_FOURS: usize = 40;

/// The node, time and stop-flag limits of a threat search, shared by the
/// VCF and VCT solvers so that a VCF inside a VCT counts against the same
/// budget.
pub(crate) struct Quota<'a> {
    stop: &'a AtomicBool,
    deadline: Instant,
    max_nodes: u64,
    nodes: u64,
    aborted: bool,
}

impl<'a> Quota<'a> {
    /// Gives up after `max_nodes` nodes, at `start + time`, or when `stop`
    /// is set.
    pub(crate) fn new(
        stop: &'a AtomicBool,
        start: Instant,
        time: Duration,
        max_nodes: u64,
    ) -> Self {
        Quota {
            stop,
            deadline: start
                .checked_add(time)
                .unwrap_or(start + Duration::from_secs(86_400)),
            max_nodes,
            nodes: 0,
            aborted: false,
        }
    }

    /// Counts one node; true once the search must give up (the budget is
    /// exact; the clock and the flag are looked at every 1024 nodes).
    #[inline]
    pub(crate) fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes > self.max_nodes
            || (self.nodes & 1023 == 0
                && (self.stop.load(Ordering::Relaxed) || Instant::now() >= self.deadline))
        {
            self.aborted = true;
        }
        self.aborted
    }

    /// Lets a search that ran out go on for `nodes` more nodes and `time`
    /// more time (the stop flag still ends it).
    pub(crate) fn renew(&mut self, nodes: u64, time: Duration) {
        self.aborted = false;
        self.max_nodes = self.nodes.saturating_add(nodes);
        self.deadline = self.deadline.max(Instant::now() + time);
    }

    /// Nodes counted so far.
    #[inline]
    pub(crate) fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Whether the budget, the clock or the stop flag ended the search.
    #[inline]
    pub(crate) fn aborted(&self) -> bool {
        self.aborted
    }
}

/// How a four-only search ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Verdict {
    /// The side to move wins by fours; the line is in [`Fours::line`].
    Win,
    /// Every line of fours was tried: there is no VCF.
    NoWin,
    /// The search stopped early (its own node cap, the shared quota, or the
    /// depth limit): nothing is known.
    GaveUp,
}

/// The four-only search over a board owned by the caller.
pub(crate) struct Fours {
    /// The winning line of the last win, last move first.
    line: Vec<Pos>,
    /// Give up once the shared node count reaches this.
    cap: u64,
    gave_up: bool,
    /// Some line reached [`MAX_FOURS`] (the search goes on, but a failure
    /// then proves nothing).
    too_deep: bool,
}

/// The first cell holding `threat` (a four or better) for `color`, if any:
/// among the four cells on a board that keeps them, else over the board.
pub(crate) fn find_threat(board: &Board, color: Color, threat: Threat) -> Option<Pos> {
    debug_assert!(threat >= Threat::Four);
    if board.tracks_threat_cells() {
        board
            .four_cells(color)
            .iter()
            .find(|&p| board.threat(p, color) == threat)
    } else {
        board
            .cells()
            .find(|&p| board.is_empty(p) && board.threat(p, color) == threat)
    }
}

impl Fours {
    /// A search with room for the longest line (allocated once).
    pub(crate) fn new() -> Fours {
        Fours {
            line: Vec::with_capacity(2 * MAX_FOURS + 2),
            cap: u64::MAX,
            gave_up: false,
            too_deep: false,
        }
    }

    /// Searches `board`, the side to move attacking, for at most
    /// `max_nodes` more nodes of `quota`. Leaves `board` as it was, but
    /// for keeping its [threat cell sets](Board::track_threat_cells).
    pub(crate) fn run(&mut self, board: &mut Board, quota: &mut Quota, max_nodes: u64) -> Verdict {
        board.track_threat_cells();
        self.line.clear();
        self.cap = quota.nodes().saturating_add(max_nodes);
        self.gave_up = false;
        self.too_deep = false;
        let attacker = board.side_to_move();
        if self.attack(board, quota, attacker, MAX_FOURS) {
            Verdict::Win
        } else if self.gave_up || self.too_deep || quota.aborted() {
            Verdict::GaveUp
        } else {
            Verdict::NoWin
        }
    }

    /// The line of the last win, first move first: attacker and defender
    /// moves alternating, ending with the five (or, in renju, with the five
    /// point black may not block).
    pub(crate) fn line(&self) -> impl Iterator<Item = Pos> + '_ {
        self.line.iter().rev().copied()
    }

    fn out_of_budget(&mut self, quota: &mut Quota) -> bool {
        if quota.tick() || quota.nodes() >= self.cap {
            self.gave_up = true;
        }
        self.gave_up
    }

    /// Attacker to move: true if a four-only line wins. On success the
    /// winning line is in `self.line`, last move first.
    fn attack(
        &mut self,
        board: &mut Board,
        quota: &mut Quota,
        us: Color,
        fours_left: usize,
    ) -> bool {
        if self.out_of_budget(quota) {
            return false;
        }
        if let Some(five) = find_threat(board, us, Threat::Five) {
            self.line.push(five);
            return true;
        }
        if fours_left == 0 {
            self.too_deep = true;
            return false;
        }
        let them = us.opponent();
        // A defender's four must be blocked, and the block must be a four too.
        let forced = match board.threat_count(them, Threat::Five) {
            0 => None,
            1 => find_threat(board, them, Threat::Five),
            _ => return false,
        };
        let mut fours = [Pos(0); MAX_MOVES];
        let mut count = 0;
        match forced {
            Some(block) => {
                if makes_four(board, block, us) && is_allowed(board, block, us) {
                    fours[0] = block;
                    count = 1;
                }
            }
            None => {
                for pos in board.four_cells(us).iter() {
                    if makes_four(board, pos, us) && is_allowed(board, pos, us) {
                        fours[count] = pos;
                        count += 1;
                    }
                }
                // Strongest fours first (four-threes, double fours).
                fours[..count].sort_unstable_by_key(|&p| std::cmp::Reverse(board.threat(p, us)));
            }
        }
        for &four in &fours[..count] {
            board.make(four);
            let won = self.defend(board, quota, us, fours_left);
            board.unmake();
            if won {
                self.line.push(four);
                return true;
            }
            if self.gave_up {
                return false;
            }
        }
        false
    }

    /// Defender to move after the attacker's four.
    fn defend(
        &mut self,
        board: &mut Board,
        quota: &mut Quota,
        us: Color,
        fours_left: usize,
    ) -> bool {
        let them = us.opponent();
        if board.threat_count(them, Threat::Five) > 0 || board.threat_count(us, Threat::Five) == 0 {
            return false;
        }
        let mut answers = [Pos(0); MAX_MOVES];
        let count = answers_to_fives(board, us, &mut answers);
        if count == 0 {
            self.push_unstoppable(board, us);
            return true;
        }
        // Every answer must lose; the line shows the last one.
        let start = self.line.len();
        for &answer in &answers[..count] {
            self.line.truncate(start);
            board.make(answer);
            let won = self.attack(board, quota, us, fours_left - 1);
            board.unmake();
            if !won {
                self.line.truncate(start);
                return false;
            }
        }
        self.line.push(answers[count - 1]);
        true
    }

    /// Ends the line where the defender cannot stop every five point: a
    /// block and the five left after it, or (renju) the five black may not
    /// block.
    fn push_unstoppable(&mut self, board: &mut Board, us: Color) {
        let them = us.opponent();
        for block in board.four_cells(us).iter() {
            if board.threat(block, us) == Threat::Five && is_allowed(board, block, them) {
                board.make(block);
                let five = find_threat(board, us, Threat::Five);
                board.unmake();
                if let Some(five) = five {
                    self.line.push(five);
                    self.line.push(block);
                    return;
                }
            }
        }
        self.line.extend(find_threat(board, us, Threat::Five));
    }
}

/// When `best` lets the opponent win by fours, the first of `others` after
/// which it has no such win (proved: the VCF search ran to the end), so that
/// a move walking into a VCF gives way to one that does not. `None` when
/// `best` is safe as far as `quota` lets the searches see, or when no other
/// move is. The searches share `quota`.
pub(crate) fn avoid_vcf(
    board: &Board,
    best: Pos,
    others: impl Iterator<Item = Pos>,
    quota: &mut Quota,
) -> Option<Pos> {
    let mut board = board.clone();
    // Kept from here, so that the moves tried below keep the sets too.
    board.track_threat_cells();
    let mut fours = Fours::new();
    let mut opponent_wins = |m: Pos, quota: &mut Quota| {
        board.make(m);
        let verdict = fours.run(&mut board, quota, u64::MAX);
        board.unmake();
        verdict
    };
    if opponent_wins(best, quota) != Verdict::Win {
        return None;
    }
    others
        .filter(|&m| m != best)
        .find(|&m| opponent_wins(m, quota) == Verdict::NoWin)
}

/// Whether a five capped by the opponent at both ends fails to win (caro).
fn capped_fives_fail(rule: Rule) -> bool {
    matches!(rule, Rule::Caro | Rule::CaroExact)
}

/// The defender's answers to `us`'s five points (`us` just moved; the
/// defender, to move, has no five point of its own): the moves it may play
/// after which `us` has none left. Fills `out`, returns how many; none means
/// nothing stops the five (an open or double four, or in renju every block
/// forbidden to black). A stone elsewhere than on a five point does not
/// stop it, except in caro, where capping the far end of the five does.
/// `board` keeps its [threat cell sets](Board::track_threat_cells).
pub(crate) fn answers_to_fives(board: &mut Board, us: Color, out: &mut [Pos; MAX_MOVES]) -> usize {
    let them = us.opponent();
    if !capped_fives_fail(board.rule()) {
        return match board.threat_count(us, Threat::Five) {
            1 => match find_threat(board, us, Threat::Five) {
                Some(block) if is_allowed(board, block, them) => {
                    out[0] = block;
                    1
                }
                _ => 0,
            },
            _ => 0,
        };
    }
    let mut count = 0;
    for five in board.four_cells(us).iter() {
        if board.threat(five, us) != Threat::Five {
            continue;
        }
        for &dir in &DIRECTIONS {
            for k in -5..=5 {
                let q = five.step(dir, k);
                if !board.is_empty(q) || out[..count].contains(&q) {
                    continue;
                }
                board.make(q);
                let stops = board.threat_count(us, Threat::Five) == 0;
                board.unmake();
                if stops {
                    out[count] = q;
                    count += 1;
                }
            }
        }
    }
    count
}

/// A VCF search over one position, the side to move attacking.
pub struct Vcf<'a> {
    board: Board,
    quota: Quota<'a>,
    fours: Fours,
}

impl<'a> Vcf<'a> {
    /// A VCF search of `board` that gives up after `max_nodes` nodes, at
    /// `start + time`, or when `stop` is set.
    pub fn new(
        board: &Board,
        stop: &'a AtomicBool,
        start: Instant,
        time: Duration,
        max_nodes: u64,
    ) -> Self {
        Vcf {
            board: board.clone(),
            quota: Quota::new(stop, start, time, max_nodes),
            fours: Fours::new(),
        }
    }

    /// Nodes searched so far.
    pub fn nodes(&self) -> u64 {
        self.quota.nodes()
    }

    /// The winning line (attacker and defender moves alternating, ending
    /// with the five) if the side to move wins by fours.
    pub fn solve(&mut self) -> Option<Vec<Pos>> {
        match self.fours.run(&mut self.board, &mut self.quota, u64::MAX) {
            Verdict::Win => Some(self.fours.line().collect()),
            Verdict::NoWin | Verdict::GaveUp => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn solve(moves: &[(usize, usize)]) -> Option<Vec<Pos>> {
        let mut board = Board::new(15, 15, Rule::Freestyle);
        for &(x, y) in moves {
            board.make(Pos::new(x, y));
        }
        let stop = AtomicBool::new(false);
        Vcf::new(
            &board,
            &stop,
            Instant::now(),
            Duration::from_secs(60),
            1_000_000,
        )
        .solve()
    }

    #[test]
    fn four_three_by_fours_only() {
        // Black: a closed three on row 7 (5..7, blocked at 4) and stones on
        // column 9; no open three, but 8,7 makes a four and 9,7 a four-three.
        let line = solve(&[
            (5, 7),
            (4, 7),
            (6, 7),
            (0, 0),
            (7, 7),
            (0, 2),
            (9, 5),
            (0, 4),
            (9, 6),
            (0, 6),
        ]);
        let line = line.expect("black wins by fours");
        assert_eq!(line.len() % 2, 1, "attacker moves first and last: {line:?}");
    }

    #[test]
    fn caro_four_is_also_stopped_by_capping_its_far_end() {
        // Row 7: O X X X X . . — black's five point 6,7; in caro a white
        // stone on 7,7 caps that five at both ends, so it answers the four
        // as well as the block does.
        let mut answers = [Pos(0); MAX_MOVES];
        for (rule, expected) in [
            (Rule::Freestyle, vec![Pos::new(6, 7)]),
            (Rule::CaroExact, vec![Pos::new(6, 7), Pos::new(7, 7)]),
        ] {
            let (mut board, _) = Board::from_diagram(
                rule,
                Color::White,
                "
                ...........
                ...........
                ...........
                ...........
                ...........
                ...........
                ...........
                .OXXXX.....
                ...........
                ...........
                ...........",
            )
            .expect("diagram");
            board.track_threat_cells();
            let count = answers_to_fives(&mut board, Color::Black, &mut answers);
            let mut found = answers[..count].to_vec();
            found.sort();
            assert_eq!(found, expected, "{rule:?}");
        }
    }

    #[test]
    fn no_fours_no_vcf() {
        // Twos make no four: no VCF.
        assert_eq!(
            solve(&[
                (5, 7),
                (0, 0),
                (6, 7),
                (0, 2),
                (9, 9),
                (0, 4),
                (9, 10),
                (0, 6)
            ]),
            None
        );
        // An open three becomes an open four: a VCF of one four.
        let line = solve(&[(5, 7), (0, 0), (6, 7), (0, 2), (7, 7), (0, 4)]).expect("open four");
        assert_eq!(line.len(), 3, "{line:?}");
    }
}
