//! Fitting the [threat term](super::threat) to game results.
//!
//! A sample is a position from a game: its smoothed evaluation by the cell
//! tables (as the search computes it), its threat mask, the table set of
//! the side to move, who played each side and the game's result for the
//! side to move. The model is `sigmoid(K·(eval + T[set][mask]) + s[us] −
//! s[them])`: the threat value `T` in score points, `K` the scale, and a
//! strength `s` per player, so that games between unequal engines (a
//! match against a stronger one) teach what the threats are worth rather
//! than who played. The fit minimises the mean of `(result − p)²` plus a
//! ridge term on `T` (towards the values the fit starts from, zero unless
//! given) by Adam's method; masks the training games show fewer than
//! [`MIN_SAMPLES`] times keep their starting values.

use super::adam::Adam;
use super::threat::MASKS;
use super::EVAL_LIMIT;

/// Fewest training positions a mask needs to get a fitted value.
pub const MIN_SAMPLES: usize = 30;

/// One position of a game.
#[derive(Clone, Debug, PartialEq)]
pub struct ThreatSample {
    /// The cell tables' smoothed evaluation for the side to move.
    pub eval: i32,
    /// The table set of the side to move.
    pub set: usize,
    /// The position's threat mask.
    pub mask: usize,
    /// The players of the side to move and of the opponent, as indices
    /// into the fit's strengths.
    pub players: [usize; 2],
    /// The game's result for the side to move: 1 win, 0.5 draw, 0 loss.
    pub result: f64,
}

/// A fitted model.
#[derive(Clone, Debug)]
pub struct ThreatModel {
    /// The scale of `sigmoid`.
    pub k: f64,
    /// Per player, its strength.
    pub strengths: Vec<f64>,
    /// Per table set, the threat values by mask, in score points.
    pub tables: Vec<Vec<f64>>,
}

impl ThreatModel {
    /// A model with no threat values, `k` and equal strengths.
    pub fn new(k: f64, players: usize, sets: usize) -> ThreatModel {
        ThreatModel {
            k,
            strengths: vec![0.0; players],
            tables: vec![vec![0.0; MASKS]; sets],
        }
    }

    /// The model's estimate of `sample`'s result.
    pub fn predict(&self, sample: &ThreatSample) -> f64 {
        let value = (f64::from(sample.eval) + self.tables[sample.set][sample.mask])
            .clamp(-f64::from(EVAL_LIMIT), f64::from(EVAL_LIMIT));
        let [us, them] = sample.players;
        let z = self.k * value + self.strengths[us] - self.strengths[them];
        1.0 / (1.0 + (-z).exp())
    }

    /// The mean squared error over `samples`.
    pub fn loss(&self, samples: &[ThreatSample]) -> f64 {
        let total: f64 = samples
            .iter()
            .map(|s| (s.result - self.predict(s)).powi(2))
            .sum();
        total / samples.len().max(1) as f64
    }
}

/// How a fit runs.
#[derive(Clone, Copy, Debug)]
pub struct ThreatFitSettings {
    /// Full-batch gradient steps.
    pub iterations: usize,
    /// Adam's step for the threat values, in score points.
    pub rate: f64,
    /// Weight of the ridge term, per value and squared score point.
    pub ridge: f64,
    /// Whether the threat values are fitted (else only `K` and the
    /// strengths: the baseline the values are judged against).
    pub fit_tables: bool,
}

/// Adam's step for `K`.
const K_RATE: f64 = 1e-4;
/// Adam's step for the strengths.
const STRENGTH_RATE: f64 = 1e-2;

/// Fits `model` to `samples`, its threat values held near those it starts
/// with by the ridge; returns the fitted model, with the values of masks
/// seen fewer than [`MIN_SAMPLES`] times as they started.
pub fn fit_threats(
    samples: &[ThreatSample],
    mut model: ThreatModel,
    settings: ThreatFitSettings,
) -> ThreatModel {
    let sets = model.tables.len();
    let players = model.strengths.len();
    let mut counts = vec![vec![0usize; MASKS]; sets];
    for s in samples {
        counts[s.set][s.mask] += 1;
    }
    let prior = model.tables.clone();
    let n = samples.len().max(1) as f64;
    let (mut adam_k, mut adam_s) = (Adam::new(1), Adam::new(players));
    let mut adam_t: Vec<Adam> = (0..sets).map(|_| Adam::new(MASKS)).collect();
    for _ in 0..settings.iterations {
        let mut grad_k = 0.0;
        let mut grad_s = vec![0.0; players];
        let mut grad_t: Vec<Vec<f64>> = model
            .tables
            .iter()
            .zip(&prior)
            .map(|(table, prior)| {
                table
                    .iter()
                    .zip(prior)
                    .map(|(&v, &p)| 2.0 * settings.ridge * (v - p))
                    .collect()
            })
            .collect();
        for s in samples {
            let p = model.predict(s);
            // d(loss)/dz of one sample's squared error, over the mean.
            let dz = -2.0 * (s.result - p) * p * (1.0 - p) / n;
            let value = f64::from(s.eval) + model.tables[s.set][s.mask];
            grad_k += dz * value;
            grad_s[s.players[0]] += dz;
            grad_s[s.players[1]] -= dz;
            grad_t[s.set][s.mask] += dz * model.k;
        }
        adam_k.step(std::slice::from_mut(&mut model.k), &[grad_k], K_RATE);
        adam_s.step(&mut model.strengths, &grad_s, STRENGTH_RATE);
        if settings.fit_tables {
            for ((adam, table), grad) in adam_t.iter_mut().zip(&mut model.tables).zip(&grad_t) {
                adam.step(table, grad, settings.rate);
            }
        }
    }
    for ((table, counts), prior) in model.tables.iter_mut().zip(&counts).zip(&prior) {
        for ((value, &count), &p) in table.iter_mut().zip(counts).zip(prior) {
            if count < MIN_SAMPLES {
                *value = p;
            }
        }
    }
    model
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    /// Results drawn from a known model: the fit finds its threat values
    /// and the stronger player, and leaves a rare mask at zero.
    #[test]
    fn fit_recovers_a_known_model() {
        let mut rng = StdRng::seed_from_u64(7);
        let mut truth = ThreatModel::new(0.004, 2, 1);
        truth.tables[0][3] = 300.0;
        truth.tables[0][5] = -200.0;
        truth.strengths = [0.8, 0.0].to_vec();
        let mut samples: Vec<ThreatSample> = (0..30_000)
            .map(|i| {
                let mask = [0, 3, 5][i % 3];
                let players = if i % 2 == 0 { [0, 1] } else { [1, 0] };
                let mut s = ThreatSample {
                    eval: rng.gen_range(-400..400),
                    set: 0,
                    mask,
                    players,
                    result: 0.0,
                };
                s.result = f64::from(u8::from(rng.gen_bool(truth.predict(&s))));
                s
            })
            .collect();
        samples.push(ThreatSample {
            eval: 0,
            set: 0,
            mask: 9,
            players: [0, 1],
            result: 1.0,
        });
        let settings = ThreatFitSettings {
            iterations: 600,
            rate: 5.0,
            ridge: 0.0,
            fit_tables: true,
        };
        let fitted = fit_threats(&samples, ThreatModel::new(0.003, 2, 1), settings);
        let t = &fitted.tables[0];
        assert!((t[3] - 300.0).abs() < 60.0, "{}", t[3]);
        assert!((t[5] + 200.0).abs() < 60.0, "{}", t[5]);
        assert!(t[0].abs() < 40.0, "{}", t[0]);
        assert_eq!(t[9], 0.0, "one sample is too few");
        let edge = fitted.strengths[0] - fitted.strengths[1];
        assert!((edge - 0.8).abs() < 0.15, "{edge}");
        assert!(fitted.loss(&samples) < ThreatModel::new(0.003, 2, 1).loss(&samples));
    }

    /// A fit that starts from given values keeps them where the games are
    /// silent and is held near them by the ridge where they speak.
    #[test]
    fn a_prior_holds_rare_and_ridged_values() {
        let mut rng = StdRng::seed_from_u64(8);
        let mut truth = ThreatModel::new(0.004, 1, 1);
        truth.tables[0][3] = 300.0;
        let samples: Vec<ThreatSample> = (0..20_000)
            .map(|i| {
                let mut s = ThreatSample {
                    eval: rng.gen_range(-400..400),
                    set: 0,
                    mask: [0, 3][i % 2],
                    players: [0, 0],
                    result: 0.0,
                };
                s.result = f64::from(u8::from(rng.gen_bool(truth.predict(&s))));
                s
            })
            .collect();
        let mut start = ThreatModel::new(0.003, 1, 1);
        start.tables[0][3] = 100.0;
        start.tables[0][9] = 250.0;
        let fit = |ridge: f64| {
            let settings = ThreatFitSettings {
                iterations: 600,
                rate: 5.0,
                ridge,
                fit_tables: true,
            };
            fit_threats(&samples, start.clone(), settings).tables[0].clone()
        };
        let free = fit(0.0);
        assert!((free[3] - 300.0).abs() < 60.0, "{}", free[3]);
        assert_eq!(free[9], 250.0, "a mask no game shows keeps its prior");
        let held = fit(1e-5);
        assert!(held[3] > 100.0 && held[3] < free[3] - 50.0, "{}", held[3]);
    }
}
