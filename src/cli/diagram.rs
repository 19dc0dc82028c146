//! The board drawn as text for the terminal: column letters and row numbers
//! (`h8` is column h, row 8; row 1 at the bottom), `X` black, `O` white,
//! `.` empty, `x` a point forbidden to black; the last move in parentheses,
//! a winning line in brackets; x,y indices on request.

use super::record::column_name;
use crate::board::{Board, Cell};
use crate::types::{Color, Pos};

/// What to mark besides the stones.
#[derive(Clone, Debug, Default)]
pub struct Marks {
    /// The last move, drawn `(X)`.
    pub last: Option<Pos>,
    /// The winning line, drawn `[X]`.
    pub line: Vec<Pos>,
    /// Points forbidden to black, drawn `x`.
    pub forbidden: Vec<Pos>,
    /// Also print the 0-based x,y indices.
    pub coords: bool,
}

/// Draws `board` with `marks`, ending with a legend line for the marks used.
pub fn render(board: &Board, marks: &Marks) -> String {
    let width = board.width();
    let mut out = String::new();
    let header = |out: &mut String| {
        let mut line = String::from("   ");
        for x in 0..width {
            line.push_str(&format!(" {} ", column_name(x)));
        }
        out.push_str(line.trim_end());
        out.push('\n');
    };
    header(&mut out);
    if marks.coords {
        let mut line = String::from("   ");
        for x in 0..width {
            line.push_str(&format!("{x:>2} "));
        }
        out.push_str(&format!("{}   x\n", line.trim_end()));
    }
    for y in (0..board.height()).rev() {
        out.push_str(&format!("{:>2} ", y + 1));
        for x in 0..width {
            let pos = Pos::new(x, y);
            let c = match board.cell(pos) {
                Cell::Stone(Color::Black) => 'X',
                Cell::Stone(Color::White) => 'O',
                Cell::Wall => '#',
                Cell::Empty if marks.forbidden.contains(&pos) => 'x',
                Cell::Empty => '.',
            };
            let (open, close) = if marks.line.contains(&pos) {
                ('[', ']')
            } else if marks.last == Some(pos) {
                ('(', ')')
            } else {
                (' ', ' ')
            };
            out.push(open);
            out.push(c);
            out.push(close);
        }
        out.push_str(&format!(" {}", y + 1));
        if marks.coords {
            out.push_str(&format!("  y={y}"));
        }
        out.push('\n');
    }
    header(&mut out);
    let mut legend = vec!["X black", "O white"];
    if marks.last.is_some() && marks.line.is_empty() {
        legend.push("(X) last move");
    }
    if !marks.line.is_empty() {
        legend.push("[X] five in a row");
    }
    if !marks.forbidden.is_empty() {
        legend.push("x forbidden for black");
    }
    out.push_str(&legend.join(", "));
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Rule;

    #[test]
    fn draws_marks_in_standard_orientation() {
        let board = Board::from_moves(Rule::Freestyle, 5, "0,0 4,4").expect("legal");
        let text = render(
            &board,
            &Marks {
                last: Some(Pos::new(4, 4)),
                coords: true,
                ..Marks::default()
            },
        );
        let expected = [
            "    a  b  c  d  e",
            "    0  1  2  3  4   x",
            " 5  .  .  .  . (O) 5  y=4",
            " 4  .  .  .  .  .  4  y=3",
            " 3  .  .  .  .  .  3  y=2",
            " 2  .  .  .  .  .  2  y=1",
            " 1  X  .  .  .  .  1  y=0",
            "    a  b  c  d  e",
            "X black, O white, (X) last move",
            "",
        ]
        .join("\n");
        assert_eq!(text, expected);
        let plain = render(
            &board,
            &Marks {
                line: vec![Pos::new(0, 0)],
                forbidden: vec![Pos::new(2, 2)],
                ..Marks::default()
            },
        );
        assert!(plain.contains(" 3  .  .  x  .  .  3\n"), "{plain}");
        assert!(plain.contains(" 1 [X] .  .  .  .  1\n"), "{plain}");
        assert!(plain.ends_with("X black, O white, [X] five in a row, x forbidden for black\n"));
    }
}
