//! A game being played in the terminal: the board, the time each move took,
//! and the referee (fives under the rule, renju fouls refused, full board).

use crate::board::{Board, Cell};
use crate::rules::renju::{self, Foul};
use crate::types::{Color, Pattern, Pos, Rule};

use super::record::{column_name, square_both, square_name, Record, Square};

/// How a finished game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
    /// This side made five.
    Win(Color),
    /// The board is full (or the side to move has no legal move left).
    Draw,
}

/// Why a move was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// The game has ended.
    GameOver,
    /// Off the board (of this width and height).
    OffBoard(Square, usize, usize),
    /// A stone is already there.
    Occupied(Square),
    /// Renju: black may not play there.
    Forbidden(Square, Foul),
}

impl std::fmt::Display for MoveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            MoveError::GameOver => write!(f, "the game is over"),
            MoveError::OffBoard(s, width, height) => write!(
                f,
                "{} is off the board (columns a-{}, rows 1-{height}; x,y from 0,0 to {},{})",
                square_both(s),
                column_name(width - 1),
                width - 1,
                height - 1
            ),
            MoveError::Occupied(s) => write!(f, "{} is already taken", square_both(s)),
            MoveError::Forbidden(s, foul) => {
                let kind = match foul {
                    Foul::Overline => "an overline",
                    Foul::DoubleFour => "a double four",
                    Foul::DoubleThree => "a double three",
                };
                write!(
                    f,
                    "{} is forbidden for black under renju ({kind})",
                    square_both(s)
                )
            }
        }
    }
}

/// The name of a side, as the terminal prints it.
pub fn color_name(color: Color) -> &'static str {
    match color {
        Color::Black => "black",
        Color::White => "white",
    }
}

/// A game: the position, the milliseconds each move took, and the result.
#[derive(Clone)]
pub struct Game {
    board: Board,
    times: Vec<u64>,
    result: Option<GameResult>,
}

impl Game {
    /// A new game on an empty `width` × `height` board (each 5..=22).
    pub fn new(width: usize, height: usize, rule: Rule) -> Game {
        Game {
            board: Board::new(width, height, rule),
            times: Vec::new(),
            result: None,
        }
    }

    /// The position.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The result, once the game has ended.
    pub fn result(&self) -> Option<GameResult> {
        self.result
    }

    /// Ends the game as a draw (the side to move has no legal move).
    pub fn declare_draw(&mut self) {
        self.result = Some(GameResult::Draw);
    }

    /// Sets who moves next, for a position set up by hand (stones of either
    /// colour in any order).
    pub fn set_side_to_move(&mut self, side: Color) {
        self.board.set_side_to_move(side);
    }

    /// Converts a square to a cell of this board, if it is on it.
    fn pos(&self, (x, y): Square) -> Option<Pos> {
        self.board.contains(x, y).then(|| Pos::new(x, y))
    }

    /// Plays the side to move's stone on `square`, which took `ms`
    /// milliseconds; refuses occupied, off-board and (renju) forbidden
    /// points, and judges the game afterwards.
    pub fn play(&mut self, square: Square, ms: u64) -> Result<(), MoveError> {
        if self.result.is_some() {
            return Err(MoveError::GameOver);
        }
        let (width, height) = (self.board.width(), self.board.height());
        let pos = self
            .pos(square)
            .ok_or(MoveError::OffBoard(square, width, height))?;
        if !self.board.is_empty(pos) {
            return Err(MoveError::Occupied(square));
        }
        if self.board.side_to_move() == Color::Black {
            if let Some(foul) = renju::foul_at(&mut self.board, pos) {
                return Err(MoveError::Forbidden(square, foul));
            }
        }
        let mover = self.board.side_to_move();
        self.board.make(pos);
        self.times.push(ms);
        if self.board.is_five_at(pos) {
            self.result = Some(GameResult::Win(mover));
        } else if self.board.empty_count() == 0 {
            self.result = Some(GameResult::Draw);
        }
        Ok(())
    }

    /// Takes back every move from number `keep` on (0-based), reopening the
    /// game.
    pub fn truncate(&mut self, keep: usize) {
        while self.board.move_count() > keep {
            self.board.unmake();
            self.times.pop();
        }
        self.result = None;
    }

    /// The stones of the winning line(s) through the last move, if it won.
    pub fn winning_line(&self) -> Vec<Pos> {
        let (Some(GameResult::Win(color)), Some(last)) = (self.result, self.board.last_move())
        else {
            return Vec::new();
        };
        // The last move's own line patterns, read with the stone lifted.
        let mut before = self.board.clone();
        before.unmake();
        let steps: [(isize, isize); 4] = [(1, 0), (0, 1), (1, 1), (-1, 1)];
        let mut line = vec![last];
        for (d, &(dx, dy)) in steps.iter().enumerate() {
            if before.pattern(last, color, d) != Pattern::Five {
                continue;
            }
            for sign in [1, -1] {
                let (mut x, mut y) = (last.x() as isize, last.y() as isize);
                loop {
                    x += dx * sign;
                    y += dy * sign;
                    if x < 0 || y < 0 || !self.board.contains(x as usize, y as usize) {
                        break;
                    }
                    let pos = Pos::new(x as usize, y as usize);
                    if self.board.cell(pos) != Cell::Stone(color) {
                        break;
                    }
                    line.push(pos);
                }
            }
        }
        line
    }

    /// The result as one line: `result: black wins (five h8 i9 …)`,
    /// `result: draw (the board is full)`.
    pub fn result_text(&self) -> Option<String> {
        match self.result? {
            GameResult::Win(color) => {
                let mut line: Vec<Pos> = self.winning_line();
                line.sort_by_key(|p| (p.x(), p.y()));
                let stones: Vec<String> =
                    line.iter().map(|p| square_name((p.x(), p.y()))).collect();
                Some(format!(
                    "result: {} wins (five {})",
                    color_name(color),
                    stones.join(" ")
                ))
            }
            GameResult::Draw if self.board.empty_count() == 0 => {
                Some("result: draw (the board is full)".to_string())
            }
            GameResult::Draw => Some(format!(
                "result: draw ({} has no legal move)",
                color_name(self.board.side_to_move())
            )),
        }
    }

    /// The game as a record, `engines` telling which sides a program played.
    pub fn record(&self, engines: [bool; 2]) -> Record {
        Record {
            width: self.board.width(),
            height: self.board.height(),
            moves: self
                .board
                .history()
                .iter()
                .zip(&self.times)
                .map(|(p, &ms)| ((p.x(), p.y()), ms))
                .collect(),
            engines,
        }
    }

    /// Replays a record under `rule`, refusing it at the first illegal move
    /// or at a move after the game ended.
    pub fn from_record(record: &Record, rule: Rule) -> Result<Game, String> {
        let sizes = 5..=crate::types::MAX_SIZE;
        if !sizes.contains(&record.width) || !sizes.contains(&record.height) {
            return Err(format!(
                "board size {}x{} is not supported (5 to {})",
                record.width,
                record.height,
                crate::types::MAX_SIZE
            ));
        }
        let mut game = Game::new(record.width, record.height, rule);
        for (i, &(square, ms)) in record.moves.iter().enumerate() {
            game.play(square, ms).map_err(|e| match e {
                MoveError::GameOver => format!(
                    "move {} ({}) comes after the end of the game",
                    i + 1,
                    square_both(square)
                ),
                e => format!("move {}: {e}", i + 1),
            })?;
        }
        Ok(game)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play_all(game: &mut Game, moves: &[Square]) {
        for &m in moves {
            game.play(m, 0).expect("legal");
        }
    }

    #[test]
    fn five_wins_and_is_highlighted() {
        let mut game = Game::new(15, 15, Rule::Freestyle);
        // Black on row 7 from x 3, the last stone in the middle of the line.
        play_all(
            &mut game,
            &[
                (3, 7),
                (3, 0),
                (4, 7),
                (4, 0),
                (6, 7),
                (6, 0),
                (7, 7),
                (9, 0),
            ],
        );
        assert_eq!(game.result(), None);
        game.play((5, 7), 0).expect("legal");
        assert_eq!(game.result(), Some(GameResult::Win(Color::Black)));
        let mut line: Vec<Square> = game.winning_line().iter().map(|p| (p.x(), p.y())).collect();
        line.sort();
        assert_eq!(line, vec![(3, 7), (4, 7), (5, 7), (6, 7), (7, 7)]);
        assert_eq!(
            game.result_text().as_deref(),
            Some("result: black wins (five d8 e8 f8 g8 h8)")
        );
        assert_eq!(game.play((0, 0), 0), Err(MoveError::GameOver));
        game.truncate(8);
        assert_eq!(game.result(), None);
        assert_eq!(game.board().move_count(), 8);
    }

    #[test]
    fn standard_overline_does_not_win() {
        let mut game = Game::new(15, 15, Rule::Standard);
        play_all(
            &mut game,
            &[
                (1, 7),
                (1, 0),
                (2, 7),
                (2, 0),
                (3, 7),
                (3, 0),
                (5, 7),
                (5, 0),
                (6, 7),
                (9, 0),
            ],
        );
        game.play((4, 7), 0).expect("legal");
        assert_eq!(game.result(), None, "six in a row under standard");
    }

    #[test]
    fn illegal_moves_are_refused() {
        let mut game = Game::new(15, 15, Rule::Renju);
        assert_eq!(
            game.play((15, 3), 0),
            Err(MoveError::OffBoard((15, 3), 15, 15))
        );
        assert_eq!(
            MoveError::OffBoard((15, 3), 15, 15).to_string(),
            "p4 (15,3) is off the board (columns a-o, rows 1-15; x,y from 0,0 to 14,14)"
        );
        // Black double three at 7,7: 6,7 8,7 (row) and 7,6 7,8 (column).
        play_all(
            &mut game,
            &[
                (6, 7),
                (0, 0),
                (8, 7),
                (0, 2),
                (7, 6),
                (0, 4),
                (7, 8),
                (0, 6),
            ],
        );
        assert_eq!(
            game.play((7, 7), 0),
            Err(MoveError::Forbidden((7, 7), Foul::DoubleThree))
        );
        assert_eq!(game.play((0, 0), 0), Err(MoveError::Occupied((0, 0))));
        // Black plays elsewhere; white may take the point.
        game.play((14, 14), 0).expect("legal");
        game.play((7, 7), 0).expect("white may");
    }

    #[test]
    fn record_round_trip_and_full_board_draw() {
        let mut game = Game::new(5, 5, Rule::Freestyle);
        // Fill a 5x5 board without five: rows alternate XXOOX / OOXXO patterns.
        let rows = ["XXOOX", "OOXXO", "XXOOX", "OOXXO", "XXOOX"];
        let (mut blacks, mut whites) = (Vec::new(), Vec::new());
        for (y, row) in rows.iter().enumerate() {
            for (x, c) in row.chars().enumerate() {
                if c == 'X' {
                    blacks.push((x, y));
                } else {
                    whites.push((x, y));
                }
            }
        }
        assert_eq!((blacks.len(), whites.len()), (13, 12));
        for i in 0..25usize {
            let square = if i.is_multiple_of(2) {
                blacks[i / 2]
            } else {
                whites[i / 2]
            };
            game.play(square, i as u64).expect("legal");
        }
        assert_eq!(game.result(), Some(GameResult::Draw));
        let record = game.record([true, false]);
        let again = Game::from_record(&record, Rule::Freestyle).expect("replays");
        assert_eq!(again.board().hash(), game.board().hash());
        assert_eq!(again.result(), Some(GameResult::Draw));
        assert_eq!(again.record([true, false]), record);
        let mut longer = record.clone();
        longer.moves.push(((0, 0), 0));
        assert!(Game::from_record(&longer, Rule::Freestyle).is_err());
    }
}
