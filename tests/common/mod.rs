//! Helpers shared by the integration tests. This file: running the engine
//! binary with a deadline and checking its reply lines. `board`: positions
//! and the fixed-budget search; `data` and `fixtures`: the readers of the
//! files in `tests/data/`.

#![allow(dead_code)]

pub mod board;
pub mod data;
pub mod fixtures;

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};
use std::time::{Duration, Instant};

use regex::Regex;

/// The engine binary cargo built for these tests.
pub const ENGINE: &str = env!("CARGO_BIN_EXE_pbrain-wuzi");

/// Environment variable naming another engine command line to test instead
/// of [`ENGINE`], split on whitespace, e.g.
/// `WUZI_ENGINE="wine target/x86_64-pc-windows-gnu/release/pbrain-wuzi.exe"`
/// (`scripts/build-windows.sh --test`). Unset or blank: [`ENGINE`].
pub const ENGINE_VAR: &str = "WUZI_ENGINE";

/// The `WUZI_ENGINE` command line, if one is set.
fn engine_override() -> Option<&'static [String]> {
    static OVERRIDE: OnceLock<Option<Vec<String>>> = OnceLock::new();
    OVERRIDE
        .get_or_init(|| {
            let value = std::env::var_os(ENGINE_VAR)?;
            let words: Vec<String> = value
                .to_string_lossy()
                .split_whitespace()
                .map(str::to_string)
                .collect();
            (!words.is_empty()).then_some(words)
        })
        .as_deref()
}

/// Whether the tests drive an engine given by `WUZI_ENGINE`.
pub fn engine_overridden() -> bool {
    engine_override().is_some()
}

/// The command line the tests run: `WUZI_ENGINE`'s words, or [`ENGINE`].
pub fn engine_command() -> Vec<String> {
    match engine_override() {
        Some(words) => words.to_vec(),
        None => vec![ENGINE.to_string()],
    }
}

/// Extra time an engine from `WUZI_ENGINE` gets before a deadline counts as
/// missed: Wine takes seconds to start a process and adds latency to every
/// exit. Zero for the engine cargo built, so the default checks are as tight
/// as ever.
#[derive(Clone, Copy, Debug)]
pub struct Allowance {
    /// Added wherever a deadline includes starting the process.
    pub start: Duration,
    /// Added to the deadlines of replies and exits of a running process.
    pub reply: Duration,
}

/// The [`Allowance`] for the engine under test.
pub fn allowance() -> Allowance {
    if engine_overridden() {
        Allowance {
            start: Duration::from_secs(5),
            reply: Duration::from_secs(2),
        }
    } else {
        Allowance {
            start: Duration::ZERO,
            reply: Duration::ZERO,
        }
    }
}

/// Whether a stderr line is Wine's own chatter rather than the engine's: a
/// debug-channel line (`0024:fixme:ntdll:…`, `err:module:…`, also with
/// `+pid`/`+tid`/`+timestamp` prefixes), a `wine: …` / `wineserver: …` notice
/// (e.g. "wine: created the configuration directory"), a `wine client error:`
/// line (Wine 8 sometimes prints "wine client error:604: sendmsg: Socket
/// operation on non-socket" for a thread it tears down at process exit), or
/// the hint Debian's `wine` wrapper prints when wine32 is not installed.
pub fn is_wine_noise(line: &str) -> bool {
    const WRAPPER_HINT: &[&str] = &[
        "it looks like wine32 is missing",
        "multiarch needs to be enabled first",
        "execute \"dpkg --add-architecture i386",
        "apt-get install wine32",
        "as root, please execute",
    ];
    static CHANNEL: OnceLock<Regex> = OnceLock::new();
    let channel = CHANNEL.get_or_init(|| {
        Regex::new(r"^(?:[0-9a-fA-F.]+:)*(?:fixme|err|warn|trace):[\w.-]*:").unwrap()
    });
    let line = line.trim_end_matches('\r');
    channel.is_match(line)
        || line.starts_with("wine: ")
        || line.starts_with("wineserver: ")
        || line.starts_with("wine client error:")
        || WRAPPER_HINT.iter().any(|hint| line.starts_with(hint))
}

/// Splits the engine's stderr into what the checks see and Wine's lines:
/// unchanged (and nothing of Wine's) for the engine cargo built; for a
/// `WUZI_ENGINE` command, Wine's lines ([`is_wine_noise`]) go to the second
/// part, so "stderr is empty" still means "the engine wrote nothing".
pub fn split_stderr(raw: Vec<u8>) -> (Vec<u8>, Vec<u8>) {
    if !engine_overridden() {
        return (raw, Vec::new());
    }
    let (mut kept, mut wine) = (Vec::new(), Vec::new());
    for line in raw.split_inclusive(|&b| b == b'\n') {
        let text = String::from_utf8_lossy(line);
        if is_wine_noise(text.trim_end_matches('\n')) {
            wine.extend_from_slice(line);
        } else {
            kept.extend_from_slice(line);
        }
    }
    (kept, wine)
}

/// Wine's stderr lines, for a failure report (empty when there are none).
pub fn wine_report(wine: &[u8]) -> String {
    if wine.is_empty() {
        String::new()
    } else {
        format!("\nWine's stderr:\n{}", String::from_utf8_lossy(wine))
    }
}

/// Largest board side the protocol (and the engine) supports.
pub const MAX_SIZE: usize = 22;

/// How the engine's environment is set up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Logging {
    /// As under a manager: no logging variables, so nothing may reach stderr.
    Off,
    /// `WUZI_LOG=error`: a panic the engine catches is logged to stderr, so
    /// the "stderr is empty" check also catches hidden panics.
    Errors,
}

fn command(args: &[&str], logging: Logging) -> Command {
    let words = engine_command();
    let mut cmd = Command::new(&words[0]);
    cmd.args(&words[1..])
        .args(args)
        .env_remove("WUZI_LOG")
        .env_remove("WUZI_LOG_FILE")
        .env_remove("RUST_BACKTRACE")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if logging == Logging::Errors {
        cmd.env("WUZI_LOG", "error");
    }
    cmd
}

/// What a finished (or killed) engine run produced.
#[derive(Debug)]
pub struct Run {
    /// The exit status; `None` if the run hit its deadline and was killed.
    pub status: Option<ExitStatus>,
    /// Everything written to stdout.
    pub stdout: Vec<u8>,
    /// Everything written to stderr (less Wine's lines under `WUZI_ENGINE`:
    /// [`split_stderr`]).
    pub stderr: Vec<u8>,
    /// Wine's lines taken out of `stderr` (empty without `WUZI_ENGINE`).
    pub wine_stderr: Vec<u8>,
    /// Wall-clock time until the process exited (or was killed).
    pub elapsed: Duration,
}

impl Run {
    /// Stdout as text, split into lines (a final unterminated line counts).
    pub fn lines(&self) -> Vec<String> {
        split_lines(&self.stdout)
    }

    /// Checks exit status 0 within the deadline and an empty stderr.
    pub fn check_clean_exit(&self) -> Result<(), String> {
        let wine = wine_report(&self.wine_stderr);
        match self.status {
            None => {
                return Err(format!(
                    "no exit within the deadline ({:?}){wine}",
                    self.elapsed
                ))
            }
            Some(s) if !s.success() => return Err(format!("exit status {s}{wine}")),
            Some(_) => {}
        }
        if !self.stderr.is_empty() {
            return Err(format!(
                "stderr is not empty:\n{}{wine}",
                String::from_utf8_lossy(&self.stderr)
            ));
        }
        Ok(())
    }
}

/// Splits raw output into lines on LF. A CR is kept in the line, so the
/// reply-form check reports it.
pub fn split_lines(bytes: &[u8]) -> Vec<String> {
    let text = String::from_utf8_lossy(bytes);
    let mut lines: Vec<String> = text.split('\n').map(str::to_string).collect();
    if lines.last().is_some_and(|l| l.is_empty()) {
        lines.pop();
    }
    lines
}

fn drain<R: Read + Send + 'static>(mut from: R) -> std::thread::JoinHandle<Vec<u8>> {
    std::thread::spawn(move || {
        let mut buf = Vec::new();
        let _ = from.read_to_end(&mut buf);
        buf
    })
}

/// Runs the engine with `args`, feeding `input` (then closing stdin), and
/// waits at most `deadline` (plus the start-up [`allowance`] of a
/// `WUZI_ENGINE` command) for it to exit; kills it after that.
pub fn run_engine(args: &[&str], input: Vec<u8>, deadline: Duration, logging: Logging) -> Run {
    let deadline = deadline + allowance().start;
    let start = Instant::now();
    let mut child = command(args, logging)
        .spawn()
        .expect("cannot start the engine");
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        // The engine may exit (END) before reading everything: ignore EPIPE.
        let _ = stdin.write_all(&input);
    });
    let out = drain(child.stdout.take().unwrap());
    let err = drain(child.stderr.take().unwrap());
    let status = wait_until(&mut child, start + deadline);
    let elapsed = start.elapsed();
    if status.is_none() {
        let _ = child.kill();
        let _ = child.wait();
    }
    let _ = writer.join();
    let (stderr, wine_stderr) = split_stderr(err.join().unwrap());
    Run {
        status,
        stdout: out.join().unwrap(),
        stderr,
        wine_stderr,
        elapsed,
    }
}

fn wait_until(child: &mut Child, until: Instant) -> Option<ExitStatus> {
    loop {
        if let Ok(Some(status)) = child.try_wait() {
            return Some(status);
        }
        if Instant::now() >= until {
            return None;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// The deadline of a whole live engine process: when it passes, the process
/// is killed, so a test blocked on it (writing to a full pipe, waiting for a
/// line) fails instead of hanging.
struct Watchdog {
    /// Dropped when the process is done with: the watchdog then stands down.
    _cancel: Sender<()>,
    /// Set when the deadline passed and the process was killed.
    expired: Arc<AtomicBool>,
    deadline: Duration,
}

impl Watchdog {
    fn start(child: Arc<Mutex<Child>>, deadline: Duration) -> Watchdog {
        let (cancel, cancelled) = channel::<()>();
        let expired = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&expired);
        std::thread::spawn(move || {
            if cancelled.recv_timeout(deadline) == Err(RecvTimeoutError::Timeout) {
                flag.store(true, Ordering::SeqCst);
                let _ = lock(&child).kill();
            }
        });
        Watchdog {
            _cancel: cancel,
            expired,
            deadline,
        }
    }

    /// Panics if the deadline passed (the process was killed).
    fn check(&self) {
        assert!(
            !self.expired.load(Ordering::SeqCst),
            "the engine's deadline of {:?} passed: killed",
            self.deadline
        );
    }
}

fn lock(child: &Mutex<Child>) -> MutexGuard<'_, Child> {
    child.lock().unwrap_or_else(|e| e.into_inner())
}

/// An engine process driven interactively, as a manager drives it: lines are
/// written one at a time and replies read with deadlines, and the whole
/// process has a deadline too.
pub struct LiveEngine {
    child: Arc<Mutex<Child>>,
    watchdog: Watchdog,
    stdin: Option<ChildStdin>,
    lines: Receiver<(String, Instant)>,
    stderr: Option<std::thread::JoinHandle<Vec<u8>>>,
    /// Every stdout line received so far.
    pub transcript: Vec<String>,
    /// Wine's stderr lines, taken out of what [`LiveEngine::wait_exit`]
    /// returns (empty without `WUZI_ENGINE`).
    pub wine_stderr: Vec<u8>,
}

impl LiveEngine {
    /// Starts the engine with `args`; it is killed once `deadline` (plus the
    /// start-up [`allowance`] of a `WUZI_ENGINE` command) has passed, and
    /// every use after that fails the test.
    pub fn spawn(args: &[&str], logging: Logging, deadline: Duration) -> LiveEngine {
        let mut child = command(args, logging)
            .spawn()
            .expect("cannot start the engine");
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match reader.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        let mut line = String::from_utf8_lossy(&buf).into_owned();
                        if line.ends_with('\n') {
                            line.pop();
                        }
                        if tx.send((line, Instant::now())).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        let stderr = Some(drain(child.stderr.take().unwrap()));
        let child = Arc::new(Mutex::new(child));
        let watchdog = Watchdog::start(Arc::clone(&child), deadline + allowance().start);
        LiveEngine {
            child,
            watchdog,
            stdin,
            lines,
            stderr,
            transcript: Vec::new(),
            wine_stderr: Vec::new(),
        }
    }

    /// Writes one command line (LF-terminated) and returns when it was sent.
    pub fn send(&mut self, line: &str) -> Instant {
        let stdin = self.stdin.as_mut().expect("stdin already closed");
        let sent = stdin
            .write_all(format!("{line}\n").as_bytes())
            .and_then(|_| stdin.flush());
        self.watchdog.check();
        sent.unwrap_or_else(|e| panic!("cannot write {line:?} to the engine: {e}"));
        Instant::now()
    }

    /// Writes raw bytes, as they are.
    pub fn send_raw(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin already closed");
        let sent = stdin.write_all(bytes).and_then(|_| stdin.flush());
        self.watchdog.check();
        sent.unwrap_or_else(|e| panic!("cannot write to the engine: {e}"));
    }

    /// Closes stdin (end of input).
    pub fn close_stdin(&mut self) {
        self.stdin = None;
    }

    /// The next stdout line, if one arrives within `timeout`, with its arrival
    /// time. Every line is checked to be a legal reply form.
    pub fn recv(&mut self, timeout: Duration) -> Option<(String, Instant)> {
        match self.lines.recv_timeout(timeout) {
            Ok((line, at)) => {
                if let Err(e) = legal_reply(&line) {
                    panic!("{e}\ntranscript so far: {:#?}", self.transcript);
                }
                self.transcript.push(line.clone());
                Some((line, at))
            }
            Err(RecvTimeoutError::Timeout) | Err(RecvTimeoutError::Disconnected) => {
                self.watchdog.check();
                None
            }
        }
    }

    /// The next line that is not `MESSAGE`/`DEBUG`, within `timeout` in all.
    pub fn recv_reply(&mut self, timeout: Duration) -> Option<(String, Instant)> {
        let until = Instant::now() + timeout;
        loop {
            let left = until.saturating_duration_since(Instant::now());
            let (line, at) = self.recv(left)?;
            if !is_chat(&line) {
                return Some((line, at));
            }
        }
    }

    /// Any line that arrives within `timeout` (None if stdout stays quiet).
    pub fn quiet_for(&mut self, timeout: Duration) -> Option<String> {
        self.recv(timeout).map(|(line, _)| line)
    }

    /// Waits at most `timeout` for the process to exit; kills it otherwise.
    /// Returns the exit status (None on timeout) and the stderr bytes (less
    /// Wine's lines under `WUZI_ENGINE`, which go to `wine_stderr`).
    pub fn wait_exit(&mut self, timeout: Duration) -> (Option<ExitStatus>, Vec<u8>) {
        let status = {
            let mut child = lock(&self.child);
            let status = wait_until(&mut child, Instant::now() + timeout);
            if status.is_none() {
                let _ = child.kill();
                let _ = child.wait();
            }
            status
        };
        self.watchdog.check();
        self.stdin = None;
        let stderr = self
            .stderr
            .take()
            .map(|h| h.join().unwrap())
            .unwrap_or_default();
        let (stderr, wine) = split_stderr(stderr);
        self.wine_stderr = wine;
        (status, stderr)
    }

    /// Drains stdout lines still buffered (after exit).
    pub fn rest(&mut self) -> Vec<String> {
        let mut rest = Vec::new();
        while let Ok((line, _)) = self.lines.recv_timeout(Duration::from_millis(200)) {
            rest.push(line);
        }
        rest
    }
}

impl Drop for LiveEngine {
    fn drop(&mut self) {
        let mut child = lock(&self.child);
        if let Ok(None) = child.try_wait() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// Whether a line is a `MESSAGE`/`DEBUG` chat line.
pub fn is_chat(line: &str) -> bool {
    line.starts_with("MESSAGE ") || line.starts_with("DEBUG ")
}

/// Parses a move reply `x,y`.
pub fn parse_move(line: &str) -> Option<(usize, usize)> {
    static MOVE: OnceLock<Regex> = OnceLock::new();
    let pattern = MOVE.get_or_init(|| Regex::new(r"^\d+,\d+$").unwrap());
    if !pattern.is_match(line) {
        return None;
    }
    let (x, y) = line.split_once(',')?;
    Some((x.parse().ok()?, y.parse().ok()?))
}

/// The reply forms an engine may print (PROTOCOL.md, "Replies" and the
/// Yixin-Board extensions), as anchored patterns.
const REPLY_FORMS: &[(&str, &str)] = &[
    ("move", r"^\d{1,2},\d{1,2}$"),
    ("OK", r"^OK$"),
    ("ERROR", r"^ERROR \S.*$"),
    ("UNKNOWN", r"^UNKNOWN \S.*$"),
    ("MESSAGE", r"^MESSAGE \S.*$"),
    ("DEBUG", r"^DEBUG \S.*$"),
    (
        "ABOUT",
        r#"^name="[^"]+", version="[^"]*", author="[^"]*", country="[^"]*"(, www="[^"]*")?(, email="[^"]*")?$"#,
    ),
    ("FORBID", r"^FORBID (\d{4})*\.$"),
    ("swap2 moves", r"^\d{1,2},\d{1,2}( \d{1,2},\d{1,2}){1,2}$"),
    ("SWAP", r"^SWAP$"),
];

/// Checks that `line` is one of the legal reply forms, has no control
/// characters, and that any coordinates it holds fit the largest board.
pub fn legal_reply(line: &str) -> Result<(), String> {
    if let Some(c) = line.chars().find(|c| c.is_control()) {
        return Err(format!("control character {c:?} in reply line {line:?}"));
    }
    static FORMS: OnceLock<Vec<(&str, Regex)>> = OnceLock::new();
    let forms = FORMS.get_or_init(|| {
        REPLY_FORMS
            .iter()
            .map(|&(name, pattern)| (name, Regex::new(pattern).unwrap()))
            .collect()
    });
    let form = forms.iter().find(|(_, pattern)| pattern.is_match(line));
    match form {
        None => Err(format!("not a legal reply form: {line:?}")),
        Some((name, _)) if *name == "move" || *name == "swap2 moves" => {
            for mv in line.split(' ') {
                let (x, y) = parse_move(mv).unwrap();
                if x >= MAX_SIZE || y >= MAX_SIZE {
                    return Err(format!("move off every board: {line:?}"));
                }
            }
            Ok(())
        }
        Some(_) => Ok(()),
    }
}

/// A board kept by a test to check the engine's moves (freestyle rules).
pub struct TestBoard {
    pub width: usize,
    pub height: usize,
    cells: Vec<u8>,
}

impl TestBoard {
    /// An empty board.
    pub fn new(width: usize, height: usize) -> TestBoard {
        TestBoard {
            width,
            height,
            cells: vec![0; width * height],
        }
    }

    /// The stone on a cell: 0 empty, otherwise the player number.
    pub fn get(&self, x: usize, y: usize) -> u8 {
        self.cells[y * self.width + x]
    }

    /// Whether `(x, y)` is on the board and empty.
    pub fn is_free(&self, x: usize, y: usize) -> bool {
        x < self.width && y < self.height && self.get(x, y) == 0
    }

    /// Puts `player`'s stone on a free cell.
    pub fn put(&mut self, x: usize, y: usize, player: u8) {
        assert!(self.is_free(x, y), "{x},{y} is not free");
        self.cells[y * self.width + x] = player;
    }

    /// The empty cells.
    pub fn free_cells(&self) -> Vec<(usize, usize)> {
        (0..self.height)
            .flat_map(|y| (0..self.width).map(move |x| (x, y)))
            .filter(|&(x, y)| self.get(x, y) == 0)
            .collect()
    }

    /// Whether the stone on `(x, y)` is part of five or more in a row.
    pub fn makes_five(&self, x: usize, y: usize) -> bool {
        self.longest_line(x, y) >= 5
    }

    /// The longest line `player` would have through the free cell `(x, y)`.
    pub fn line_if(&self, x: usize, y: usize, player: u8) -> usize {
        let mut board = TestBoard {
            width: self.width,
            height: self.height,
            cells: self.cells.clone(),
        };
        board.put(x, y, player);
        board.longest_line(x, y)
    }

    /// The longest line of stones through the stone on `(x, y)`.
    pub fn longest_line(&self, x: usize, y: usize) -> usize {
        let player = self.get(x, y);
        if player == 0 {
            return 0;
        }
        [(1isize, 0isize), (0, 1), (1, 1), (1, -1)]
            .iter()
            .map(|&(dx, dy)| {
                let mut count = 1;
                for sign in [1isize, -1] {
                    let (mut cx, mut cy) = (x as isize, y as isize);
                    loop {
                        cx += dx * sign;
                        cy += dy * sign;
                        if cx < 0
                            || cy < 0
                            || cx >= self.width as isize
                            || cy >= self.height as isize
                            || self.get(cx as usize, cy as usize) != player
                        {
                            break;
                        }
                        count += 1;
                    }
                }
                count
            })
            .max()
            .unwrap_or(0)
    }
}
