//! Scalar functions of time for drivers (rheonomic constraints), actuators and
//! time-varying loads, with analytic first and second derivatives.

use serde::{Deserialize, Serialize};

/// A scalar function f(t) with analytic ḟ and f̈.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum TimeFunction {
    /// f(t) = value.
    Constant {
        /// The constant value.
        value: f64,
    },
    /// f(t) = Σ cₖ tᵏ (coefficients from the constant term up).
    Polynomial {
        /// c₀, c₁, c₂, …
        coefficients: Vec<f64>,
    },
    /// f(t) = offset + amplitude · sin(frequency · t + phase), frequency in rad/s.
    Harmonic {
        /// Amplitude.
        amplitude: f64,
        /// Angular frequency in rad/s.
        frequency: f64,
        /// Phase in rad.
        #[serde(default)]
        phase: f64,
        /// Constant offset.
        #[serde(default)]
        offset: f64,
    },
    /// A C¹ cubic step from `from` at `t0` to `to` at `t1` (constant outside).
    SmoothStep {
        /// Start time.
        t0: f64,
        /// End time.
        t1: f64,
        /// Value before `t0`.
        from: f64,
        /// Value after `t1`.
        to: f64,
    },
    /// The sum of several functions.
    Sum {
        /// The terms.
        terms: Vec<TimeFunction>,
    },
}

impl Default for TimeFunction {
    fn default() -> Self {
        TimeFunction::Constant { value: 0.0 }
    }
}

impl TimeFunction {
    /// A constant function.
    pub fn constant(value: f64) -> Self {
        TimeFunction::Constant { value }
    }

    /// Whether the function is identically zero (skipped in force assembly).
    pub fn is_zero(&self) -> bool {
        matches!(self, TimeFunction::Constant { value } if *value == 0.0)
    }

    /// Value f(t).
    pub fn value(&self, t: f64) -> f64 {
        self.eval(t)[0]
    }

    /// [f(t), ḟ(t), f̈(t)].
    pub fn eval(&self, t: f64) -> [f64; 3] {
        match self {
            TimeFunction::Constant { value } => [*value, 0.0, 0.0],
            TimeFunction::Polynomial { coefficients } => {
                // Horner's scheme for the value and both derivatives.
                let (mut f, mut fd, mut fdd) = (0.0, 0.0, 0.0);
                for &c in coefficients.iter().rev() {
                    fdd = fdd * t + 2.0 * fd;
                    fd = fd * t + f;
                    f = f * t + c;
                }
                [f, fd, fdd]
            }
            TimeFunction::Harmonic {
                amplitude,
                frequency,
                phase,
                offset,
            } => {
                let (s, c) = (frequency * t + phase).sin_cos();
                [
                    offset + amplitude * s,
                    amplitude * frequency * c,
                    -amplitude * frequency * frequency * s,
                ]
            }
            TimeFunction::SmoothStep { t0, t1, from, to } => {
                let span = t1 - t0;
                if t <= *t0 || span <= 0.0 {
                    return [if t <= *t0 { *from } else { *to }, 0.0, 0.0];
                }
                if t >= *t1 {
                    return [*to, 0.0, 0.0];
                }
                let s = (t - t0) / span;
                let d = to - from;
                [
                    from + d * s * s * (3.0 - 2.0 * s),
                    d * 6.0 * s * (1.0 - s) / span,
                    d * (6.0 - 12.0 * s) / (span * span),
                ]
            }
            TimeFunction::Sum { terms } => terms.iter().fold([0.0; 3], |acc, f| {
                let v = f.eval(t);
                [acc[0] + v[0], acc[1] + v[1], acc[2] + v[2]]
            }),
        }
    }

    /// Every number in the function is finite.
    pub fn is_finite(&self) -> bool {
        match self {
            TimeFunction::Constant { value } => value.is_finite(),
            TimeFunction::Polynomial { coefficients } => coefficients.iter().all(|c| c.is_finite()),
            TimeFunction::Harmonic {
                amplitude,
                frequency,
                phase,
                offset,
            } => [amplitude, frequency, phase, offset]
                .iter()
                .all(|v| v.is_finite()),
            TimeFunction::SmoothStep { t0, t1, from, to } => {
                [t0, t1, from, to].iter().all(|v| v.is_finite())
            }
            TimeFunction::Sum { terms } => terms.iter().all(TimeFunction::is_finite),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check_derivatives(f: &TimeFunction, t: f64) {
        let h = 1e-5;
        let [v, d, dd] = f.eval(t);
        let fd = (f.value(t + h) - f.value(t - h)) / (2.0 * h);
        let fdd = (f.value(t + h) - 2.0 * v + f.value(t - h)) / (h * h);
        assert!(
            (fd - d).abs() < 1e-6 * (1.0 + d.abs()),
            "{f:?}: {fd} vs {d}"
        );
        assert!(
            (fdd - dd).abs() < 1e-3 * (1.0 + dd.abs()),
            "{f:?}: {fdd} vs {dd}"
        );
    }

    #[test]
    fn derivatives_match_finite_differences() {
        let fs = [
            TimeFunction::constant(2.0),
            TimeFunction::Polynomial {
                coefficients: vec![1.0, -2.0, 0.5, 0.25],
            },
            TimeFunction::Harmonic {
                amplitude: 0.3,
                frequency: 2.0,
                phase: 0.1,
                offset: 1.0,
            },
            TimeFunction::SmoothStep {
                t0: 0.0,
                t1: 2.0,
                from: 1.0,
                to: 3.0,
            },
        ];
        for f in &fs {
            for &t in &[0.3, 0.9, 1.7] {
                check_derivatives(f, t);
            }
        }
        let sum = TimeFunction::Sum { terms: fs.to_vec() };
        check_derivatives(&sum, 0.77);
    }
}
