//! VCF: victory by continuous fours. The attacker plays only fours; each
//! four leaves the defender one move, the block on its five point. A
//! depth-first search over these lines proves a win or gives up within a
//! node budget.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::movegen::{is_allowed, makes_four};
use crate::board::{Board, Color, Pos, Threat, MAX_MOVES};

/// Most attacker fours in one line of play.
const MAX_FOURS: usize = 40;

/// A VCF search over one position, the side to move attacking.
pub struct Vcf<'a> {
    board: Board,
    stop: &'a AtomicBool,
    deadline: Instant,
    max_nodes: u64,
    nodes: u64,
    aborted: bool,
    line: Vec<Pos>,
}

/// The first cell holding `threat` for `color`, if any.
pub(super) fn find_threat(board: &Board, color: Color, threat: Threat) -> Option<Pos> {
    board
        .cells()
        .find(|&p| board.is_empty(p) && board.threat(p, color) == threat)
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
            stop,
            deadline: start
                .checked_add(time)
                .unwrap_or(start + Duration::from_secs(86_400)),
            max_nodes,
            nodes: 0,
            aborted: false,
            line: Vec::with_capacity(2 * MAX_FOURS + 2),
        }
    }

    /// Nodes searched so far.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// The winning line (attacker and defender moves alternating, ending
    /// with the five) if the side to move wins by fours.
    pub fn solve(&mut self) -> Option<Vec<Pos>> {
        let attacker = self.board.side_to_move();
        if self.attack(attacker, MAX_FOURS) {
            Some(self.line.iter().rev().copied().collect())
        } else {
            None
        }
    }

    fn out_of_budget(&mut self) -> bool {
        if self.nodes & 1023 == 0
            && (self.stop.load(Ordering::Relaxed)
                || Instant::now() >= self.deadline
                || self.nodes >= self.max_nodes)
        {
            self.aborted = true;
        }
        self.aborted
    }

    /// Attacker to move: true if a four-only line wins. On success the
    /// winning line is in `self.line`, last move first.
    fn attack(&mut self, us: Color, fours_left: usize) -> bool {
        self.nodes += 1;
        if self.out_of_budget() {
            return false;
        }
        if let Some(five) = find_threat(&self.board, us, Threat::Five) {
            self.line.push(five);
            return true;
        }
        if fours_left == 0 {
            return false;
        }
        let them = us.opponent();
        // A defender's four must be blocked, and the block must be a four too.
        let forced = match self.board.threat_count(them, Threat::Five) {
            0 => None,
            1 => find_threat(&self.board, them, Threat::Five),
            _ => return false,
        };
        let mut fours = [Pos(0); MAX_MOVES];
        let mut count = 0;
        match forced {
            Some(block) => {
                if makes_four(&self.board, block, us) && is_allowed(&mut self.board, block, us) {
                    fours[0] = block;
                    count = 1;
                }
            }
            None => {
                for y in 0..self.board.height() {
                    for x in 0..self.board.width() {
                        let pos = Pos::new(x, y);
                        if self.board.is_empty(pos)
                            && makes_four(&self.board, pos, us)
                            && is_allowed(&mut self.board, pos, us)
                        {
                            fours[count] = pos;
                            count += 1;
                        }
                    }
                }
                // Strongest fours first (four-threes, double fours).
                fours[..count]
                    .sort_unstable_by_key(|&p| std::cmp::Reverse(self.board.threat(p, us)));
            }
        }
        for &four in &fours[..count] {
            self.board.make(four);
            let won = self.defend(us, fours_left);
            self.board.unmake();
            if won {
                self.line.push(four);
                return true;
            }
            if self.aborted {
                return false;
            }
        }
        false
    }

    /// Defender to move after the attacker's four.
    fn defend(&mut self, us: Color, fours_left: usize) -> bool {
        let them = us.opponent();
        if self.board.threat_count(them, Threat::Five) > 0 {
            return false;
        }
        match self.board.threat_count(us, Threat::Five) {
            0 => false,
            1 => {
                let Some(block) = find_threat(&self.board, us, Threat::Five) else {
                    return false;
                };
                if !is_allowed(&mut self.board, block, them) {
                    // Renju: the only block is forbidden to black.
                    self.line.push(block);
                    return true;
                }
                self.board.make(block);
                let won = self.attack(us, fours_left - 1);
                self.board.unmake();
                if won {
                    self.line.push(block);
                }
                won
            }
            // An open four or a double four: no single block helps.
            _ => {
                let Some(block) = find_threat(&self.board, us, Threat::Five) else {
                    return false;
                };
                self.board.make(block);
                let five = find_threat(&self.board, us, Threat::Five);
                self.board.unmake();
                match five {
                    Some(five) => {
                        self.line.push(five);
                        self.line.push(block);
                        true
                    }
                    None => false,
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rule;

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
