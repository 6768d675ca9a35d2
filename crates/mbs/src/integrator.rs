//! The integrator a simulation uses and its accuracy settings: tolerances for the
//! adaptive ones, the step for the fixed-step ones.

use std::fmt;
use std::str::FromStr;

use crate::error::Error;
use crate::method::{parse_f64, split_params};

/// Default relative and absolute tolerance of the adaptive integrators.
pub const DEFAULT_TOL: f64 = 1e-6;
/// Default step of the fixed-step integrators.
pub const DEFAULT_STEP: f64 = 1e-3;

/// An integrator of `mbs-integrators` with its settings.
///
/// ```
/// use mbs::IntegratorChoice;
/// let i = IntegratorChoice::from_name("rk45", Some(1e-8), None, None)?;
/// assert_eq!(i, IntegratorChoice::Rk45 { rtol: 1e-8, atol: 1e-8 });
/// let j: IntegratorChoice = "midpoint:h=0.001".parse()?;
/// assert_eq!(j.step(), Some(0.001));
/// assert!(IntegratorChoice::from_name("midpoint", Some(1e-6), None, None).is_err());
/// # Ok::<(), mbs::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum IntegratorChoice {
    /// Dormand–Prince 5(4), adaptive.
    Rk45 {
        /// Relative tolerance.
        rtol: f64,
        /// Absolute tolerance.
        atol: f64,
    },
    /// Bogacki–Shampine 3(2), adaptive.
    Rk23 {
        /// Relative tolerance.
        rtol: f64,
        /// Absolute tolerance.
        atol: f64,
    },
    /// Variable-order Adams–Bashforth–Moulton (ode113-like), adaptive.
    Adams {
        /// Relative tolerance.
        rtol: f64,
        /// Absolute tolerance.
        atol: f64,
    },
    /// Implicit midpoint rule, fixed step.
    Midpoint {
        /// Step.
        h: f64,
    },
    /// Trapezoidal rule, fixed step.
    Trapezoidal {
        /// Step.
        h: f64,
    },
    /// Explicit central difference, fixed step.
    CentralDifference {
        /// Step.
        h: f64,
    },
    /// Chiou's two-stage staggered explicit–implicit scheme, fixed step.
    Staggered {
        /// Step.
        h: f64,
    },
}

/// Integrator names with a one-line description.
pub const INTEGRATOR_NAMES: &[(&str, &str)] = &[
    ("rk45", "Dormand–Prince 5(4), adaptive (--rtol, --atol)"),
    ("rk23", "Bogacki–Shampine 3(2), adaptive (--rtol, --atol)"),
    (
        "adams",
        "variable-order Adams–Bashforth–Moulton, adaptive (--rtol, --atol)",
    ),
    ("midpoint", "implicit midpoint rule, fixed step (--h)"),
    ("trapezoidal", "trapezoidal rule, fixed step (--h)"),
    (
        "central-difference",
        "explicit central difference, fixed step (--h)",
    ),
    (
        "staggered",
        "two-stage staggered explicit-implicit, fixed step (--h)",
    ),
];

fn valid() -> String {
    INTEGRATOR_NAMES
        .iter()
        .map(|(n, _)| *n)
        .collect::<Vec<_>>()
        .join(", ")
}

impl IntegratorChoice {
    /// The integrator called `name` with optional tolerances (adaptive) or step
    /// (fixed-step); absent values take [`DEFAULT_TOL`] / [`DEFAULT_STEP`]. Giving a
    /// step to an adaptive integrator, or tolerances to a fixed-step one, is an error.
    pub fn from_name(
        name: &str,
        rtol: Option<f64>,
        atol: Option<f64>,
        h: Option<f64>,
    ) -> Result<Self, Error> {
        let name = name.trim().to_ascii_lowercase();
        let el = format!("integrator `{name}`");
        let check = |key: &str, v: f64| {
            if v.is_finite() && v > 0.0 {
                Ok(v)
            } else {
                Err(Error::param(&el, key, "must be positive and finite", v))
            }
        };
        let adaptive = matches!(
            name.as_str(),
            "rk45" | "rk23" | "adams" | "ode45" | "ode23" | "ode113"
        );
        if adaptive {
            if let Some(h) = h {
                return Err(Error::param(
                    &el,
                    "h",
                    "applies to fixed-step integrators only (use --rtol/--atol)",
                    h,
                ));
            }
            let rtol = check("rtol", rtol.unwrap_or(DEFAULT_TOL))?;
            let atol = check("atol", atol.unwrap_or(rtol))?;
            return Ok(match name.as_str() {
                "rk45" | "ode45" => IntegratorChoice::Rk45 { rtol, atol },
                "rk23" | "ode23" => IntegratorChoice::Rk23 { rtol, atol },
                _ => IntegratorChoice::Adams { rtol, atol },
            });
        }
        let make: fn(f64) -> IntegratorChoice = match name.as_str() {
            "midpoint" => |h| IntegratorChoice::Midpoint { h },
            "trapezoidal" | "trapezoid" => |h| IntegratorChoice::Trapezoidal { h },
            "central-difference" | "central" => |h| IntegratorChoice::CentralDifference { h },
            "staggered" | "two-stage-staggered" => |h| IntegratorChoice::Staggered { h },
            _ => {
                return Err(Error::UnknownIntegrator {
                    name,
                    valid: valid(),
                });
            }
        };
        if let Some(t) = rtol.or(atol) {
            return Err(Error::param(
                &el,
                "rtol/atol",
                "apply to adaptive integrators only (use --h)",
                t,
            ));
        }
        Ok(make(check("h", h.unwrap_or(DEFAULT_STEP))?))
    }

    /// The integrator's name.
    pub fn name(&self) -> &'static str {
        match self {
            IntegratorChoice::Rk45 { .. } => "rk45",
            IntegratorChoice::Rk23 { .. } => "rk23",
            IntegratorChoice::Adams { .. } => "adams",
            IntegratorChoice::Midpoint { .. } => "midpoint",
            IntegratorChoice::Trapezoidal { .. } => "trapezoidal",
            IntegratorChoice::CentralDifference { .. } => "central-difference",
            IntegratorChoice::Staggered { .. } => "staggered",
        }
    }

    /// Whether the step size is chosen by an error estimate.
    pub fn is_adaptive(&self) -> bool {
        self.tolerances().is_some()
    }

    /// (rtol, atol) of an adaptive integrator.
    pub fn tolerances(&self) -> Option<(f64, f64)> {
        match *self {
            IntegratorChoice::Rk45 { rtol, atol }
            | IntegratorChoice::Rk23 { rtol, atol }
            | IntegratorChoice::Adams { rtol, atol } => Some((rtol, atol)),
            _ => None,
        }
    }

    /// The step of a fixed-step integrator.
    pub fn step(&self) -> Option<f64> {
        match *self {
            IntegratorChoice::Midpoint { h }
            | IntegratorChoice::Trapezoidal { h }
            | IntegratorChoice::CentralDifference { h }
            | IntegratorChoice::Staggered { h } => Some(h),
            _ => None,
        }
    }
}

impl Default for IntegratorChoice {
    /// RK45 with rtol = atol = 1e-6.
    fn default() -> Self {
        IntegratorChoice::Rk45 {
            rtol: DEFAULT_TOL,
            atol: DEFAULT_TOL,
        }
    }
}

impl FromStr for IntegratorChoice {
    type Err = Error;
    /// Parses `name[:rtol=..][:atol=..]` or `name[:h=..]`, e.g. `rk45:rtol=1e-8`,
    /// `trapezoidal:h=0.01`.
    fn from_str(s: &str) -> Result<Self, Error> {
        let (name, params) = split_params(s)?;
        let (mut rtol, mut atol, mut h) = (None, None, None);
        let el = format!("integrator `{name}`");
        for (k, v) in params {
            let x = parse_f64(&el, &k, &v, true)?;
            match k.as_str() {
                "rtol" => rtol = Some(x),
                "atol" => atol = Some(x),
                "h" => h = Some(x),
                _ => return Err(Error::param(&el, k, "is not one of rtol, atol, h", v)),
            }
        }
        IntegratorChoice::from_name(&name, rtol, atol, h)
    }
}

impl fmt::Display for IntegratorChoice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.tolerances(), self.step()) {
            (Some((r, a)), _) => write!(f, "{}:rtol={r:e}:atol={a:e}", self.name()),
            (_, Some(h)) => write!(f, "{}:h={h}", self.name()),
            _ => f.write_str(self.name()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_and_round_trip() {
        for (n, _) in INTEGRATOR_NAMES {
            let i: IntegratorChoice = n.parse().unwrap();
            assert_eq!(i.to_string().parse::<IntegratorChoice>().unwrap(), i);
        }
        let i: IntegratorChoice = "rk45:rtol=1e-8".parse().unwrap();
        assert_eq!(
            i,
            IntegratorChoice::Rk45 {
                rtol: 1e-8,
                atol: 1e-8
            }
        );
        let i: IntegratorChoice = "trapezoidal:h=0.01".parse().unwrap();
        assert_eq!(i, IntegratorChoice::Trapezoidal { h: 0.01 });
    }

    #[test]
    fn errors() {
        let e = "rk99".parse::<IntegratorChoice>().unwrap_err().to_string();
        assert!(e.contains("rk99") && e.contains("rk45"), "{e}");
        let e = IntegratorChoice::from_name("rk45", None, None, Some(0.1))
            .unwrap_err()
            .to_string();
        assert!(e.contains("`h`"), "{e}");
        let e = IntegratorChoice::from_name("midpoint", None, None, Some(-0.1))
            .unwrap_err()
            .to_string();
        assert!(e.contains("-0.1"), "{e}");
    }
}
