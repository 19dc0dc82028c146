//! VCT: victory by continuous threats. The attacker plays only moves that
//! leave a threat — a four (a five point) or a winning four point (a cell
//! that makes an open four or a double four, which is what an open three
//! threatens) — and the defender tries every answer that could help:
//!
//! - facing a five point: each block of it (none if renju forbids them all;
//!   in caro also the stones that cap the five at its far end);
//! - facing a winning four point: every cell within five steps of such a
//!   point on each line where it makes a four, and every four of the
//!   defender's own (which the attacker must then block). Any other move
//!   leaves the point standing, and the attacker wins by playing it;
//! - a five point of the defender's own ends the line: the defender wins.
//!
//! Attacker nodes run the VCF solver first (a win by fours is a win by
//! threats). The search is a depth-first AND/OR search, iteratively
//! deepened on the number of attacker moves that are not forced blocks,
//! with a table of proved and failed positions keyed by the board hash. A
//! "win" is a proof: every defence was searched; running out of budget or
//! depth only ever turns a win into "not found".

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use super::movegen::{makes_four, order_score};
use super::params::{VCT_LINE_NODES, VCT_LINE_TIME, VCT_MAX_THREATS, VCT_VCF_NODES};
use super::vcf::{answers_to_fives, find_threat, Fours, Quota, Verdict};
use crate::board::{Board, MAX_MOVES};
use crate::rules::is_allowed;
use crate::types::{Color, Pattern, Pos, Rule, Threat, CELLS, DIRECTIONS};

/// Entries in the table of proved and failed positions (16 bytes each).
const TABLE_ENTRIES: usize = 1 << 16;
/// Longest line [`Vct::solve`] reports.
const MAX_LINE: usize = 2 * (VCT_MAX_THREATS as usize + 64);

/// Entry depth of a failure that no depth limit caused.
const UNLIMITED: u32 = u8::MAX as u32;

/// Entry flag: the attacker wins from this position.
const WON: u8 = 1;
/// Entry flag: the win is by fours alone (the VCF solver's line).
const BY_VCF: u8 = 2;
/// Entry flag: `best` holds a move.
const HAS_BEST: u8 = 4;
/// Entry flag: the VCF solver ran here (attacker nodes).
const VCF_TRIED: u8 = 8;
/// Entry flag: that VCF search was complete and found nothing.
const VCF_NONE: u8 = 16;

/// What the table knows about a position.
#[derive(Clone, Copy, Default)]
struct Entry {
    key: u64,
    /// The winning move (attacker node) or the hardest defence (defender node).
    best: Pos,
    /// For a failure: how many attacker moves were allowed.
    depth: u8,
    flags: u8,
}

/// A VCT search over one position, the side to move attacking.
pub struct Vct<'a> {
    board: Board,
    quota: Quota<'a>,
    fours: Fours,
    table: Vec<Entry>,
    /// Per cell: the stamp of the last defence list it joined.
    seen: Vec<u32>,
    stamp: u32,
    /// Whether the depth limit cut the current subtree short.
    cut: bool,
}

impl<'a> Vct<'a> {
    /// A VCT search of `board` that gives up after about `max_nodes` nodes
    /// (its VCF searches included), at `start + time`, or when `stop` is set.
    pub fn new(
        board: &Board,
        stop: &'a AtomicBool,
        start: Instant,
        time: Duration,
        max_nodes: u64,
    ) -> Self {
        let mut board = board.clone();
        board.track_threat_cells();
        Vct {
            board,
            quota: Quota::new(stop, start, time, max_nodes),
            fours: Fours::new(),
            table: vec![Entry::default(); TABLE_ENTRIES],
            seen: vec![0; CELLS],
            stamp: 0,
            cut: false,
        }
    }

    /// Nodes searched so far.
    pub fn nodes(&self) -> u64 {
        self.quota.nodes()
    }

    /// The winning line if the side to move wins by threats: attacker and
    /// defender moves alternating, one representative defence at each
    /// defender turn, ending with the five (or, in renju, with a five point
    /// black may not block). The line can stop short of the five if the
    /// budget ran out while it was being written down; it always starts
    /// with the winning move.
    pub fn solve(&mut self) -> Option<Vec<Pos>> {
        let us = self.board.side_to_move();
        for depth in 0..=VCT_MAX_THREATS {
            self.cut = false;
            if self.attack(us, depth, false) {
                return Some(self.winning_line(us, depth));
            }
            // Stop when no line met the depth limit: more depth adds nothing.
            if self.quota.aborted() || !self.cut {
                break;
            }
        }
        None
    }

    fn slot(&self, key: u64) -> usize {
        key as usize & (TABLE_ENTRIES - 1)
    }

    fn probe(&self, key: u64) -> Option<Entry> {
        let entry = self.table[self.slot(key)];
        (entry.key == key).then_some(entry)
    }

    /// Stores a result unless the search was aborted; a failure never
    /// replaces another position's win (the line is read from the wins). A
    /// failure the depth limit had no part in holds at any depth.
    fn store(&mut self, key: u64, depth: u32, flags: u8, best: Option<Pos>) {
        if self.quota.aborted() {
            return;
        }
        let depth = if self.cut {
            depth.min(UNLIMITED - 1)
        } else {
            UNLIMITED
        };
        let slot = self.slot(key);
        let old = self.table[slot];
        if flags & WON == 0 && old.key != key && old.flags & WON != 0 {
            return;
        }
        let keep = if old.key == key {
            old.flags & (VCF_TRIED | VCF_NONE)
        } else {
            0
        };
        self.table[slot] = Entry {
            key,
            best: best.unwrap_or_default(),
            depth: depth as u8,
            flags: flags | keep | if best.is_some() { HAS_BEST } else { 0 },
        };
    }

    /// Attacker (`us`) to move with `depth` free threat moves left: true if
    /// the attacker wins by threats. `vcf_none` says a complete VCF search
    /// from an earlier position already covered this one and failed.
    fn attack(&mut self, us: Color, depth: u32, vcf_none: bool) -> bool {
        let outer = std::mem::replace(&mut self.cut, false);
        let won = self.attack_node(us, depth, vcf_none);
        self.cut |= outer;
        won
    }

    fn attack_node(&mut self, us: Color, depth: u32, vcf_none: bool) -> bool {
        if self.quota.tick() {
            return false;
        }
        let them = us.opponent();
        if self.board.threat_count(us, Threat::Five) > 0 {
            return true;
        }
        let their_fives = self.board.threat_count(them, Threat::Five);
        if their_fives >= 2 {
            return false;
        }
        let key = self.board.hash();
        if their_fives == 0 {
            if let Some(point) = winning_four_point(&mut self.board, us) {
                self.store(key, depth, WON, Some(point));
                return true;
            }
        }
        let mut vcf_flags = 0;
        if let Some(entry) = self.probe(key) {
            if entry.flags & WON != 0 {
                return true;
            }
            if u32::from(entry.depth) >= depth {
                self.cut |= u32::from(entry.depth) < UNLIMITED;
                return false;
            }
            vcf_flags = entry.flags & (VCF_TRIED | VCF_NONE);
        }
        if vcf_none {
            vcf_flags = VCF_TRIED | VCF_NONE;
        }
        if vcf_flags & VCF_TRIED == 0 {
            match self
                .fours
                .run(&mut self.board, &mut self.quota, VCT_VCF_NODES)
            {
                Verdict::Win => {
                    let first = self.fours.line().next();
                    self.store(key, depth, WON | BY_VCF, first);
                    return true;
                }
                Verdict::NoWin => vcf_flags = VCF_TRIED | VCF_NONE,
                Verdict::GaveUp if self.quota.aborted() => return false,
                Verdict::GaveUp => vcf_flags = VCF_TRIED,
            }
        }
        let vcf_none = vcf_flags & VCF_NONE != 0;

        let mut moves = [Pos(0); MAX_MOVES];
        let mut count = 0;
        let forced = their_fives == 1;
        if forced {
            // Their four must be blocked; the block must keep a threat.
            match find_threat(&self.board, them, Threat::Five) {
                Some(block) if is_allowed(&mut self.board, block, us) => {
                    moves[0] = block;
                    count = 1;
                }
                _ => {}
            }
        } else if depth > 0 {
            count = self.threat_moves(us, &mut moves);
        } else {
            self.cut |= self.any_threat_move(us);
        }
        // A forced block costs no depth: it is not a free choice.
        let child_depth = if forced {
            depth
        } else {
            depth.saturating_sub(1)
        };
        for &m in &moves[..count] {
            let four = makes_four(&self.board, m, us);
            self.board.make(m);
            let won = self.is_threat(us) && self.defend(us, child_depth, four && vcf_none);
            self.board.unmake();
            if won {
                self.store(key, depth, WON | vcf_flags, Some(m));
                return true;
            }
            if self.quota.aborted() {
                return false;
            }
        }
        self.store(key, depth, vcf_flags, None);
        false
    }

    /// Fills `moves` with the attacker's candidate threats, best first: the
    /// allowed moves that make a four or an open three on some line.
    fn threat_moves(&mut self, us: Color, moves: &mut [Pos; MAX_MOVES]) -> usize {
        let mut count = 0;
        for p in self.board.three_cells(us).iter() {
            if is_allowed(&mut self.board, p, us) {
                moves[count] = p;
                count += 1;
            }
        }
        let board = &self.board;
        moves[..count].sort_unstable_by_key(|&p| {
            (
                std::cmp::Reverse(board.threat(p, us)),
                std::cmp::Reverse(order_score(board, p, us)),
                p,
            )
        });
        count
    }

    /// Whether `us` has a move that makes a four or an open three on some
    /// line (allowed or not).
    fn any_threat_move(&self, us: Color) -> bool {
        !self.board.three_cells(us).is_empty()
    }

    /// Whether `us` (who just moved) threatens to win: a five point, or a
    /// winning four point.
    fn is_threat(&mut self, us: Color) -> bool {
        self.board.threat_count(us, Threat::Five) > 0
            || winning_four_point(&mut self.board, us).is_some()
    }

    /// Defender to move after the attacker's threat: true if every defence
    /// loses. `vcf_none`: the attacker's move was a four and a complete VCF
    /// search before it failed, so after the only block it fails again.
    fn defend(&mut self, us: Color, depth: u32, vcf_none: bool) -> bool {
        let outer = std::mem::replace(&mut self.cut, false);
        let won = self.defend_node(us, depth, vcf_none);
        self.cut |= outer;
        won
    }

    fn defend_node(&mut self, us: Color, depth: u32, vcf_none: bool) -> bool {
        if self.quota.tick() {
            return false;
        }
        let them = us.opponent();
        if self.board.threat_count(them, Threat::Five) > 0 {
            return false;
        }
        let key = self.board.hash();
        if let Some(entry) = self.probe(key) {
            if entry.flags & WON != 0 {
                return true;
            }
            if u32::from(entry.depth) >= depth {
                self.cut |= u32::from(entry.depth) < UNLIMITED;
                return false;
            }
        }
        let mut moves = [Pos(0); MAX_MOVES];
        let our_fives = self.board.threat_count(us, Threat::Five);
        let count = if our_fives > 0 {
            answers_to_fives(&mut self.board, us, &mut moves)
        } else {
            self.three_defences(us, &mut moves)
        };
        if count == 0 {
            // Nothing stops the five, or (never) no threat at all.
            let won = our_fives > 0;
            self.store(key, depth, if won { WON } else { 0 }, None);
            return won;
        }
        let vcf_none = vcf_none && our_fives == 1;
        let mut hardest = (0, moves[0]);
        for &m in &moves[..count] {
            let before = self.quota.nodes();
            self.board.make(m);
            let won = self.attack(us, depth, vcf_none);
            self.board.unmake();
            if !won {
                self.store(key, depth, 0, None);
                return false;
            }
            let spent = self.quota.nodes() - before;
            if spent > hardest.0 {
                hardest = (spent, m);
            }
        }
        self.store(key, depth, WON, Some(hardest.1));
        true
    }

    /// Fills `moves` with the defender's answers to `us`'s winning four
    /// points, most promising first: the cells within five steps of each
    /// point on every line where it makes a four, and every four of the
    /// defender's own. Any other move leaves a winning four point standing.
    fn three_defences(&mut self, us: Color, moves: &mut [Pos; MAX_MOVES]) -> usize {
        let them = us.opponent();
        self.stamp = self.stamp.wrapping_add(1);
        let stamp = self.stamp;
        let mut count = 0;
        for point in self.board.four_cells(us).iter() {
            if self.board.threat(point, us) != Threat::Flex4
                || !four_point_wins(&mut self.board, point, us)
            {
                continue;
            }
            for (d, &dir) in DIRECTIONS.iter().enumerate() {
                if self.board.pattern(point, us, d) < Pattern::Block4 {
                    continue;
                }
                for k in -5..=5 {
                    let q = point.step(dir, k);
                    if self.board.is_empty(q) && self.seen[q.index()] != stamp {
                        self.seen[q.index()] = stamp;
                        if is_allowed(&mut self.board, q, them) {
                            moves[count] = q;
                            count += 1;
                        }
                    }
                }
            }
        }
        if count == 0 {
            return 0;
        }
        for q in self.board.four_cells(them).iter() {
            if self.seen[q.index()] != stamp
                && makes_four(&self.board, q, them)
                && is_allowed(&mut self.board, q, them)
            {
                moves[count] = q;
                count += 1;
            }
        }
        let board = &self.board;
        moves[..count]
            .sort_unstable_by_key(|&q| (std::cmp::Reverse(order_score(board, q, them)), q));
        count
    }

    /// Writes down the proved win: follows the table's winning moves and
    /// hardest defences (proving again where an entry was overwritten) and
    /// ends with the VCF solver's line or the five.
    fn winning_line(&mut self, us: Color, depth: u32) -> Vec<Pos> {
        // The proof may have used up the budget; proving again where the
        // table lost an entry gets a little more.
        self.quota.renew(VCT_LINE_NODES, VCT_LINE_TIME);
        let mut line = Vec::new();
        let start = self.board.move_count();
        while line.len() < MAX_LINE {
            // Attacker to move.
            if let Some(five) = find_threat(&self.board, us, Threat::Five) {
                line.push(five);
                break;
            }
            let key = self.board.hash();
            let mut entry = self.probe(key).filter(|e| e.flags & WON != 0);
            if entry.is_none() && self.attack(us, depth, false) {
                entry = self.probe(key).filter(|e| e.flags & WON != 0);
            }
            let Some(entry) = entry.filter(|e| e.flags & HAS_BEST != 0) else {
                break;
            };
            if entry.flags & BY_VCF != 0 {
                if self.fours.run(&mut self.board, &mut self.quota, u64::MAX) == Verdict::Win {
                    line.extend(self.fours.line());
                }
                break;
            }
            line.push(entry.best);
            self.board.make(entry.best);
            // Defender to move.
            let key = self.board.hash();
            let mut entry = self.probe(key).filter(|e| e.flags & WON != 0);
            if entry.is_none() && self.defend(us, depth, false) {
                entry = self.probe(key).filter(|e| e.flags & WON != 0);
            }
            match entry {
                Some(e) if e.flags & HAS_BEST != 0 => {
                    line.push(e.best);
                    self.board.make(e.best);
                }
                // Nothing stops the five points (an open or double four,
                // or every block forbidden to black): the attacker plays one.
                Some(_) => {
                    line.extend(find_threat(&self.board, us, Threat::Five));
                    break;
                }
                None => break,
            }
        }
        while self.board.move_count() > start {
            self.board.unmake();
        }
        line
    }
}

/// Whether a stone of `us` on the Flex4-class cell `point` wins against a
/// defender without a five point: true unless capping a five at its far end
/// stops it (caro), which is tried.
fn four_point_wins(board: &mut Board, point: Pos, us: Color) -> bool {
    if !matches!(board.rule(), Rule::Caro | Rule::CaroExact) {
        return true;
    }
    let side = board.side_to_move();
    board.set_side_to_move(us);
    board.make(point);
    let mut answers = [Pos(0); MAX_MOVES];
    let wins = answers_to_fives(board, us, &mut answers) == 0;
    board.unmake();
    board.set_side_to_move(side);
    wins
}

/// A cell where a stone of `us` makes an open four or a double four that
/// wins against a defender without a five point, if any.
fn winning_four_point(board: &mut Board, us: Color) -> Option<Pos> {
    if board.threat_count(us, Threat::Flex4) == 0 {
        return None;
    }
    board
        .four_cells(us)
        .iter()
        .find(|&p| board.threat(p, us) == Threat::Flex4 && four_point_wins(board, p, us))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::vcf::Vcf;

    /// Solves `picture` (`X` black, `O` white, `.` empty) with the side
    /// `to_move` attacking; returns the line and the board.
    fn solve(rule: Rule, to_move: Color, picture: &str) -> (Option<Vec<Pos>>, Board, u64) {
        let (board, _) = Board::from_diagram(rule, to_move, picture).expect("diagram");
        let stop = AtomicBool::new(false);
        let mut vct = Vct::new(
            &board,
            &stop,
            Instant::now(),
            Duration::from_secs(60),
            200_000,
        );
        let line = vct.solve();
        (line, board, vct.nodes())
    }

    fn vcf(board: &Board) -> Option<Vec<Pos>> {
        let stop = AtomicBool::new(false);
        Vcf::new(
            board,
            &stop,
            Instant::now(),
            Duration::from_secs(60),
            200_000,
        )
        .solve()
    }

    /// Plays `line` on `board`: every move on an empty cell, the last one a
    /// five of the side that moved first.
    fn assert_line_wins(board: &Board, line: &[Pos]) {
        let mut board = board.clone();
        let attacker = board.side_to_move();
        let (last, moves) = line.split_last().expect("a line");
        for &p in moves {
            assert!(board.is_empty(p), "{p} taken in {line:?}");
            board.make(p);
        }
        assert_eq!(
            board.threat(*last, attacker),
            Threat::Five,
            "{line:?}\n{board:?}"
        );
    }

    const THREE_THREE: &str = "
        ...............
        ...............
        ...............
        ...............
        ...............
        .......X.......
        .......X.......
        .....XX........
        ...............
        ...............
        ...............
        ..O........O...
        ...............
        ...............
        ...............";

    #[test]
    fn double_three_is_a_win_by_threats_not_by_fours() {
        let (line, board, _) = solve(Rule::Freestyle, Color::Black, THREE_THREE);
        assert_eq!(vcf(&board), None, "no four at all");
        let line = line.expect("the double three at 7,7 wins");
        assert_eq!(line[0], Pos::new(7, 7), "{line:?}");
        assert_line_wins(&board, &line);
    }

    #[test]
    fn renju_black_wins_without_the_forbidden_double_three() {
        // Under renju 7,7 is a forbidden double three, but black still wins
        // by threats from 6,6 (scripts/prove.py: with three threes). No
        // black move of the line may be forbidden.
        let (line, board, _) = solve(Rule::Renju, Color::Black, THREE_THREE);
        let line = line.expect("a win by threats");
        assert_line_wins(&board, &line);
        let mut board = board;
        for &p in &line {
            if board.side_to_move() == Color::Black {
                assert!(is_allowed(&mut board, p, Color::Black), "{p} in {line:?}");
            }
            board.make(p);
        }
        assert_ne!(line[0], Pos::new(7, 7));
    }

    #[test]
    fn nothing_to_threaten_costs_almost_nothing() {
        let (line, _, nodes) = solve(
            Rule::Freestyle,
            Color::Black,
            "
            .........
            .........
            ...X.....
            .....O...
            ....X....
            ...O.....
            .........
            .........
            .........",
        );
        assert_eq!(line, None);
        assert!(nodes < 10, "{nodes} nodes");
    }

    #[test]
    fn a_three_is_too_slow_against_their_open_three() {
        // Black's double three at 7,7 would win, but white's open three on
        // row 12 becomes an open four first; black has no four to stop it.
        let (line, _, _) = solve(
            Rule::Freestyle,
            Color::Black,
            "
            ...............
            ...............
            ...............
            ...............
            ...............
            .......X.......
            .......X.......
            .....XX........
            ...............
            ...............
            ...............
            ..O........O...
            .....OOO.......
            ...............
            ...............",
        );
        assert_eq!(line, None);
    }

    #[test]
    fn the_defender_four_must_be_answered() {
        // The same double three, but white has a closed three on column 13
        // that becomes a four (13,9 or 13,13): white answers the double
        // three with fours, and its four-three at 13,13 (row 13 three)
        // wins. Black has no win by threats.
        let (line, _, _) = solve(
            Rule::Freestyle,
            Color::Black,
            "
            ...............
            ...............
            ...............
            ...............
            ...............
            .......X.......
            .......X.......
            .....XX........
            .............X.
            .............O.
            .............O.
            ..O..........O.
            ...............
            ..........OO...
            ...............",
        );
        assert_eq!(line, None);
    }

    #[test]
    fn caro_open_four_spoiled_by_a_far_block() {
        // Row 7: O at 1, black 3, 4, 5; black 6 makes 3..6 with five points
        // 2 and 7, but white 7 leaves 2..6 capped by white at both ends, no
        // caro five. In freestyle the same open four wins.
        let picture = "
            ...........
            ...........
            ...........
            ...........
            ...........
            ...........
            ...........
            .O.XXX.....
            ...........
            ...........
            ...........";
        let (line, board, _) = solve(Rule::Freestyle, Color::Black, picture);
        let line = line.expect("freestyle: 6,7 or 2,7 makes an open four");
        assert_line_wins(&board, &line);
        let (line, _, _) = solve(Rule::CaroExact, Color::Black, picture);
        assert_eq!(line, None);
    }

    #[test]
    fn renju_white_wins_when_black_may_not_block() {
        // Black's row XXX.XX makes 7,7 an overline point for black. White
        // four on column 7 (capped by X at 7,2) at 7,6 forces black onto
        // 7,7: white wins with one four.
        let (line, board, _) = solve(
            Rule::Renju,
            Color::White,
            "
            ...............
            ...............
            .......X.......
            .......O.......
            .......O.......
            .......O.......
            ...............
            ....XXX.XX.....
            ...............
            ...............
            ..O............
            ...............
            ...............
            ...............
            ...............",
        );
        let line = line.expect("white wins");
        assert_eq!(line[0], Pos::new(7, 6), "{line:?}");
        assert_eq!(
            line.len(),
            2,
            "the four, then the five black may not block: {line:?}"
        );
        let mut board = board;
        board.make(line[0]);
        assert_eq!(board.threat(line[1], Color::White), Threat::Five);
        assert!(!is_allowed(&mut board, line[1], Color::Black));
    }
}
