//! Protocol tests.
//!
//! * `scripted_sessions` runs every `protocol-tests/NAME.in` through the
//!   engine and compares stdout with `NAME.out` (the format is described in
//!   `protocol-tests/README.md`).
//! * The `live_*` tests drive the engine interactively, as a manager does,
//!   without `--script`: END / end of input / YXSTOP / `INFO timeout_turn 0`
//!   while thinking, and whole games.
//!
//! No test measures time: every wait is a deadline against a hang, generous
//! enough for a loaded two-core machine, and far from the times the engine is
//! told to use where a test checks that it stops early (a 30 s or 60 s budget
//! against a [`PROMPT`] deadline). How fast the engine answers is measured by
//! `pbrain-wuzi bench` and the match scripts, not here. Every engine process
//! has a deadline as a whole ([`CASE_DEADLINE`], [`LIVE_DEADLINE`]).
//!
//! `WUZI_ENGINE="wine target/x86_64-pc-windows-gnu/release/pbrain-wuzi.exe"`
//! runs all of this against another engine command (split on whitespace)
//! instead of the binary cargo built (`scripts/build-windows.sh --test`).
//! Then Wine's own stderr lines (`fixme:`/`err:` channels, `wine:` notices,
//! `wine client error:`; `common::is_wine_noise`) are dropped before
//! "stderr is empty" is checked, and the deadlines get an allowance for
//! Wine's slow process start (`common::allowance`); without `WUZI_ENGINE`
//! nothing changes.

mod common;

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

use common::{
    allowance, is_chat, is_wine_noise, legal_reply, parse_move, run_engine, wine_report,
    LiveEngine, Logging, TestBoard,
};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use regex::Regex;

/// Arguments used when a case has no `NAME.args` file.
const DEFAULT_ARGS: &[&str] = &["--script", "--seed", "1"];
/// Longest a single scripted case may run.
const CASE_DEADLINE: Duration = Duration::from_secs(30);
/// How long a live test waits for the engine to start answering at all.
const STARTUP: Duration = Duration::from_secs(5);
/// How soon END / end of input must end the process, and YXSTOP (or a
/// budget of no time) must bring the move.
const PROMPT: Duration = Duration::from_secs(2);
/// Longest a live engine process may run (the longest, a 40-move game at
/// 200 ms a move, takes about 10 s).
const LIVE_DEADLINE: Duration = Duration::from_secs(120);

/// [`STARTUP`], plus the start-up allowance of a `WUZI_ENGINE` command.
fn startup() -> Duration {
    STARTUP + allowance().start
}

/// [`PROMPT`], plus the reply allowance of a `WUZI_ENGINE` command.
fn prompt() -> Duration {
    PROMPT + allowance().reply
}

/// The live tests run one at a time, so they do not compete for the CPU with
/// each other (the scripted cases use both cores).
fn serial() -> MutexGuard<'static, ()> {
    static SERIAL: Mutex<()> = Mutex::new(());
    SERIAL.lock().unwrap_or_else(|e| e.into_inner())
}

fn cases_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("protocol-tests")
}

/// The case names: every `NAME.in` in `protocol-tests/`, sorted.
fn case_names() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(cases_dir())
        .expect("protocol-tests/ is missing")
        .filter_map(|entry| {
            let name = entry.ok()?.file_name().into_string().ok()?;
            name.strip_suffix(".in").map(str::to_string)
        })
        .collect();
    names.sort();
    names
}

/// One expected line of a `.out` file.
enum Expect {
    /// The line must be exactly this.
    Exact(String),
    /// `~ REGEX`: the line must match.
    Match(Regex, String),
    /// `!~ REGEX`: the line must not match (it still has to be a legal reply).
    NoMatch(Regex, String),
}

impl Expect {
    fn check(&self, line: &str) -> bool {
        match self {
            Expect::Exact(text) => line == text,
            Expect::Match(re, _) => re.is_match(line),
            Expect::NoMatch(re, _) => !re.is_match(line),
        }
    }

    fn text(&self) -> String {
        match self {
            Expect::Exact(text) => text.clone(),
            Expect::Match(_, pattern) => format!("~ {pattern}"),
            Expect::NoMatch(_, pattern) => format!("!~ {pattern}"),
        }
    }

    /// Whether this line is about a MESSAGE/DEBUG reply.
    fn is_chat(&self) -> bool {
        let text = match self {
            Expect::Exact(text) => text.as_str(),
            Expect::Match(_, p) | Expect::NoMatch(_, p) => p.trim_start_matches('^'),
        };
        text.starts_with("MESSAGE") || text.starts_with("DEBUG")
    }
}

/// Parses a `.out` file: `#` comments and blank lines are skipped.
fn parse_out(text: &str) -> Result<Vec<Expect>, String> {
    let mut expects = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.strip_suffix('\r').unwrap_or(raw);
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let compile = |p: &str| Regex::new(p).map_err(|e| format!("line {}: {e}", i + 1));
        let expect = if let Some(p) = line.strip_prefix("~ ") {
            Expect::Match(compile(p)?, p.to_string())
        } else if let Some(p) = line.strip_prefix("!~ ") {
            Expect::NoMatch(compile(p)?, p.to_string())
        } else {
            Expect::Exact(line.to_string())
        };
        expects.push(expect);
    }
    Ok(expects)
}

/// Runs one case; `Err` holds a report of what went wrong.
fn run_case(name: &str) -> Result<(), String> {
    let dir = cases_dir();
    let input = std::fs::read(dir.join(format!("{name}.in"))).map_err(|e| e.to_string())?;
    let out = std::fs::read_to_string(dir.join(format!("{name}.out")))
        .map_err(|e| format!("{name}.out: {e}"))?;
    let expects = parse_out(&out)?;
    let args_text = std::fs::read_to_string(dir.join(format!("{name}.args"))).ok();
    let args: Vec<&str> = match &args_text {
        Some(text) => text.split_whitespace().collect(),
        None => DEFAULT_ARGS.to_vec(),
    };
    let run = run_engine(&args, input, CASE_DEADLINE, Logging::Errors);
    let lines = run.lines();
    let transcript = || {
        lines
            .iter()
            .enumerate()
            .map(|(i, l)| format!("  {:3}: {l:?}\n", i + 1))
            .collect::<String>()
    };
    run.check_clean_exit()
        .map_err(|e| format!("{e}\nstdout:\n{}", transcript()))?;
    for line in &lines {
        legal_reply(line).map_err(|e| format!("{e}\nstdout:\n{}", transcript()))?;
        if line.contains("internal error") {
            return Err(format!(
                "internal error reported\nstdout:\n{}",
                transcript()
            ));
        }
    }
    let with_chat = expects.iter().any(Expect::is_chat);
    let actual: Vec<&String> = lines
        .iter()
        .filter(|line| with_chat || !is_chat(line))
        .collect();
    let mismatch =
        (0..expects.len().max(actual.len())).find(|&i| match (expects.get(i), actual.get(i)) {
            (Some(e), Some(a)) => !e.check(a),
            _ => true,
        });
    if let Some(i) = mismatch {
        let expected = expects.get(i).map_or("(nothing more)".into(), Expect::text);
        let got = actual
            .get(i)
            .map_or("(nothing more)".into(), |l| format!("{l:?}"));
        return Err(format!(
            "reply {} (not counting {}): expected {expected}, got {got}\nstdout:\n{}",
            i + 1,
            if with_chat {
                "nothing"
            } else {
                "MESSAGE/DEBUG lines"
            },
            transcript()
        ));
    }
    Ok(())
}

#[test]
fn scripted_sessions() {
    let names = case_names();
    assert!(names.len() >= 30, "too few cases found: {names:?}");
    let next = AtomicUsize::new(0);
    let failures = Mutex::new(Vec::new());
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get().min(4));
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                let Some(name) = names.get(i) else { break };
                let known_bug = cases_dir().join(format!("{name}.known-bug"));
                let known_bug = std::fs::read_to_string(known_bug).ok();
                match (run_case(name), known_bug) {
                    (Ok(()), None) => {}
                    (Err(report), None) => failures
                        .lock()
                        .unwrap()
                        .push(format!("=== {name}: {report}")),
                    (Err(report), Some(bug)) => {
                        println!("=== {name}: fails as expected (known bug: {bug}){report}")
                    }
                    (Ok(()), Some(_)) => failures.lock().unwrap().push(format!(
                        "=== {name}: passes now: the known bug is fixed, delete {name}.known-bug"
                    )),
                }
            });
        }
    });
    let failures = failures.into_inner().unwrap();
    assert!(
        failures.is_empty(),
        "{} of {} cases failed:\n{}",
        failures.len(),
        names.len(),
        failures.join("\n")
    );
}

/// Every `.in` has a `.out`, every `.out` and `.args` has a `.in`, and the
/// CRLF cases still hold CRLF (git must not normalise them).
#[test]
fn case_files_are_complete() {
    let dir = cases_dir();
    let names = case_names();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let file = entry.unwrap().file_name().into_string().unwrap();
        for ext in [".out", ".args", ".known-bug"] {
            if let Some(name) = file.strip_suffix(ext) {
                assert!(names.iter().any(|n| n == name), "{file} has no {name}.in");
            }
        }
    }
    for name in &names {
        assert!(
            dir.join(format!("{name}.out")).exists(),
            "{name}.in has no {name}.out"
        );
        if name.contains("crlf") {
            let input = std::fs::read(dir.join(format!("{name}.in"))).unwrap();
            let lf = input.iter().filter(|&&b| b == b'\n').count();
            let crlf = input.windows(2).filter(|w| w == b"\r\n").count();
            assert!(
                lf > 0 && lf == crlf,
                "{name}.in should use CRLF line ends throughout ({crlf} of {lf})"
            );
        }
    }
    let attributes = std::fs::read_to_string(dir.join(".gitattributes")).unwrap();
    assert!(attributes.lines().any(|l| l.trim() == "*.in -text"));
}

/// What the `WUZI_ENGINE` mode drops from stderr: Wine's lines, never the
/// engine's (a logged panic, a `thread 'main' panicked` message).
#[test]
fn wine_noise_filter_works() {
    for noise in [
        "0024:fixme:ntdll:NtQuerySystemInformation info_class SYSTEM_PERFORMANCE_INFORMATION",
        "0110:err:module:import_dll Library bcryptprimitives.dll not found",
        "fixme:heap:RtlSetHeapInformation 0x0 1 0x0 0 stub",
        "0024:0028:warn:seh:dispatch_exception unhandled",
        "1234.567:0024:fixme:ver:GetCurrentPackageId stub\r",
        "wine: created the configuration directory '/tmp/wineprefix'",
        "wine client error:604: sendmsg: Socket operation on non-socket",
        "it looks like wine32 is missing, you should install it.",
    ] {
        assert!(is_wine_noise(noise), "{noise:?} is Wine's");
    }
    for engine in [
        "[2024-06-01T12:00:00Z ERROR wuzi::protocol] internal error: panic",
        "thread 'main' panicked at src/main.rs:1:1:",
        "called `Result::unwrap()` on an `Err` value: x",
        "error: unexpected argument",
        "",
    ] {
        assert!(!is_wine_noise(engine), "{engine:?} is the engine's");
    }
}

/// A live engine's whole-process deadline: past it the process is killed
/// and the waiting test fails at once, instead of waiting on its own
/// (longer) receive deadline or hanging.
#[test]
fn live_deadline_kills_the_engine_and_fails() {
    let deadline = Duration::from_millis(300);
    let mut engine = LiveEngine::spawn(&["--seed", "1"], Logging::Off, deadline);
    // The engine waits for input and prints nothing.
    let waited = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        engine.recv(LIVE_DEADLINE + allowance().start)
    }));
    let message = waited.expect_err("recv returned although the engine was killed");
    let text = message
        .downcast_ref::<String>()
        .cloned()
        .unwrap_or_default();
    assert!(
        text.contains("deadline") && text.contains("killed"),
        "{text}"
    );
}

#[test]
fn reply_form_check_works() {
    for good in [
        "7,7",
        "OK",
        "ERROR bad move: TURN 7",
        "UNKNOWN command not understood: FOO",
        "MESSAGE depth 3 score 12 pv 7,7 8,8",
        "DEBUG x",
        r#"name="Wuzi", version="0.1.0", author="A B", country="CZ""#,
        r#"name="Wuzi", version="1", author="A", country="B", www="w", email="e""#,
        "FORBID 07080911.",
        "FORBID .",
        "7,7 8,7 8,9",
        "7,7 8,8",
        "SWAP",
    ] {
        assert!(legal_reply(good).is_ok(), "{good:?} should be legal");
    }
    for bad in [
        "7,7 ",
        " 7,7",
        "7, 7",
        "MESSAGE",
        "MESSAGE ",
        "ERROR",
        "ok",
        "Ok",
        "SUGGEST 7,7",
        "FORBID 0708",
        "FORBID 070.",
        "22,0",
        "7,7\r",
        "ERROR a\u{1b}b",
        "",
        "7,7 8,8 9,9 10,10",
    ] {
        assert!(legal_reply(bad).is_err(), "{bad:?} should be rejected");
    }
}

// ---------------------------------------------------------------------------
// Live tests: no --script, commands written one at a time.
// ---------------------------------------------------------------------------

fn live_engine() -> LiveEngine {
    LiveEngine::spawn(&["--seed", "1"], Logging::Off, LIVE_DEADLINE)
}

/// Expects the next non-chat reply to be exactly `want`.
fn expect_reply(engine: &mut LiveEngine, want: &str, within: Duration) {
    match engine.recv_reply(within) {
        Some((line, _)) => assert_eq!(line, want, "transcript: {:#?}", engine.transcript),
        None => panic!(
            "no reply {want:?} within {within:?}; transcript: {:#?}",
            engine.transcript
        ),
    }
}

/// Expects a move on a free cell of `board` within `within`, puts it there
/// for `player`, and returns it with its arrival time.
fn expect_move(
    engine: &mut LiveEngine,
    board: &mut TestBoard,
    player: u8,
    within: Duration,
) -> ((usize, usize), Instant) {
    let Some((line, at)) = engine.recv_reply(within) else {
        panic!(
            "no move within {within:?}; transcript: {:#?}",
            engine.transcript
        );
    };
    let Some((x, y)) = parse_move(&line) else {
        panic!(
            "expected a move, got {line:?}; transcript: {:#?}",
            engine.transcript
        );
    };
    assert!(
        board.is_free(x, y),
        "move {x},{y} is not on a free cell; transcript: {:#?}",
        engine.transcript
    );
    board.put(x, y, player);
    ((x, y), at)
}

/// Sets up a quiet 15×15 middle-game position (no forced moves, so the
/// search keeps thinking) and returns the test's copy of it. The engine owns
/// the stones marked 1.
fn quiet_position(engine: &mut LiveEngine, board: &mut TestBoard) {
    engine.send("YXBOARD");
    for (x, y, f) in [(7, 7, 2), (8, 8, 1), (7, 8, 2), (6, 9, 1), (9, 6, 2)] {
        engine.send(&format!("{x},{y},{f}"));
        board.put(x, y, f);
    }
    engine.send("DONE");
}

/// Starts a 15×15 game with a long move budget and leaves the engine
/// thinking about its answer to an opponent move. Returns the board.
fn start_thinking(engine: &mut LiveEngine) -> TestBoard {
    let mut board = TestBoard::new(15, 15);
    engine.send("START 15");
    expect_reply(engine, "OK", startup());
    engine.send("INFO timeout_turn 60000");
    quiet_position(engine, &mut board);
    engine.send("TURN 11,11");
    board.put(11, 11, 2);
    // Give it time to be well inside the search; nothing may come out yet
    // (a MESSAGE line only comes with the move).
    if let Some(line) = engine.quiet_for(Duration::from_millis(400)) {
        panic!("unexpected output while thinking: {line:?}");
    }
    board
}

fn assert_clean_exit(engine: &mut LiveEngine, within: Duration, what: &str) {
    let started = Instant::now();
    let (status, stderr) = engine.wait_exit(within);
    let wine = wine_report(&engine.wine_stderr);
    let Some(status) = status else {
        panic!(
            "{what}: the engine did not exit within {within:?}; transcript: {:#?}{wine}",
            engine.transcript
        );
    };
    assert!(status.success(), "{what}: exit status {status}{wine}");
    assert!(
        stderr.is_empty(),
        "{what}: stderr not empty: {}{wine}",
        String::from_utf8_lossy(&stderr)
    );
    let rest = engine.rest();
    for line in &rest {
        assert!(
            is_chat(line) || parse_move(line).is_none(),
            "{what}: a move was printed after all ({line:?}, exit after {:?})",
            started.elapsed()
        );
    }
}

#[test]
fn live_startup_is_silent_and_about_comes_first() {
    let _serial = serial();
    let mut engine = live_engine();
    if let Some(line) = engine.quiet_for(Duration::from_millis(300)) {
        panic!("the engine printed {line:?} at start-up");
    }
    engine.send("ABOUT");
    let (line, _) = engine.recv(startup()).expect("no ABOUT reply");
    assert!(line.starts_with("name=\"Wuzi\""), "{line:?}");
    engine.send("END");
    assert_clean_exit(&mut engine, prompt(), "END");
}

#[test]
fn live_end_while_thinking_exits_at_once() {
    let _serial = serial();
    let mut engine = live_engine();
    start_thinking(&mut engine);
    engine.send("END");
    assert_clean_exit(&mut engine, prompt(), "END while thinking");
}

#[test]
fn live_end_of_input_while_thinking_exits_at_once() {
    let _serial = serial();
    let mut engine = live_engine();
    start_thinking(&mut engine);
    engine.close_stdin();
    assert_clean_exit(&mut engine, prompt(), "end of input while thinking");
}

#[test]
fn live_yxstop_and_stop_answer_at_once() {
    let _serial = serial();
    let mut engine = live_engine();
    let mut board = start_thinking(&mut engine);
    // The move budget is 60 s: a move within PROMPT is YXSTOP's doing.
    engine.send("YXSTOP");
    expect_move(&mut engine, &mut board, 1, prompt());
    // The game goes on, and STOP works the same way.
    engine.send("TURN 0,14");
    board.put(0, 14, 2);
    std::thread::sleep(Duration::from_millis(400));
    engine.send("stop");
    expect_move(&mut engine, &mut board, 1, prompt());
    // A stop with nothing to stop gets no reply.
    engine.send("YXSTOP");
    if let Some(line) = engine.quiet_for(Duration::from_millis(300)) {
        panic!("YXSTOP while idle printed {line:?}");
    }
    engine.send("END");
    assert_clean_exit(&mut engine, prompt(), "END");
}

#[test]
fn live_info_timeout_turn_zero_answers_at_once() {
    let _serial = serial();
    let mut engine = live_engine();
    let mut board = start_thinking(&mut engine);
    engine.send("INFO timeout_turn 0");
    expect_move(&mut engine, &mut board, 1, prompt());
    // The setting stays: the next move comes at once too (not after 60 s).
    engine.send("TURN 0,14");
    board.put(0, 14, 2);
    expect_move(&mut engine, &mut board, 1, prompt());
    engine.send("END");
    assert_clean_exit(&mut engine, prompt(), "END");
}

#[test]
fn live_no_game_time_left_answers_at_once() {
    let _serial = serial();
    let mut engine = live_engine();
    let mut board = TestBoard::new(15, 15);
    engine.send("START 15");
    expect_reply(&mut engine, "OK", startup());
    engine.send("INFO timeout_turn 30000");
    engine.send("INFO timeout_match 1000");
    quiet_position(&mut engine, &mut board);
    // Warm up (allocates the hash table), with plenty of game time.
    engine.send("INFO time_left 1000");
    engine.send("TURN 11,11");
    board.put(11, 11, 2);
    expect_move(
        &mut engine,
        &mut board,
        1,
        Duration::from_secs(3) + allowance().reply,
    );
    // With no game time left the move comes at once, not after the 30 s
    // turn budget.
    for (time_left, turn) in [("0", (0, 14)), ("-50", (14, 0))] {
        engine.send(&format!("INFO time_left {time_left}"));
        engine.send(&format!("TURN {},{}", turn.0, turn.1));
        board.put(turn.0, turn.1, 2);
        expect_move(&mut engine, &mut board, 1, prompt());
    }
    engine.send("END");
    assert_clean_exit(&mut engine, prompt(), "END");
}

/// Commands other than END/STOP/INFO that arrive while the engine thinks are
/// answered after the move, in order.
#[test]
fn live_commands_while_thinking_wait_for_the_move() {
    let _serial = serial();
    let mut engine = live_engine();
    let mut board = TestBoard::new(15, 15);
    engine.send("START 15");
    expect_reply(&mut engine, "OK", startup());
    engine.send("INFO timeout_turn 600");
    quiet_position(&mut engine, &mut board);
    engine.send("TURN 11,11");
    board.put(11, 11, 2);
    engine.send("ABOUT");
    engine.send("FROBNICATE");
    engine.send("TURN 11,11");
    let budget = Duration::from_millis(600);
    expect_move(&mut engine, &mut board, 1, budget + prompt());
    let (about, _) = engine.recv_reply(prompt()).expect("no ABOUT reply");
    assert!(about.starts_with("name="), "{about:?}");
    let (unknown, _) = engine.recv_reply(prompt()).expect("no UNKNOWN reply");
    assert!(unknown.starts_with("UNKNOWN "), "{unknown:?}");
    let (occupied, _) = engine.recv_reply(prompt()).expect("no ERROR reply");
    assert!(occupied.starts_with("ERROR "), "{occupied:?}");
    engine.send("END");
    assert_clean_exit(&mut engine, prompt(), "END");
}

/// The test's move (it plays 2, the engine 1): a five if it has one, else a
/// block of the engine's five or four, else a random cell near the stones.
fn opponent_move(board: &TestBoard, rng: &mut impl Rng) -> (usize, usize) {
    let free = board.free_cells();
    for (player, length) in [(2, 5), (1, 5), (1, 4)] {
        let hits: Vec<_> = free
            .iter()
            .copied()
            .filter(|&(x, y)| board.line_if(x, y, player) >= length)
            .collect();
        if let Some(&cell) = hits.choose(rng) {
            return cell;
        }
    }
    let (cx, cy) = (board.width / 2, board.height / 2);
    let near: Vec<_> = free
        .into_iter()
        .filter(|&(x, y)| {
            (x.abs_diff(cx) <= 1 && y.abs_diff(cy) <= 1)
                || (y.saturating_sub(2)..(y + 3).min(board.height)).any(|yy| {
                    (x.saturating_sub(2)..(x + 3).min(board.width)).any(|xx| board.get(xx, yy) != 0)
                })
        })
        .collect();
    *near.choose(rng).unwrap()
}

/// Realistic games: the test plays simple moves near the stones, the engine,
/// on a 200 ms budget and a game clock, answers every move on a free cell.
/// (How long it takes is `bench`'s and the match scripts' business; the
/// deadline here only catches a hang.)
#[test]
fn live_full_games() {
    let _serial = serial();
    let budget = Duration::from_millis(200);
    let mut rng = rand::rngs::StdRng::seed_from_u64(20240601);
    for size in [15usize, 20, 15, 20] {
        let mut engine = live_engine();
        let mut board = TestBoard::new(size, size);
        engine.send(&format!("START {size}"));
        expect_reply(&mut engine, "OK", startup());
        for info in [
            "INFO timeout_turn 200",
            "INFO timeout_match 180000",
            "INFO max_memory 367001600",
            "INFO game_type 1",
            "INFO rule 0",
        ] {
            engine.send(info);
        }
        let mut moves = 0;
        let mut time_left: i64 = 180_000;
        let mut slowest = Duration::ZERO;
        let outcome = loop {
            if moves == 40 {
                break "40 moves";
            }
            let (x, y) = opponent_move(&board, &mut rng);
            board.put(x, y, 2);
            if board.makes_five(x, y) {
                break "the test made five";
            }
            engine.send(&format!("INFO time_left {time_left}"));
            let sent = engine.send(&format!("TURN {x},{y}"));
            let ((ex, ey), at) = expect_move(&mut engine, &mut board, 1, budget + prompt());
            let took = at - sent;
            slowest = slowest.max(took);
            time_left -= took.as_millis() as i64;
            moves += 1;
            if board.makes_five(ex, ey) {
                break "the engine made five";
            }
        };
        assert!(moves >= 4, "{outcome} after {moves} moves");
        println!("{size}x{size}: {outcome} after {moves} moves, slowest reply {slowest:?}");
        engine.send("END");
        assert_clean_exit(&mut engine, prompt(), "END after the game");
    }
}
