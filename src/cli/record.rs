//! Move notation and game records for the terminal commands.
//!
//! - A square is written `h8` (column letter, row number: x = letter − 'a',
//!   y = number − 1) or `7,7` (0-based x,y as in the protocol).
//! - A game is a move string (`h8i9j10`, spaces allowed), an x,y list
//!   (`7,7 8,8 9,9`), or a Piskvork `.psq` file: a header line
//!   `Piskvorky 15x15, 11:11, 0`, one `x,y,time` line per move (1-based,
//!   time in ms), then trailer lines (player names, a result code), which
//!   are ignored.

/// A square as 0-based column and row, not yet checked against a board.
pub type Square = (usize, usize);

/// Columns have letters `a` … `z`; boards are never wider than this.
const LETTERS: usize = 26;

/// The letter of column `x` (`a` for 0; `?` past `z`).
pub fn column_name(x: usize) -> char {
    u8::try_from(x)
        .ok()
        .filter(|&x| (x as usize) < LETTERS)
        .map_or('?', |x| (b'a' + x) as char)
}

/// The standard name of a square: `h8` for (7, 7).
pub fn square_name((x, y): Square) -> String {
    format!("{}{}", column_name(x), y + 1)
}

/// Both notations of a square: `h8 (7,7)`.
pub fn square_both(square: Square) -> String {
    format!("{} ({},{})", square_name(square), square.0, square.1)
}

/// Reads one square: `h8` / `H8` or `7,7` (spaces around the comma
/// allowed). `None` if the text is neither form (the range is not checked).
pub fn parse_square(text: &str) -> Option<Square> {
    let text = text.trim();
    if let Some((x, y)) = text.split_once(',') {
        return Some((number(x.trim())?, number(y.trim())?));
    }
    let mut chars = text.chars();
    let letter = chars.next()?.to_ascii_lowercase();
    if !letter.is_ascii_lowercase() {
        return None;
    }
    let row = number(chars.as_str())?;
    Some((letter as usize - 'a' as usize, row.checked_sub(1)?))
}

/// A plain decimal number (digits only, at most six).
fn number(text: &str) -> Option<usize> {
    if text.is_empty() || text.len() > 6 || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

/// Whether `text` looks like an attempt at a square (a letter and digits,
/// or something with a comma and a digit), to tell a bad move from an
/// unknown command.
pub fn looks_like_square(text: &str) -> bool {
    let text = text.trim();
    let mut chars = text.chars();
    let letter_then_digits = chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && !chars.as_str().is_empty()
        && chars
            .as_str()
            .chars()
            .all(|c| c.is_ascii_digit() || c == '-');
    let pair = text.contains(',') && text.chars().any(|c| c.is_ascii_digit());
    letter_then_digits || pair
}

/// Reads a list of moves in play order: either letter squares run together
/// or separated (`h8i9j10`, `h8 i9 j10`), or x,y pairs (`7,7 8,8`, also
/// `7,7, 8,8`). With `origin`, x,y pairs are offsets from it (`0,0 1,-1`
/// from the centre, the opening-file format); letter squares are then
/// refused.
pub fn parse_move_list(text: &str, origin: Option<Square>) -> Result<Vec<Square>, String> {
    let text = text.trim();
    if text.chars().any(|c| c.is_ascii_alphabetic()) {
        if origin.is_some() {
            return Err("offsets must be x,y pairs, not letter squares".into());
        }
        return parse_letter_squares(text);
    }
    let numbers = text
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|t| !t.is_empty())
        .map(|t| {
            t.parse::<i64>()
                .ok()
                .filter(|n| n.abs() < 1_000)
                .ok_or_else(|| format!("bad coordinate {t:?}"))
        })
        .collect::<Result<Vec<i64>, String>>()?;
    if !numbers.len().is_multiple_of(2) {
        return Err(format!(
            "{} numbers: x,y pairs need an even count",
            numbers.len()
        ));
    }
    let (ox, oy) = origin.map_or((0, 0), |(x, y)| (x as i64, y as i64));
    numbers
        .chunks(2)
        .map(|pair| {
            let (x, y) = (pair[0] + ox, pair[1] + oy);
            if x < 0 || y < 0 {
                Err(format!("move {},{} is off the board", pair[0], pair[1]))
            } else {
                Ok((x as usize, y as usize))
            }
        })
        .collect()
}

/// `h8i9j10`: a letter, then the row number's digits, repeated.
fn parse_letter_squares(text: &str) -> Result<Vec<Square>, String> {
    let mut moves = Vec::new();
    let mut rest = text;
    loop {
        rest = rest.trim_start_matches(|c: char| c.is_whitespace() || c == ',' || c == ';');
        let Some(first) = rest.chars().next() else {
            return Ok(moves);
        };
        let digits = rest[first.len_utf8()..]
            .find(|c: char| !c.is_ascii_digit())
            .map_or(rest.len(), |i| i + first.len_utf8());
        let token = &rest[..digits];
        match parse_square(token) {
            Some(square) if first.is_ascii_alphabetic() => moves.push(square),
            _ => {
                let shown: String = rest.chars().take(8).collect();
                return Err(format!(
                    "bad move at {shown:?} (expected a square such as h8)"
                ));
            }
        }
        rest = &rest[digits..];
    }
}

/// The move string of a game: `h8i9j10`.
pub fn move_string(moves: &[Square]) -> String {
    moves.iter().map(|&m| square_name(m)).collect()
}

/// A game record: board size and the moves with the time each took.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// Board width (x range).
    pub width: usize,
    /// Board height (y range).
    pub height: usize,
    /// The moves in play order, black first, with milliseconds taken.
    pub moves: Vec<(Square, u64)>,
    /// Which sides a program played (black, white), as the `.psq` header
    /// says; a move string does not say, so both are `false`.
    pub engines: [bool; 2],
}

impl Record {
    /// The moves without their times.
    pub fn squares(&self) -> Vec<Square> {
        self.moves.iter().map(|&(m, _)| m).collect()
    }

    /// The record in Piskvork's `.psq` format. The header's `a:b` fields are
    /// Piskvork's player levels (0 = a human; programs get 11), the last
    /// header field 0 says the first player listed moved first, and the
    /// trailer `-1` is the result code Piskvork writes for a game it saves
    /// by hand.
    pub fn to_psq(&self) -> String {
        let level = |engine: bool| if engine { 11 } else { 0 };
        let mut text = format!(
            "Piskvorky {}x{}, {}:{}, 0\n",
            self.width,
            self.height,
            level(self.engines[0]),
            level(self.engines[1])
        );
        for &((x, y), ms) in &self.moves {
            text.push_str(&format!("{},{},{}\n", x + 1, y + 1, ms));
        }
        text.push_str("-1\n");
        text
    }
}

/// Reads a `.psq` file: the header gives the board size, then `x,y,time`
/// lines (1-based; the time may be missing) up to the first other line.
pub fn parse_psq(text: &str) -> Result<Record, String> {
    let mut lines = text.lines().map(str::trim).skip_while(|l| l.is_empty());
    let header = lines.next().unwrap_or("");
    let bad_header = || format!("not a Piskvork header: {header:?}");
    let rest = header
        .get(..9)
        .filter(|h| h.eq_ignore_ascii_case("piskvorky"))
        .map(|_| header[9..].trim_start())
        .ok_or_else(bad_header)?;
    let mut fields = rest.split(',').map(str::trim);
    let (width, height) = fields
        .next()
        .and_then(|size| size.split_once(['x', 'X']))
        .and_then(|(w, h)| Some((number(w)?, number(h)?)))
        .ok_or_else(bad_header)?;
    let engines = fields
        .next()
        .and_then(|levels| levels.split_once(':'))
        .map_or([false; 2], |(a, b)| {
            let engine = |l: &str| l.trim().parse::<i64>().is_ok_and(|l| l > 0);
            [engine(a), engine(b)]
        });
    let mut moves = Vec::new();
    for line in lines {
        let parts: Vec<&str> = line.split(',').map(str::trim).collect();
        if !(2..=3).contains(&parts.len()) {
            break;
        }
        let (Some(x), Some(y)) = (number(parts[0]), number(parts[1])) else {
            break;
        };
        let ms = parts
            .get(2)
            .and_then(|t| t.parse::<i64>().ok())
            .unwrap_or(0)
            .max(0) as u64;
        if x == 0 || y == 0 || x > width || y > height {
            return Err(format!(
                "move {} ({x},{y}) is off the {width}x{height} board",
                moves.len() + 1
            ));
        }
        moves.push(((x - 1, y - 1), ms));
    }
    Ok(Record {
        width,
        height,
        moves,
        engines,
    })
}

/// Whether `text` is a `.psq` file (its first line starts `Piskvorky`).
pub fn is_psq(text: &str) -> bool {
    text.trim_start()
        .get(..9)
        .is_some_and(|h| h.eq_ignore_ascii_case("piskvorky"))
}

/// Reads a saved game: a `.psq` file, or a move string / x,y list for a
/// `width` × `height` board.
pub fn parse_record(text: &str, width: usize, height: usize) -> Result<Record, String> {
    if is_psq(text) {
        return parse_psq(text);
    }
    let moves = parse_move_list(text, None)?;
    Ok(Record {
        width,
        height,
        moves: moves.into_iter().map(|m| (m, 0)).collect(),
        engines: [false; 2],
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_in_both_notations() {
        assert_eq!(parse_square("h8"), Some((7, 7)));
        assert_eq!(parse_square("H8"), Some((7, 7)));
        assert_eq!(parse_square("a1"), Some((0, 0)));
        assert_eq!(parse_square("o15"), Some((14, 14)));
        assert_eq!(parse_square("v22"), Some((21, 21)));
        assert_eq!(parse_square("7,7"), Some((7, 7)));
        assert_eq!(parse_square(" 0 , 14 "), Some((0, 14)));
        assert_eq!(square_name((7, 7)), "h8");
        assert_eq!(square_name((0, 14)), "a15");
        assert_eq!(square_both((9, 10)), "j11 (9,10)");
        for bad in [
            "",
            "h",
            "8",
            "h0",
            "hh8",
            "h8x",
            "h-1",
            "-1,2",
            "7,",
            ",7",
            "7;7",
            "7,7,7",
            "é8",
            "h99999999",
            "1.5,2",
            "8h",
        ] {
            assert_eq!(parse_square(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn square_lookalikes() {
        for text in ["z99", "h0", "7,x", "99,99", "h-1"] {
            assert!(looks_like_square(text), "{text}");
        }
        for text in ["undo", "hint", "foo", "", "time"] {
            assert!(!looks_like_square(text), "{text}");
        }
    }

    #[test]
    fn move_lists() {
        let line = vec![(7, 7), (8, 8), (9, 9)];
        assert_eq!(parse_move_list("h8i9j10", None), Ok(line.clone()));
        assert_eq!(parse_move_list("h8 i9, J10\n", None), Ok(line.clone()));
        assert_eq!(parse_move_list("7,7 8,8 9,9", None), Ok(line.clone()));
        assert_eq!(parse_move_list("7,7, 8,8, 9,9", None), Ok(line.clone()));
        assert_eq!(parse_move_list("0,0, 1,1, 2,2", Some((7, 7))), Ok(line));
        assert_eq!(parse_move_list("-1,0", Some((7, 7))), Ok(vec![(6, 7)]));
        assert_eq!(parse_move_list("", None), Ok(vec![]));
        assert_eq!(parse_move_list("a10b11", None), Ok(vec![(0, 9), (1, 10)]));
        assert_eq!(move_string(&[(7, 7), (0, 9), (1, 10)]), "h8a10b11");
        for bad in ["h8i", "h8 9", "7,7 8", "7,7 8,x", "-1,0", "h8!", "h8 i0"] {
            assert!(parse_move_list(bad, None).is_err(), "{bad:?}");
        }
        assert!(parse_move_list("h8", Some((7, 7))).is_err());
    }

    #[test]
    fn psq_round_trip() {
        let record = Record {
            width: 15,
            height: 15,
            moves: vec![((7, 7), 0), ((8, 8), 1234), ((0, 14), 5)],
            engines: [false, true],
        };
        let text = record.to_psq();
        assert_eq!(
            text,
            "Piskvorky 15x15, 0:11, 0\n8,8,0\n9,9,1234\n1,15,5\n-1\n"
        );
        assert_eq!(parse_psq(&text), Ok(record.clone()));
        assert_eq!(parse_record(&text, 20, 20), Ok(record));
    }

    #[test]
    fn psq_as_piskvork_writes_it() {
        // A tournament game: names and a result code after the moves, CRLF.
        let text = "Piskvorky 20x20, 11:11, 0\r\n10,10,0\r\n11,11,150\r\n12,12\r\n\
                    pbrain-a.exe\r\npbrain-b.exe\r\n-1\r\n";
        let record = parse_psq(text).expect("parses");
        assert_eq!((record.width, record.height), (20, 20));
        assert_eq!(record.squares(), vec![(9, 9), (10, 10), (11, 11)]);
        assert_eq!(record.moves[1].1, 150);
        assert_eq!(record.engines, [true, true]);
        // Rectangular, no moves.
        let empty = parse_psq("Piskvorky 20x15, 0:0, 1\n-1\n").expect("parses");
        assert_eq!((empty.width, empty.height, empty.moves.len()), (20, 15, 0));
    }

    #[test]
    fn bad_psq_files() {
        for bad in [
            "",
            "Piskvorky\n",
            "Piskvorky 15y15, 0:0, 0\n",
            "Piskvorky ax15, 0:0, 0\n",
            "Piskvorky 15x15, 0:0, 0\n0,1,0\n",
            "Piskvorky 15x15, 0:0, 0\n16,1,0\n",
        ] {
            assert!(parse_psq(bad).is_err(), "{bad:?}");
        }
        assert!(parse_record("h8 zz", 15, 15).is_err());
        assert_eq!(
            parse_record("h8i9", 15, 15).map(|r| r.squares()),
            Ok(vec![(7, 7), (8, 8)])
        );
    }
}
