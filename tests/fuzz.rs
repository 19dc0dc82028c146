//! Protocol fuzzing: thousands of random and mutated command lines, from
//! fixed seeds, fed to the engine binary. Whatever comes in, the engine must
//! not crash or hang, must keep stderr empty (it runs with `WUZI_LOG=error`,
//! so a panic it catches is logged there), and every line it prints must be
//! one of the legal reply forms.
//!
//! * `fuzz_script_rounds`: 5 processes × 3000 lines in `--script` mode:
//!   random bytes (invalid UTF-8, NUL, CR), every command word with garbage
//!   arguments, huge and negative numbers, commas and blanks in odd places,
//!   BOARD blocks (some left open), short games, and mutated lines and whole
//!   sessions from `protocol-tests/*.in`.
//! * `fuzz_live_*`: the same kind of input in live mode, written as fast as
//!   possible, ended by end of input or (after a sentinel) by END.
//! * `fuzz_model_based_games`: well-formed random games checked against a
//!   model of the position (moves on free cells, OK/ERROR where due).
//!
//! Searches are kept short: the session starts with `INFO timeout_turn 20`,
//! and after every line that sets an INFO value the generator re-sends
//! `INFO max_depth 2` and a small hash table, so a fuzzed setting never makes
//! a search long (a fuzzed huge timeout_turn stays: it must be survived). END
//! is left out (except where a round ends with it), so all input is handled.
//!
//! For a longer hunt: `WUZI_FUZZ_ROUNDS=100 cargo test --test fuzz`; to replay
//! a round by hand, `WUZI_FUZZ_DUMP=DIR` writes each round's input there.

mod common;

use std::path::Path;
use std::time::{Duration, Instant};

use common::{legal_reply, parse_move, run_engine, LiveEngine, Logging, Run};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};

/// Lines per round.
const LINES: usize = 3000;
/// Longest one round (one engine process) may take.
const DEADLINE: Duration = Duration::from_secs(60);
/// Longest the engine of `fuzz_model_based_games` may run.
const GAMES_DEADLINE: Duration = Duration::from_secs(300);
/// Lines that keep searches short; sent after any INFO line.
/// (A fuzzed timeout_turn is left in place: the depth limit alone keeps the
/// search short, and huge times must be survived.)
const RESETS: &[&str] = &[
    "INFO max_depth 2",
    "INFO max_memory 0",
    "INFO hash_size 1024",
];

const WORDS: &[&str] = &[
    "START",
    "RECTSTART",
    "RESTART",
    "BEGIN",
    "TURN",
    "BOARD",
    "YXBOARD",
    "SWAP2BOARD",
    "DONE",
    "INFO",
    "ABOUT",
    "TAKEBACK",
    "PLAY",
    "YXSTOP",
    "STOP",
    "YXHASHCLEAR",
    "YXSHOWFORBID",
    "YXSHOWINFO",
    "YXNBEST",
    "SUGGEST",
    "YXSWAP2STEP1",
    "YXBALANCEONE",
];

const INFO_KEYS: &[&str] = &[
    "timeout_turn",
    "timeout_match",
    "time_left",
    "max_memory",
    "game_type",
    "rule",
    "evaluate",
    "folder",
    "max_depth",
    "max_node",
    "thread_num",
    "hash_size",
    "time_increment",
    "pondering",
    "caution_factor",
    "show_detail",
    "seed",
    "no_such_key",
];

/// A number as text: small, negative, huge, or not quite a number.
fn number(rng: &mut StdRng) -> String {
    match rng.gen_range(0..20) {
        0..=7 => rng.gen_range(0..23).to_string(),
        8 => rng.gen_range(-100..0).to_string(),
        9 => i64::MAX.to_string(),
        10 => i64::MIN.to_string(),
        11 => u64::MAX.to_string(),
        12 => "18446744073709551616".into(),
        13 => "99999999999999999999999999".into(),
        14 => ["0x10", "1e3", "3.5", "+7", "-0", "007", "٣", "NaN", ""][rng.gen_range(0..9)].into(),
        15 => (0..rng.gen_range(1..30))
            .map(|_| char::from(b'0' + rng.gen_range(0..10)))
            .collect(),
        _ => rng.gen_range(0..2000).to_string(),
    }
}

/// Coordinates with commas and blanks in odd places.
fn coords(rng: &mut StdRng) -> String {
    let (a, b, c) = (number(rng), number(rng), number(rng));
    match rng.gen_range(0..14) {
        0..=4 => format!("{a},{b}"),
        5 => format!("{a} , {b}"),
        6 => format!("{a},,{b}"),
        7 => format!(",{a}"),
        8 => format!("{a},"),
        9 => format!("{a},{b},{c}"),
        10 => format!("{a} {b}"),
        11 => a,
        12 => ",".into(),
        _ => format!("{a},{b},{c},{}", number(rng)),
    }
}

/// Printable junk.
fn junk(rng: &mut StdRng) -> String {
    const CHARS: &[u8] = b"abcXYZ019 ,;:.-+_\t\"'\\/|#";
    (0..rng.gen_range(0..20))
        .map(|_| char::from(*CHARS.choose(rng).unwrap()))
        .collect()
}

fn random_case(rng: &mut StdRng, word: &str) -> String {
    match rng.gen_range(0..4) {
        0 => word.to_lowercase(),
        1 => word
            .chars()
            .map(|c| if rng.gen() { c.to_ascii_lowercase() } else { c })
            .collect(),
        _ => word.to_string(),
    }
}

fn blanks(rng: &mut StdRng) -> &'static str {
    ["", "", "", " ", "\t", "  ", " \t "][rng.gen_range(0..7)]
}

/// Mutates a line: flips, inserts, deletes or duplicates bytes, changes case,
/// or cuts it short.
fn mutate(rng: &mut StdRng, line: &[u8]) -> Vec<u8> {
    let mut out = line.to_vec();
    for _ in 0..rng.gen_range(1..4) {
        let at = if out.is_empty() {
            0
        } else {
            rng.gen_range(0..out.len())
        };
        match rng.gen_range(0..7) {
            0 if !out.is_empty() => out[at] ^= 1 << rng.gen_range(0..8),
            1 => out.insert(at, rng.gen()),
            2 if !out.is_empty() => {
                out.remove(at);
            }
            3 => out.insert(at, *b",, 9-\t\r".choose(rng).unwrap()),
            4 => out.make_ascii_lowercase(),
            5 => out.truncate(at),
            _ => {
                let tail = out[at..].to_vec();
                out.extend(tail);
            }
        }
    }
    out
}

/// The scripted sessions of `protocol-tests/`, as lines, to mutate.
fn templates() -> Vec<Vec<Vec<u8>>> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("protocol-tests");
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "in"))
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|file| {
            let bytes = std::fs::read(file).unwrap();
            bytes
                .split(|&b| b == b'\n')
                .filter(|l| !l.is_empty())
                .map(<[u8]>::to_vec)
                .collect()
        })
        .collect()
}

/// A whole scripted session with lines dropped, repeated, swapped or
/// mutated.
fn mutated_session(rng: &mut StdRng, templates: &[Vec<Vec<u8>>]) -> Vec<Vec<u8>> {
    let mut lines = templates.choose(rng).unwrap().clone();
    let mut i = 0;
    while i < lines.len() {
        match rng.gen_range(0..20) {
            0 | 1 => {
                lines.remove(i);
                continue;
            }
            2 => lines[i] = mutate(rng, &lines[i]),
            3 => lines.insert(i, lines[i].clone()),
            4 if i + 1 < lines.len() => lines.swap(i, i + 1),
            _ => {}
        }
        i += 1;
    }
    lines
}

/// One fuzzed line (without its line end).
fn fuzz_line(rng: &mut StdRng, templates: &[Vec<Vec<u8>>]) -> Vec<u8> {
    let text = match rng.gen_range(0..100) {
        // A command word with arguments that may or may not make sense.
        0..=29 => {
            let word = *WORDS.choose(rng).unwrap();
            let takes_coords = ["TURN", "TAKEBACK", "PLAY", "RECTSTART"].contains(&word);
            let word = random_case(rng, word);
            let args = match rng.gen_range(0..5) {
                _ if takes_coords && rng.gen_range(0..3) > 0 => coords(rng),
                0 => String::new(),
                1 => number(rng),
                2 => format!("{} {}", number(rng), number(rng)),
                3 => junk(rng),
                _ => coords(rng),
            };
            let sep = [" ", "\t", "  ", ""][rng.gen_range(0..4)];
            format!("{}{word}{sep}{args}{}", blanks(rng), blanks(rng))
        }
        // INFO with known and unknown keys.
        30..=41 => {
            let key = *INFO_KEYS.choose(rng).unwrap();
            let key = random_case(rng, key);
            let value = match rng.gen_range(0..6) {
                0 => junk(rng),
                1 => coords(rng),
                // The edges of the value ranges.
                2 => [
                    "0",
                    "-1",
                    "1",
                    "2147483647",
                    "2147483648",
                    "9223372036854775807",
                ][rng.gen_range(0..6)]
                .to_string(),
                _ => number(rng),
            };
            format!("{}INFO {key} {value}", blanks(rng))
        }
        // Stone lines, for the BOARD blocks.
        42..=59 => {
            let (x, y) = (rng.gen_range(0..23), rng.gen_range(0..23));
            match rng.gen_range(0..6) {
                0..=2 => format!("{x},{y},{}", rng.gen_range(1..4)),
                3 => format!("{x},{y}"),
                4 => format!("{},{},{}", number(rng), number(rng), number(rng)),
                _ => coords(rng),
            }
        }
        60..=63 => format!("{}{}", random_case(rng, "DONE"), blanks(rng)),
        // Sensible commands keep the session in interesting states.
        64..=73 => match rng.gen_range(0..7) {
            0 => format!("START {}", rng.gen_range(5..23)),
            1 => format!(
                "RECTSTART {},{}",
                rng.gen_range(5..23),
                rng.gen_range(5..23)
            ),
            2 => "RESTART".into(),
            3 => "BEGIN".into(),
            4 => "BOARD".into(),
            _ => format!("TURN {},{}", rng.gen_range(0..22), rng.gen_range(0..22)),
        },
        // Raw bytes, including invalid UTF-8, NUL, CR and LF.
        74..=83 => return (0..rng.gen_range(0..60)).map(|_| rng.gen()).collect(),
        // Mutated lines of the scripted sessions.
        84..=95 => {
            let line = templates.choose(rng).unwrap().choose(rng).unwrap();
            return mutate(rng, line);
        }
        // Blank lines of all kinds.
        _ => ["", " ", "\t", "\r", " \t\r", "\0"][rng.gen_range(0..6)].into(),
    };
    text.into_bytes()
}

/// A block of stone lines (mostly sensible, some not), usually closed by DONE.
fn fuzz_block(rng: &mut StdRng) -> Vec<Vec<u8>> {
    let kind = *["BOARD", "BOARD", "YXBOARD", "SWAP2BOARD"]
        .choose(rng)
        .unwrap();
    let mut lines = vec![random_case(rng, kind).into_bytes()];
    let size = rng.gen_range(5..23);
    let stones = if kind == "SWAP2BOARD" {
        *[0, 3, 5, 1].choose(rng).unwrap()
    } else {
        rng.gen_range(0..15)
    };
    for i in 0..stones {
        let (x, y) = (rng.gen_range(0..size), rng.gen_range(0..size));
        let line = match rng.gen_range(0..12) {
            0 => format!("{x},{y},{}", rng.gen_range(0..5)),
            1 => coords(rng),
            2 => format!("{x},{y}"),
            _ => format!("{x},{y},{}", 1 + i % 2),
        };
        lines.push(line.into_bytes());
    }
    if rng.gen_range(0..10) > 0 {
        lines.push(random_case(rng, "DONE").into_bytes());
    }
    lines
}

/// A short game: START, then moves.
fn fuzz_game(rng: &mut StdRng) -> Vec<Vec<u8>> {
    let size: usize = rng.gen_range(5..23);
    let mut lines = vec![format!("START {size}").into_bytes()];
    if rng.gen() {
        lines.push(b"BEGIN".to_vec());
    }
    for _ in 0..rng.gen_range(1..8) {
        let (x, y) = (rng.gen_range(0..size), rng.gen_range(0..size));
        // Now and then one coordinate is far out of range.
        let (x, y) = match rng.gen_range(0..8) {
            0 => (number(rng), y.to_string()),
            1 => (x.to_string(), number(rng)),
            _ => (x.to_string(), y.to_string()),
        };
        let line = match rng.gen_range(0..10) {
            0 => format!("TAKEBACK {x},{y}"),
            1 => format!("PLAY {x},{y}"),
            2 => format!("YXNBEST {}", rng.gen_range(1..4)),
            3 => "YXSHOWFORBID".into(),
            _ => format!("TURN {x},{y}"),
        };
        lines.push(line.into_bytes());
    }
    lines
}

/// The commands the engine will see in `line`: it ends lines at CR and LF,
/// and takes the first blank-separated word.
fn first_words(line: &[u8]) -> Vec<String> {
    line.split(|&b| b == b'\r' || b == b'\n')
        .map(|piece| {
            let text = String::from_utf8_lossy(piece);
            let text = text.trim_matches(|c: char| c.is_whitespace() || c == '\0');
            let word = text.split([' ', '\t']).next().unwrap_or("");
            word.to_ascii_uppercase()
        })
        .collect()
}

/// A session of `lines` fuzzed lines, with the resets after INFO lines and
/// no END.
fn fuzz_session(rng: &mut StdRng, templates: &[Vec<Vec<u8>>], lines: usize) -> Vec<u8> {
    let mut input = b"INFO timeout_turn 20\n".to_vec();
    for reset in RESETS {
        input.extend_from_slice(reset.as_bytes());
        input.push(b'\n');
    }
    let mut count = 0;
    while count < lines {
        let chunk = match rng.gen_range(0..40) {
            0..=3 => fuzz_block(rng),
            4..=7 => fuzz_game(rng),
            8 => mutated_session(rng, templates),
            _ => vec![fuzz_line(rng, templates)],
        };
        for line in chunk {
            let words = first_words(&line);
            if words.iter().any(|w| w == "END") {
                continue;
            }
            input.extend_from_slice(&line);
            input.push(b'\n');
            if words.iter().any(|w| w == "INFO") {
                for reset in RESETS {
                    input.extend_from_slice(reset.as_bytes());
                    input.push(b'\n');
                }
            }
            count += 1;
        }
    }
    input
}

/// Checks one round's output; returns how many moves it answered.
fn check_run(what: &str, run: &Run) -> usize {
    let lines = run.lines();
    let tail = || lines[lines.len().saturating_sub(20)..].join("\n");
    if let Err(e) = run.check_clean_exit() {
        panic!("{what}: {e}\nlast replies:\n{}", tail());
    }
    for line in &lines {
        if let Err(e) = legal_reply(line) {
            panic!("{what}: {e}");
        }
        assert!(
            !line.contains("internal error"),
            "{what}: the engine caught an internal error: {line}"
        );
    }
    let count = |prefix: &str| lines.iter().filter(|l| l.starts_with(prefix)).count();
    println!(
        "{what}: {} replies: {} OK, {} ERROR, {} UNKNOWN, {} MESSAGE, {} moves, {:?}",
        lines.len(),
        count("OK"),
        count("ERROR"),
        count("UNKNOWN"),
        count("MESSAGE"),
        lines.iter().filter(|l| parse_move(l).is_some()).count(),
        run.elapsed
    );
    lines.iter().filter(|l| parse_move(l).is_some()).count()
}

/// With `WUZI_FUZZ_DUMP=DIR`, each round's input is written to
/// `DIR/fuzz-NAME.in`, to replay a failure by hand
/// (`pbrain-wuzi --script --seed N < DIR/fuzz-NAME.in`).
fn dump(name: &str, input: &[u8]) {
    if let Some(dir) = std::env::var_os("WUZI_FUZZ_DUMP") {
        let path = Path::new(&dir).join(format!("fuzz-{name}.in"));
        std::fs::write(&path, input).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    }
}

fn script_round(seed: u64, ending: &[u8]) -> (Run, usize) {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut input = fuzz_session(&mut rng, &templates(), LINES);
    input.extend_from_slice(ending);
    dump(&format!("script-{seed}"), &input);
    let run = run_engine(
        &["--script", "--seed", &seed.to_string()],
        input,
        DEADLINE,
        Logging::Errors,
    );
    let moves = check_run(&format!("script round, seed {seed}"), &run);
    (run, moves)
}

/// Rounds of the script test: `WUZI_FUZZ_ROUNDS=N` runs more (seeds 1000..),
/// for a longer hunt by hand.
fn rounds() -> usize {
    std::env::var("WUZI_FUZZ_ROUNDS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(5)
}

#[test]
fn fuzz_script_rounds() {
    // Rounds end with END, with end of input, with a BOARD block left open
    // at end of input, and so on. They run two at a time.
    let endings: [&[u8]; 5] = [
        b"END\n",
        b"",
        b"START 15\nBOARD\n7,7,1\n",
        b"DONE\r\nEND\r\n",
        b"\xff\xfe",
    ];
    let rounds = rounds();
    let started = Instant::now();
    let mut total_moves = 0;
    for pair in (0..rounds).collect::<Vec<_>>().chunks(2) {
        let results: Vec<(Run, usize)> = std::thread::scope(|scope| {
            let handles: Vec<_> = pair
                .iter()
                .map(|&i| {
                    scope.spawn(move || script_round(1000 + i as u64, endings[i % endings.len()]))
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        });
        for (run, moves) in results {
            assert!(run.elapsed < DEADLINE);
            total_moves += moves;
        }
    }
    // The fuzzing must reach the search, not just the parser.
    assert!(
        total_moves >= 100 * rounds,
        "only {total_moves} moves answered"
    );
    println!(
        "{} lines in {rounds} rounds, {total_moves} moves, {:?}",
        LINES * rounds,
        started.elapsed()
    );
}

/// Live mode (no --script), input written as fast as possible, then end of
/// input: the engine may stop at the first search still running when the
/// input ends, but must exit cleanly.
#[test]
fn fuzz_live_fast_input_then_eof() {
    let mut rng = StdRng::seed_from_u64(77);
    let input = fuzz_session(&mut rng, &templates(), LINES);
    dump("live-77", &input);
    let run = run_engine(&["--seed", "77"], input, DEADLINE, Logging::Errors);
    check_run("live round, end of input", &run);
}

/// Live mode, input written as fast as possible and stdin kept open: every
/// queued line is handled in the end (a unique UNKNOWN sentinel comes back
/// last), then END exits at once.
#[test]
fn fuzz_live_fast_input_then_end() {
    let mut rng = StdRng::seed_from_u64(78);
    let mut input = fuzz_session(&mut rng, &templates(), LINES);
    // Close any open block, then the sentinel.
    input.extend_from_slice(b"DONE\nSENTINEL-7f3a\n");
    dump("live-78", &input);
    let mut engine = LiveEngine::spawn(&["--seed", "78"], Logging::Errors, DEADLINE);
    let started = Instant::now();
    engine.send_raw(&input);
    let mut lines = Vec::new();
    loop {
        let left = DEADLINE.saturating_sub(started.elapsed());
        let Some((line, _)) = engine.recv(left) else {
            panic!(
                "no sentinel reply within {DEADLINE:?}; last replies: {:#?}",
                &lines[lines.len().saturating_sub(20)..]
            );
        };
        assert!(!line.contains("internal error"), "{line}");
        let done = line.contains("SENTINEL-7f3a");
        lines.push(line);
        if done {
            break;
        }
    }
    engine.send("END");
    let (status, stderr) = engine.wait_exit(Duration::from_secs(2));
    assert!(
        status.is_some_and(|s| s.success()),
        "exit after END: {status:?}"
    );
    assert!(stderr.is_empty(), "{}", String::from_utf8_lossy(&stderr));
    assert!(
        lines.iter().any(|l| parse_move(l).is_some()),
        "no move answered"
    );
}

/// What the test knows of the engine's game: the board and the order of the
/// stones (TAKEBACK undoes the latest).
struct Model {
    width: usize,
    height: usize,
    /// 0 free, 1 engine, 2 opponent, 3 blocked (BOARD field 3).
    cells: Vec<u8>,
    order: Vec<(usize, usize)>,
}

impl Model {
    fn new(width: usize, height: usize) -> Model {
        Model {
            width,
            height,
            cells: vec![0; width * height],
            order: Vec::new(),
        }
    }

    fn get(&self, x: usize, y: usize) -> Option<u8> {
        (x < self.width && y < self.height).then(|| self.cells[y * self.width + x])
    }

    fn put(&mut self, x: usize, y: usize, what: u8) {
        self.cells[y * self.width + x] = what;
        if what != 3 {
            self.order.push((x, y));
        }
    }

    fn free_cells(&self) -> Vec<(usize, usize)> {
        (0..self.height)
            .flat_map(|y| (0..self.width).map(move |x| (x, y)))
            .filter(|&(x, y)| self.get(x, y) == Some(0))
            .collect()
    }

    fn any_cell(&self, rng: &mut StdRng) -> (usize, usize) {
        // Mostly on the board, sometimes just off it.
        (
            rng.gen_range(0..self.width + 2),
            rng.gen_range(0..self.height + 2),
        )
    }
}

/// Sends `line` and returns the next non-chat reply (the model decides
/// whether one is due: commands without a reply are followed by ones with).
fn reply_to(engine: &mut LiveEngine, line: &str, log: &mut Vec<String>) -> String {
    engine.send(line);
    log.push(format!("> {line}"));
    match engine.recv_reply(Duration::from_secs(10)) {
        Some((reply, _)) => {
            log.push(format!("< {reply}"));
            reply
        }
        None => panic!(
            "no reply to {line:?}; session:\n{}",
            log[log.len().saturating_sub(40)..].join("\n")
        ),
    }
}

/// Random but well-formed games, checked against a model of the position:
/// every move the engine answers is on a free cell, OK and ERROR come exactly
/// where the model says, TAKEBACK/PLAY/YXNBEST/BOARD/YXBOARD keep the engine's
/// position in step with the model.
#[test]
fn fuzz_model_based_games() {
    let mut rng = StdRng::seed_from_u64(4242);
    let mut engine = LiveEngine::spawn(
        &["--script", "--seed", "5"],
        Logging::Errors,
        GAMES_DEADLINE,
    );
    let mut log = Vec::new();
    for line in [
        "INFO timeout_turn 50",
        "INFO max_depth 2",
        "INFO hash_size 1024",
    ] {
        engine.send(line);
    }
    let mut model = Model::new(15, 15);
    assert_eq!(reply_to(&mut engine, "START 15", &mut log), "OK");
    let fail = |log: &[String], what: String| -> ! {
        panic!(
            "{what}; session:\n{}",
            log[log.len().saturating_sub(40)..].join("\n")
        )
    };
    let mut moves = 0;
    for _ in 0..1500 {
        // Expects a move on a free cell; plays it for the engine if `play`.
        let mut engine_move = |model: &mut Model, reply: &str, log: &[String], play: bool| {
            if model.free_cells().is_empty() {
                if !reply.starts_with("ERROR ") {
                    fail(log, format!("full board: expected ERROR, got {reply:?}"));
                }
                return;
            }
            match parse_move(reply) {
                Some((x, y)) if model.get(x, y) == Some(0) => {
                    if play {
                        model.put(x, y, 1);
                    }
                    moves += 1;
                }
                _ => fail(
                    log,
                    format!("expected a move on a free cell, got {reply:?}"),
                ),
            }
        };
        match rng.gen_range(0..100) {
            0..=2 => {
                let (w, h) = if rng.gen() {
                    let n = rng.gen_range(5..23);
                    (n, n)
                } else {
                    (rng.gen_range(5..23), rng.gen_range(5..23))
                };
                let command = if w == h && rng.gen() {
                    format!("START {w}")
                } else {
                    format!("RECTSTART {w},{h}")
                };
                let reply = reply_to(&mut engine, &command, &mut log);
                if reply != "OK" {
                    fail(&log, format!("{command}: {reply:?}"));
                }
                model = Model::new(w, h);
            }
            3..=4 => {
                let reply = reply_to(&mut engine, "RESTART", &mut log);
                if reply != "OK" {
                    fail(&log, format!("RESTART: {reply:?}"));
                }
                model = Model::new(model.width, model.height);
            }
            5..=7 => {
                let rule = *[0, 1, 2, 8, 9].choose(&mut rng).unwrap();
                engine.send(&format!("INFO rule {rule}"));
            }
            8..=12 => {
                let reply = reply_to(&mut engine, "BEGIN", &mut log);
                engine_move(&mut model, &reply, &log, true);
            }
            13..=22 => {
                // A block: BOARD answers a move, YXBOARD nothing.
                let yx = rng.gen_range(0..3) == 0;
                let mut next = Model::new(model.width, model.height);
                let cells = next.free_cells();
                let count = rng.gen_range(0..cells.len().min(30));
                let mut lines = vec![if yx { "YXBOARD" } else { "BOARD" }.to_string()];
                for (i, &(x, y)) in cells.choose_multiple(&mut rng, count).enumerate() {
                    let field = if rng.gen_range(0..15) == 0 {
                        3
                    } else {
                        1 + (i % 2) as u8
                    };
                    next.put(x, y, field);
                    lines.push(format!("{x},{y},{field}"));
                }
                for line in &lines {
                    engine.send(line);
                    log.push(format!("> {line}"));
                }
                model = next;
                if yx {
                    engine.send("DONE");
                    log.push("> DONE".into());
                } else {
                    let reply = reply_to(&mut engine, "DONE", &mut log);
                    engine_move(&mut model, &reply, &log, true);
                }
            }
            23..=30 => {
                // TAKEBACK: the latest stone (OK) or any other cell (ERROR).
                let latest = model.order.last().copied();
                let (x, y) = match latest {
                    Some(cell) if rng.gen_range(0..4) > 0 => cell,
                    _ => model.any_cell(&mut rng),
                };
                let reply = reply_to(&mut engine, &format!("TAKEBACK {x},{y}"), &mut log);
                if latest == Some((x, y)) {
                    if reply != "OK" {
                        fail(&log, format!("TAKEBACK of the latest stone: {reply:?}"));
                    }
                    model.order.pop();
                    model.cells[y * model.width + x] = 0;
                } else if !reply.starts_with("ERROR ") {
                    fail(
                        &log,
                        format!("TAKEBACK {x},{y}: expected ERROR, got {reply:?}"),
                    );
                }
            }
            31..=35 => {
                let (x, y) = model.any_cell(&mut rng);
                let reply = reply_to(&mut engine, &format!("PLAY {x},{y}"), &mut log);
                if model.get(x, y) == Some(0) {
                    if reply != format!("{x},{y}") {
                        fail(&log, format!("PLAY {x},{y}: {reply:?}"));
                    }
                    model.put(x, y, 1);
                } else if !reply.starts_with("ERROR ") {
                    fail(&log, format!("PLAY {x},{y}: expected ERROR, got {reply:?}"));
                }
            }
            36..=40 => {
                let reply = reply_to(&mut engine, "YXNBEST 2", &mut log);
                engine_move(&mut model, &reply, &log, false);
            }
            41..=45 => {
                // SWAP2BOARD: 0, 3 or 5 stones (others: ERROR, no change).
                let count = *[0, 3, 5, 0, 3, 5, 1, 4].choose(&mut rng).unwrap();
                let mut next = Model::new(model.width, model.height);
                let cells = next.free_cells();
                engine.send("SWAP2BOARD");
                log.push("> SWAP2BOARD".into());
                for (i, &(x, y)) in cells.choose_multiple(&mut rng, count).enumerate() {
                    next.put(x, y, 2 - (i % 2) as u8);
                    engine.send(&format!("{x},{y}"));
                    log.push(format!("> {x},{y}"));
                }
                let reply = reply_to(&mut engine, "DONE", &mut log);
                if ![0, 3, 5].contains(&count) {
                    if !reply.starts_with("ERROR ") {
                        fail(
                            &log,
                            format!("{count} stones: expected ERROR, got {reply:?}"),
                        );
                    }
                    continue;
                }
                model = next;
                let wanted: &[usize] = match count {
                    0 => &[3],
                    3 => &[0, 1, 2],
                    _ => &[0, 1],
                };
                let placed: Vec<_> = if reply == "SWAP" {
                    Vec::new()
                } else {
                    reply.split(' ').map(parse_move).collect()
                };
                if !wanted.contains(&placed.len()) || (reply == "SWAP" && count == 0) {
                    fail(&log, format!("{count} stones: bad answer {reply:?}"));
                }
                for (i, cell) in placed.into_iter().enumerate() {
                    match cell {
                        Some((x, y)) if model.get(x, y) == Some(0) => {
                            model.put(x, y, 1 + (i % 2) as u8)
                        }
                        _ => fail(&log, format!("{count} stones: {reply:?} not on free cells")),
                    }
                }
            }
            _ => {
                // TURN: mostly a free cell, sometimes occupied or off the board.
                let free = model.free_cells();
                let (x, y) = match free.choose(&mut rng) {
                    Some(&cell) if rng.gen_range(0..5) > 0 => cell,
                    _ => model.any_cell(&mut rng),
                };
                let reply = reply_to(&mut engine, &format!("TURN {x},{y}"), &mut log);
                if model.get(x, y) == Some(0) {
                    model.put(x, y, 2);
                    engine_move(&mut model, &reply, &log, true);
                } else if !reply.starts_with("ERROR ") {
                    fail(&log, format!("TURN {x},{y}: expected ERROR, got {reply:?}"));
                }
            }
        }
    }
    assert!(moves > 300, "only {moves} engine moves");
    println!("{moves} engine moves checked against the model");
    engine.send("END");
    let (status, stderr) = engine.wait_exit(Duration::from_secs(2));
    assert!(status.is_some_and(|s| s.success()), "exit: {status:?}");
    assert!(stderr.is_empty(), "{}", String::from_utf8_lossy(&stderr));
}
