//! The pbrain protocol loop.
//!
//! A reader thread turns input lines into events; the search runs on its own
//! thread and reports back through the same channel. The loop stays
//! responsive while thinking: `END` and end of input exit at once, `YXSTOP`,
//! `STOP` and `INFO timeout_turn 0` make the search answer now, `INFO` keeps
//! being applied, a new position (`START`, `BOARD`, …) makes it answer now
//! and is then taken up, and every other command waits until the move is
//! answered.
//! Live analysis output (for Yixin-Board) comes from the search thread as
//! events too.

pub mod command;
pub mod live;
pub mod session;
pub mod yixin;

use std::collections::VecDeque;
use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{channel, Sender};
use std::sync::Arc;
use std::time::Instant;

use rand::SeedableRng;

use crate::levels::{self, Level};
use crate::search::nbest::n_best;
use crate::search::opening::OpeningSearch;
use crate::search::tt::Tt;
use crate::search::{nearest_free_cell, Observer, SearchResult, Searcher, SEARCH_STACK_BYTES};
use live::LiveOutput;
use session::{Outcome, Response, Session, Settings, ThinkJob, ThinkKind};

enum Event {
    Line(String, Instant),
    Eof,
    Done(Box<(Outcome, Tt, ThinkKind)>),
    /// Live analysis lines from the search thread.
    Live(Vec<String>),
}

/// Reads `input` line by line into events until end of input. A line ends at
/// LF, CRLF or a lone CR, so a stray CR never joins two commands into one.
fn spawn_reader<R: BufRead + Send + 'static>(mut input: R, events: Sender<Event>) {
    std::thread::spawn(move || {
        let emit = |line: &mut Vec<u8>| {
            let text = String::from_utf8_lossy(line).into_owned();
            line.clear();
            events.send(Event::Line(text, Instant::now())).is_ok()
        };
        let mut line = Vec::new();
        let mut after_cr = false;
        loop {
            let buf = match input.fill_buf() {
                Ok([]) => break,
                Ok(buf) => buf,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(_) => break,
            };
            for &byte in buf {
                match byte {
                    // The LF of a CRLF: the CR already ended the line.
                    b'\n' if after_cr => {}
                    b'\n' | b'\r' => {
                        if !emit(&mut line) {
                            idle_forever();
                        }
                    }
                    _ => line.push(byte),
                }
                after_cr = byte == b'\r';
            }
            let used = buf.len();
            input.consume(used);
        }
        if line.is_empty() || emit(&mut line) {
            let _ = events.send(Event::Eof);
        }
        idle_forever()
    });
}

/// Parks the calling thread for good. The helper threads never end on their
/// own: under Wine a thread ending while the main thread exits the process
/// can get the process killed (seen in about 1 run in 20 of the protocol
/// tests), so they stay parked until the process is gone.
fn idle_forever() -> ! {
    loop {
        std::thread::park();
    }
}

/// A search for the worker thread: the job and its stop flag.
type Request = (ThinkJob, Arc<AtomicBool>);

/// Starts the one search thread: it runs each job it receives and reports
/// the outcome as an event.
fn spawn_worker(events: Sender<Event>) -> std::io::Result<Sender<Request>> {
    let (jobs_tx, jobs) = channel::<Request>();
    std::thread::Builder::new()
        .name("search".into())
        .stack_size(SEARCH_STACK_BYTES)
        .spawn(move || {
            while let Ok((job, stop)) = jobs.recv() {
                let done = run_job(job, &stop, &events);
                if events.send(Event::Done(Box::new(done))).is_err() {
                    break;
                }
            }
            idle_forever()
        })?;
    Ok(jobs_tx)
}

/// Runs one job; a panic in the search still yields a legal move.
fn run_job(job: ThinkJob, stop: &AtomicBool, events: &Sender<Event>) -> (Outcome, Tt, ThinkKind) {
    let ThinkJob {
        board,
        limits,
        mut tt,
        seed,
        kind,
        threads,
        level,
        blocked,
        live,
    } = job;
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    let count = match kind {
        ThinkKind::NBest(n) => n,
        _ => 1,
    };
    let live = live.map(|mode| {
        let events = events.clone();
        LiveOutput::new(mode, limits.start, count, move |lines| {
            let _ = events.send(Event::Live(lines));
        })
    });
    let observer = live.as_ref().map(|l| l as &dyn Observer);
    let searched = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| match &kind {
        ThinkKind::Swap2 => {
            let mut swap2 = OpeningSearch {
                tt: &mut tt,
                stop,
                limits,
            };
            Outcome::Swap2(swap2.decide(&board, &mut rng))
        }
        ThinkKind::NBest(n) => {
            let mut results = n_best(&board, &mut tt, stop, limits, *n, &blocked, observer);
            yixin::score_lone_moves(&board, &mut tt, stop, limits, observer, &mut results);
            Outcome::NBest(results)
        }
        ThinkKind::Yixin(job) => {
            let context = yixin::Context {
                tt: &mut tt,
                stop,
                limits,
                blocked: &blocked,
                observer,
                detail: live.as_ref().is_some_and(|l| l.mode().detail),
            };
            Outcome::Yixin(yixin::run(job, &board, context, &mut rng))
        }
        // Full strength with blocked moves or a GUI watching: the search
        // itself (the same as `levels::choose_move` at full strength).
        ThinkKind::Play if level == Level::Full && (observer.is_some() || !blocked.is_empty()) => {
            Outcome::Search(
                Searcher::new(&board, &mut tt, stop, limits)
                    .threads(threads)
                    .excluding(&blocked)
                    .observed(observer)
                    .run(Some(&mut rng)),
            )
        }
        ThinkKind::Play => Outcome::Search(levels::choose_move(
            &board, level, limits, &mut tt, stop, threads, &mut rng,
        )),
    }));
    let outcome = searched.unwrap_or_else(|_| {
        let mut board = board.clone();
        Outcome::Search(SearchResult {
            best: nearest_free_cell(&mut board),
            score: 0,
            depth: 0,
            nodes: 0,
            elapsed: limits.start.elapsed(),
            iterations: Vec::new(),
            pv: Vec::new(),
            thread_nodes: Vec::new(),
        })
    });
    if let Outcome::Search(result) = &outcome {
        log::info!(
            "depth {} score {} nodes {} time {:?} best {:?}",
            result.depth,
            result.score_text(),
            result.nodes,
            result.elapsed,
            result.best.map(|p| p.to_string())
        );
    }
    (outcome, tt, kind)
}

/// Writes each line and flushes; false once the manager has gone. Control
/// characters (which an echoed input line may hold) become `?`, so one reply
/// is always exactly one line.
fn send(output: &mut impl Write, lines: &[String]) -> bool {
    for line in lines {
        let line = line.replace(
            |c: char| c.is_control() || c == '\u{2028}' || c == '\u{2029}',
            "?",
        );
        log::debug!(">> {line}");
        if writeln!(output, "{line}")
            .and_then(|_| output.flush())
            .is_err()
        {
            return false;
        }
    }
    true
}

/// Whether a line, read while thinking, must act at once rather than wait.
enum Urgency {
    Exit,
    Stop,
    Info,
    /// A new position (only a GUI sends one while the engine thinks, e.g.
    /// Yixin-Board's New Game or Undo): stop and answer now, then take it up.
    Preempt,
    Later,
}

fn urgency(line: &str) -> Urgency {
    let word = line
        .split_whitespace()
        .next()
        .unwrap_or("")
        .to_ascii_uppercase();
    match word.as_str() {
        "END" => Urgency::Exit,
        "YXSTOP" | "STOP" => Urgency::Stop,
        "INFO" => Urgency::Info,
        "START" | "RECTSTART" | "RESTART" | "BOARD" | "YXBOARD" => Urgency::Preempt,
        _ => Urgency::Later,
    }
}

/// How the loop treats input that arrives while the engine thinks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputMode {
    /// As a manager expects: `END`, end of input, `YXSTOP` and
    /// `INFO timeout_turn 0` act at once, even mid-search.
    Live,
    /// For scripted command files piped in: every command, and the end of
    /// input, waits until the search before it has answered.
    Script,
}

/// Speaks the protocol: reads commands from `input`, writes replies to
/// `output`, until `END` or end of input.
pub fn run<R: BufRead + Send + 'static, W: Write>(
    input: R,
    mut output: W,
    settings: Settings,
    mode: InputMode,
) {
    let (events_tx, events) = channel();
    spawn_reader(input, events_tx.clone());
    let worker = spawn_worker(events_tx);
    let mut session = Session::new(settings);
    let mut waiting: VecDeque<Event> = VecDeque::new();
    let mut stop: Option<Arc<AtomicBool>> = None;
    let stop_search = |stop: &Option<Arc<AtomicBool>>| {
        if let Some(flag) = stop {
            flag.store(true, Ordering::Relaxed);
        }
    };
    loop {
        // Lines held back while thinking are handled first, in order.
        let event = match (stop.is_none(), waiting.pop_front()) {
            // A scripted command's clock starts when it is taken up.
            (true, Some(Event::Line(line, _))) if mode == InputMode::Script => {
                Event::Line(line, Instant::now())
            }
            (true, Some(held)) => held,
            (_, held) => {
                if let Some(held) = held {
                    waiting.push_front(held);
                }
                match events.recv() {
                    Ok(event) => event,
                    Err(_) => break,
                }
            }
        };
        match event {
            Event::Eof if stop.is_some() && mode == InputMode::Script => {
                waiting.push_back(Event::Eof)
            }
            Event::Eof => break,
            Event::Done(done) => {
                let (outcome, tt, kind) = *done;
                stop = None;
                if !send(&mut output, &session.finish_think(outcome, tt, kind)) {
                    break;
                }
                session.replied();
            }
            Event::Live(lines) => {
                if !send(&mut output, &lines) {
                    break;
                }
            }
            Event::Line(line, at) => {
                log::debug!("<< {}", line.trim_end());
                if stop.is_some() && mode == InputMode::Script {
                    waiting.push_back(Event::Line(line, at));
                    continue;
                }
                if stop.is_some() {
                    match urgency(&line) {
                        Urgency::Exit => break,
                        Urgency::Stop => stop_search(&stop),
                        Urgency::Info => {
                            session.handle_line(&line, at);
                            if session.settings().time.budget().is_instant() {
                                stop_search(&stop);
                            }
                        }
                        Urgency::Preempt => {
                            stop_search(&stop);
                            waiting.push_back(Event::Line(line, at));
                        }
                        Urgency::Later => waiting.push_back(Event::Line(line, at)),
                    }
                    continue;
                }
                let Response {
                    replies,
                    think,
                    exit,
                } = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    session.handle_line(&line, at)
                }))
                .unwrap_or_else(|_| Response {
                    replies: vec![format!("ERROR internal error on: {}", line.trim())],
                    ..Response::default()
                });
                if exit || !send(&mut output, &replies) {
                    break;
                }
                if let Some(job) = think {
                    let flag = Arc::new(AtomicBool::new(false));
                    let started = match &worker {
                        Ok(jobs) => jobs.send((job, flag.clone())).is_ok(),
                        Err(_) => false,
                    };
                    if !started {
                        send(
                            &mut output,
                            &["ERROR cannot start the search thread".to_string()],
                        );
                        continue;
                    }
                    stop = Some(flag);
                }
            }
        }
    }
    stop_search(&stop);
}
