//! The engine session: game state and settings, driven one protocol line at
//! a time. It never prints; it returns the replies to send and, when a move
//! is wanted, a [`ThinkJob`] for the search thread.

use std::time::Instant;

use rand::{RngCore, SeedableRng};

use super::command::{self, BlockKind, Command, ParseError};
use crate::board::Board;
use crate::levels::{Level, FULL_STRENGTH};
use crate::rules::renju;
use crate::search::opening::Swap2Answer;
use crate::search::time::{Budget, TimeSettings};
use crate::search::tt::Tt;
use crate::search::{score_text, Limits, SearchResult, MAX_DEPTH, MAX_THREADS};
use crate::types::{Color, Pos, Rule, MAX_SIZE};

/// Smallest board side accepted.
pub const MIN_SIZE: usize = 5;
/// Table size when the manager sets no memory limit.
const DEFAULT_TT_BYTES: usize = 64 << 20;
/// Largest table ever allocated, whatever the manager allows.
const MAX_TT_BYTES: u64 = 1 << 30;
/// Memory kept back from `max_memory` for everything but the table.
const MEMORY_RESERVE: u64 = 16 << 20;

/// The `ABOUT` reply.
pub const ABOUT: &str = concat!(
    "name=\"Wuzi\", version=\"",
    env!("CARGO_PKG_VERSION"),
    "\", author=\"The Wuzi developers\", country=\"International\""
);

/// Most search threads `thread_num` may ask for: the cores present.
fn max_threads() -> usize {
    std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(MAX_THREADS)
}

/// Whose stone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Owner {
    Me,
    Opponent,
}

/// What the engine does with a finished search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ThinkKind {
    /// Play the move and answer it.
    Play,
    /// Find the n best moves, report them and answer the best without
    /// playing it (`YXNBEST n`).
    NBest(usize),
    /// Decide under the swap2 opening rule (`SWAP2BOARD`).
    Swap2,
}

/// What the search thread hands back.
pub enum Outcome {
    /// A searched move.
    Search(SearchResult),
    /// The n best moves, best first.
    NBest(Vec<SearchResult>),
    /// A swap2 decision (`None` if the stone count allows none).
    Swap2(Option<Swap2Answer>),
}

/// A search for the search thread to run.
pub struct ThinkJob {
    /// The position, the engine to move.
    pub board: Board,
    /// When to stop.
    pub limits: Limits,
    /// The transposition table, handed back with the result.
    pub tt: Tt,
    /// Seed for breaking ties between equal root moves.
    pub seed: u64,
    /// What to do with the result.
    pub kind: ThinkKind,
    /// Search threads.
    pub threads: usize,
    /// Who chooses a move to play (`YXNBEST` and `SWAP2BOARD` always search
    /// at full strength).
    pub level: Level,
}

/// What one input line asks of the runner.
#[derive(Default)]
pub struct Response {
    /// Lines to print, in order.
    pub replies: Vec<String>,
    /// A search to start.
    pub think: Option<ThinkJob>,
    /// Exit now.
    pub exit: bool,
}

impl Response {
    fn reply(line: impl Into<String>) -> Response {
        Response {
            replies: vec![line.into()],
            ..Response::default()
        }
    }

    fn error(text: impl std::fmt::Display) -> Response {
        Response::reply(format!("ERROR {text}"))
    }
}

/// Settings from `INFO` and the command line; they survive `START`.
#[derive(Clone, Debug)]
pub struct Settings {
    /// The game rule.
    pub rule: Rule,
    /// The clock.
    pub time: TimeSettings,
    /// `max_memory` in bytes (0 = no limit).
    pub max_memory: u64,
    /// `hash_size` in KiB, if set.
    pub hash_kib: Option<u64>,
    /// `max_depth`, if set.
    pub max_depth: Option<i32>,
    /// `max_node` (0 = no limit).
    pub max_nodes: u64,
    /// `show_detail`: 0 prints no search output, 1 (the default) one
    /// `MESSAGE` summary line per move, 2 or more also a line per iteration.
    pub show_detail: u8,
    /// Seed for tie-breaking; fixed by `--seed` or `INFO seed`.
    pub seed: Option<u64>,
    /// `thread_num`: search threads, 1 up to the cores present.
    pub threads: usize,
    /// `strength` 0..=100 (see [`Level::from_strength`]); 100 = full.
    pub strength: u8,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            rule: Rule::Freestyle,
            time: TimeSettings::default(),
            max_memory: 0,
            hash_kib: None,
            max_depth: None,
            max_nodes: 0,
            show_detail: 1,
            seed: None,
            threads: 1,
            strength: FULL_STRENGTH,
        }
    }
}

impl Settings {
    /// The transposition table size: `hash_size` if given, else half of what
    /// `max_memory` leaves after a reserve, else a default; never more than
    /// `max_memory` allows nor more than 1 GiB.
    pub fn tt_bytes(&self) -> usize {
        // What max_memory leaves for the table, if it limits anything.
        let memory_cap =
            (self.max_memory > 0).then(|| self.max_memory.saturating_sub(MEMORY_RESERVE) / 2);
        let bytes = match self.hash_kib.filter(|&k| k > 0) {
            Some(kib) => kib.saturating_mul(1024).min(memory_cap.unwrap_or(u64::MAX)),
            None => memory_cap.unwrap_or(DEFAULT_TT_BYTES as u64),
        };
        bytes.clamp(1 << 20, MAX_TT_BYTES) as usize
    }
}

/// A block of stone lines being read.
struct PendingBlock {
    kind: BlockKind,
    stones: Vec<(usize, usize, Option<u8>)>,
    error: Option<String>,
}

/// One line describing a search: depth, score, nodes, speed, time and PV.
fn summary(result: &SearchResult) -> String {
    let pv: Vec<String> = result.pv.iter().map(|p| p.to_string()).collect();
    let ms = result.elapsed.as_millis();
    let nps = result.nodes as u128 * 1000 / ms.max(1);
    format!(
        "depth {} score {} nodes {} nps {} time {} ms pv {}",
        result.depth,
        result.score_text(),
        result.nodes,
        nps,
        ms,
        pv.join(" ")
    )
}

/// `YXNBEST`: a `MESSAGE` line per move found, best first, then the best move.
fn finish_nbest(results: &[SearchResult]) -> Vec<String> {
    let mut replies: Vec<String> = results
        .iter()
        .enumerate()
        .filter(|(_, r)| r.best.is_some())
        .map(|(i, r)| format!("MESSAGE nbest {} {}", i + 1, summary(r)))
        .collect();
    match results.first().and_then(|r| r.best) {
        Some(best) => replies.push(best.to_string()),
        None => replies.push("ERROR no legal move".to_string()),
    }
    replies
}

/// The protocol session.
pub struct Session {
    settings: Settings,
    size: Option<(usize, usize)>,
    stones: Vec<(Pos, Owner)>,
    walls: Vec<Pos>,
    block: Option<PendingBlock>,
    tt: Option<Tt>,
    rng: rand::rngs::StdRng,
}

impl Session {
    /// A session with these starting settings, before any `START`.
    pub fn new(settings: Settings) -> Session {
        let rng = match settings.seed {
            Some(seed) => rand::rngs::StdRng::seed_from_u64(seed),
            None => rand::rngs::StdRng::from_entropy(),
        };
        Session {
            settings,
            size: None,
            stones: Vec::new(),
            walls: Vec::new(),
            block: None,
            tt: None,
            rng,
        }
    }

    /// The current settings.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// Handles one input line, read at `received`.
    pub fn handle_line(&mut self, raw: &str, received: Instant) -> Response {
        let line = raw.trim_matches(|c: char| c.is_whitespace() || c == '\0');
        if line.is_empty() {
            return Response::default();
        }
        if self.block.is_some() {
            return self.block_line(line, received);
        }
        match command::parse(line) {
            Ok(cmd) => self.command(cmd, received),
            Err(ParseError::Error(text)) => Response::error(text),
            Err(ParseError::Unknown(text)) => Response::reply(format!("UNKNOWN {text}")),
        }
    }

    fn command(&mut self, cmd: Command, received: Instant) -> Response {
        match cmd {
            Command::Start { width, height } | Command::RectStart { width, height } => {
                self.start(width, height)
            }
            Command::Restart => match self.size {
                Some(_) => {
                    self.clear_position();
                    Response::reply("OK")
                }
                None => Response::error("no game started: send START first"),
            },
            Command::Begin => {
                if self.size.is_none() {
                    return Response::error("no game started: send START first");
                }
                self.think(ThinkKind::Play, received)
            }
            Command::Turn { x, y } => {
                if let Err(e) = self.check_free(x, y) {
                    return Response::error(e);
                }
                self.stones.push((Pos::new(x, y), Owner::Opponent));
                self.think(ThinkKind::Play, received)
            }
            Command::Block(kind) => {
                let error = self
                    .size
                    .is_none()
                    .then(|| "no game started: send START first".to_string());
                self.block = Some(PendingBlock {
                    kind,
                    stones: Vec::new(),
                    error,
                });
                Response::default()
            }
            Command::Info { key, value } => {
                self.info(&key, &value);
                Response::default()
            }
            Command::End => Response {
                exit: true,
                ..Response::default()
            },
            Command::About => Response::reply(ABOUT),
            Command::Takeback { x, y } => {
                // Check the range before making a `Pos`: huge numbers overflow it.
                let pos = self.on_board(x, y).then(|| Pos::new(x, y));
                match (pos, self.stones.last()) {
                    (Some(pos), Some(&(last, _))) if last == pos => {
                        self.stones.pop();
                        Response::reply("OK")
                    }
                    _ => Response::error(format!("cannot take back {x},{y}: not the last move")),
                }
            }
            Command::Play { x, y } => {
                if let Err(e) = self.check_free(x, y) {
                    return Response::error(e);
                }
                self.stones.push((Pos::new(x, y), Owner::Me));
                Response::reply(format!("{x},{y}"))
            }
            Command::Stop => Response::default(),
            Command::HashClear => {
                if let Some(tt) = self.tt.as_mut() {
                    tt.clear();
                }
                Response::reply("MESSAGE hash table cleared")
            }
            Command::ShowForbid => self.show_forbid(),
            Command::ShowInfo => {
                let threads = max_threads();
                Response {
                    replies: vec![
                        format!("MESSAGE INFO MAX_THREAD_NUM {threads}"),
                        format!(
                            "MESSAGE INFO MAX_HASH_SIZE {}",
                            self.settings.tt_bytes() >> 10
                        ),
                    ],
                    ..Response::default()
                }
            }
            Command::NBest { n } => {
                if self.size.is_none() {
                    return Response::error("no game started: send START first");
                }
                self.think(ThinkKind::NBest(n), received)
            }
        }
    }

    fn start(&mut self, width: usize, height: usize) -> Response {
        let range = MIN_SIZE..=MAX_SIZE;
        if !range.contains(&width) || !range.contains(&height) {
            return Response::error(format!(
                "unsupported board size {width}x{height}: sizes {MIN_SIZE} to {MAX_SIZE} are supported"
            ));
        }
        self.size = Some((width, height));
        self.clear_position();
        Response::reply("OK")
    }

    fn clear_position(&mut self) {
        self.stones.clear();
        self.walls.clear();
    }

    fn on_board(&self, x: usize, y: usize) -> bool {
        self.size.is_some_and(|(w, h)| x < w && y < h)
    }

    fn check_free(&self, x: usize, y: usize) -> Result<(), String> {
        if self.size.is_none() {
            return Err("no game started: send START first".into());
        }
        if !self.on_board(x, y) {
            return Err(format!("move {x},{y} is off the board"));
        }
        let pos = Pos::new(x, y);
        if self.walls.contains(&pos) || self.stones.iter().any(|&(p, _)| p == pos) {
            return Err(format!("move {x},{y} is on an occupied cell"));
        }
        Ok(())
    }

    fn info(&mut self, key: &str, value: &str) {
        let number = value.trim().parse::<i64>().ok();
        // Times are 32-bit in the protocol (2147483647 = unlimited); larger
        // values would overflow the budget arithmetic.
        let ms = |v: i64| v.clamp(0, i32::MAX.into()) as u64;
        let s = &mut self.settings;
        match (key, number) {
            ("timeout_turn", Some(v)) => s.time.turn_ms = Some(ms(v)),
            ("timeout_match", Some(v)) => s.time.match_ms = ms(v),
            ("time_left", Some(v)) => s.time.left_ms = Some(v),
            ("time_increment", Some(v)) => s.time.increment_ms = ms(v),
            ("max_memory", Some(v)) => s.max_memory = v.max(0) as u64,
            ("hash_size", Some(v)) => s.hash_kib = Some(v.max(0) as u64),
            ("rule", Some(v)) => s.rule = Rule::from_bits(v.clamp(0, 15) as u32),
            ("max_depth", Some(v)) => {
                s.max_depth = (v > 0).then_some(v.min(MAX_DEPTH as i64) as i32)
            }
            ("max_node", Some(v)) => s.max_nodes = v.max(0) as u64,
            ("show_detail", Some(v)) => s.show_detail = v.clamp(0, 2) as u8,
            ("thread_num", Some(v)) => {
                s.threads = v.clamp(1, max_threads() as i64) as usize;
            }
            ("strength", Some(v)) => s.strength = v.clamp(0, FULL_STRENGTH.into()) as u8,
            ("seed", Some(v)) => {
                s.seed = Some(v as u64);
                self.rng = rand::rngs::StdRng::seed_from_u64(v as u64);
            }
            _ => {}
        }
    }

    /// The colour of the engine's stones: the side with more stones is black;
    /// with equal counts, the owner of the first stone listed.
    fn my_color(&self) -> Color {
        let mine = self.stones.iter().filter(|s| s.1 == Owner::Me).count();
        let theirs = self.stones.len() - mine;
        let first_is_mine = self.stones.first().is_none_or(|s| s.1 == Owner::Me);
        if mine > theirs || (mine == theirs && first_is_mine) {
            Color::Black
        } else {
            Color::White
        }
    }

    /// The position as a board, `to_move` to move.
    fn board(&self, to_move: Color) -> Option<Board> {
        let (w, h) = self.size?;
        let mut board = Board::new(w, h, self.settings.rule);
        for &pos in &self.walls {
            board.block(pos);
        }
        let mine = self.my_color();
        for &(pos, owner) in &self.stones {
            let color = if owner == Owner::Me {
                mine
            } else {
                mine.opponent()
            };
            board.set_side_to_move(color);
            board.make(pos);
        }
        board.set_side_to_move(to_move);
        Some(board)
    }

    fn think(&mut self, kind: ThinkKind, received: Instant) -> Response {
        let Some(board) = self.board(self.my_color()) else {
            return Response::error("no game started: send START first");
        };
        if board.empty_count() == 0 {
            return Response::error("the board is full");
        }
        let wanted = self.settings.tt_bytes();
        let tt = match self.tt.take() {
            Some(tt) if tt.bytes() == Tt::new_size(wanted) => tt,
            old => {
                // Free the old table first: the peak is what managers measure.
                drop(old);
                Tt::new(wanted)
            }
        };
        let budget: Budget = self.settings.time.budget();
        let limits = Limits {
            start: received,
            budget,
            max_depth: if budget.is_instant() {
                1
            } else {
                self.settings.max_depth.unwrap_or(MAX_DEPTH)
            },
            max_nodes: self.settings.max_nodes,
        };
        Response {
            think: Some(ThinkJob {
                board,
                limits,
                tt,
                seed: self.rng.next_u64(),
                kind,
                threads: self.settings.threads,
                level: Level::from_strength(self.settings.strength),
            }),
            ..Response::default()
        }
    }

    /// Takes back the table and answers a finished search.
    pub fn finish_think(&mut self, outcome: Outcome, tt: Tt, kind: ThinkKind) -> Vec<String> {
        self.tt = Some(tt);
        let result = match outcome {
            Outcome::Search(result) => result,
            Outcome::Swap2(answer) => return self.finish_swap2(answer),
            Outcome::NBest(results) => return finish_nbest(&results),
        };
        let Some(best) = result.best else {
            return vec!["ERROR no legal move".to_string()];
        };
        let mut replies = Vec::new();
        if self.settings.show_detail >= 2 {
            replies.extend(result.iterations.iter().map(|it| {
                let ms = it.elapsed.as_millis();
                format!(
                    "MESSAGE iteration depth {} score {} best {} nodes {} time {} ms",
                    it.depth,
                    score_text(it.score),
                    it.best,
                    it.nodes,
                    ms
                )
            }));
        }
        if self.settings.show_detail >= 1 {
            replies.push(format!("MESSAGE {}", summary(&result)));
        }
        if kind == ThinkKind::Play {
            self.stones.push((best, Owner::Me));
        }
        replies.push(best.to_string());
        replies
    }

    fn show_forbid(&self) -> Response {
        let mut reply = String::from("FORBID ");
        if let Some(board) = self.board(Color::Black) {
            for pos in renju::forbidden_points(&board) {
                reply.push_str(&format!("{:02}{:02}", pos.x(), pos.y()));
            }
        }
        reply.push('.');
        Response::reply(reply)
    }

    fn block_line(&mut self, line: &str, received: Instant) -> Response {
        if line.eq_ignore_ascii_case("DONE") {
            let block = self.block.take();
            return match block {
                Some(block) => self.finish_block(block, received),
                None => Response::default(),
            };
        }
        if let Ok(Command::End) = command::parse(line) {
            return Response {
                exit: true,
                ..Response::default()
            };
        }
        let parsed = command::parse_stone_line(line);
        let size = self.size;
        let on_board = |x: usize, y: usize| size.is_some_and(|(w, h)| x < w && y < h);
        let Some(block) = self.block.as_mut() else {
            return Response::default();
        };
        if block.error.is_none() {
            block.error = match parsed {
                None => Some(format!("bad board line: {line}")),
                Some((x, y, _)) if !on_board(x, y) => {
                    Some(format!("stone {x},{y} is off the board"))
                }
                Some((x, y, _)) if block.stones.iter().any(|s| (s.0, s.1) == (x, y)) => {
                    Some(format!("two stones on {x},{y}"))
                }
                Some((_, _, Some(f))) if !(1..=3).contains(&f) => {
                    Some(format!("bad stone owner in: {line}"))
                }
                Some((_, _, None)) if block.kind != BlockKind::Swap2Board => {
                    Some(format!("bad board line: {line}"))
                }
                Some(stone) => {
                    block.stones.push(stone);
                    None
                }
            };
        }
        Response::default()
    }

    fn finish_block(&mut self, block: PendingBlock, received: Instant) -> Response {
        if let Some(error) = block.error {
            return Response::error(error);
        }
        if block.kind == BlockKind::Swap2Board {
            return self.swap2(&block.stones, received);
        }
        self.clear_position();
        for &(x, y, field) in &block.stones {
            let pos = Pos::new(x, y);
            match field {
                Some(1) => self.stones.push((pos, Owner::Me)),
                Some(2) => self.stones.push((pos, Owner::Opponent)),
                _ => self.walls.push(pos),
            }
        }
        match block.kind {
            BlockKind::Board => self.think(ThinkKind::Play, received),
            _ => Response::default(),
        }
    }

    /// `SWAP2BOARD`: with no stones, propose a three-stone opening; with three
    /// or five stones, take black (`SWAP`), play white's move, or (with three)
    /// add two stones; decided by search on the search thread.
    fn swap2(&mut self, stones: &[(usize, usize, Option<u8>)], received: Instant) -> Response {
        if self.size.is_none() {
            return Response::error("no game started: send START first");
        }
        if ![0, 3, 5].contains(&stones.len()) {
            return Response::error(format!(
                "SWAP2BOARD with {} stones: 0, 3 or 5 expected",
                stones.len()
            ));
        }
        self.clear_position();
        for (i, &(x, y, _)) in stones.iter().enumerate() {
            let owner = if i % 2 == 0 {
                Owner::Opponent
            } else {
                Owner::Me
            };
            self.stones.push((Pos::new(x, y), owner));
        }
        self.think(ThinkKind::Swap2, received)
    }

    /// Records a swap2 decision in the position and answers it. The engine
    /// owns white's stones unless it takes black.
    fn finish_swap2(&mut self, answer: Option<Swap2Answer>) -> Vec<String> {
        let Some(answer) = answer else {
            return vec!["ERROR no swap2 decision".to_string()];
        };
        match answer {
            Swap2Answer::Swap => {
                for (i, stone) in self.stones.iter_mut().enumerate() {
                    stone.1 = if i % 2 == 0 {
                        Owner::Me
                    } else {
                        Owner::Opponent
                    };
                }
            }
            Swap2Answer::Move(white) => self.stones.push((white, Owner::Me)),
            Swap2Answer::TwoMoves(white, black) => {
                self.stones.push((white, Owner::Me));
                self.stones.push((black, Owner::Opponent));
            }
            Swap2Answer::Propose([a, b, c]) => {
                self.stones = vec![(a, Owner::Me), (b, Owner::Opponent), (c, Owner::Me)];
            }
        }
        vec![answer.to_string()]
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicBool;

    use super::*;

    /// A session with short searches (depth 2, a 1 MiB table, a fixed seed)
    /// and no search output, so each reply line is the protocol's answer.
    fn session() -> Session {
        Session::new(Settings {
            max_depth: Some(2),
            hash_kib: Some(1024),
            seed: Some(1),
            show_detail: 0,
            ..Settings::default()
        })
    }

    /// Handles `lines` in order, running every search they start to the end
    /// (as the search thread would); returns all replies.
    fn send(session: &mut Session, lines: &[&str]) -> Vec<String> {
        let mut replies = Vec::new();
        for line in lines {
            let response = session.handle_line(line, Instant::now());
            assert!(!response.exit, "{line:?} ended the session");
            replies.extend(response.replies);
            if let Some(job) = response.think {
                let (outcome, tt, kind) = crate::protocol::run_job(job, &AtomicBool::new(false));
                replies.extend(session.finish_think(outcome, tt, kind));
            }
        }
        replies
    }

    /// The one reply the last of `lines` gets (after the others are sent).
    fn reply(session: &mut Session, lines: &[&str]) -> String {
        let (last, before) = lines.split_last().expect("a line");
        send(session, before);
        let replies = send(session, &[last]);
        assert_eq!(replies.len(), 1, "{lines:?} got {replies:?}");
        replies[0].clone()
    }

    /// A move reply `x,y`.
    fn cell(reply: &str) -> Pos {
        let (x, y) = command::parse_xy(reply).unwrap_or_else(|| panic!("not a move: {reply:?}"));
        Pos::new(x, y)
    }

    fn stone_count(session: &Session) -> usize {
        session.stones.len()
    }

    #[test]
    fn start_accepts_supported_sizes_only() {
        let mut s = session();
        assert_eq!(reply(&mut s, &["START 15"]), "OK");
        assert_eq!(s.size, Some((15, 15)));
        for bad in ["START 4", "START 23", "RECTSTART 30,10"] {
            let r = reply(&mut s, &[bad]);
            assert!(r.starts_with("ERROR unsupported board size"), "{bad}: {r}");
        }
        for bad in ["START", "START x", "START 15 15 15", "RECTSTART 20"] {
            let r = reply(&mut s, &[bad]);
            assert!(r.starts_with("ERROR bad board size"), "{bad}: {r}");
        }
        assert_eq!(s.size, Some((15, 15)), "a refused START keeps the board");
        assert_eq!(reply(&mut s, &["RECTSTART 20,12"]), "OK");
        assert_eq!(s.size, Some((20, 12)));
    }

    #[test]
    fn game_commands_before_start_are_errors() {
        for lines in [
            &["TURN 7,7"][..],
            &["BEGIN"],
            &["RESTART"],
            &["PLAY 7,7"],
            &["YXNBEST 2"],
            &["BOARD", "7,7,1", "DONE"],
            &["YXBOARD", "DONE"],
            &["SWAP2BOARD", "DONE"],
        ] {
            let mut s = session();
            let r = reply(&mut s, lines);
            assert!(
                r.starts_with("ERROR ") && r.contains("START"),
                "{lines:?}: {r}"
            );
            assert_eq!(stone_count(&s), 0);
        }
        let r = reply(&mut session(), &["TAKEBACK 7,7"]);
        assert!(r.starts_with("ERROR cannot take back"), "{r}");
    }

    #[test]
    fn malformed_and_off_board_moves_are_errors() {
        let mut s = session();
        send(&mut s, &["START 15"]);
        for bad in [
            "TURN 7",
            "TURN a,b",
            "TURN 7;7",
            "TURN -1,3",
            "TURN 99999999999999999999,1",
            "PLAY 7",
            "TAKEBACK x",
        ] {
            let r = reply(&mut s, &[bad]);
            assert_eq!(r, format!("ERROR bad move: {bad}"));
        }
        assert_eq!(
            reply(&mut s, &["TURN 15,7"]),
            "ERROR move 15,7 is off the board"
        );
        assert_eq!(
            reply(&mut s, &["PLAY 3,40"]),
            "ERROR move 3,40 is off the board"
        );
        assert_eq!(stone_count(&s), 0, "a refused move places nothing");
    }

    #[test]
    fn occupied_cells_are_errors() {
        let mut s = session();
        send(&mut s, &["START 15"]);
        let answer = reply(&mut s, &["TURN 7,7"]);
        let mine = cell(&answer);
        assert_ne!(mine, Pos::new(7, 7));
        assert!(mine.x() < 15 && mine.y() < 15);
        for taken in ["TURN 7,7".to_string(), format!("TURN {answer}")] {
            let r = reply(&mut s, &[&taken]);
            assert!(r.ends_with("is on an occupied cell"), "{taken}: {r}");
        }
        let r = reply(&mut s, &[&format!("PLAY {answer}")]);
        assert!(r.starts_with("ERROR "), "{r}");
        assert_eq!(stone_count(&s), 2);
    }

    #[test]
    fn turn_takes_a_five_and_blocks_a_four() {
        // The engine (1) has four on row 7: it completes five at an end.
        let mut s = session();
        let lines = ["START 15", "BOARD", "3,7,1", "4,7,1", "5,7,1", "6,7,1"];
        let mut lines = lines.to_vec();
        lines.extend(["3,9,2", "4,9,2", "9,2,2", "12,12,2", "DONE"]);
        let five = cell(&reply(&mut s, &lines));
        assert!([Pos::new(2, 7), Pos::new(7, 7)].contains(&five), "{five}");
        // The opponent's four, capped by the engine at 2,7: block at 7,7.
        let mut s = session();
        let lines = [
            "START 15", "BOARD", "2,7,1", "3,7,2", "4,7,2", "5,7,2", "6,7,2", "10,2,1", "12,11,1",
            "1,13,1", "DONE",
        ];
        assert_eq!(reply(&mut s, &lines), "7,7");
    }

    #[test]
    fn bad_board_blocks_are_errors_and_keep_the_position() {
        let cases = [
            ("garbage", "ERROR bad board line: garbage"),
            ("15,0,1", "ERROR stone 15,0 is off the board"),
            ("1,1,1", "ERROR two stones on 1,1"),
            ("3,3,4", "ERROR bad stone owner in: 3,3,4"),
            ("3,3", "ERROR bad board line: 3,3"),
            ("3,3,1,1", "ERROR bad board line: 3,3,1,1"),
        ];
        for (bad, error) in cases {
            let mut s = session();
            let answer = reply(&mut s, &["START 15", "TURN 7,7"]);
            for kind in ["BOARD", "YXBOARD"] {
                // No reply until DONE, then only the first error.
                let replies = send(&mut s, &[kind, "1,1,1", bad, "2,2,2", "x"]);
                assert!(replies.is_empty(), "{replies:?}");
                assert_eq!(reply(&mut s, &["DONE"]), error, "{kind} with {bad:?}");
                // The game before the block is still there.
                assert_eq!(stone_count(&s), 2);
                let r = reply(&mut s, &[&format!("TURN {answer}")]);
                assert!(r.ends_with("is on an occupied cell"), "{r}");
            }
        }
    }

    #[test]
    fn board_replaces_the_position_and_walls_block_cells() {
        let mut s = session();
        send(&mut s, &["START 15", "TURN 0,0"]);
        // YXBOARD sets the position without a reply; field 3 is a wall.
        let replies = send(&mut s, &["YXBOARD", "7,7,2", "7,8,3", "DONE"]);
        assert!(replies.is_empty(), "{replies:?}");
        assert_eq!(stone_count(&s), 1);
        assert_eq!(s.walls, vec![Pos::new(7, 8)]);
        let r = reply(&mut s, &["TURN 7,8"]);
        assert!(r.ends_with("is on an occupied cell"), "{r}");
        // 0,0 was cleared: the opponent may play it.
        let answer = cell(&reply(&mut s, &["TURN 0,0"]));
        assert!(![Pos::new(7, 7), Pos::new(7, 8), Pos::new(0, 0)].contains(&answer));
    }

    #[test]
    fn a_full_board_is_an_error() {
        let mut s = session();
        let mut lines = vec!["START 5".to_string(), "BOARD".to_string()];
        for y in 0..5 {
            for x in 0..5 {
                // Two colours in 2x1 bricks: no line of five anywhere.
                let owner = 1 + (x / 2 + y) % 2;
                lines.push(format!("{x},{y},{owner}"));
            }
        }
        lines.push("DONE".to_string());
        let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
        assert_eq!(reply(&mut s, &lines), "ERROR the board is full");
    }

    #[test]
    fn unknown_commands_and_blank_lines() {
        let mut s = session();
        assert_eq!(
            reply(&mut s, &["FROBNICATE 1 2"]),
            "UNKNOWN command not understood: FROBNICATE 1 2"
        );
        assert!(send(&mut s, &["", "   ", "\0", "\t\r"]).is_empty());
        // Command words are not case-sensitive.
        assert_eq!(reply(&mut s, &["about"]), ABOUT);
        assert_eq!(reply(&mut s, &["start 10"]), "OK");
    }

    #[test]
    fn takeback_undoes_only_the_last_move() {
        let mut s = session();
        let answer = reply(&mut s, &["START 15", "TURN 7,7"]);
        let r = reply(&mut s, &["TAKEBACK 7,7"]);
        assert_eq!(r, "ERROR cannot take back 7,7: not the last move");
        assert_eq!(reply(&mut s, &[&format!("TAKEBACK {answer}")]), "OK");
        assert_eq!(reply(&mut s, &["TAKEBACK 7,7"]), "OK");
        assert_eq!(stone_count(&s), 0);
        let r = reply(&mut s, &["TAKEBACK 7,7"]);
        assert!(r.starts_with("ERROR "), "{r}");
        let r = reply(&mut s, &["TAKEBACK 99,99"]);
        assert!(r.starts_with("ERROR "), "{r}");
    }

    #[test]
    fn play_places_the_engine_stone() {
        let mut s = session();
        assert_eq!(reply(&mut s, &["START 15", "PLAY 7,7"]), "7,7");
        assert_eq!(s.stones, vec![(Pos::new(7, 7), Owner::Me)]);
        assert_eq!(s.my_color(), Color::Black);
    }

    #[test]
    fn restart_clears_the_position() {
        let mut s = session();
        send(&mut s, &["START 15", "TURN 7,7"]);
        assert_eq!(reply(&mut s, &["RESTART"]), "OK");
        assert_eq!(stone_count(&s), 0);
        assert_eq!(s.size, Some((15, 15)));
        let answer = cell(&reply(&mut s, &["TURN 7,7"]));
        assert_ne!(answer, Pos::new(7, 7));
    }

    #[test]
    fn end_exits_also_inside_a_block() {
        let mut s = session();
        assert!(s.handle_line("END", Instant::now()).exit);
        let mut s = session();
        send(&mut s, &["START 15", "BOARD", "7,7,1"]);
        let response = s.handle_line("end", Instant::now());
        assert!(response.exit && response.replies.is_empty());
    }

    #[test]
    fn info_sets_and_clamps_settings_without_a_reply() {
        let mut s = session();
        let lines = [
            "INFO rule 4",
            "INFO max_depth 1000",
            "INFO thread_num 1000",
            "INFO strength 500",
            "INFO timeout_turn 5000",
            "INFO timeout_turn abc",
            "INFO max_node -5",
            "INFO no_such_key 3",
            "INFO",
        ];
        assert!(send(&mut s, &lines).is_empty());
        let settings = s.settings();
        assert_eq!(settings.rule, Rule::Renju);
        assert_eq!(settings.max_depth, Some(MAX_DEPTH));
        assert_eq!(settings.threads, max_threads());
        assert_eq!(settings.strength, FULL_STRENGTH);
        assert_eq!(settings.time.turn_ms, Some(5000));
        assert_eq!(settings.max_nodes, 0);
        send(&mut s, &["INFO max_depth 0", "INFO rule 1"]);
        assert_eq!(s.settings().max_depth, None);
        assert_eq!(s.settings().rule, Rule::Standard);
        // Settings survive START.
        send(&mut s, &["START 15"]);
        assert_eq!(s.settings().rule, Rule::Standard);
    }

    #[test]
    fn showforbid_lists_black_forbidden_points() {
        // Black's two open twos meet at 7,7: a double three under renju.
        let board = [
            "YXBOARD", "5,7,1", "6,7,1", "7,5,1", "7,6,1", "0,0,2", "14,0,2", "0,14,2", "DONE",
        ];
        let mut s = session();
        send(&mut s, &["START 15", "INFO rule 4"]);
        assert!(send(&mut s, &board).is_empty());
        assert_eq!(reply(&mut s, &["YXSHOWFORBID"]), "FORBID 0707.");
        send(&mut s, &["INFO rule 1"]);
        assert_eq!(reply(&mut s, &["YXSHOWFORBID"]), "FORBID .");
        // With no game the list is empty.
        assert_eq!(reply(&mut session(), &["YXSHOWFORBID"]), "FORBID .");
    }

    #[test]
    fn nbest_reports_moves_without_playing_them() {
        let mut s = session();
        send(&mut s, &["START 15", "YXBOARD", "7,7,2", "DONE"]);
        let replies = send(&mut s, &["YXNBEST 2"]);
        assert_eq!(replies.len(), 3, "{replies:?}");
        assert!(replies[0].starts_with("MESSAGE nbest 1 "), "{replies:?}");
        assert!(replies[1].starts_with("MESSAGE nbest 2 "), "{replies:?}");
        let best = cell(&replies[2]);
        assert_ne!(best, Pos::new(7, 7));
        assert_eq!(stone_count(&s), 1, "YXNBEST plays nothing");
        assert_eq!(
            reply(&mut s, &[&format!("PLAY {}", replies[2])]),
            replies[2]
        );
        for bad in ["YXNBEST 0", "YXNBEST x"] {
            assert_eq!(reply(&mut s, &[bad]), format!("ERROR bad count: {bad}"));
        }
    }

    #[test]
    fn swap2board_answers_by_stone_count() {
        let mut s = session();
        send(&mut s, &["START 15", "INFO timeout_turn 200"]);
        let r = reply(&mut s, &["SWAP2BOARD", "7,7", "DONE"]);
        assert_eq!(r, "ERROR SWAP2BOARD with 1 stones: 0, 3 or 5 expected");
        // No stones: three opening stones, which the session now holds.
        let proposal = reply(&mut s, &["SWAP2BOARD", "DONE"]);
        let cells: Vec<Pos> = proposal.split(' ').map(cell).collect();
        assert_eq!(cells.len(), 3, "{proposal}");
        assert!(cells[0] != cells[1] && cells[1] != cells[2] && cells[0] != cells[2]);
        assert_eq!(stone_count(&s), 3);
        let r = reply(&mut s, &[&format!("TURN {}", cells[2])]);
        assert!(r.ends_with("is on an occupied cell"), "{r}");
        // Three stones: SWAP, one move or two, on free cells.
        let answer = reply(&mut s, &["SWAP2BOARD", "7,7", "8,7", "7,9", "DONE"]);
        if answer != "SWAP" {
            let cells: Vec<Pos> = answer.split(' ').map(cell).collect();
            assert!((1..=2).contains(&cells.len()), "{answer}");
            let opening = [Pos::new(7, 7), Pos::new(8, 7), Pos::new(7, 9)];
            assert!(cells.iter().all(|c| !opening.contains(c)), "{answer}");
            assert_eq!(stone_count(&s), 3 + cells.len());
        }
    }
}
