//! `pbrain-wuzi play`: a game in the terminal, human or engine on either
//! side. It reads one line at a time from stdin and writes plain text to
//! stdout, so it also works over a pipe; the end of input ends it.

use std::io::{BufRead, IsTerminal, Write};
use std::time::{Duration, Instant};

use anyhow::{Context, Result};

use super::diagram::{self, Marks};
use super::engine::{describe_score, parse_depth, parse_seconds, Engine, Think};
use super::game::{color_name, Game, MoveError};
use super::record::{
    looks_like_square, move_string, parse_record, parse_square, square_both, square_name,
};
use super::{parse_rule, parse_size, parse_strength};
use crate::levels::{Level, FULL_STRENGTH};
use crate::rules::renju;
use crate::search::SearchResult;
use crate::types::{Color, Pos, Rule};

/// Who plays a side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Player {
    /// Moves typed on stdin.
    Human,
    /// The engine.
    Engine,
}

/// Settings of `play`.
#[derive(Clone, Debug, PartialEq, Eq, clap::Args)]
pub struct Options {
    /// Who plays black: human or engine
    #[arg(
        long,
        value_enum,
        value_name = "PLAYER",
        default_value = "human",
        hide_possible_values = true
    )]
    pub black: Player,
    /// Who plays white: human or engine
    #[arg(
        long,
        value_enum,
        value_name = "PLAYER",
        default_value = "engine",
        hide_possible_values = true
    )]
    pub white: Player,
    /// The rule: freestyle standard renju caro caro9, or 0 1 4 8 9
    #[arg(long, value_name = "R", default_value = "freestyle", value_parser = parse_rule)]
    pub rule: Rule,
    /// Board side, 5 to 22
    #[arg(long, value_name = "N", default_value = "15", value_parser = parse_size)]
    pub size: usize,
    /// Engine time per move, in seconds
    #[arg(
        long,
        value_name = "S",
        default_value = "1",
        value_parser = parse_seconds,
        allow_negative_numbers = true
    )]
    pub time: Duration,
    /// A fixed search depth per move instead of a clock
    #[arg(long, value_name = "D", value_parser = parse_depth, conflicts_with = "time")]
    pub depth: Option<i32>,
    /// Show x,y indices from the start
    #[arg(long)]
    pub coords: bool,
    /// Fix the engine's random choice among equally ordered moves
    #[arg(long, value_name = "N")]
    pub seed: Option<u64>,
    /// Engine strength, 0 to 100: 0-29 five-tuple scorer, 30-59 pattern
    /// scorer, 60-99 depth-3 minimax, 100 full search
    #[arg(long, value_name = "N", default_value = "100", value_parser = parse_strength)]
    pub strength: u8,
}

impl Options {
    /// How long the engine thinks per move: `--depth` if given, else `--time`.
    pub fn think(&self) -> Think {
        self.depth.map_or(Think::Time(self.time), Think::Depth)
    }
}

/// Runs a game on stdin/stdout.
pub fn run(options: &Options) -> Result<()> {
    let stdin = std::io::stdin();
    let echo = !stdin.is_terminal();
    let mut play = Play::new(options, std::io::stdout().lock(), echo);
    match play.run(stdin.lock()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        other => other.context("terminal game"),
    }
}

/// What to do after a line.
#[derive(PartialEq, Eq)]
enum Flow {
    Continue,
    Quit,
}

const HELP: &str = "\
moves:
  h8  or  7,7     column letter and row number, or x,y counted from 0
commands:
  undo            take back your last move (and the engine's reply)
  new             start a new game (also: restart)
  hint            ask the engine for a move
  time <seconds>  engine time per move (time alone shows it)
  strength <n>    engine strength 0..100: 0-29 five-tuple scorer, 30-59
                  pattern scorer, 60-99 depth-3 minimax, 100 full search
  save <file>     save the game: a .psq name writes Piskvork's format,
                  any other name a move string such as h8i9j10
  load <file>     load a game (.psq, a move string or an x,y list)
  coords          show or hide the x,y indices
  board           show the board again
  help            this text
  quit            leave (so does the end of input)";

/// At most the first 40 characters of what was typed, to quote it back.
fn shown(text: &str) -> String {
    text.chars().take(40).collect()
}

/// A terminal game in progress.
struct Play<W: Write> {
    game: Game,
    rule: Rule,
    engine: Engine,
    players: [Player; 2],
    coords: bool,
    out: W,
    /// Write each input line after the prompt (when stdin is not a
    /// terminal), so a piped transcript reads like a session.
    echo: bool,
}

impl<W: Write> Play<W> {
    fn new(options: &Options, out: W, echo: bool) -> Play<W> {
        let mut engine = Engine::new(options.think(), options.seed);
        engine.level = Level::from_strength(options.strength);
        Play {
            game: Game::new(options.size, options.size, options.rule),
            rule: options.rule,
            engine,
            players: [options.black, options.white],
            coords: options.coords,
            out,
            echo,
        }
    }

    fn player(&self, color: Color) -> Player {
        self.players[color.index()]
    }

    fn side_name(&self, color: Color) -> String {
        let stone = if color == Color::Black { 'X' } else { 'O' };
        let who = match self.player(color) {
            Player::Human => "",
            Player::Engine => ", engine",
        };
        format!("{} ({stone}{who})", color_name(color))
    }

    fn run(&mut self, mut input: impl BufRead) -> std::io::Result<()> {
        let who = |p: Player| match p {
            Player::Human => "human",
            Player::Engine => "engine",
        };
        writeln!(
            self.out,
            "Wuzi: {} on {}x{}; black {}, white {}; engine {}.",
            self.rule.name(),
            self.game.board().width(),
            self.game.board().height(),
            who(self.players[0]),
            who(self.players[1]),
            self.engine.think.describe()
        )?;
        writeln!(self.out, "Type a move such as h8 or 7,7, or help.")?;
        self.show()?;
        let mut line = Vec::new();
        loop {
            while self.game.result().is_none()
                && self.player(self.game.board().side_to_move()) == Player::Engine
            {
                self.engine_move()?;
            }
            self.prompt()?;
            let asked = Instant::now();
            line.clear();
            if input.read_until(b'\n', &mut line)? == 0 {
                writeln!(self.out)?;
                return self.out.flush();
            }
            let text = String::from_utf8_lossy(&line);
            let text = text.trim();
            if self.echo {
                let printable: String = text
                    .chars()
                    .map(|c| if c.is_control() { '?' } else { c })
                    .collect();
                writeln!(self.out, "{printable}")?;
            }
            if self.handle(text, asked.elapsed())? == Flow::Quit {
                return self.out.flush();
            }
        }
    }

    fn prompt(&mut self) -> std::io::Result<()> {
        if self.game.result().is_some() {
            write!(self.out, "game over> ")?;
        } else {
            let side = self.side_name(self.game.board().side_to_move());
            write!(self.out, "{side} to move> ")?;
        }
        self.out.flush()
    }

    fn handle(&mut self, line: &str, took: Duration) -> std::io::Result<Flow> {
        if line.is_empty() {
            return Ok(Flow::Continue);
        }
        if let Some(square) = parse_square(line) {
            self.human_move(square, took)?;
            return Ok(Flow::Continue);
        }
        let (word, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let rest = rest.trim();
        match word.to_ascii_lowercase().as_str() {
            "quit" | "exit" | "q" => return Ok(Flow::Quit),
            "help" | "?" => writeln!(self.out, "{HELP}")?,
            "new" | "restart" => self.new_game()?,
            "undo" | "takeback" => self.undo()?,
            "hint" => self.hint()?,
            "time" => self.time(rest)?,
            "strength" | "level" => self.strength(rest)?,
            "save" => self.save(rest)?,
            "load" => self.load(rest)?,
            "coords" | "coordinates" => {
                self.coords = !self.coords;
                self.show()?;
            }
            "board" | "show" => self.show()?,
            _ if parse_square(word).is_some() => {
                writeln!(self.out, "one move at a time, please: {:?}", shown(line))?;
            }
            _ if looks_like_square(line) => writeln!(
                self.out,
                "not a move: {:?}; type a square such as h8 or 7,7",
                shown(line)
            )?,
            _ => writeln!(self.out, "unknown command {:?}; type help", shown(word))?,
        }
        Ok(Flow::Continue)
    }

    /// Draws the board: last move, winning line, and black's forbidden
    /// points when black is to move under renju.
    fn show(&mut self) -> std::io::Result<()> {
        let board = self.game.board();
        let black_to_move = board.side_to_move() == Color::Black;
        let forbidden = if self.game.result().is_none() && black_to_move {
            renju::forbidden_points(board)
        } else {
            Vec::new()
        };
        let marks = Marks {
            last: board.last_move(),
            line: self.game.winning_line(),
            forbidden,
            coords: self.coords,
        };
        let text = diagram::render(board, &marks);
        write!(self.out, "{text}")?;
        if let Some(result) = self.game.result_text() {
            writeln!(self.out, "{result}")?;
        }
        Ok(())
    }

    /// Shows the position after a move: now if a human moves next or the
    /// game is over, else after the engine's reply.
    fn after_move(&mut self) -> std::io::Result<()> {
        let next = self.player(self.game.board().side_to_move());
        if self.game.result().is_some() || next == Player::Human {
            self.show()?;
        }
        Ok(())
    }

    fn human_move(&mut self, square: (usize, usize), took: Duration) -> std::io::Result<()> {
        let color = self.game.board().side_to_move();
        match self.game.play(square, took.as_millis() as u64) {
            Ok(()) => {
                writeln!(
                    self.out,
                    "{} plays {}",
                    color_name(color),
                    square_both(square)
                )?;
                self.after_move()
            }
            Err(MoveError::GameOver) => {
                writeln!(self.out, "the game is over; type new, undo, load or quit")
            }
            Err(e) => writeln!(self.out, "illegal move: {e}"),
        }
    }

    /// One line about a search: move, score, depth, nodes, time, line.
    fn search_line(result: &SearchResult, pos: Pos) -> String {
        let pv: Vec<String> = result
            .pv
            .iter()
            .map(|p| square_name((p.x(), p.y())))
            .collect();
        format!(
            "{}  score {}, depth {}, {} nodes, {:.2} s, line {}",
            square_both((pos.x(), pos.y())),
            describe_score(result),
            result.depth,
            result.nodes,
            result.elapsed.as_secs_f64(),
            pv.join(" ")
        )
    }

    fn engine_move(&mut self) -> std::io::Result<()> {
        let color = self.game.board().side_to_move();
        let result = self.engine.choose_move(self.game.board());
        let Some(pos) = result.best else {
            self.game.declare_draw();
            return self.show();
        };
        let ms = result.elapsed.as_millis() as u64;
        match self.game.play((pos.x(), pos.y()), ms) {
            Ok(()) => {
                let line = Self::search_line(&result, pos);
                writeln!(self.out, "{} plays {line}", self.side_name(color))?;
            }
            Err(e) => {
                writeln!(self.out, "the engine chose an illegal move: {e}")?;
                self.game.declare_draw();
            }
        }
        self.show()
    }

    fn new_game(&mut self) -> std::io::Result<()> {
        let board = self.game.board();
        self.game = Game::new(board.width(), board.height(), self.rule);
        self.engine.clear();
        writeln!(self.out, "new game")?;
        self.show()
    }

    /// Takes back the last move a human made and everything after it (the
    /// engine's reply), so that human is to move again.
    fn undo(&mut self) -> std::io::Result<()> {
        if !self.players.contains(&Player::Human) {
            return writeln!(self.out, "undo needs a human player");
        }
        let moves = self.game.board().move_count();
        let color_of = |i: usize| {
            if i.is_multiple_of(2) {
                Color::Black
            } else {
                Color::White
            }
        };
        let Some(last_human) = (0..moves)
            .rev()
            .find(|&i| self.player(color_of(i)) == Player::Human)
        else {
            return writeln!(self.out, "nothing to undo");
        };
        self.game.truncate(last_human);
        let taken = moves - last_human;
        let plural = if taken == 1 { "" } else { "s" };
        writeln!(self.out, "took back {taken} move{plural}")?;
        self.show()
    }

    fn hint(&mut self) -> std::io::Result<()> {
        if self.game.result().is_some() {
            return writeln!(self.out, "the game is over; no hint");
        }
        let result = self.engine.hint(self.game.board());
        match result.best {
            Some(pos) => {
                let line = Self::search_line(&result, pos);
                writeln!(self.out, "hint: {line}")
            }
            None => writeln!(self.out, "hint: no legal move"),
        }
    }

    fn strength(&mut self, value: &str) -> std::io::Result<()> {
        if !value.is_empty() {
            match value.parse::<u8>() {
                Ok(n) if n <= FULL_STRENGTH => self.engine.level = Level::from_strength(n),
                _ => return writeln!(self.out, "strength is a number from 0 to 100"),
            }
        }
        writeln!(self.out, "engine plays as: {}", self.engine.level.name())
    }

    fn time(&mut self, value: &str) -> std::io::Result<()> {
        if !value.is_empty() {
            match parse_seconds(value) {
                Ok(time) => self.engine.think = Think::Time(time),
                Err(e) => return writeln!(self.out, "{e}"),
            }
        }
        writeln!(self.out, "engine: {}", self.engine.think.describe())
    }

    fn save(&mut self, file: &str) -> std::io::Result<()> {
        if file.is_empty() {
            return writeln!(
                self.out,
                "usage: save <file> (name.psq for Piskvork's format)"
            );
        }
        let engines = self.players.map(|p| p == Player::Engine);
        let record = self.game.record(engines);
        let psq = file.to_ascii_lowercase().ends_with(".psq");
        let text = if psq {
            record.to_psq()
        } else {
            format!("{}\n", move_string(&record.squares()))
        };
        match std::fs::write(file, text) {
            Ok(()) => writeln!(
                self.out,
                "saved {} moves to {file} ({})",
                record.moves.len(),
                if psq { "Piskvork .psq" } else { "move string" }
            ),
            Err(e) => writeln!(self.out, "cannot save to {file}: {e}"),
        }
    }

    fn load(&mut self, file: &str) -> std::io::Result<()> {
        if file.is_empty() {
            return writeln!(self.out, "usage: load <file>");
        }
        let text = match std::fs::read_to_string(file) {
            Ok(text) => text,
            Err(e) => return writeln!(self.out, "cannot read {file}: {e}"),
        };
        let board = self.game.board();
        let game = parse_record(&text, board.width(), board.height())
            .and_then(|record| Game::from_record(&record, self.rule));
        match game {
            Ok(game) => {
                self.game = game;
                self.engine.clear();
                writeln!(
                    self.out,
                    "loaded {} moves from {file}",
                    self.game.board().move_count()
                )?;
                self.show()
            }
            Err(e) => writeln!(self.out, "cannot load {file}: {e}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn session(options: &Options, input: &str) -> String {
        let mut out = Vec::new();
        let mut play = Play::new(options, &mut out, true);
        play.run(input.as_bytes()).expect("runs");
        String::from_utf8(out).expect("utf-8")
    }

    fn humans(rule: Rule) -> Options {
        Options {
            black: Player::Human,
            white: Player::Human,
            rule,
            size: 15,
            time: Duration::ZERO,
            depth: Some(2),
            coords: false,
            seed: Some(1),
            strength: FULL_STRENGTH,
        }
    }

    /// Parses `play` with `args` as the command line does.
    fn parse(args: &str) -> Result<Options, clap::Error> {
        let line = format!("pbrain-wuzi play {args}");
        match crate::cli::Cli::try_from_args(line.split_whitespace())?.command {
            Some(crate::cli::Command::Play(options)) => Ok(options),
            other => panic!("not play: {other:?}"),
        }
    }

    #[test]
    fn options() {
        let o = parse("--black engine --white human --rule renju --size 19 --depth 3 --coords")
            .expect("parses");
        assert_eq!((o.black, o.white), (Player::Engine, Player::Human));
        assert_eq!(
            (o.rule, o.size, o.think(), o.coords, o.seed),
            (Rule::Renju, 19, Think::Depth(3), true, None)
        );
        let o = parse("--rule 9 --time 0.25 --seed 5 --strength 30").expect("parses");
        assert_eq!(
            (o.rule, o.think(), o.seed, o.strength),
            (
                Rule::CaroExact,
                Think::Time(Duration::from_millis(250)),
                Some(5),
                30
            )
        );
        let o = parse("").expect("parses");
        assert_eq!(
            (o.black, o.white, o.rule, o.size, o.think(), o.strength),
            (
                Player::Human,
                Player::Engine,
                Rule::Freestyle,
                15,
                Think::Time(Duration::from_secs(1)),
                FULL_STRENGTH
            )
        );
        for bad in [
            "--black robot",
            "--size 30",
            "--time -1",
            "--depth 0",
            "--rule go",
            "--strength 101",
            "--x 1",
            "--time",
            "--time 1 --depth 2",
        ] {
            assert!(parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn humans_play_to_a_win_and_undo() {
        let out = session(
            &humans(Rule::Freestyle),
            "h8\na1\ni8\na2\nj8\na3\nk8\na4\nundo\na15\nl8\nh8\nundo\nquit\n",
        );
        assert!(out.contains("took back 1 move\n"), "{out}");
        assert!(
            out.contains("result: black wins (five h8 i8 j8 k8 l8)"),
            "{out}"
        );
        assert!(out.contains("[X][X][X][X][X]"), "{out}");
        assert!(
            out.contains("the game is over; type new, undo, load or quit"),
            "{out}"
        );
    }

    #[test]
    fn renju_refuses_black_forbidden_points() {
        let out = session(
            &humans(Rule::Renju),
            "g8\na1\ni8\na3\nh7\na5\nh9\na7\nboard\nh8\n",
        );
        assert!(
            out.contains(
                "illegal move: h8 (7,7) is forbidden for black under renju (a double three)"
            ),
            "{out}"
        );
        assert!(out.contains("x forbidden for black"), "{out}");
    }

    #[test]
    fn engine_replies_and_hints() {
        let options = Options {
            white: Player::Engine,
            ..humans(Rule::Standard)
        };
        let out = session(&options, "h8\nhint\ntime 0\ntime\nundo\n");
        assert!(out.contains("white (O, engine) plays "), "{out}");
        assert!(out.contains("hint: "), "{out}");
        assert!(out.contains("engine: 0.0 s per move"), "{out}");
        assert!(out.contains("took back 2 moves"), "{out}");
    }
}
