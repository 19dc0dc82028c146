//! The position a request carries: board size, rule, the stones in the
//! order they were placed (with their colours when the position was set up
//! by hand) and the side to move, replayed under the rule's referee.

use std::collections::HashMap;

use crate::cli::game::{color_name, Game, GameResult};
use crate::cli::record::{move_string, parse_move_list, Square};
use crate::cli::{parse_rule, parse_size};
use crate::rules::renju;
use crate::types::{Color, Pos};

use super::json::{self, Object};

/// A request's fields, decoded from its query string and form body.
pub type Fields = HashMap<String, String>;

/// Most stones a position may hold (the largest board's cells).
const MAX_STONES: usize = crate::board::MAX_MOVES;

/// Reads the position of a request: `size` (5 to 22, default 15), `rule`
/// (a name or Gomocup number, default freestyle), `stones` (a move string
/// such as `h8i9j10`, or x,y pairs), `colors` (one `b` or `w` per stone;
/// without it the stones alternate, black first) and `side` (`black` or
/// `white`: who moves next, when not the one the stones imply).
pub fn parse(fields: &Fields) -> Result<Game, String> {
    let size = match fields.get("size") {
        Some(text) => parse_size(text).map_err(|e| e.to_string())?,
        None => 15,
    };
    let rule = match fields.get("rule") {
        Some(text) => parse_rule(text).map_err(|e| e.to_string())?,
        None => Default::default(),
    };
    let text = fields.get("stones").map_or("", String::as_str);
    let stones: Vec<Square> = parse_move_list(text, None).map_err(|e| format!("stones: {e}"))?;
    if stones.len() > MAX_STONES {
        return Err(format!("stones: {} are too many", stones.len()));
    }
    let colors = match fields.get("colors").filter(|c| !c.is_empty()) {
        None => None,
        Some(text) => Some(parse_colors(text, stones.len())?),
    };
    let mut game = Game::new(size, size, rule);
    for (i, &square) in stones.iter().enumerate() {
        if let Some(colors) = &colors {
            game.set_side_to_move(colors[i]);
        }
        game.play(square, 0)
            .map_err(|e| format!("stone {}: {e}", i + 1))?;
    }
    if let Some(side) = fields.get("side").filter(|s| !s.is_empty()) {
        let side = parse_color(side).ok_or_else(|| format!("bad side {side:?}: black or white"))?;
        if game.result().is_none() {
            game.set_side_to_move(side);
        }
    }
    Ok(game)
}

fn parse_color(text: &str) -> Option<Color> {
    match text.to_ascii_lowercase().as_str() {
        "b" | "black" | "x" => Some(Color::Black),
        "w" | "white" | "o" => Some(Color::White),
        _ => None,
    }
}

fn parse_colors(text: &str, count: usize) -> Result<Vec<Color>, String> {
    let colors: Vec<Color> = text
        .chars()
        .map(|c| parse_color(&c.to_string()).ok_or_else(|| format!("colors: {c:?} is not b or w")))
        .collect::<Result<_, _>>()?;
    if colors.len() != count {
        return Err(format!("colors: {} given for {count} stones", colors.len()));
    }
    Ok(colors)
}

/// Where each stone of the game stands, in order.
pub fn squares(game: &Game) -> Vec<Square> {
    game.board()
        .history()
        .iter()
        .map(|p| (p.x(), p.y()))
        .collect()
}

/// What the page shows of a position: the side to move, the result and
/// the five that made it, black's forbidden points (renju), and the move
/// string.
pub fn state_json(game: &Game) -> String {
    let board = game.board();
    let side = board.side_to_move();
    let forbidden: Vec<Pos> = if game.result().is_none() && side == Color::Black {
        renju::forbidden_points(board)
    } else {
        Vec::new()
    };
    let result = game.result().map(|r| match r {
        GameResult::Win(color) => color_name(color),
        GameResult::Draw => "draw",
    });
    Object::new()
        .str("side", color_name(side))
        .num("count", board.move_count())
        .str("moves", &move_string(&squares(game)))
        .opt_str("result", result)
        .opt_str("resultText", game.result_text().as_deref())
        .raw("line", &json::squares(&game.winning_line()))
        .raw("forbidden", &json::squares(&forbidden))
        .end()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fields(pairs: &[(&str, &str)]) -> Fields {
        pairs
            .iter()
            .map(|&(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn replays_and_refuses() {
        let game = parse(&fields(&[("stones", "h8i9j10")])).expect("legal");
        assert_eq!(game.board().move_count(), 3);
        assert_eq!(game.board().side_to_move(), Color::White);
        let empty = parse(&Fields::new()).expect("an empty board");
        assert_eq!(empty.board().width(), 15);
        for (bad, says) in [
            (fields(&[("size", "4")]), "bad board size"),
            (fields(&[("rule", "go")]), "bad rule"),
            (
                fields(&[("stones", "h8h8")]),
                "stone 2: h8 (7,7) is already taken",
            ),
            (
                fields(&[("stones", "z99")]),
                "stone 1: z99 (25,98) is off the board",
            ),
            (fields(&[("stones", "h8!")]), "stones: bad move"),
            (
                fields(&[("stones", "h8"), ("colors", "bw")]),
                "colors: 2 given",
            ),
            (fields(&[("stones", "h8"), ("side", "red")]), "bad side"),
            (fields(&[("size", "9"), ("stones", "k1")]), "off the board"),
        ] {
            let error = parse(&bad).err().expect("refused");
            assert!(error.contains(says), "{error:?} should say {says:?}");
        }
    }

    #[test]
    fn set_up_positions_and_state() {
        // Two black stones then a white one, white to move after all.
        let game = parse(&fields(&[
            ("stones", "h8i8j8"),
            ("colors", "bbw"),
            ("side", "white"),
        ]))
        .expect("set up");
        assert_eq!(game.board().side_to_move(), Color::White);
        // Renju: black's double three at h8 (g8, i8 in the row, h7, h9 in
        // the column) is marked, and only while black is to move.
        let renju = [("rule", "renju"), ("stones", "g8a1i8a3h7a5h9a7")];
        let state = state_json(&parse(&fields(&renju)).expect("legal"));
        assert!(state.contains(r#""forbidden":[[7,7]]"#), "{state}");
        assert!(state.contains(r#""side":"black""#), "{state}");
        let five = parse(&fields(&[("stones", "a1b1a2b2a3b3a4b4a5")])).expect("legal");
        let state = state_json(&five);
        assert!(state.contains(r#""result":"black""#), "{state}");
        assert!(state.contains(r#""line":[[0,4],"#), "{state}");
    }
}
