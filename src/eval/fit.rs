//! Fitting the evaluation's [tables](super::tables) to labelled positions.
//!
//! The evaluation is linear in the table entries: the side to move's mover
//! entries summed over the empty cells' codes, minus the opponent's waiter
//! entries, over [`UNIT`]. A sample is that sum's sparse form (which entry,
//! how many times, with its sign) and the game's result. The fit finds the
//! scale `K` of `sigmoid(K·eval)` for the current tables, then moves the
//! entries to minimise the mean of `(result − sigmoid(K·eval))²` plus a
//! ridge term that holds each entry near its start, so that codes the data
//! rarely shows keep the value they had.
//!
//! The policy tables are fitted the same way to the moves played: a cell's
//! policy score is its attack entry (by the side to move's code) plus its
//! defence entry (by the opponent's code), and `softmax(K·score)` over the
//! candidate cells should give the move played; the loss is its cross
//! entropy. Making the samples (replaying games) is `pbrain-wuzi tune`'s
//! part.

use super::adam::Adam;
use super::code::CODES;
use super::tables::{table_set, Tables, TABLE_SETS, UNIT};
use super::EVAL_LIMIT;
use crate::types::{Color, Rule};

/// The tables of one set, in the order of the file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Table {
    /// [`Tables::mover`].
    Mover,
    /// [`Tables::waiter`].
    Waiter,
    /// [`Tables::attack`].
    Attack,
    /// [`Tables::defence`].
    Defence,
}

/// The set renju's black plays by.
const RENJU_BLACK: usize = table_set(Rule::Renju, Color::Black);

/// Number of table entries: per set, per table, per code.
pub const PARAMS: usize = TABLE_SETS * 4 * CODES;

/// The index of one table entry among the [`PARAMS`].
#[inline]
pub fn param(set: usize, table: Table, code: usize) -> usize {
    (set * 4 + table as usize) * CODES + code
}

/// Which table an entry index belongs to.
pub fn table_of(param: usize) -> Table {
    [Table::Mover, Table::Waiter, Table::Attack, Table::Defence][param / CODES % 4]
}

/// One position and the move played in it.
#[derive(Clone, Debug, PartialEq)]
pub struct PolicySample {
    /// Per candidate cell: its attack and defence entries.
    pub candidates: Vec<[u32; 2]>,
    /// The index of the move played among the candidates.
    pub played: u32,
    /// Which game it came from (for the training / validation split).
    pub game: u32,
}

/// One labelled position.
#[derive(Clone, Debug, PartialEq)]
pub struct TableSample {
    /// Which entries the evaluation sums, each with its count (negative for
    /// the opponent's).
    pub features: Vec<(u32, i16)>,
    /// The game's result for the side to move: 1 win, 0.5 draw, 0 loss.
    pub result: f64,
    /// Which game it came from (for the training / validation split).
    pub game: u32,
}

/// The tables as one flat vector of [`PARAMS`] reals.
pub fn flatten(sets: &[Tables]) -> Vec<f64> {
    let mut w = vec![0.0; PARAMS];
    for (s, set) in sets.iter().enumerate() {
        for code in 0..CODES {
            w[param(s, Table::Mover, code)] = f64::from(set.mover[code]);
            w[param(s, Table::Waiter, code)] = f64::from(set.waiter[code]);
            w[param(s, Table::Attack, code)] = f64::from(set.attack[code]);
            w[param(s, Table::Defence, code)] = f64::from(set.defence[code]);
        }
    }
    w
}

/// The flat vector back as tables, rounded.
pub fn unflatten(w: &[f64]) -> Vec<Tables> {
    (0..TABLE_SETS)
        .map(|s| {
            let table = |t: Table| {
                let mut values = [0; CODES];
                for (code, v) in values.iter_mut().enumerate() {
                    *v = w[param(s, t, code)].round() as i32;
                }
                values
            };
            Tables {
                mover: table(Table::Mover),
                waiter: table(Table::Waiter),
                attack: table(Table::Attack),
                defence: table(Table::Defence),
            }
        })
        .collect()
}

/// The evaluation of a sample under the entries `w`, in score points.
#[inline]
pub fn eval(sample: &TableSample, w: &[f64]) -> f64 {
    let sum: f64 = sample
        .features
        .iter()
        .map(|&(i, c)| w[i as usize] * f64::from(c))
        .sum();
    (sum / f64::from(UNIT)).clamp(-f64::from(EVAL_LIMIT), f64::from(EVAL_LIMIT))
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Texel's loss: the mean of `(result − sigmoid(K·eval))²`.
pub fn loss(samples: &[TableSample], w: &[f64], k: f64) -> f64 {
    let total: f64 = samples
        .iter()
        .map(|s| (s.result - sigmoid(k * eval(s, w))).powi(2))
        .sum();
    total / samples.len().max(1) as f64
}

/// The `K` that minimises the loss of `w` (golden-section search on ln K).
pub fn fit_k(samples: &[TableSample], w: &[f64]) -> f64 {
    minimise_k(|k| loss(samples, w, k))
}

/// The policy's cross entropy (mean of `−ln p(move played)`) and how often
/// the move played has the best score.
pub fn policy_loss(samples: &[PolicySample], w: &[f64], k: f64) -> (f64, f64) {
    let mut total = 0.0;
    let mut hits = 0;
    for s in samples {
        let scores: Vec<f64> = s
            .candidates
            .iter()
            .map(|&[a, d]| k * (w[a as usize] + w[d as usize]))
            .collect();
        let max = scores.iter().copied().fold(f64::MIN, f64::max);
        let sum: f64 = scores.iter().map(|&x| (x - max).exp()).sum();
        total += max + sum.ln() - scores[s.played as usize];
        hits += (scores[s.played as usize] >= max) as usize;
    }
    let n = samples.len().max(1) as f64;
    (total / n, hits as f64 / n)
}

/// The policy's `K` for the entries `w`.
pub fn fit_policy_k(samples: &[PolicySample], w: &[f64]) -> f64 {
    minimise_k(|k| policy_loss(samples, w, k).0)
}

/// The `K` in 1e-6..1 that minimises `f` (golden-section search on ln K).
fn minimise_k(f: impl Fn(f64) -> f64) -> f64 {
    let f = |ln_k: f64| f(ln_k.exp());
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

/// How a fit runs.
#[derive(Clone, Copy, Debug)]
pub struct FitSettings {
    /// The scale of `sigmoid(K·eval)`.
    pub k: f64,
    /// Full-batch gradient steps.
    pub iterations: usize,
    /// Adam's step, in score points.
    pub rate: f64,
    /// Weight of the ridge term, per entry and squared score point.
    pub ridge: f64,
    /// Keep the value tables monotone: a code is worth at least each code
    /// one step [weaker](super::code::weaker) (not renju black's set, where
    /// a stronger code can be a forbidden point).
    pub monotone: bool,
}

/// Moves the value entries towards monotony, weakest codes first: where an
/// entry is below that of a weaker code, both go to their mean (a `fixed`
/// entry stays and the other goes to it). Repeated after every step of the
/// fit, this keeps the tables monotone without lifting them all.
fn make_monotone(w: &mut [f64], fixed: &[bool], order: &[(usize, Vec<usize>)]) {
    for set in (0..TABLE_SETS).filter(|&s| s != RENJU_BLACK) {
        for table in [Table::Mover, Table::Waiter] {
            for (code, weaker) in order {
                let i = param(set, table, *code);
                for &c in weaker {
                    let j = param(set, table, c);
                    if w[i] >= w[j] {
                        continue;
                    }
                    match (fixed[i], fixed[j]) {
                        (true, true) => {}
                        (true, false) => w[j] = w[i],
                        (false, true) => w[i] = w[j],
                        (false, false) => {
                            let mean = (w[i] + w[j]) / 2.0;
                            (w[i], w[j]) = (mean, mean);
                        }
                    }
                }
            }
        }
    }
}

/// The codes weakest first, each with its weaker codes.
fn strength_order() -> Vec<(usize, Vec<usize>)> {
    super::code::by_strength()
        .into_iter()
        .map(|c| (c, super::code::weaker(c)))
        .collect()
}

/// Adam from `start`, full batch, for `settings.iterations` steps:
/// `gradient` fills the loss's gradient (per table unit) at the entries;
/// entries in `fixed` keep their start value; the value tables are kept
/// monotone if `settings.monotone`.
fn descend(
    start: &[f64],
    fixed: &[bool],
    settings: FitSettings,
    mut progress: impl FnMut(usize, &[f64]),
    mut gradient: impl FnMut(&[f64], &mut [f64]),
) -> Vec<f64> {
    let unit = f64::from(UNIT);
    let mut w = start.to_vec();
    let mut adam = Adam::new(PARAMS);
    let order = if settings.monotone {
        strength_order()
    } else {
        Vec::new()
    };
    let mut grad = vec![0.0; PARAMS];
    for step in 1..=settings.iterations {
        grad.iter_mut().for_each(|g| *g = 0.0);
        gradient(&w, &mut grad);
        // In score points, the ridge pulling towards the start; a fixed
        // entry gets no gradient and so stays.
        for i in 0..PARAMS {
            grad[i] = if fixed[i] {
                0.0
            } else {
                grad[i] * unit + 2.0 * settings.ridge * (w[i] - start[i]) / unit
            };
        }
        adam.step(&mut w, &grad, settings.rate * unit);
        if settings.monotone {
            make_monotone(&mut w, fixed, &order);
        }
        progress(step, &w);
    }
    w
}

/// Fits the entries to the samples from `start` (Adam, full batch). Entries
/// in `fixed` keep their start value.
pub fn fit(
    samples: &[TableSample],
    start: &[f64],
    fixed: &[bool],
    settings: FitSettings,
    progress: impl FnMut(usize, &[f64]),
) -> Vec<f64> {
    let (k, unit) = (settings.k, f64::from(UNIT));
    let n = samples.len().max(1) as f64;
    descend(start, fixed, settings, progress, |w, grad| {
        for s in samples {
            let e = eval(s, w);
            if e.abs() >= f64::from(EVAL_LIMIT) {
                continue;
            }
            let p = sigmoid(k * e);
            let g = 2.0 * (p - s.result) * p * (1.0 - p) * k / n / unit;
            for &(i, c) in &s.features {
                grad[i as usize] += g * f64::from(c);
            }
        }
    })
}

/// Fits the policy entries to the moves played from `start`, like [`fit`]
/// (never constrained to monotony).
pub fn fit_policy(
    samples: &[PolicySample],
    start: &[f64],
    fixed: &[bool],
    settings: FitSettings,
    progress: impl FnMut(usize, &[f64]),
) -> Vec<f64> {
    let k = settings.k;
    let n = samples.len().max(1) as f64;
    let mut p = Vec::new();
    let settings = FitSettings {
        monotone: false,
        ..settings
    };
    descend(start, fixed, settings, progress, |w, grad| {
        for s in samples {
            p.clear();
            p.extend(
                s.candidates
                    .iter()
                    .map(|&[a, d]| k * (w[a as usize] + w[d as usize])),
            );
            let max = p.iter().copied().fold(f64::MIN, f64::max);
            p.iter_mut().for_each(|x| *x = (*x - max).exp());
            let sum: f64 = p.iter().sum();
            for (i, &[a, d]) in s.candidates.iter().enumerate() {
                let target = (i == s.played as usize) as u8 as f64;
                let g = k * (p[i] / sum - target) / n;
                grad[a as usize] += g;
                grad[d as usize] += g;
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    /// Samples labelled with the exact win probability of known entries: the
    /// fit, started from zero, predicts them again, and `fit_k` finds the
    /// scale they were made with.
    #[test]
    fn fit_recovers_known_entries() {
        let mut rng = StdRng::seed_from_u64(5);
        let mut truth = vec![0.0; PARAMS];
        let used: Vec<usize> = (1..40)
            .map(|c| {
                param(
                    0,
                    if c % 2 == 0 {
                        Table::Mover
                    } else {
                        Table::Waiter
                    },
                    c,
                )
            })
            .collect();
        for &i in &used {
            truth[i] = rng.gen_range(-3000.0..3000.0);
        }
        let k = 0.01;
        let samples: Vec<TableSample> = (0..600)
            .map(|g| {
                let mut features: Vec<(u32, i16)> = Vec::new();
                for &i in &used {
                    if rng.gen_bool(0.3) {
                        features.push((i as u32, rng.gen_range(-3..=3)));
                    }
                }
                let mut s = TableSample {
                    features,
                    result: 0.0,
                    game: g,
                };
                s.result = sigmoid(k * eval(&s, &truth));
                s
            })
            .collect();
        assert!((fit_k(&samples, &truth) / k - 1.0).abs() < 0.01);
        let zero = vec![0.0; PARAMS];
        let settings = FitSettings {
            k,
            iterations: 1500,
            rate: 2.0,
            ridge: 0.0,
            monotone: false,
        };
        let w = fit(&samples, &zero, &[false; PARAMS], settings, |_, _| {});
        assert!(loss(&samples, &zero, k) > 0.01);
        assert!(loss(&samples, &w, k) < 1e-4, "{}", loss(&samples, &w, k));
    }

    #[test]
    fn tables_round_trip_through_the_flat_vector() {
        let sets = (0..TABLE_SETS)
            .map(|s| super::super::tables::tables(s).clone())
            .collect::<Vec<_>>();
        assert_eq!(unflatten(&flatten(&sets)), sets);
    }
}
