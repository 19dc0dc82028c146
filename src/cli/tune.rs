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
//! weights themselves, minimising the mean of `(result − sigmoid(K·eval))²`,
//! and prints the new tables as Rust source.

use std::fmt::Write as _;
use std::io::{BufRead, Write as _};
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

use anyhow::{bail, Context, Result};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use super::engine::parse_depth;
use crate::board::pattern::Pattern;
use crate::board::threat::{CLASS_BONUS, PATTERN_VALUE};
use crate::board::{Board, Color, Threat};
use crate::eval::{EVAL_LIMIT, MIX_SCALE, OURS_WEIGHT, THEIRS_WEIGHT};
use crate::rules::Rule;
use crate::search::opening::{random_opening, BALANCED};
use crate::search::tt::Tt;
use crate::search::{Limits, Searcher, MATE_BOUND};

/// Features per side: one count per line pattern, then one per threat class.
pub const FEATURES: usize = Pattern::COUNT + Threat::COUNT;

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
}

/// One quiet position from self-play.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    /// The side to move's feature counts.
    pub ours: [u16; FEATURES],
    /// The opponent's feature counts.
    pub theirs: [u16; FEATURES],
    /// The game's result for the side to move: 1 win, 0.5 draw, 0 loss.
    pub result: f64,
    /// Which game it came from (positions of one game stay on one side of
    /// the training / validation split).
    pub game: u32,
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

/// Evaluation weights as real numbers, in the layout of the tables.
#[derive(Clone, Debug, PartialEq)]
pub struct Weights {
    /// Per [`Pattern`]: the value of a line with that pattern.
    pub pattern: [f64; Pattern::COUNT],
    /// Per [`Threat`]: the bonus of a cell with that class.
    pub class: [f64; Threat::COUNT],
    /// The side to move's mixing weight, over [`MIX_SCALE`].
    pub ours: f64,
    /// The opponent's mixing weight, over [`MIX_SCALE`].
    pub theirs: f64,
}

/// Weights the fit leaves alone: a dead line, an overline and a forbidden
/// point are worth nothing by definition; no quiet position has a five point
/// (so their value cannot be fitted); an empty cell with no threat is the
/// baseline; renju's maybe-forbidden double three stays at zero.
fn is_fixed(index: usize) -> bool {
    const FIXED_PATTERNS: [Pattern; 3] = [Pattern::Dead, Pattern::Overline, Pattern::Five];
    const FIXED_CLASSES: [Threat; 4] = [
        Threat::None,
        Threat::Forbidden,
        Threat::MaybeForbidden,
        Threat::Five,
    ];
    if index < Pattern::COUNT {
        FIXED_PATTERNS.iter().any(|&p| p as usize == index)
    } else {
        FIXED_CLASSES
            .iter()
            .any(|&c| Pattern::COUNT + c as usize == index)
    }
}

/// Orders the game dictates, as pairs of feature indices (weaker, stronger):
/// a closed shape is worth no more than the open one, a longer shape no less
/// than the shorter, and among threat classes the same.
fn monotone_pairs() -> Vec<(usize, usize)> {
    use Pattern::*;
    let patterns = [
        (Block1, Flex1),
        (Block2, Flex2),
        (Block3, Flex3),
        (Block4, Flex4),
        (Block1, Block2),
        (Block2, Block3),
        (Block3, Block4),
        (Block4, DoubleFour),
        (DoubleFour, Five),
        (Flex1, Flex2),
        (Flex2, Flex3),
        (Flex3, Flex4),
        (Flex4, Five),
    ];
    let classes = [
        (Threat::Two, Threat::Three),
        (Threat::Three, Threat::DoubleThree),
        (Threat::DoubleThree, Threat::FourThree),
        (Threat::Four, Threat::FourThree),
        (Threat::FourThree, Threat::Flex4),
        (Threat::Flex4, Threat::Five),
    ];
    let mut pairs: Vec<(usize, usize)> = patterns
        .iter()
        .map(|&(a, b)| (a as usize, b as usize))
        .collect();
    pairs.extend(
        classes
            .iter()
            .map(|&(a, b)| (Pattern::COUNT + a as usize, Pattern::COUNT + b as usize)),
    );
    pairs
}

impl Weights {
    /// The weights the engine uses now.
    pub fn current() -> Weights {
        Weights {
            pattern: PATTERN_VALUE.map(f64::from),
            class: CLASS_BONUS.map(f64::from),
            ours: f64::from(OURS_WEIGHT),
            theirs: f64::from(THEIRS_WEIGHT),
        }
    }

    /// All per-feature weights, patterns first.
    fn flat(&self) -> [f64; FEATURES] {
        let mut w = [0.0; FEATURES];
        w[..Pattern::COUNT].copy_from_slice(&self.pattern);
        w[Pattern::COUNT..].copy_from_slice(&self.class);
        w
    }

    fn from_flat(w: &[f64; FEATURES], ours: f64, theirs: f64) -> Weights {
        let mut weights = Weights {
            pattern: [0.0; Pattern::COUNT],
            class: [0.0; Threat::COUNT],
            ours,
            theirs,
        };
        weights.pattern.copy_from_slice(&w[..Pattern::COUNT]);
        weights.class.copy_from_slice(&w[Pattern::COUNT..]);
        weights
    }

    /// The evaluation of a sample under these weights (unrounded, clamped
    /// like the engine's).
    pub fn eval(&self, sample: &Sample) -> f64 {
        let w = self.flat();
        let dot =
            |f: &[u16; FEATURES]| -> f64 { w.iter().zip(f).map(|(w, &c)| w * c as f64).sum() };
        let e = (self.ours * dot(&sample.ours) - self.theirs * dot(&sample.theirs))
            / f64::from(MIX_SCALE);
        e.clamp(-f64::from(EVAL_LIMIT), f64::from(EVAL_LIMIT))
    }

    /// The weights rounded to the integers the tables hold.
    pub fn rounded(&self) -> Weights {
        Weights {
            pattern: self.pattern.map(|w| w.round().max(0.0)),
            class: self.class.map(|w| w.round().max(0.0)),
            ours: self.ours.round(),
            theirs: self.theirs.round().max(0.0),
        }
    }

    /// The largest cell value these weights give: four lines of the best
    /// pattern plus the best bonus (must fit the tables' `u16`).
    pub fn max_cell_value(&self) -> f64 {
        let line = self.pattern.iter().cloned().fold(0.0, f64::max);
        let bonus = self.class.iter().cloned().fold(0.0, f64::max);
        4.0 * line + bonus
    }

    /// The (rounded) weights as the Rust constants of `threat.rs` and
    /// `eval.rs`.
    pub fn to_rust(&self) -> String {
        let r = self.rounded();
        let list = |v: &[f64]| {
            v.iter()
                .map(|x| format!("{}", *x as i64))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let mut out = String::new();
        let _ = writeln!(out, "// src/board/threat.rs");
        let _ = writeln!(
            out,
            "pub(crate) const PATTERN_VALUE: [i32; Pattern::COUNT] = [{}];",
            list(&r.pattern)
        );
        let _ = writeln!(
            out,
            "pub(crate) const CLASS_BONUS: [i32; Threat::COUNT] = [{}];",
            list(&r.class)
        );
        let _ = writeln!(out, "// src/eval.rs");
        let _ = writeln!(out, "pub const OURS_WEIGHT: i32 = {};", r.ours as i64);
        let _ = writeln!(out, "pub const THEIRS_WEIGHT: i32 = {};", r.theirs as i64);
        out
    }
}

/// Texel's loss: the mean of `(result − sigmoid(K·eval))²`.
pub fn loss(samples: &[Sample], weights: &Weights, k: f64) -> f64 {
    let total: f64 = samples
        .iter()
        .map(|s| {
            let p = sigmoid(k * weights.eval(s));
            (s.result - p) * (s.result - p)
        })
        .sum();
    total / samples.len().max(1) as f64
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The `K` that minimises the loss of `weights` (golden-section search on
/// ln K).
pub fn fit_k(samples: &[Sample], weights: &Weights) -> f64 {
    let f = |ln_k: f64| loss(samples, weights, ln_k.exp());
    let (mut lo, mut hi) = ((1e-6f64).ln(), 1.0f64.ln());
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    let mut a = hi - ratio * (hi - lo);
    let mut b = lo + ratio * (hi - lo);
    let (mut fa, mut fb) = (f(a), f(b));
    for _ in 0..60 {
        if fa < fb {
            hi = b;
            b = a;
            fb = fa;
            a = hi - ratio * (hi - lo);
            fa = f(a);
        } else {
            lo = a;
            a = b;
            fa = fb;
            b = lo + ratio * (hi - lo);
            fb = f(b);
        }
    }
    ((lo + hi) / 2.0).exp()
}

/// Pulls the weights into the constraints: the fixed ones back to their
/// start values, every monotone pair into order (a violated pair meets in
/// the middle, or at the fixed end), all non-negative.
fn project(w: &mut [f64; FEATURES], start: &[f64; FEATURES], pairs: &[(usize, usize)]) {
    for i in 0..FEATURES {
        w[i] = if is_fixed(i) { start[i] } else { w[i].max(0.0) };
    }
    for _ in 0..100 {
        let mut changed = false;
        for &(lo, hi) in pairs {
            if w[lo] > w[hi] + 1e-12 {
                changed = true;
                match (is_fixed(lo), is_fixed(hi)) {
                    (false, false) => {
                        let mid = (w[lo] + w[hi]) / 2.0;
                        w[lo] = mid;
                        w[hi] = mid;
                    }
                    (true, false) => w[hi] = w[lo],
                    (false, true) => w[lo] = w[hi],
                    (true, true) => {}
                }
            }
        }
        if !changed {
            break;
        }
    }
}

/// Fits the weights to the samples at scale `k`, starting from `start` (the
/// side to move's mixing weight stays fixed: it only sets the overall scale,
/// which `k` already pins). Adam on the logarithms of the weights, so that
/// weights of 1 and of 1000 move at the same relative pace, with the
/// constraints of [`monotone_pairs`] enforced after every step.
pub fn fit(samples: &[Sample], start: &Weights, k: f64, iterations: usize) -> Weights {
    const RATE: f64 = 0.02;
    const FLOOR: f64 = 0.05;
    let pairs = monotone_pairs();
    let start_flat = start.flat();
    let ours = start.ours;
    // Parameters: the logs of the free weights, then of the opponent's mix.
    let mut w = start_flat.map(|x| x.max(FLOOR));
    project(&mut w, &start_flat, &pairs);
    let mut theirs = start.theirs.max(FLOOR);
    let (mut m, mut v) = ([0.0; FEATURES + 1], [0.0; FEATURES + 1]);
    let n = samples.len().max(1) as f64;
    let scale = f64::from(MIX_SCALE);
    for step in 1..=iterations {
        let mut grad = [0.0; FEATURES + 1];
        for s in samples {
            let dot =
                |f: &[u16; FEATURES]| -> f64 { w.iter().zip(f).map(|(w, &c)| w * c as f64).sum() };
            let (vo, vt) = (dot(&s.ours), dot(&s.theirs));
            let e = (ours * vo - theirs * vt) / scale;
            if e.abs() >= f64::from(EVAL_LIMIT) {
                continue;
            }
            let p = sigmoid(k * e);
            let g = 2.0 * (p - s.result) * p * (1.0 - p) * k / n;
            for ((grad, &o), &t) in grad.iter_mut().zip(&s.ours).zip(&s.theirs) {
                *grad += g * (ours * o as f64 - theirs * t as f64) / scale;
            }
            grad[FEATURES] -= g * vt / scale;
        }
        // Chain rule into log space: d/d(ln x) = x · d/dx.
        for (grad, &w) in grad.iter_mut().zip(&w) {
            *grad *= w;
        }
        grad[FEATURES] *= theirs;
        let t = step as i32;
        for i in 0..=FEATURES {
            if i < FEATURES && is_fixed(i) {
                continue;
            }
            m[i] = 0.9 * m[i] + 0.1 * grad[i];
            v[i] = 0.999 * v[i] + 0.001 * grad[i] * grad[i];
            let m_hat = m[i] / (1.0 - 0.9f64.powi(t));
            let v_hat = v[i] / (1.0 - 0.999f64.powi(t));
            let delta = -RATE * m_hat / (v_hat.sqrt() + 1e-12);
            if i < FEATURES {
                w[i] = (w[i].max(FLOOR).ln() + delta).exp();
            } else {
                theirs = (theirs.ln() + delta).exp();
            }
        }
        project(&mut w, &start_flat, &pairs);
    }
    Weights::from_flat(&w, ours, theirs)
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

/// Plays (or loads) the samples, fits `K` and the weights on nine games in
/// ten, reports the losses on the training and held-out positions, and
/// prints the new tables.
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
    println!(
        "positions {} (training {}, held out {}) from {} games",
        train.len() + test.len(),
        train.len(),
        test.len(),
        games.len()
    );
    let old = Weights::current();
    let k = fit_k(&train, &old);
    println!("K {k:.6}");
    let report = |name: &str, w: &Weights| {
        println!(
            "{name}: loss training {:.6}, held out {:.6}",
            loss(&train, w, k),
            loss(&test, w, k)
        );
    };
    report("current weights", &old);
    let new = fit(&train, &old, k, options.iterations).rounded();
    report("fitted weights (rounded)", &new);
    if new.max_cell_value() > f64::from(u16::MAX) {
        bail!("tune: fitted cell values exceed 16 bits");
    }
    print!("{}", new.to_rust());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

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
            assert_eq!(
                exact.trunc() as i32,
                crate::eval::evaluate(&board),
                "{rule:?}"
            );
        }
    }

    /// Samples labelled with the exact win probability of known weights: the
    /// fit, started elsewhere, finds those weights' predictions again, and
    /// `fit_k` finds the scale the labels were made with.
    #[test]
    fn fit_recovers_known_weights() {
        let mut rng = StdRng::seed_from_u64(7);
        let mut truth = Weights::current();
        truth.pattern[Pattern::Flex3 as usize] = 120.0;
        truth.pattern[Pattern::Block3 as usize] = 15.0;
        truth.class[Threat::DoubleThree as usize] = 250.0;
        truth.theirs = 28.0;
        let k = 0.004;
        let samples: Vec<Sample> = (0..400)
            .map(|i| {
                let mut sample = Sample {
                    ours: [0; FEATURES],
                    theirs: [0; FEATURES],
                    result: 0.0,
                    game: i,
                };
                for f in [Pattern::Block3 as usize, Pattern::Flex3 as usize] {
                    sample.ours[f] = rng.gen_range(0..6);
                    sample.theirs[f] = rng.gen_range(0..6);
                }
                let double_three = Pattern::COUNT + Threat::DoubleThree as usize;
                sample.ours[double_three] = rng.gen_range(0..2);
                sample.theirs[double_three] = rng.gen_range(0..2);
                sample.result = sigmoid(k * truth.eval(&sample));
                sample
            })
            .collect();
        assert!((fit_k(&samples, &truth) - k).abs() < 1e-4);
        let start = Weights::current();
        let before = loss(&samples, &start, k);
        let fitted = fit(&samples, &start, k, 3000);
        let after = loss(&samples, &fitted, k);
        assert!(after < before / 100.0, "loss {before} -> {after}");
        for (name, got, want) in [
            ("flex3", fitted.pattern[Pattern::Flex3 as usize], 120.0),
            ("block3", fitted.pattern[Pattern::Block3 as usize], 15.0),
            (
                "double three",
                fitted.class[Threat::DoubleThree as usize],
                250.0,
            ),
            ("theirs", fitted.theirs, 28.0),
        ] {
            assert!((got - want).abs() < 0.05 * want, "{name}: {got} vs {want}");
        }
    }

    /// The constraints hold after a fit, and the printed source parses back
    /// to the rounded weights, which fit the tables' 16 bits.
    #[test]
    fn output_parses_and_stays_in_range() {
        let mut w = Weights::current();
        w.pattern[Pattern::Block2 as usize] = 30.0; // above Flex2 (20)
        w.class[Threat::Two as usize] = -4.0;
        let mut flat = w.flat();
        project(&mut flat, &Weights::current().flat(), &monotone_pairs());
        for (lo, hi) in monotone_pairs() {
            assert!(flat[lo] <= flat[hi], "{lo} > {hi}");
        }
        assert!(flat.iter().all(|&x| x >= 0.0));
        let projected = Weights::from_flat(&flat, w.ours, w.theirs).rounded();
        assert!(projected.max_cell_value() <= f64::from(u16::MAX));
        let text = projected.to_rust();
        let numbers = |prefix: &str| -> Vec<f64> {
            let line = text.lines().find(|l| l.contains(prefix)).expect(prefix);
            let body = line.split('=').nth(1).expect("has a value");
            body.trim_matches(|c: char| " [];".contains(c))
                .split(',')
                .map(|x| x.trim().parse().expect("a number"))
                .collect()
        };
        assert_eq!(numbers("PATTERN_VALUE"), projected.pattern.to_vec());
        assert_eq!(numbers("CLASS_BONUS"), projected.class.to_vec());
        assert_eq!(numbers("OURS_WEIGHT"), vec![projected.ours]);
        assert_eq!(numbers("THEIRS_WEIGHT"), vec![projected.theirs]);
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
