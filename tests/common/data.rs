//! The readers of the one-case-per-line data files `tests/data/vcf-puzzles.txt`
//! and `tests/data/forbidden-cases.txt` (TAB-separated fields, `#` comment
//! lines; each file's header describes its fields). A case is named by its
//! line number in the file (comment lines counted), as an editor shows it.

use std::ops::RangeInclusive;

use wuzi::board::Board;
use wuzi::types::{Pos, Rule};

use super::board::{board_from_moves, parse_color, parse_pos};

/// The data lines of `text` with their line numbers, split into fields.
fn data_lines(text: &'static str) -> impl Iterator<Item = (usize, Vec<&'static str>)> {
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.starts_with('#') && !line.trim().is_empty())
        .map(|(index, line)| (index + 1, line.split('\t').collect()))
}

/// One puzzle of `vcf-puzzles.txt`: the side to move has a forced win.
pub struct Puzzle {
    /// Its line number in the file.
    pub line: usize,
    /// The rule it is set under.
    pub rule: Rule,
    /// The board side.
    pub size: usize,
    /// The stones in play order, black first (the file has no passes).
    pub moves: Vec<Pos>,
    /// The position after `moves`.
    pub board: Board,
    /// The winning first moves the file accepts.
    pub accepted: Vec<Pos>,
    /// Where the puzzle comes from.
    pub source: &'static str,
}

/// Every puzzle of `vcf-puzzles.txt`, in file order.
pub fn vcf_puzzles() -> Vec<Puzzle> {
    data_lines(include_str!("../data/vcf-puzzles.txt"))
        .map(|(line, f)| {
            let rule = wuzi::cli::parse_rule(f[0]).unwrap_or_else(|e| panic!("line {line}: {e}"));
            let size = f[1].parse().expect("a board size");
            let board = board_from_moves(rule, size, f[3]);
            assert_eq!(
                board.side_to_move(),
                parse_color(f[2]),
                "line {line}: side to move"
            );
            Puzzle {
                line,
                rule,
                size,
                moves: f[3].split_whitespace().map(parse_pos).collect(),
                board,
                accepted: f[4].split_whitespace().map(parse_pos).collect(),
                source: f[5],
            }
        })
        .collect()
}

/// Which empty cells a forbidden case's expected set covers.
pub enum Scope {
    /// The whole board: the expected points are every forbidden point.
    Full,
    /// Every forbidden point on row `y` within columns `x`.
    Row {
        /// The row.
        y: usize,
        /// The columns.
        x: RangeInclusive<usize>,
    },
    /// Only the listed points.
    Points,
}

impl Scope {
    /// Whether the expected points are all the forbidden points within the
    /// scope (not so for [`Scope::Points`]).
    pub fn is_complete(&self) -> bool {
        !matches!(self, Scope::Points)
    }

    /// Whether cell `(x, y)` lies within the scope.
    pub fn contains(&self, x: usize, y: usize) -> bool {
        match self {
            Scope::Full | Scope::Points => true,
            Scope::Row { y: row, x: columns } => y == *row && columns.contains(&x),
        }
    }
}

/// One renju case of `forbidden-cases.txt`.
pub struct ForbiddenCase {
    /// Its line number in the file.
    pub line: usize,
    /// The position (renju); black's forbidden points are the question.
    pub board: Board,
    /// The expected points with their kind (`double-three`, `double-four`,
    /// `overline`, `forbidden` for any of them, or `legal`); empty for `none`.
    pub expected: Vec<(Pos, &'static str)>,
    /// What `expected` covers.
    pub scope: Scope,
    /// Where the case comes from.
    pub source: &'static str,
    /// The verdict of the reference checker: `agree` or `DISAGREE …`.
    pub library: &'static str,
}

/// The cases of `forbidden-cases.txt` in file order, and how many lines it
/// marks `skipped` (a source case that could not be converted).
pub fn forbidden_cases() -> (Vec<ForbiddenCase>, usize) {
    let mut cases = Vec::new();
    let mut skipped = 0;
    for (line, f) in data_lines(include_str!("../data/forbidden-cases.txt")) {
        assert_eq!(f[0], "renju", "line {line}: rule");
        let scope = match f[4] {
            "skipped" => {
                skipped += 1;
                continue;
            }
            "full" => Scope::Full,
            "points" => Scope::Points,
            row => {
                // "row y=7, x=0..12"
                let parsed = row
                    .strip_prefix("row y=")
                    .and_then(|r| r.split_once(", x="))
                    .and_then(|(y, x)| {
                        let (lo, hi) = x.split_once("..")?;
                        Some((y.parse().ok()?, lo.parse().ok()?, hi.parse().ok()?))
                    });
                let Some((y, lo, hi)) = parsed else {
                    panic!("line {line}: scope {row:?}")
                };
                Scope::Row { y, x: lo..=hi }
            }
        };
        let expected = match f[3] {
            "none" => Vec::new(),
            points => points
                .split_whitespace()
                .map(|t| {
                    let (p, kind) = t.split_once(':').expect("x,y:kind");
                    (parse_pos(p), kind)
                })
                .collect(),
        };
        cases.push(ForbiddenCase {
            line,
            board: board_from_moves(Rule::Renju, f[1].parse().expect("a board size"), f[2]),
            expected,
            scope,
            source: f[5],
            library: f[6],
        });
    }
    (cases, skipped)
}
