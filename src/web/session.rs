//! One browser tab: its event stream and the one search it may be running.
//!
//! A tab opens `/api/events` with an id of its own and keeps it open; every
//! search the tab starts reports over that stream. When the stream breaks
//! (the tab closed or went away) the tab's search is stopped. Tabs share
//! nothing but the process.

use std::collections::HashMap;
use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use rand::SeedableRng;

use crate::board::Board;
use crate::cli::engine::Think;
use crate::cli::record::square_name;
use crate::levels::{self, Level};
use crate::search::nbest::n_best;
use crate::search::opening::{Swap2, Swap2Answer};
use crate::search::time::Budget;
use crate::search::tt::Tt;
use crate::search::vcf::Vcf;
use crate::search::vct::Vct;
use crate::search::SEARCH_STACK_BYTES;
use crate::search::{score_text, Limits, SearchResult, Searcher, MATE_BOUND, MAX_DEPTH};
use crate::types::{Color, Pos};

use super::json::{self, Object};

/// How often an idle stream gets a keep-alive comment, which is also how
/// soon a closed tab is noticed.
pub const KEEP_ALIVE: Duration = Duration::from_millis(500);
/// Longest an analysis runs when the page sets no time (it can be stopped).
pub const MAX_ANALYSIS: Duration = Duration::from_secs(3600);
/// Node budget of each threat solver run by `solve`.
const SOLVER_NODES: u64 = 20_000_000;

/// A search a tab asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Task {
    /// The engine's move at a strength level (`move` event).
    Move(Level),
    /// The move full strength would play (`hint` event).
    Hint,
    /// Deepening analysis with the `n` best moves, one `info` event per
    /// depth, then `done`.
    Analyse(usize),
    /// The VCF solver, then the VCT solver (`solve` event).
    Solve,
    /// The engine's decision under swap2 (`swap2` event).
    Swap2,
}

/// What a search is given.
pub struct Job {
    /// The request's id, echoed in every event so the page can drop stale ones.
    pub id: u64,
    /// What to search for.
    pub task: Task,
    /// The position.
    pub board: Board,
    /// The time allowed (`None`: an analysis until stopped).
    pub time: Option<Duration>,
}

struct Running {
    stop: Arc<AtomicBool>,
    handle: JoinHandle<()>,
}

/// One tab's state on the server.
pub struct Session {
    /// Where events go: the tab's open stream, and its number.
    stream: Mutex<(u64, Option<Sender<String>>)>,
    running: Mutex<Option<Running>>,
    tt: Arc<Mutex<Option<Tt>>>,
    tt_bytes: usize,
    threads: usize,
}

impl Session {
    fn new(tt_bytes: usize, threads: usize) -> Session {
        Session {
            stream: Mutex::new((0, None)),
            running: Mutex::new(None),
            tt: Arc::new(Mutex::new(None)),
            tt_bytes,
            threads,
        }
    }

    /// Sends an event (`event: name`, JSON data) to the tab's stream, if open.
    pub fn emit(&self, name: &str, data: &str) {
        let stream = lock(&self.stream);
        if let Some(sender) = &stream.1 {
            let _ = sender.send(format!("event: {name}\ndata: {data}\n\n"));
        }
    }

    /// Stops the running search, if any, and waits for it.
    pub fn stop(&self) {
        let running = lock(&self.running).take();
        if let Some(running) = running {
            running.stop.store(true, Ordering::Relaxed);
            let _ = running.handle.join();
        }
    }

    /// Stops the running search and starts `job` on a thread of its own.
    pub fn start(self: &Arc<Self>, job: Job) -> std::io::Result<()> {
        self.stop();
        let stop = Arc::new(AtomicBool::new(false));
        let (session, flag) = (Arc::clone(self), Arc::clone(&stop));
        let handle = std::thread::Builder::new()
            .name("web search".into())
            .stack_size(SEARCH_STACK_BYTES)
            .spawn(move || session.run(job, &flag))?;
        *lock(&self.running) = Some(Running { stop, handle });
        Ok(())
    }

    fn run(&self, job: Job, stop: &AtomicBool) {
        let mut table = lock(&self.tt);
        let tt = table.get_or_insert_with(|| Tt::new(self.tt_bytes));
        let id = job.id;
        let searched =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.search(job, tt, stop)));
        if searched.is_err() {
            // The table may be half written: start the next search afresh.
            tt.clear();
            let error = Object::new()
                .num("id", id)
                .str("error", "the search failed")
                .end();
            self.emit("failed", &error);
        }
    }

    fn search(&self, job: Job, tt: &mut Tt, stop: &AtomicBool) {
        let Job {
            id,
            task,
            board,
            time,
        } = job;
        let time = time.unwrap_or(MAX_ANALYSIS);
        let mut rng = rand::rngs::StdRng::from_entropy();
        match task {
            Task::Move(_) | Task::Hint => {
                let level = match task {
                    Task::Move(level) => level,
                    _ => Level::Full,
                };
                let limits = Think::Time(time).limits();
                let result =
                    levels::choose_move(&board, level, limits, tt, stop, self.threads, &mut rng);
                let name = if task == Task::Hint { "hint" } else { "move" };
                self.emit(name, &result_json(id, &result));
            }
            Task::Analyse(n) => self.analyse(id, &board, n, time, tt, stop),
            Task::Solve => self.emit("solve", &solve(id, &board, time, stop)),
            Task::Swap2 => {
                let limits = Think::Time(time).limits();
                let mut swap2 = Swap2 { tt, stop, limits };
                let (answer, stones) = match swap2.decide(&board, &mut rng) {
                    None => ("none", Vec::new()),
                    Some(Swap2Answer::Swap) => ("swap", Vec::new()),
                    Some(Swap2Answer::Move(p)) => ("move", vec![p]),
                    Some(Swap2Answer::TwoMoves(a, b)) => ("two", vec![a, b]),
                    Some(Swap2Answer::Propose(stones)) => ("propose", stones.to_vec()),
                };
                let data = Object::new()
                    .num("id", id)
                    .str("answer", answer)
                    .raw("stones", &json::squares(&stones))
                    .end();
                self.emit("swap2", &data);
            }
        }
    }

    /// Deepens one depth at a time, each a search of its own on the kept
    /// table (so the earlier depths come back from it), and reports each.
    fn analyse(
        &self,
        id: u64,
        board: &Board,
        n: usize,
        time: Duration,
        tt: &mut Tt,
        stop: &AtomicBool,
    ) {
        let start = Instant::now();
        let mut nodes = 0;
        let mut reason = "depth";
        for depth in 1..=MAX_DEPTH {
            let left = time.saturating_sub(start.elapsed());
            let limits = Limits {
                start: Instant::now(),
                budget: Budget {
                    soft: left,
                    hard: left,
                },
                max_depth: depth,
                max_nodes: 0,
            };
            let results = if n > 1 {
                n_best(board, tt, stop, limits, n)
            } else {
                vec![Searcher::new(board, tt, stop, limits)
                    .threads(self.threads)
                    .run(None)]
            };
            if stop.load(Ordering::Relaxed) {
                reason = "stopped";
                break;
            }
            let Some(first) = results.first().filter(|r| r.best.is_some()) else {
                reason = "no move";
                break;
            };
            // A depth cut short by the clock is not reported.
            if first.depth < depth && start.elapsed() >= time {
                reason = "time";
                break;
            }
            nodes += results.iter().map(|r| r.nodes).sum::<u64>();
            let elapsed = start.elapsed();
            let nps = (nodes as f64 / elapsed.as_secs_f64().max(1e-3)) as u64;
            let best: Vec<String> = results
                .iter()
                .filter_map(|r| {
                    let at = r.best?;
                    Some(
                        Object::new()
                            .raw("at", &format!("[{},{}]", at.x(), at.y()))
                            .num("score", r.score)
                            .str("scoreText", &score_text(r.score))
                            .end(),
                    )
                })
                .collect();
            let data = Object::new()
                .num("id", id)
                .num("depth", first.depth.max(1))
                .num("score", first.score)
                .str("scoreText", &first.score_text())
                .num("nodes", nodes)
                .num("nps", nps)
                .num("ms", elapsed.as_millis())
                .raw("pv", &json::squares(&first.pv))
                .str("pvText", &names(&first.pv))
                .raw("best", &json::array(best))
                .end();
            self.emit("info", &data);
            // A proven result, or a position answered without a search
            // (a five, a forced win, a single move), will not change.
            if first.score.abs() > MATE_BOUND || first.depth < depth {
                reason = "solved";
                break;
            }
            if start.elapsed() >= time {
                reason = "time";
                break;
            }
        }
        let data = Object::new().num("id", id).str("reason", reason).end();
        self.emit("done", &data);
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Moves as names: `h8 i9 j10`.
fn names(line: &[Pos]) -> String {
    let names: Vec<String> = line.iter().map(|p| square_name((p.x(), p.y()))).collect();
    names.join(" ")
}

fn result_json(id: u64, result: &SearchResult) -> String {
    let at = result.best.map(|p| format!("[{},{}]", p.x(), p.y()));
    Object::new()
        .num("id", id)
        .raw("at", at.as_deref().unwrap_or("null"))
        .num("score", result.score)
        .str("scoreText", &result.score_text())
        .num("depth", result.depth)
        .num("nodes", result.nodes)
        .num("ms", result.elapsed.as_millis())
        .raw("pv", &json::squares(&result.pv))
        .str("pvText", &names(&result.pv))
        .end()
}

/// The VCF solver, then the VCT solver, for the side to move.
fn solve(id: u64, board: &Board, time: Duration, stop: &AtomicBool) -> String {
    let start = Instant::now();
    let mut vcf = Vcf::new(board, stop, start, time, SOLVER_NODES);
    let (mut line, mut kind, mut nodes) = (vcf.solve(), "VCF", vcf.nodes());
    if line.is_none() && !stop.load(Ordering::Relaxed) {
        let mut vct = Vct::new(board, stop, start, time, SOLVER_NODES);
        line = vct.solve();
        kind = "VCT";
        nodes += vct.nodes();
    }
    let line = line.unwrap_or_default();
    let side = match board.side_to_move() {
        Color::Black => "black",
        Color::White => "white",
    };
    Object::new()
        .num("id", id)
        .opt_str("kind", (!line.is_empty()).then_some(kind))
        .str("side", side)
        .raw("line", &json::squares(&line))
        .str("lineText", &names(&line))
        .num("nodes", nodes)
        .num("ms", start.elapsed().as_millis())
        .end()
}

/// Every tab the server knows, by the id its page chose.
pub struct Sessions {
    map: Mutex<HashMap<String, Arc<Session>>>,
    streams: AtomicU64,
    tt_bytes: usize,
    threads: usize,
}

impl Sessions {
    /// No tabs yet; each gets a `tt_bytes` hash table and searches with
    /// `threads` threads.
    pub fn new(tt_bytes: usize, threads: usize) -> Sessions {
        Sessions {
            map: Mutex::new(HashMap::new()),
            streams: AtomicU64::new(0),
            tt_bytes,
            threads,
        }
    }

    /// The tab with this id, if its stream is open.
    pub fn get(&self, id: &str) -> Option<Arc<Session>> {
        lock(&self.map).get(id).cloned()
    }

    /// Serves a tab's event stream on `out` (the raw connection) until it
    /// breaks, then stops the tab's search and forgets the tab (unless the
    /// page has opened a newer stream under the same id meanwhile).
    pub fn stream(&self, id: &str, mut out: Box<dyn Write + Send>) {
        let head = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\
                    Cache-Control: no-cache\r\nConnection: close\r\n\r\n: open\n\n";
        if out
            .write_all(head.as_bytes())
            .and_then(|_| out.flush())
            .is_err()
        {
            return;
        }
        let number = self.streams.fetch_add(1, Ordering::Relaxed) + 1;
        let (sender, events): (Sender<String>, Receiver<String>) = channel();
        let session = Arc::clone(
            lock(&self.map)
                .entry(id.to_string())
                .or_insert_with(|| Arc::new(Session::new(self.tt_bytes, self.threads))),
        );
        *lock(&session.stream) = (number, Some(sender));
        session.emit("ready", &Object::new().str("session", id).end());
        loop {
            let text = match events.recv_timeout(KEEP_ALIVE) {
                Ok(text) => text,
                Err(RecvTimeoutError::Timeout) => ": alive\n\n".to_string(),
                Err(RecvTimeoutError::Disconnected) => break,
            };
            if out
                .write_all(text.as_bytes())
                .and_then(|_| out.flush())
                .is_err()
            {
                break;
            }
        }
        let mut map = lock(&self.map);
        let current = lock(&session.stream).0 == number;
        if current {
            map.remove(id);
            drop(map);
            *lock(&session.stream) = (number, None);
            session.stop();
        }
    }
}
