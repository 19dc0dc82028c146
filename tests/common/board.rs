//! Positions for the in-process tests: cells and sides as the data files
//! write them, boards from move lists and diagrams, and the fixed-budget
//! search the tactical tests run (no clock, so results are deterministic).

use std::sync::atomic::AtomicBool;

use wuzi::board::{Board, Cell};
use wuzi::search::tt::Tt;
use wuzi::search::{Limits, SearchResult, Searcher};
use wuzi::types::{Color, Pos, Rule};

/// Transposition-table size of [`search`].
const TT_BYTES: usize = 16 << 20;

/// A cell written `x,y` (0-based, x = column).
pub fn parse_pos(token: &str) -> Pos {
    let (x, y) = token
        .split_once(',')
        .unwrap_or_else(|| panic!("bad coordinate {token:?}"));
    let number = |n: &str| {
        n.trim()
            .parse()
            .unwrap_or_else(|_| panic!("bad coordinate {token:?}"))
    };
    Pos::new(number(x), number(y))
}

/// A side written `black` or `white`.
pub fn parse_color(word: &str) -> Color {
    match word {
        "black" => Color::Black,
        "white" => Color::White,
        other => panic!("bad side {other:?}"),
    }
}

/// A board from a move list in play order, black first; `pass` skips a turn.
pub fn board_from_moves(rule: Rule, size: usize, moves: &str) -> Board {
    Board::from_moves(rule, size, moves).unwrap_or_else(|e| panic!("{e} in {moves:?}"))
}

/// The stones of `color` on `board`, row by row.
pub fn stones(board: &Board, color: Color) -> Vec<Pos> {
    board
        .cells()
        .filter(|&p| board.cell(p) == Cell::Stone(color))
        .collect()
}

/// A position drawn as a diagram (`Board::from_diagram`: `X` / `O` stones,
/// `.` empty, any other character an empty cell recorded as a mark).
pub struct Diagram {
    /// The stones, with the given side to move.
    pub board: Board,
    /// The marked empty cells, by mark character, row by row.
    pub marks: Vec<(char, Pos)>,
}

impl Diagram {
    /// Parses `picture` under `rule` with `to_move` to play.
    pub fn new(rule: Rule, to_move: Color, picture: &str) -> Diagram {
        let (board, marks) = Board::from_diagram(rule, to_move, picture)
            .unwrap_or_else(|e| panic!("{e}:\n{picture}"));
        Diagram { board, marks }
    }

    /// The cells marked `mark`.
    pub fn marked(&self, mark: char) -> Vec<Pos> {
        self.marks
            .iter()
            .filter(|&&(c, _)| c == mark)
            .map(|&(_, p)| p)
            .collect()
    }

    /// The one cell marked `mark`.
    pub fn the(&self, mark: char) -> Pos {
        let cells = self.marked(mark);
        assert_eq!(cells.len(), 1, "the diagram needs exactly one {mark:?}");
        cells[0]
    }

    /// Panics on a mark that is not one of `known`.
    pub fn check_marks(&self, known: &str) {
        if let Some((other, _)) = self.marks.iter().find(|(c, _)| !known.contains(*c)) {
            panic!("unknown diagram character {other:?}");
        }
    }
}

/// Searches `board` to `depth` within `nodes` nodes (0: no limit), with a
/// fresh table and no clock.
pub fn search(board: &Board, depth: i32, nodes: u64) -> SearchResult {
    search_with(board, depth, nodes, |searcher| searcher)
}

/// [`search`] with the searcher set up by `configure` first (threads, the
/// switches of the root solvers and the safety check).
pub fn search_with(
    board: &Board,
    depth: i32,
    nodes: u64,
    configure: impl FnOnce(Searcher) -> Searcher,
) -> SearchResult {
    let mut tt = Tt::new(TT_BYTES);
    let stop = AtomicBool::new(false);
    let limits = Limits {
        max_nodes: nodes,
        ..Limits::depth(depth)
    };
    configure(Searcher::new(board, &mut tt, &stop, limits)).run(None)
}
