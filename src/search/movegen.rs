//! Move generation with the forced-move rules, and move ordering.
//!
//! - Facing a five point of the opponent: only the blocks.
//! - Facing an open three (the opponent can make an open four): our own
//!   fours, and the cells where the opponent would make a four on a line
//!   through one of its winning four points (the defences).
//! - Otherwise: every empty cell within two cells of a stone.
//!
//! Renju's black never gets a forbidden point.

use crate::board::{Board, MAX_MOVES};
use crate::rules::is_allowed;
use crate::types::{Color, Pos, Threat, DIRECTIONS};

/// A candidate move with its ordering score.
#[derive(Clone, Copy, Debug, Default)]
pub struct ScoredMove {
    /// The cell to play.
    pub pos: Pos,
    /// Higher is searched first.
    pub score: i32,
}

/// A fixed-capacity move list (no allocation).
#[derive(Clone)]
pub struct MoveList {
    moves: [ScoredMove; MAX_MOVES],
    len: usize,
    /// Room for the moves' [sort keys](order_key) while [`MoveList::pick`]
    /// sorts them, so that sorting allocates nothing.
    keys: [u64; MAX_MOVES],
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList {
            moves: [ScoredMove::default(); MAX_MOVES],
            len: 0,
            keys: [0; MAX_MOVES],
        }
    }
}

impl MoveList {
    /// The moves, in their current order.
    pub fn as_slice(&self) -> &[ScoredMove] {
        &self.moves[..self.len]
    }

    /// The moves, for reordering.
    pub fn as_mut_slice(&mut self) -> &mut [ScoredMove] {
        &mut self.moves[..self.len]
    }

    /// Number of moves.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there are no moves.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Keeps only the moves for which `keep` holds.
    pub fn retain(&mut self, mut keep: impl FnMut(Pos) -> bool) {
        let mut kept = 0;
        for i in 0..self.len {
            if keep(self.moves[i].pos) {
                self.moves[kept] = self.moves[i];
                kept += 1;
            }
        }
        self.len = kept;
    }

    /// Empties the list.
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Appends a move with its ordering score.
    #[inline]
    pub fn push(&mut self, pos: Pos, score: i32) {
        self.moves[self.len] = ScoredMove { pos, score };
        self.len += 1;
    }

    /// Gives `first` (if present) the top score, so it is searched first.
    pub fn put_first(&mut self, first: Option<Pos>) {
        if let Some(m) = self
            .as_mut_slice()
            .iter_mut()
            .find(|m| Some(m.pos) == first)
        {
            m.score = i32::MAX;
        }
    }

    /// The move to search `i`-th: called with `i` = 0, 1, 2, … in turn, it
    /// gives the order of a stable sort, best first. The first is picked
    /// alone (a cut-off often needs no other); at the second the rest are
    /// sorted at once (a node that needs two moves mostly needs them all).
    #[inline]
    pub fn pick(&mut self, i: usize) -> Pos {
        match i {
            0 => {
                // The best move comes first (the earliest one on ties), the
                // others keeping their order.
                let moves = self.as_mut_slice();
                let (mut best, mut best_score) = (0, moves[0].score);
                for (j, m) in moves.iter().enumerate() {
                    if m.score > best_score {
                        (best, best_score) = (j, m.score);
                    }
                }
                moves[..=best].rotate_right(1);
            }
            1 => {
                // The rest came in the order of the board's cells, as
                // generated: sorted by their keys, which tell equal scores
                // apart by that order, they are in the stable order.
                let rest = &mut self.moves[1..self.len];
                debug_assert!(rest.is_sorted_by_key(|m| m.pos));
                let keys = &mut self.keys[..rest.len()];
                for (key, &m) in keys.iter_mut().zip(rest.iter()) {
                    *key = order_key(m);
                }
                keys.sort_unstable();
                for (&key, m) in keys.iter().zip(rest.iter_mut()) {
                    *m = from_order_key(key);
                }
            }
            _ => {}
        }
        self.moves[i].pos
    }

    /// Sorts by score, best first, with `first` (if present) at the front.
    pub fn sort(&mut self, first: Option<Pos>) {
        self.put_first(first);
        insertion_sort(self.as_mut_slice());
    }
}

/// The sort key of a move: ascending keys put the best score first and
/// equal scores in the order of the board's cells. The move reads back
/// from its key ([`from_order_key`]).
#[inline]
fn order_key(m: ScoredMove) -> u64 {
    // The score's distance below 2^31, from 1 to 2^32, above the cell.
    ((((1i64 << 31) - i64::from(m.score)) as u64) << 16) | u64::from(m.pos.0)
}

/// The move whose [sort key](order_key) `key` is.
#[inline]
fn from_order_key(key: u64) -> ScoredMove {
    ScoredMove {
        pos: Pos(key as u16),
        score: ((1i64 << 31) - (key >> 16) as i64) as i32,
    }
}

/// Sorts moves by score, best first, keeping the order of equal scores:
/// allocation-free and fast on short lists.
fn insertion_sort(moves: &mut [ScoredMove]) {
    for i in 1..moves.len() {
        let m = moves[i];
        let mut j = i;
        while j > 0 && moves[j - 1].score < m.score {
            moves[j] = moves[j - 1];
            j -= 1;
        }
        moves[j] = m;
    }
}

/// Which cells the side to move must choose among.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Situation {
    /// The opponent threatens to make a five: block it.
    FacingFour,
    /// The opponent threatens to make an open four.
    FacingThree,
    /// Nothing forces the choice.
    Free,
}

/// The situation of the side to move.
#[inline]
pub fn situation(board: &Board) -> Situation {
    let them = board.side_to_move().opponent();
    if board.threat_count(them, Threat::Five) > 0 {
        Situation::FacingFour
    } else if board.threat_count(them, Threat::Flex4) > 0 {
        Situation::FacingThree
    } else {
        Situation::Free
    }
}

/// The ordering score of `pos` for the side to move `us`: the policy
/// tables' score for our code there plus that for the opponent's code there
/// (what playing it denies).
#[inline]
pub fn order_score(board: &Board, pos: Pos, us: Color) -> i32 {
    let them = us.opponent();
    board.policies(us)[board.code(pos, us)][0] + board.policies(them)[board.code(pos, them)][1]
}

/// Whether a stone of `color` on `pos` makes a four or better on some line.
#[inline]
pub fn makes_four(board: &Board, pos: Pos, color: Color) -> bool {
    board.four_lines(pos, color) != 0
}

/// Whether a stone on `pos` may take away a winning four point of `them`
/// (a cell that gives `them` an open or a double four): `pos` is a cell
/// where `them` would make a four on a line that holds such a point within
/// five cells. A move anywhere else leaves every such point standing. The
/// cell is judged by line, not by class: a point forbidden to renju's black
/// can still be the one that breaks black's three.
#[inline]
pub fn defends_four_point(board: &Board, pos: Pos, them: Color) -> bool {
    let fours = board.four_lines(pos, them);
    fours != 0
        && DIRECTIONS.iter().enumerate().any(|(d, &dir)| {
            fours & (1 << d) != 0
                && (-5..=5).any(|k| {
                    let p = pos.step(dir, k);
                    board.is_empty(p)
                        && board.threat(p, them) == Threat::Flex4
                        && board.four_lines(p, them) & (1 << d) != 0
                })
        })
}

/// How far from its nearest stone a cell may have a threat class above
/// [`Threat::None`]: a stone there makes at least a two only with a stone of
/// its colour within four cells on one line.
pub const THREAT_REACH: usize = 4;

/// How far from its nearest stone a cell counts as a neighbour
/// ([`Board::has_neighbour`]).
const NEIGHBOURHOOD: usize = 2;

/// Fills `list` with the moves the side to move should consider, scored for
/// ordering but not sorted.
pub fn generate(board: &mut Board, list: &mut MoveList) {
    list.len = 0;
    let us = board.side_to_move();
    let them = us.opponent();
    // One scan per situation, so that each loop tests only its own cells.
    match situation(board) {
        Situation::FacingFour => {
            // The scan ends at the last of the opponent's five points.
            let five_points = board.threat_count(them, Threat::Five);
            collect(board, list, THREAT_REACH, five_points, |board, pos| {
                board.threat(pos, them) == Threat::Five
            })
        }
        Situation::FacingThree => collect(board, list, THREAT_REACH, usize::MAX, |board, pos| {
            // Both tests want a four on some line: one look passes most
            // cells by.
            board.makes_any_four(pos)
                && (board.threat(pos, us) >= Threat::Four || defends_four_point(board, pos, them))
        }),
        Situation::Free => collect(board, list, NEIGHBOURHOOD, usize::MAX, |board, pos| {
            board.has_neighbour(pos)
        }),
    }
}

/// Pushes onto `list`, row by row, the empty cells within `margin` cells of
/// the stones that are `wanted` and allowed to the side to move, with their
/// ordering scores; the scan ends at the `limit`-th wanted cell.
#[inline(always)]
fn collect(
    board: &mut Board,
    list: &mut MoveList,
    margin: usize,
    limit: usize,
    wanted: impl Fn(&Board, Pos) -> bool,
) {
    let us = board.side_to_move();
    scan_near_stones(board, margin, limit, wanted, |board, pos| {
        if is_allowed(board, pos, us) {
            list.push(pos, order_score(board, pos, us));
        }
    });
}

/// Calls `visit` on the empty cells within `margin` cells of the stones
/// that are `wanted`, row by row (the order of [`Board::cells`]), and stops
/// after the `limit`-th: a caller that knows from the threat counts how
/// many such cells there are need not scan the rest of the board.
#[inline(always)]
pub fn scan_near_stones(
    board: &mut Board,
    margin: usize,
    mut limit: usize,
    wanted: impl Fn(&Board, Pos) -> bool,
    mut visit: impl FnMut(&mut Board, Pos),
) {
    let (rows, columns) = board.near_stones(margin);
    for y in rows {
        for x in columns.clone() {
            let pos = Pos::new(x, y);
            if !board.is_empty(pos) || !wanted(board, pos) {
                continue;
            }
            visit(board, pos);
            limit -= 1;
            if limit == 0 {
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Rule;

    /// The cells `generate` offers the side to move in `picture`, and the
    /// cells the picture marks `a`, both row by row.
    fn moves_and_marks(rule: Rule, to_move: Color, picture: &str) -> (Vec<Pos>, Vec<Pos>) {
        let (mut board, marks) = Board::from_diagram(rule, to_move, picture).unwrap();
        let mut list = MoveList::default();
        generate(&mut board, &mut list);
        let mut moves: Vec<Pos> = list.as_slice().iter().map(|m| m.pos).collect();
        moves.sort_by_key(|p| (p.y(), p.x()));
        let marked = marks.iter().filter(|m| m.0 == 'a').map(|m| m.1).collect();
        (moves, marked)
    }

    /// Asserts that the moves are exactly the `a` cells.
    fn assert_moves(rule: Rule, to_move: Color, picture: &str) {
        let (moves, marked) = moves_and_marks(rule, to_move, picture);
        assert_eq!(moves, marked, "{rule:?}, {to_move:?} to move:{picture}");
    }

    #[test]
    fn empty_board_has_no_candidates_and_one_stone_its_surroundings() {
        let mut board = Board::new(15, 15, Rule::Freestyle);
        let mut list = MoveList::default();
        generate(&mut board, &mut list);
        // The search plays the first move itself (the cell nearest the centre).
        assert!(list.is_empty());
        board.make(Pos::new(7, 7));
        generate(&mut board, &mut list);
        assert_eq!(list.len(), 24, "the 5x5 square around the stone");
        for m in list.as_slice() {
            let (dx, dy) = (m.pos.x().abs_diff(7), m.pos.y().abs_diff(7));
            assert!(dx <= 2 && dy <= 2 && m.pos != Pos::new(7, 7), "{}", m.pos);
        }
    }

    #[test]
    fn facing_a_four_only_the_block() {
        // White's four on row 3 has one five point; black's open three on
        // row 9 and everything else must wait.
        assert_moves(
            Rule::Freestyle,
            Color::Black,
            "
            ...............
            ...............
            ...............
            ..XOOOOa.......
            ...............
            ...............
            ...............
            ...............
            ...............
            ......XXX......
            ...............
            ...............
            ...............
            ...............
            ...............",
        );
    }

    #[test]
    fn facing_an_open_four_both_ends() {
        assert_moves(
            Rule::Freestyle,
            Color::Black,
            "
            ...............
            ...............
            ...............
            ...............
            ...............
            ...X...........
            ...............
            ....aOOOOa.....
            ...............
            ..........X....
            ...............
            ...............
            ...............
            ...............
            ...............",
        );
    }

    #[test]
    fn facing_an_open_three_the_defences_and_our_fours() {
        // White's open three (6..8, 7): the four cells that give white a
        // four. Black's capped three on row 11: its two four cells.
        assert_moves(
            Rule::Freestyle,
            Color::Black,
            "
            ...............
            ...............
            ...............
            ...............
            ...............
            ...............
            ...............
            ....aaOOOaa....
            ...............
            ...............
            ...............
            ...OXXXaa......
            ...............
            ...............
            ...............",
        );
    }

    #[test]
    fn facing_a_three_the_other_lines_fours_are_no_defence() {
        // White's open three on row 7 and closed three on row 1: only the
        // open three's four cells defend; the closed three can wait.
        assert_moves(
            Rule::Freestyle,
            Color::Black,
            "
            ...............
            XOOO...........
            ...............
            ...............
            ...............
            ...............
            ...............
            ....aaOOOaa....
            ...............
            ...............
            ...............
            ...X...........
            ...............
            ...............
            ...............",
        );
    }

    #[test]
    fn facing_a_double_four_point_the_cells_of_both_fours() {
        // 6,5 gives white two fours (row 5 and column 6): black must take
        // it or spoil one of the fours; white's closed three on row 12 is
        // no defence.
        assert_moves(
            Rule::Freestyle,
            Color::Black,
            "
            ...............
            ...............
            ...............
            ...............
            ......a........
            .XOOOaa........
            ......O........
            ......O........
            ......O........
            ......X........
            ...............
            ...............
            .........XOOO..
            ...............
            ...............",
        );
    }

    /// Black's two open twos meet at 7,7: a double three, forbidden in renju.
    const DOUBLE_THREE: &str = "
        ...............
        ...............
        ...............
        ...............
        ...............
        .......X.......
        .......X.......
        .....XX*.......
        ...............
        ...............
        ...............
        ..O........O...
        ...............
        ...............
        ...............";

    #[test]
    fn renju_black_never_gets_a_forbidden_point() {
        let star = Pos::new(7, 7);
        let (free, _) = moves_and_marks(Rule::Freestyle, Color::Black, DOUBLE_THREE);
        let (renju, _) = moves_and_marks(Rule::Renju, Color::Black, DOUBLE_THREE);
        assert!(free.contains(&star));
        assert!(!renju.contains(&star));
        let others: Vec<Pos> = free.into_iter().filter(|&p| p != star).collect();
        assert_eq!(renju, others, "only the forbidden point is left out");
        // White may play there.
        let (white, _) = moves_and_marks(Rule::Renju, Color::White, DOUBLE_THREE);
        assert!(white.contains(&star));
    }

    #[test]
    fn renju_black_has_no_move_when_the_only_block_is_forbidden() {
        // White's column four's five point 7,7 is an overline point for
        // black (XXX.XX on row 7): black may not block it.
        let picture = "
            ...............
            ...............
            .......X.......
            .......O.......
            .......O.......
            .......O.......
            .......O.......
            ....XXX*XX.....
            ...............
            ...............
            ..O............
            ...............
            ...............
            ...............
            ...............";
        let (renju, _) = moves_and_marks(Rule::Renju, Color::Black, picture);
        assert!(renju.is_empty(), "{renju:?}");
        let (free, _) = moves_and_marks(Rule::Freestyle, Color::Black, picture);
        assert_eq!(free, vec![Pos::new(7, 7)]);
    }

    #[test]
    fn pick_and_sort_give_a_stable_best_first_order() {
        let mut list = MoveList::default();
        for (i, score) in [3, 7, 3, 9, 7].into_iter().enumerate() {
            list.push(Pos::new(i, 0), score);
        }
        let mut picked = list.clone();
        let order: Vec<usize> = (0..picked.len()).map(|i| picked.pick(i).x()).collect();
        assert_eq!(order, [3, 1, 4, 0, 2]);
        for m in [
            ScoredMove {
                pos: Pos::new(21, 21),
                score: i32::MIN,
            },
            ScoredMove {
                pos: Pos::new(0, 0),
                score: i32::MAX,
            },
            ScoredMove {
                pos: Pos::new(3, 4),
                score: -5,
            },
        ] {
            assert_eq!(from_order_key(order_key(m)).pos, m.pos);
            assert_eq!(from_order_key(order_key(m)).score, m.score);
        }
        list.sort(Some(Pos::new(2, 0)));
        let sorted: Vec<usize> = list.as_slice().iter().map(|m| m.pos.x()).collect();
        assert_eq!(sorted, [2, 3, 1, 4, 0]);
        list.retain(|p| p.x() % 2 == 0);
        assert_eq!(list.len(), 3);
    }
}
