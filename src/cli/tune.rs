//! `pbrain-wuzi tune`: fits the evaluation weights to self-play results by
//! Texel's method.
//!
//! Fast fixed-depth self-play games from balanced random openings give quiet
//! positions (no five point for either side, no open-four point for the side
//! to move: the positions where the search calls the static evaluation)
//! labelled with the game's result. The evaluation is linear in the weights:
//! per side, the counts over empty cells of each line pattern and each threat
//! class, mixed as `(ours·OURS − theirs·THEIRS) / MIX_SCALE`. The tuner fits
//! the scale `K` of `sigmoid(K·eval)` to the current weights first, then the
//! weights themselves, minimising the mean of `(result − sigmoid(K·eval))²`
//! ([`crate::eval::fit`]), and prints the new `src/eval/weights.rs` on
//! stdout (progress and losses go to stderr).

use std::io::{BufRead, Write as _};
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

use anyhow::{bail, Context, Result};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use super::engine::parse_depth;
use crate::board::Board;
use crate::eval::fit::{fit, fit_k, loss, Sample, Weights, FEATURES};
use crate::search::opening::{random_opening, BALANCED};
use crate::search::tt::Tt;
use crate::search::{Limits, Searcher, MATE_BOUND};
use crate::types::{Color, Pattern, Rule, Threat};

/// Settings of the tuner.
#[derive(Debug, PartialEq, Eq, clap::Args)]
pub struct Options {
    /// Self-play games to play
    #[arg(long, value_name = "N", default_value = "200")]
    pub games: usize,
    /// Search depth per self-play move
    #[arg(long, value_name = "D", default_value = "4", value_parser = parse_depth)]
    pub depth: i32,
    /// Node cap per self-play move (0 = none)
    #[arg(long, value_name = "N", default_value = "20000")]
    pub nodes: u64,
    /// Gradient steps of the fit
    #[arg(
        long,
        value_name = "I",
        default_value = "3000",
        value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..)
    )]
    pub iterations: usize,
    /// Write the positions to this file after playing
    #[arg(long, value_name = "FILE")]
    pub save: Option<PathBuf>,
    /// Read positions from this file instead of playing
    #[arg(long, value_name = "FILE")]
    pub load: Option<PathBuf>,
    /// Fix the self-play games' random openings
    #[arg(long, value_name = "N")]
    pub seed: Option<u64>,
    /// Write the new weights file here (e.g. src/eval/weights.rs) instead of
    /// printing it
    #[arg(long, value_name = "FILE")]
    pub write: Option<PathBuf>,
}

/// `color`'s feature counts: over empty cells, how many of the four lines
/// carry each pattern and how many cells have each threat class. A renju
/// forbidden point counts nothing (its value is zero), so that the weights
/// dotted with these counts give [`Board::value_sum`] exactly.
pub fn features(board: &Board, color: Color) -> [u16; FEATURES] {
    let mut counts = [0u16; FEATURES];
    for pos in board.cells().filter(|&p| board.is_empty(p)) {
        let threat = board.threat(pos, color);
        if threat == Threat::Forbidden {
            continue;
        }
        for dir in 0..4 {
            counts[board.pattern(pos, color, dir) as usize] += 1;
        }
        counts[Pattern::COUNT + threat as usize] += 1;
    }
    counts
}

/// Whether the search would evaluate this position statically: no five point
/// for either side and no open-four point for the side to move.
pub fn is_quiet(board: &Board) -> bool {
    let us = board.side_to_move();
    board.threat_count(us, Threat::Five) == 0
        && board.threat_count(us.opponent(), Threat::Five) == 0
        && board.threat_count(us, Threat::Flex4) == 0
}

/// Plays one self-play game from a balanced random opening and returns its
/// quiet positions, labelled. `None` if no balanced opening was found.
fn play_game(options: &Options, game: u32, tt: &mut Tt, rng: &mut StdRng) -> Option<Vec<Sample>> {
    let stop = AtomicBool::new(false);
    let rule = match rng.gen_range(0..20) {
        0..=13 => Rule::Freestyle,
        14..=16 => Rule::Standard,
        _ => Rule::Renju,
    };
    let mut board = (0..50).find_map(|_| {
        let mut board = Board::new(15, 15, rule);
        let plies = rng.gen_range(3..=6);
        if !random_opening(&mut board, plies, rng) {
            return None;
        }
        tt.clear();
        let probe = Searcher::new(&board, tt, &stop, Limits::depth(4)).run(None);
        (probe.score.abs() <= BALANCED).then_some(board)
    })?;
    tt.clear();
    let mut positions: Vec<(Color, [u16; FEATURES], [u16; FEATURES])> = Vec::new();
    let winner = loop {
        if board.empty_count() == 0 {
            break None;
        }
        let us = board.side_to_move();
        if is_quiet(&board) {
            positions.push((us, features(&board, us), features(&board, us.opponent())));
        }
        let limits = Limits {
            max_nodes: options.nodes,
            ..Limits::depth(options.depth)
        };
        let result = Searcher::new(&board, tt, &stop, limits).run(Some(rng));
        // A proven win or loss ends the game (a five scores as a win in one).
        if result.score > MATE_BOUND {
            break Some(us);
        }
        if result.score < -MATE_BOUND {
            break Some(us.opponent());
        }
        match result.best {
            Some(pos) => board.make(pos),
            None => break None,
        }
    };
    Some(
        positions
            .into_iter()
            .map(|(side, ours, theirs)| Sample {
                ours,
                theirs,
                result: match winner {
                    None => 0.5,
                    Some(w) if w == side => 1.0,
                    Some(_) => 0.0,
                },
                game,
            })
            .collect(),
    )
}

/// Plays the self-play games and collects their samples, reporting progress
/// on stderr.
pub fn self_play(options: &Options, rng: &mut StdRng) -> Vec<Sample> {
    let mut tt = Tt::new(16 << 20);
    let mut samples = Vec::new();
    for game in 0..options.games {
        if let Some(s) = play_game(options, game as u32, &mut tt, rng) {
            samples.extend(s);
        }
        if (game + 1) % 20 == 0 {
            eprintln!("game {}: {} positions", game + 1, samples.len());
        }
    }
    samples
}

/// Writes samples one a line: game, result, then the side to move's and the
/// opponent's counts.
fn save(samples: &[Sample], path: &PathBuf) -> Result<()> {
    let mut out = std::io::BufWriter::new(
        std::fs::File::create(path).with_context(|| format!("cannot create {}", path.display()))?,
    );
    for s in samples {
        let counts: Vec<String> = s.ours.iter().chain(&s.theirs).map(u16::to_string).collect();
        writeln!(out, "{} {} {}", s.game, s.result, counts.join(" "))?;
    }
    Ok(())
}

/// Reads samples written by [`save`].
fn load(path: &PathBuf) -> Result<Vec<Sample>> {
    let file =
        std::fs::File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
    let mut samples = Vec::new();
    for (i, line) in std::io::BufReader::new(file).lines().enumerate() {
        let line = line?;
        let fields: Vec<&str> = line.split_whitespace().collect();
        let bad = || format!("{}:{}: malformed sample", path.display(), i + 1);
        if fields.len() != 2 + 2 * FEATURES {
            bail!(bad());
        }
        let mut counts = [0u16; 2 * FEATURES];
        for (c, f) in counts.iter_mut().zip(&fields[2..]) {
            *c = f.parse().ok().with_context(bad)?;
        }
        let mut sample = Sample {
            ours: [0; FEATURES],
            theirs: [0; FEATURES],
            result: fields[1].parse().ok().with_context(bad)?,
            game: fields[0].parse().ok().with_context(bad)?,
        };
        sample.ours.copy_from_slice(&counts[..FEATURES]);
        sample.theirs.copy_from_slice(&counts[FEATURES..]);
        samples.push(sample);
    }
    Ok(samples)
}

/// The command line that reproduces a run (the options that change its
/// result), for the record in the weights file.
fn command_line(options: &Options) -> String {
    let mut line = String::from("pbrain-wuzi tune");
    match &options.load {
        Some(path) => line += &format!(" --load {}", path.display()),
        None => {
            line += &format!(
                " --games {} --depth {} --nodes {}",
                options.games, options.depth, options.nodes
            )
        }
    }
    line += &format!(" --iterations {}", options.iterations);
    if let Some(seed) = options.seed {
        line += &format!(" --seed {seed}");
    }
    line
}

/// Plays (or loads) the samples, fits `K` and the weights on nine games in
/// ten, reports the losses on the training and held-out positions (on
/// stderr), and prints the new `src/eval/weights.rs` with that report as its
/// record (on stdout).
pub fn run(options: &Options) -> Result<()> {
    let mut rng = match options.seed {
        Some(s) => StdRng::seed_from_u64(s),
        None => StdRng::from_entropy(),
    };
    let samples = match &options.load {
        Some(path) => load(path)?,
        None => self_play(options, &mut rng),
    };
    if let Some(path) = &options.save {
        save(&samples, path)?;
    }
    let (train, test): (Vec<Sample>, Vec<Sample>) =
        samples.into_iter().partition(|s| s.game % 10 != 9);
    if train.is_empty() {
        bail!("tune: no positions to fit");
    }
    let games = train
        .iter()
        .chain(&test)
        .map(|s| s.game)
        // A BTreeSet, not a HashSet: std's random hash keys would make the
        // Windows build import bcryptprimitives.dll, which Wine 8 lacks.
        .collect::<std::collections::BTreeSet<_>>();
    let mut record = vec![command_line(options)];
    let mut note = |line: String| {
        eprintln!("{line}");
        record.push(line);
    };
    note(format!(
        "positions {} (training {}, held out {}) from {} games",
        train.len() + test.len(),
        train.len(),
        test.len(),
        games.len()
    ));
    let old = Weights::current();
    let k = fit_k(&train, &old);
    note(format!("K {k:.6}"));
    let losses = |name: &str, w: &Weights| {
        let held_out = if test.is_empty() {
            "none".to_string()
        } else {
            format!("{:.6}", loss(&test, w, k))
        };
        format!(
            "{name}: loss training {:.6}, held out {held_out}",
            loss(&train, w, k)
        )
    };
    note(losses("current weights", &old));
    let new = fit(&train, &old, k, options.iterations).rounded();
    note(losses("fitted weights (rounded)", &new));
    if new.max_cell_value() > f64::from(u16::MAX) {
        bail!("tune: fitted cell values exceed 16 bits");
    }
    let source = new.to_rust(&record);
    match &options.write {
        Some(path) => std::fs::write(path, source)
            .with_context(|| format!("tune: cannot write {}", path.display()))?,
        None => print!("{source}"),
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval;

    /// The features dotted with the engine's weights give the engine's own
    /// value sums and evaluation, under every rule the tuner plays.
    #[test]
    fn features_reproduce_the_evaluation() {
        let positions = [
            (Rule::Freestyle, "7,7 8,8 6,8 8,6 8,7 9,9 5,9"),
            (Rule::Standard, "7,7 6,8 8,8 6,6 6,7 5,7 9,9 10,10"),
            (Rule::Renju, "7,7 7,6 8,8 6,6 9,6 9,7 6,8 5,5 7,9"),
        ];
        let w = Weights::current().flat();
        for (rule, moves) in positions {
            let board = Board::from_moves(rule, 15, moves).expect("legal moves");
            for color in [Color::Black, Color::White] {
                let f = features(&board, color);
                let sum: f64 = w.iter().zip(&f).map(|(w, &c)| w * c as f64).sum();
                assert_eq!(sum as i32, board.value_sum(color), "{rule:?} {color:?}");
            }
            let us = board.side_to_move();
            let sample = Sample {
                ours: features(&board, us),
                theirs: features(&board, us.opponent()),
                result: 0.5,
                game: 0,
            };
            let exact = Weights::current().eval(&sample);
            let sums = (board.value_sum(us), board.value_sum(us.opponent()));
            assert_eq!(exact.trunc() as i32, eval::mix(sums.0, sums.1), "{rule:?}");
        }
    }

    #[test]
    fn samples_round_trip_through_a_file() {
        let board = Board::from_moves(Rule::Freestyle, 15, "7,7 8,8 6,8").expect("legal");
        let sample = Sample {
            ours: features(&board, Color::White),
            theirs: features(&board, Color::Black),
            result: 0.5,
            game: 3,
        };
        let path = std::env::temp_dir().join(format!("wuzi-tune-{}.txt", std::process::id()));
        save(&[sample.clone(), sample.clone()], &path).expect("writes");
        let loaded = load(&path).expect("reads");
        let _ = std::fs::remove_file(&path);
        assert_eq!(loaded, vec![sample.clone(), sample]);
    }
}
