//! Adam's method, the gradient step both fitters ([`super::fit`],
//! [`super::threat_fit`]) take.

/// Adam's moment estimates of one parameter vector.
pub(super) struct Adam {
    m: Vec<f64>,
    v: Vec<f64>,
    /// Steps taken.
    t: i32,
}

impl Adam {
    /// Fresh estimates for `n` parameters.
    pub(super) fn new(n: usize) -> Adam {
        Adam {
            m: vec![0.0; n],
            v: vec![0.0; n],
            t: 0,
        }
    }

    /// One step of `rate` on `params` along `grads`. A parameter whose
    /// gradient has always been zero does not move.
    pub(super) fn step(&mut self, params: &mut [f64], grads: &[f64], rate: f64) {
        let (b1, b2) = (0.9f64, 0.999f64);
        self.t += 1;
        let (c1, c2) = (1.0 - b1.powi(self.t), 1.0 - b2.powi(self.t));
        for i in 0..params.len() {
            self.m[i] = b1 * self.m[i] + (1.0 - b1) * grads[i];
            self.v[i] = b2 * self.v[i] + (1.0 - b2) * grads[i] * grads[i];
            params[i] -= rate * (self.m[i] / c1) / ((self.v[i] / c2).sqrt() + 1e-12);
        }
    }
}
