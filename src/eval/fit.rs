//! Texel's method: fitting the evaluation's [`weights`](super::weights) to
//! labelled positions.
//!
//! The evaluation is linear in the weights: per side, the counts over empty
//! cells of each line pattern and each threat class (the features), mixed as
//! `(ours·OURS − theirs·THEIRS) / MIX_SCALE`. The fit finds the scale `K` of
//! `sigmoid(K·eval)` for the current weights first, then the weights
//! themselves, minimising the mean of `(result − sigmoid(K·eval))²`, and
//! writes them back as the source of `src/eval/weights.rs`. Playing the games
//! and counting the features is `pbrain-wuzi tune`'s part (`cli::tune`).

use std::fmt::Write as _;

use super::weights::{CLASS_BONUS, MIX_SCALE, OURS_WEIGHT, PATTERN_VALUE, THEIRS_WEIGHT};
use super::EVAL_LIMIT;
use crate::types::{Pattern, Threat};

/// Features per side: one count per line pattern, then one per threat class.
pub const FEATURES: usize = Pattern::COUNT + Threat::COUNT;

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
    pub fn flat(&self) -> [f64; FEATURES] {
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

    /// The (rounded) weights as the complete source of `src/eval/weights.rs`
    /// (formatted as `cargo fmt` leaves it), with `record`, the run that
    /// fitted them, one line per entry, in its documentation.
    pub fn to_rust(&self, record: &[String]) -> String {
        let r = self.rounded();
        let mut out = String::new();
        out.push_str(WEIGHTS_HEADER);
        for line in record {
            let _ = writeln!(out, "//! {line}");
        }
        out.push_str("//! ```\n\nuse crate::types::{Pattern, Threat};\n\n");
        let names = Pattern::ALL.map(|p| format!("{p:?}"));
        out.push_str("/// Value of each line pattern, by [`Pattern`].\n");
        table(&mut out, "PATTERN_VALUE", "Pattern", &r.pattern, &names);
        let names = Threat::ALL.map(|c| format!("{c:?}"));
        out.push_str("\n/// Extra value of each threat class, by [`Threat`].\n");
        table(&mut out, "CLASS_BONUS", "Threat", &r.class, &names);
        let _ = write!(
            out,
            "\n/// Weight of the side to move's value sum, in 1/[`MIX_SCALE`] units.\n\
             pub const OURS_WEIGHT: i32 = {};\n\
             /// Weight of the opponent's value sum, in 1/[`MIX_SCALE`] units.\n\
             pub const THEIRS_WEIGHT: i32 = {};\n\
             /// Denominator of the two mixing weights.\n\
             pub const MIX_SCALE: i32 = {MIX_SCALE};\n",
            r.ours as i64, r.theirs as i64
        );
        out
    }
}

/// The start of `src/eval/weights.rs`, up to the fitting run's record.
const WEIGHTS_HEADER: &str = "\
//! The evaluation's fitted data: the value of each line pattern, the bonus
//! of each threat class, and the weights that mix the two sides' sums.
//!
//! Written by `pbrain-wuzi tune` (Texel's method, [`super::fit`]), which
//! rewrites the whole file; notes added by hand (such as the match that
//! validated a refit) go into the record below. The side to move's weight
//! and the scale stay fixed, as does the value of a dead line, an overline,
//! a forbidden point and a five. The fitting run:
//!
//! ```text
";

/// Writes one table of `src/eval/weights.rs`: an array constant with one
/// entry a line, each named in a comment.
fn table(out: &mut String, name: &str, index: &str, values: &[f64], names: &[String]) {
    let _ = writeln!(out, "pub const {name}: [i32; {index}::COUNT] = [");
    let entries: Vec<String> = values.iter().map(|v| format!("{},", *v as i64)).collect();
    let width = entries.iter().map(String::len).max().unwrap_or(0);
    for (entry, name) in entries.iter().zip(names) {
        let _ = writeln!(out, "    {entry:<width$} // {name}");
    }
    out.push_str("];\n");
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

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

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
        let text = projected.to_rust(&["a record".to_string()]);
        let numbers = |name: &str| -> Vec<f64> {
            let start = text.find(&format!("const {name}:")).expect(name);
            let value = &text[start..];
            let value = &value[value.find('=').expect("has a value") + 1..];
            let value = &value[..value.find(';').expect("ends")];
            value
                .lines()
                .map(|l| l.split("//").next().unwrap_or(""))
                .collect::<String>()
                .split(',')
                .map(|x| x.trim_matches(|c: char| c.is_whitespace() || "[]".contains(c)))
                .filter(|x| !x.is_empty())
                .map(|x| x.parse().expect("a number"))
                .collect()
        };
        assert_eq!(numbers("PATTERN_VALUE"), projected.pattern.to_vec());
        assert_eq!(numbers("CLASS_BONUS"), projected.class.to_vec());
        assert_eq!(numbers("OURS_WEIGHT"), vec![projected.ours]);
        assert_eq!(numbers("THEIRS_WEIGHT"), vec![projected.theirs]);
    }

    /// `src/eval/weights.rs` is exactly what the fitter writes for the
    /// weights it holds, with the record it carries: the fitter reads and
    /// writes the one place the weights live.
    #[test]
    fn weights_file_is_the_fitters_output() {
        let file = include_str!("weights.rs");
        let record: Vec<String> = file
            .lines()
            .skip_while(|l| *l != "//! ```text")
            .skip(1)
            .take_while(|l| *l != "//! ```")
            .map(|l| l.trim_start_matches("//!").trim_start().to_string())
            .collect();
        assert!(record.len() > 1, "the record is found");
        assert_eq!(Weights::current().to_rust(&record), file);
    }
}
