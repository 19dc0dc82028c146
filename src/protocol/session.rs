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
