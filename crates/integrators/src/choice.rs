//! The integrator a caller chooses, as plain data (a name with tolerances or a
//! step), and the [`Stepper`] it builds.

use std::fmt;
use std::str::FromStr;

use crate::adams::{Adams, Params as AdamsParams};
use crate::bdf::{Bdf, Params as BdfParams};
use crate::error::Error;
use crate::generalized_alpha::{
    DEFAULT_RHO_INF, GeneralizedAlpha, GeneralizedAlphaOde, Params as GalphaParams,
};
use crate::implicit::{ImplicitIntegrator, ImplicitRule, NewtonParams, Params as ImplicitParams};
use crate::radau5::{Params as Radau5Params, Radau5};
use crate::rk::{EmbeddedRk, Params as RkParams};
use crate::staggered::{CentralDifference, Params as StaggeredParams, TwoStageStaggered};
use crate::stepper::Stepper;
use crate::system::{OdeSystem, PartitionedSystem};

/// Default relative and absolute tolerance of the adaptive integrators.
pub const DEFAULT_TOL: f64 = 1e-6;
/// Default step of the fixed-step integrators.
pub const DEFAULT_STEP: f64 = 1e-3;

/// An integrator of this crate with its accuracy settings: tolerances for the
/// adaptive ones, the step for the fixed-step ones.
///
/// ```
/// use mbs_integrators::IntegratorChoice;
/// let i = IntegratorChoice::from_name("rk45", Some(1e-8), None, None)?;
/// assert_eq!(i, IntegratorChoice::Rk45 { rtol: 1e-8, atol: 1e-8 });
/// let j: IntegratorChoice = "midpoint:h=0.001".parse()?;
/// assert_eq!(j.step(), Some(0.001));
/// assert!(IntegratorChoice::from_name("midpoint", Some(1e-6), None, None).is_err());
/// # Ok::<(), mbs_integrators::ChoiceError>(())
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
    /// Dormand–Prince 8(5,3) (Hairer's DOP853), adaptive.
    Dop853 {
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
    /// Radau IIA of order 5 (Hairer's RADAU5), implicit, adaptive.
    Radau5 {
        /// Relative tolerance.
        rtol: f64,
        /// Absolute tolerance.
        atol: f64,
    },
    /// Variable-order BDF/NDF 1–5 (SciPy `BDF`, MATLAB `ode15s`), implicit, adaptive.
    Bdf {
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
    /// Generalized-α, adaptive or fixed step: the first-order form (Jansen–Whiting–
    /// Hulbert 2000) from [`ode_stepper`](Self::ode_stepper), the second-order form
    /// (Chung–Hulbert 1993, Arnold–Brüls 2007) from
    /// [`partitioned_stepper`](Self::partitioned_stepper).
    GeneralizedAlpha {
        /// Spectral radius at infinity ρ∞ ∈ [0, 1] (`rho=` in a spec).
        rho_inf: f64,
        /// Tolerances or a fixed step.
        steps: StepControl,
    },
}

/// How an integrator that can do both chooses its steps.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum StepControl {
    /// By its error estimate.
    Adaptive {
        /// Relative tolerance.
        rtol: f64,
        /// Absolute tolerance.
        atol: f64,
    },
    /// Fixed steps.
    Fixed {
        /// Step.
        h: f64,
    },
}

/// Integrator names with a one-line description.
pub const INTEGRATOR_NAMES: &[(&str, &str)] = &[
    ("rk45", "Dormand–Prince 5(4), adaptive (--rtol, --atol)"),
    ("rk23", "Bogacki–Shampine 3(2), adaptive (--rtol, --atol)"),
    (
        "dop853",
        "Dormand–Prince 8(5,3) (Hairer's DOP853), adaptive (--rtol, --atol)",
    ),
    (
        "adams",
        "variable-order Adams–Bashforth–Moulton, adaptive (--rtol, --atol)",
    ),
    (
        "radau5",
        "Radau IIA order 5 (Hairer's RADAU5), implicit for stiff models, adaptive (--rtol, --atol)",
    ),
    (
        "bdf",
        "variable-order BDF/NDF 1-5 (ode15s, SciPy BDF), implicit for stiff models, adaptive (--rtol, --atol)",
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
    (
        "generalized-alpha",
        "generalized-α (alias galpha), implicit, for stiff models; adaptive (--rtol, --atol) or fixed step (--h); spec key rho = ρ∞ in [0, 1], default 0.5; first-order form on the ODE methods, index-3 form on alf-index3",
    ),
];

/// Why a name or a `name:key=value` string does not describe an integrator.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ChoiceError {
    /// An integrator name that does not exist.
    #[error("unknown integrator `{name}`; valid integrators: {valid}")]
    Unknown {
        /// The name given.
        name: String,
        /// The valid names, comma separated.
        valid: String,
    },
    /// A parameter that is out of range, unknown or cannot be parsed.
    #[error("{element}: parameter `{parameter}` {requirement}, got `{value}`")]
    InvalidParameter {
        /// The integrator the parameter belongs to.
        element: String,
        /// Parameter name.
        parameter: String,
        /// What is allowed, in words.
        requirement: String,
        /// The value given.
        value: String,
    },
}

fn invalid(
    element: impl Into<String>,
    parameter: impl Into<String>,
    requirement: &str,
    value: impl fmt::Display,
) -> ChoiceError {
    ChoiceError::InvalidParameter {
        element: element.into(),
        parameter: parameter.into(),
        requirement: requirement.into(),
        value: value.to_string(),
    }
}

/// What every stepper built from an [`IntegratorChoice`] shares.
#[derive(Debug, Clone, PartialEq)]
pub struct StepperSettings {
    /// Call the system's projection hook every `project_every` accepted steps
    /// (`0`: never).
    pub project_every: usize,
    /// Limit on the attempted steps of the adaptive integrators; the fixed-step
    /// ones take the steps their span needs (within their own default limit).
    pub max_steps: usize,
    /// Newton parameters of the implicit rules.
    pub newton: NewtonParams,
}

impl Default for StepperSettings {
    /// Projection after every step, the adaptive integrators' default step limit,
    /// default Newton parameters.
    fn default() -> Self {
        Self {
            project_every: 1,
            max_steps: RkParams::default().max_steps,
            newton: NewtonParams::default(),
        }
    }
}

impl IntegratorChoice {
    /// The stepper of this choice for a first-order system of dimension `n`, or
    /// [`Error::InvalidInput`] for the partitioned integrators.
    pub fn ode_stepper<S: OdeSystem + ?Sized>(
        &self,
        n: usize,
        settings: &StepperSettings,
    ) -> Result<Box<dyn Stepper<S>>, Error> {
        let StepperSettings {
            project_every,
            max_steps,
            ref newton,
        } = *settings;
        let rk = |rtol, atol| RkParams {
            project_every,
            max_steps,
            ..RkParams::with_tol(rtol, atol)
        };
        let implicit = |rule, h| ImplicitParams {
            project_every,
            newton: newton.clone(),
            ..ImplicitParams::new(rule, h)
        };
        Ok(match *self {
            Self::Rk45 { rtol, atol } => Box::new(EmbeddedRk::rk45(n, rk(rtol, atol))),
            Self::Rk23 { rtol, atol } => Box::new(EmbeddedRk::rk23(n, rk(rtol, atol))),
            Self::Dop853 { rtol, atol } => Box::new(EmbeddedRk::dop853(n, rk(rtol, atol))),
            Self::Adams { rtol, atol } => Box::new(Adams::new(
                n,
                AdamsParams {
                    project_every,
                    max_steps,
                    ..AdamsParams::with_tol(rtol, atol)
                },
            )),
            Self::Radau5 { rtol, atol } => Box::new(Radau5::new(
                n,
                Radau5Params {
                    project_every,
                    max_steps,
                    ..Radau5Params::with_tol(rtol, atol)
                },
            )),
            Self::Bdf { rtol, atol } => Box::new(Bdf::new(
                n,
                BdfParams {
                    project_every,
                    max_steps,
                    ..BdfParams::with_tol(rtol, atol)
                },
            )),
            Self::Midpoint { h } => Box::new(ImplicitIntegrator::new(
                n,
                implicit(ImplicitRule::Midpoint, h),
            )),
            Self::Trapezoidal { h } => Box::new(ImplicitIntegrator::new(
                n,
                implicit(ImplicitRule::Trapezoidal, h),
            )),
            Self::GeneralizedAlpha { rho_inf, steps } => Box::new(GeneralizedAlphaOde::new(
                n,
                galpha_params(rho_inf, steps, settings),
            )),
            Self::CentralDifference { .. } | Self::Staggered { .. } => {
                return Err(Error::InvalidInput(format!(
                    "{} needs a partitioned (second-order) system",
                    self.name()
                )));
            }
        })
    }

    /// The stepper of this choice for a partitioned system with `nx` positions
    /// and `nv` velocities, or [`Error::InvalidInput`] for the first-order
    /// integrators.
    pub fn partitioned_stepper<S: PartitionedSystem + ?Sized>(
        &self,
        nx: usize,
        nv: usize,
        settings: &StepperSettings,
    ) -> Result<Box<dyn Stepper<S>>, Error> {
        let params = |h| StaggeredParams {
            project_every: settings.project_every,
            ..StaggeredParams::new(h)
        };
        match *self {
            Self::CentralDifference { h } => {
                Ok(Box::new(CentralDifference::new(nx, nv, params(h))))
            }
            Self::Staggered { h } => Ok(Box::new(TwoStageStaggered::new(nx, nv, params(h)))),
            Self::GeneralizedAlpha { rho_inf, steps } => Ok(Box::new(GeneralizedAlpha::new(
                nx,
                nv,
                galpha_params(rho_inf, steps, settings),
            ))),
            _ => Err(Error::InvalidInput(format!(
                "{} is not a partitioned integrator",
                self.name()
            ))),
        }
    }

    /// The integrator called `name` with optional tolerances (adaptive) or step
    /// (fixed-step); absent values take [`DEFAULT_TOL`] / [`DEFAULT_STEP`]. Giving a
    /// step to an adaptive integrator, or tolerances to a fixed-step one, is an error.
    pub fn from_name(
        name: &str,
        rtol: Option<f64>,
        atol: Option<f64>,
        h: Option<f64>,
    ) -> Result<Self, ChoiceError> {
        let name = name.trim().to_ascii_lowercase();
        let el = format!("integrator `{name}`");
        let check = |key: &str, v: f64| {
            if v.is_finite() && v > 0.0 {
                Ok(v)
            } else {
                Err(invalid(&el, key, "must be positive and finite", v))
            }
        };
        let adaptive: Option<fn(f64, f64) -> Self> = match name.as_str() {
            "rk45" | "ode45" => Some(|rtol, atol| Self::Rk45 { rtol, atol }),
            "rk23" | "ode23" => Some(|rtol, atol| Self::Rk23 { rtol, atol }),
            "dop853" => Some(|rtol, atol| Self::Dop853 { rtol, atol }),
            "adams" | "ode113" => Some(|rtol, atol| Self::Adams { rtol, atol }),
            "radau5" | "radau" => Some(|rtol, atol| Self::Radau5 { rtol, atol }),
            "bdf" | "ndf" | "ode15s" => Some(|rtol, atol| Self::Bdf { rtol, atol }),
            _ => None,
        };
        if matches!(
            name.as_str(),
            "generalized-alpha" | "galpha" | "generalized-α"
        ) {
            let steps = match (h, rtol.or(atol)) {
                (Some(h), None) => StepControl::Fixed { h: check("h", h)? },
                (None, _) => {
                    let rtol = check("rtol", rtol.unwrap_or(DEFAULT_TOL))?;
                    let atol = check("atol", atol.unwrap_or(rtol))?;
                    StepControl::Adaptive { rtol, atol }
                }
                (Some(h), Some(_)) => {
                    let why = "fixes the step: give either h or rtol/atol";
                    return Err(invalid(&el, "h", why, h));
                }
            };
            let rho_inf = DEFAULT_RHO_INF;
            return Ok(Self::GeneralizedAlpha { rho_inf, steps });
        }
        if let Some(make) = adaptive {
            if let Some(h) = h {
                let why = "applies to fixed-step integrators only (use --rtol/--atol)";
                return Err(invalid(&el, "h", why, h));
            }
            let rtol = check("rtol", rtol.unwrap_or(DEFAULT_TOL))?;
            let atol = check("atol", atol.unwrap_or(rtol))?;
            return Ok(make(rtol, atol));
        }
        let make: fn(f64) -> Self = match name.as_str() {
            "midpoint" => |h| Self::Midpoint { h },
            "trapezoidal" | "trapezoid" => |h| Self::Trapezoidal { h },
            "central-difference" | "central" => |h| Self::CentralDifference { h },
            "staggered" | "two-stage-staggered" => |h| Self::Staggered { h },
            _ => {
                let valid: Vec<&str> = INTEGRATOR_NAMES.iter().map(|(n, _)| *n).collect();
                let valid = valid.join(", ");
                return Err(ChoiceError::Unknown { name, valid });
            }
        };
        if let Some(t) = rtol.or(atol) {
            let why = "apply to adaptive integrators only (use --h)";
            return Err(invalid(&el, "rtol/atol", why, t));
        }
        Ok(make(check("h", h.unwrap_or(DEFAULT_STEP))?))
    }

    /// The integrator's name.
    pub fn name(&self) -> &'static str {
        match self {
            Self::Rk45 { .. } => "rk45",
            Self::Rk23 { .. } => "rk23",
            Self::Dop853 { .. } => "dop853",
            Self::Adams { .. } => "adams",
            Self::Radau5 { .. } => "radau5",
            Self::Bdf { .. } => "bdf",
            Self::Midpoint { .. } => "midpoint",
            Self::Trapezoidal { .. } => "trapezoidal",
            Self::CentralDifference { .. } => "central-difference",
            Self::Staggered { .. } => "staggered",
            Self::GeneralizedAlpha { .. } => "generalized-alpha",
        }
    }

    /// Whether the step size is chosen by an error estimate.
    pub fn is_adaptive(&self) -> bool {
        self.tolerances().is_some()
    }

    /// (rtol, atol) of an adaptive integrator.
    pub fn tolerances(&self) -> Option<(f64, f64)> {
        match *self {
            Self::Rk45 { rtol, atol }
            | Self::Rk23 { rtol, atol }
            | Self::Dop853 { rtol, atol }
            | Self::Adams { rtol, atol }
            | Self::Radau5 { rtol, atol }
            | Self::Bdf { rtol, atol } => Some((rtol, atol)),
            Self::GeneralizedAlpha {
                steps: StepControl::Adaptive { rtol, atol },
                ..
            } => Some((rtol, atol)),
            _ => None,
        }
    }

    /// The step of a fixed-step integrator.
    pub fn step(&self) -> Option<f64> {
        match *self {
            Self::Midpoint { h }
            | Self::Trapezoidal { h }
            | Self::CentralDifference { h }
            | Self::Staggered { h }
            | Self::GeneralizedAlpha {
                steps: StepControl::Fixed { h },
                ..
            } => Some(h),
            _ => None,
        }
    }
}

impl Default for IntegratorChoice {
    /// RK45 with rtol = atol = 1e-6.
    fn default() -> Self {
        Self::Rk45 {
            rtol: DEFAULT_TOL,
            atol: DEFAULT_TOL,
        }
    }
}

impl FromStr for IntegratorChoice {
    type Err = ChoiceError;
    /// Parses `name[:rtol=..][:atol=..]` or `name[:h=..]`, e.g. `rk45:rtol=1e-8`,
    /// `trapezoidal:h=0.01`; generalized-α also takes `rho=` (ρ∞ ∈ [0, 1]), e.g.
    /// `generalized-alpha:rho=0.5:rtol=1e-6`.
    fn from_str(s: &str) -> Result<Self, ChoiceError> {
        let mut parts = s.trim().split(':');
        let name = parts.next().unwrap_or("").trim().to_ascii_lowercase();
        let pairs: Vec<(String, &str)> = parts
            .map(|p| match p.split_once('=') {
                Some((k, v)) if !k.trim().is_empty() => {
                    Ok((k.trim().to_ascii_lowercase(), v.trim()))
                }
                _ => Err(p),
            })
            .collect::<Result<_, _>>()
            .map_err(|p| invalid(name.clone(), p, "must be written key=value", p))?;
        let el = format!("integrator `{name}`");
        let (mut rtol, mut atol, mut h, mut rho) = (None, None, None, None);
        for (key, v) in pairs {
            if key == "rho" {
                match v.parse::<f64>() {
                    Ok(x) if (0.0..=1.0).contains(&x) => rho = Some(x),
                    _ => {
                        let why = "(the spectral radius at infinity ρ∞) must be a number in [0, 1]";
                        return Err(invalid(&el, key, why, v));
                    }
                }
                continue;
            }
            let x = match v.parse::<f64>() {
                Ok(x) if x.is_finite() && x > 0.0 => x,
                Ok(x) if x.is_finite() => return Err(invalid(&el, key, "must be positive", x)),
                _ => return Err(invalid(&el, key, "must be a finite number", v)),
            };
            match key.as_str() {
                "rtol" => rtol = Some(x),
                "atol" => atol = Some(x),
                "h" => h = Some(x),
                _ => return Err(invalid(&el, key, "is not one of rtol, atol, h", v)),
            }
        }
        match (Self::from_name(&name, rtol, atol, h)?, rho) {
            (Self::GeneralizedAlpha { steps, .. }, Some(rho_inf)) => {
                Ok(Self::GeneralizedAlpha { rho_inf, steps })
            }
            (_, Some(r)) => Err(invalid(&el, "rho", "applies to generalized-alpha only", r)),
            (choice, None) => Ok(choice),
        }
    }
}

/// Generalized-α parameters of a choice with the settings every stepper shares.
fn galpha_params(rho_inf: f64, steps: StepControl, settings: &StepperSettings) -> GalphaParams {
    let base = GalphaParams {
        rho_inf,
        project_every: settings.project_every,
        max_steps: settings.max_steps,
        newton: settings.newton.clone(),
        ..GalphaParams::default()
    };
    match steps {
        StepControl::Adaptive { rtol, atol } => GalphaParams {
            rtol,
            atol: atol.into(),
            ..base
        },
        StepControl::Fixed { h } => GalphaParams {
            fixed_step: Some(h),
            ..base
        },
    }
}

/// A number for messages and names in its shortest exact form: plain (`0.01`, `250`)
/// for magnitudes from 1e-5 to 1e15 (and 0), `{:e}` beyond (`1e-300`, not 300
/// digits); parsing the text gives the number back.
pub fn general(x: f64) -> String {
    let a = x.abs();
    if a == 0.0 || !a.is_finite() || (1e-5..1e15).contains(&a) {
        format!("{x}")
    } else {
        format!("{x:e}")
    }
}

impl fmt::Display for IntegratorChoice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Self::GeneralizedAlpha { rho_inf, .. } = *self {
            write!(f, "{}:rho={}:", self.name(), general(rho_inf))?;
            return match (self.tolerances(), self.step()) {
                (Some((r, a)), _) => write!(f, "rtol={r:e}:atol={a:e}"),
                (_, h) => write!(f, "h={}", general(h.unwrap_or(DEFAULT_STEP))),
            };
        }
        match (self.tolerances(), self.step()) {
            (Some((r, a)), _) => write!(f, "{}:rtol={r:e}:atol={a:e}", self.name()),
            (_, Some(h)) => write!(f, "{}:h={}", self.name(), general(h)),
            _ => f.write_str(self.name()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn general_numbers_are_short_and_exact() {
        assert_eq!(general(0.01), "0.01");
        assert_eq!(general(1e-300), "1e-300");
        assert_eq!(general(-2.5e20), "-2.5e20");
        assert_eq!(general(0.0), "0");
        for x in [1e-300, 0.1, 123.456, 1e15, 9.99e-6] {
            assert_eq!(general(x).parse::<f64>().unwrap(), x);
        }
    }

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
        let i: IntegratorChoice = "dop853:rtol=1e-10".parse().unwrap();
        assert_eq!(
            i,
            IntegratorChoice::Dop853 {
                rtol: 1e-10,
                atol: 1e-10
            }
        );
        let i: IntegratorChoice = "radau:rtol=1e-8".parse().unwrap();
        assert_eq!(
            i,
            IntegratorChoice::Radau5 {
                rtol: 1e-8,
                atol: 1e-8
            }
        );
        assert_eq!(i.name(), "radau5");
        let i: IntegratorChoice = "bdf:rtol=1e-4:atol=1e-9".parse().unwrap();
        assert_eq!(i.tolerances(), Some((1e-4, 1e-9)));
        let i: IntegratorChoice = "trapezoidal:h=0.01".parse().unwrap();
        assert_eq!(i, IntegratorChoice::Trapezoidal { h: 0.01 });
        let i: IntegratorChoice = "generalized-alpha:rho=0.5:rtol=1e-6".parse().unwrap();
        let steps = StepControl::Adaptive {
            rtol: 1e-6,
            atol: 1e-6,
        };
        assert_eq!(
            i,
            IntegratorChoice::GeneralizedAlpha {
                rho_inf: 0.5,
                steps
            }
        );
        assert_eq!(i.tolerances(), Some((1e-6, 1e-6)));
        let i: IntegratorChoice = "galpha:h=0.001:rho=0".parse().unwrap();
        let steps = StepControl::Fixed { h: 0.001 };
        assert_eq!(
            i,
            IntegratorChoice::GeneralizedAlpha {
                rho_inf: 0.0,
                steps
            }
        );
        assert_eq!((i.step(), i.name()), (Some(0.001), "generalized-alpha"));
        assert_eq!(i.to_string(), "generalized-alpha:rho=0:h=0.001");
        assert_eq!(i.to_string().parse::<IntegratorChoice>().unwrap(), i);
        let i: IntegratorChoice = "generalized-alpha".parse().unwrap();
        assert!(
            matches!(i, IntegratorChoice::GeneralizedAlpha { rho_inf, .. } if rho_inf == DEFAULT_RHO_INF)
        );
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
        let e = "rk45:rtol".parse::<IntegratorChoice>().unwrap_err();
        assert!(e.to_string().contains("key=value"), "{e}");
        let e = "rk45:rtol=-1".parse::<IntegratorChoice>().unwrap_err();
        assert!(e.to_string().contains("must be positive"), "{e}");
        let e = "midpoint:k=1".parse::<IntegratorChoice>().unwrap_err();
        assert!(e.to_string().contains("rtol, atol, h"), "{e}");
        for bad in ["-0.1", "1.5", "NaN", "x"] {
            let s = format!("generalized-alpha:rho={bad}");
            let e = s.parse::<IntegratorChoice>().unwrap_err().to_string();
            assert!(e.contains("`rho`") && e.contains(bad), "{e}");
        }
        let e = "rk45:rho=0.5".parse::<IntegratorChoice>().unwrap_err();
        assert!(e.to_string().contains("generalized-alpha only"), "{e}");
        let e = IntegratorChoice::from_name("galpha", Some(1e-6), None, Some(0.1)).unwrap_err();
        assert!(e.to_string().contains("either h or rtol"), "{e}");
    }
}
