//! Parsing one protocol line into a command.

use super::yixin::{self, YxCommand};

/// Which block of stone lines a `…` / `DONE` block sets up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BlockKind {
    /// `BOARD`: set the position, then answer a move.
    Board,
    /// `YXBOARD`: set the position only.
    YxBoard,
    /// `SWAP2BOARD`: an opening-rule decision.
    Swap2Board,
}

/// A command from the manager.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `START n` (or `START w h`): a new game on a board of that size.
    Start { width: usize, height: usize },
    /// `RECTSTART w,h`.
    RectStart { width: usize, height: usize },
    /// `RESTART`: a new game on the same board.
    Restart,
    /// `BEGIN`: the engine plays first.
    Begin,
    /// `TURN x,y`: the opponent's move; answer a move.
    Turn { x: usize, y: usize },
    /// The start of a block of stone lines ended by `DONE`.
    Block(BlockKind),
    /// `INFO key value`.
    Info { key: String, value: String },
    /// `END`: exit.
    End,
    /// `ABOUT`.
    About,
    /// `TAKEBACK x,y`.
    Takeback { x: usize, y: usize },
    /// `PLAY x,y`: play this move for the engine and echo it.
    Play { x: usize, y: usize },
    /// `YXSTOP` / `STOP`: answer now.
    Stop,
    /// `YXHASHCLEAR`.
    HashClear,
    /// `YXSHOWFORBID`.
    ShowForbid,
    /// `YXSHOWINFO`.
    ShowInfo,
    /// `YXNBEST n`: search and answer the best move, without playing it.
    NBest { n: usize },
    /// One of the other Yixin-Board commands.
    Yixin(YxCommand),
}

/// Why a line is not a command the engine can carry out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseError {
    /// A known command with bad arguments: answer `ERROR <text>`.
    Error(String),
    /// An unknown command: answer `UNKNOWN <text>`.
    Unknown(String),
}

/// Splits `x,y` (blanks allowed around the numbers) into two numbers.
pub fn parse_xy(text: &str) -> Option<(usize, usize)> {
    let (x, y) = text.split_once(',')?;
    Some((x.trim().parse().ok()?, y.trim().parse().ok()?))
}

/// Splits a block line `x,y,f` (or `x,y` where `f` is optional) into numbers.
pub fn parse_stone_line(text: &str) -> Option<(usize, usize, Option<u8>)> {
    let mut parts = text.split(',').map(str::trim);
    let x = parts.next()?.parse().ok()?;
    let y = parts.next()?.parse().ok()?;
    let field = match parts.next() {
        Some(f) => Some(f.parse().ok()?),
        None => None,
    };
    if parts.next().is_some() {
        return None;
    }
    Some((x, y, field))
}

fn size_arg(text: &str) -> Option<usize> {
    text.trim().parse().ok()
}

/// Parses one trimmed, non-empty line.
pub fn parse(line: &str) -> Result<Command, ParseError> {
    let (word, rest) = match line.find([' ', '\t']) {
        Some(i) => (&line[..i], line[i..].trim()),
        None => (line, ""),
    };
    let word = word.to_ascii_uppercase();
    let error = |what: &str| Err(ParseError::Error(format!("{what}: {line}")));
    let coords = |rest: &str| parse_xy(rest).ok_or(());
    match word.as_str() {
        "START" => {
            let mut sizes = rest.split_whitespace().map(size_arg);
            match (sizes.next(), sizes.next(), sizes.next()) {
                (Some(Some(w)), None, None) => Ok(Command::Start {
                    width: w,
                    height: w,
                }),
                (Some(Some(w)), Some(Some(h)), None) => Ok(Command::Start {
                    width: w,
                    height: h,
                }),
                _ => error("bad board size"),
            }
        }
        "RECTSTART" => match coords(rest) {
            Ok((width, height)) => Ok(Command::RectStart { width, height }),
            Err(()) => error("bad board size"),
        },
        "RESTART" => Ok(Command::Restart),
        "BEGIN" => Ok(Command::Begin),
        "TURN" => match coords(rest) {
            Ok((x, y)) => Ok(Command::Turn { x, y }),
            Err(()) => error("bad move"),
        },
        "BOARD" => Ok(Command::Block(BlockKind::Board)),
        "YXBOARD" => Ok(Command::Block(BlockKind::YxBoard)),
        "SWAP2BOARD" => Ok(Command::Block(BlockKind::Swap2Board)),
        "INFO" => {
            let (key, value) = match rest.find([' ', '\t']) {
                Some(i) => (&rest[..i], rest[i..].trim()),
                None => (rest, ""),
            };
            Ok(Command::Info {
                key: key.to_ascii_lowercase(),
                value: value.to_string(),
            })
        }
        "END" => Ok(Command::End),
        "ABOUT" => Ok(Command::About),
        "TAKEBACK" => match coords(rest) {
            Ok((x, y)) => Ok(Command::Takeback { x, y }),
            Err(()) => error("bad move"),
        },
        "PLAY" => match coords(rest) {
            Ok((x, y)) => Ok(Command::Play { x, y }),
            Err(()) => error("bad move"),
        },
        "YXSTOP" | "STOP" => Ok(Command::Stop),
        "YXHASHCLEAR" => Ok(Command::HashClear),
        "YXSHOWFORBID" => Ok(Command::ShowForbid),
        "YXSHOWINFO" => Ok(Command::ShowInfo),
        "YXNBEST" => match rest.parse() {
            Ok(n) if n > 0 => Ok(Command::NBest { n }),
            _ => error("bad count"),
        },
        _ => match yixin::parse(&word, rest) {
            Some(command) => Ok(Command::Yixin(command)),
            None => Err(ParseError::Unknown(format!(
                "command not understood: {line}"
            ))),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_in_any_case() {
        assert_eq!(
            parse("start 15"),
            Ok(Command::Start {
                width: 15,
                height: 15
            })
        );
        assert_eq!(
            parse("START 15 15"),
            Ok(Command::Start {
                width: 15,
                height: 15
            })
        );
        assert_eq!(
            parse("RectStart 20,15"),
            Ok(Command::RectStart {
                width: 20,
                height: 15
            })
        );
        assert_eq!(parse("turn 7, 8"), Ok(Command::Turn { x: 7, y: 8 }));
        assert_eq!(parse("board"), Ok(Command::Block(BlockKind::Board)));
        assert_eq!(
            parse("INFO folder C:\\my games\\x"),
            Ok(Command::Info {
                key: "folder".into(),
                value: "C:\\my games\\x".into()
            })
        );
    }

    #[test]
    fn malformed_and_unknown() {
        assert!(matches!(parse("TURN 7"), Err(ParseError::Error(_))));
        assert!(matches!(parse("TURN -1,3"), Err(ParseError::Error(_))));
        assert!(matches!(parse("START"), Err(ParseError::Error(_))));
        assert!(matches!(parse("START abc"), Err(ParseError::Error(_))));
        assert!(matches!(parse("FROBNICATE"), Err(ParseError::Unknown(_))));
        assert!(matches!(parse("YXNBEST 0"), Err(ParseError::Error(_))));
    }

    #[test]
    fn stone_lines() {
        assert_eq!(parse_stone_line("7,7,1"), Some((7, 7, Some(1))));
        assert_eq!(parse_stone_line(" 7 , 8 "), Some((7, 8, None)));
        assert_eq!(parse_stone_line("7,7,1,2"), None);
        assert_eq!(parse_stone_line("a,7,1"), None);
    }
}
