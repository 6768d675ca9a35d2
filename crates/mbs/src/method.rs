//! The formulation ("method") a simulation uses: one [`Method`] variant per front-end
//! family, with its parameters.
//!
//! On the command line a method is a name followed by optional `:key=value` parameters,
//! e.g. `alf-index1:alpha=1e7:every=10` or `lagrange-baumgarte:alpha_hat=5:beta_hat=5`.
//! [`Method::from_str`](std::str::FromStr) parses that form and `Display` writes it back
//! (only the parameters that differ from the name's defaults).

use std::fmt;
use std::str::FromStr;

use crate::error::Error;
pub use mbs_alf::penalty_scale::DEFAULT_EPSILON_KAPPA;
pub use mbs_alf::{AlphaScale, EpsilonScale};

/// Default κ of the relative penalty of `alf` and `alf-index1`
/// (α = κ · tr M / tr(Φ_qᵀΦ_q) at the initial state, see [`AlphaScale`]).
pub const DEFAULT_KAPPA: f64 = 1e4;

/// Linear-algebra backend of Chiou's penalty formulation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PenaltyBackend {
    /// Dense direct solve of (M + Φ_qᵀ Φ_q / ε).
    Dense,
    /// Schur-complement preconditioned conjugate gradients on the arrowhead system
    /// (Chiou ch. 6).
    Pcg,
}

/// The orthogonal/natural complement variants of Pękal–Frączek (eqs 3.1–3.42).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ComplementKind {
    /// Zero-eigenvalue decomposition of Φ_qᵀ Φ_q.
    ZeroEigenvalue,
    /// Schur decomposition.
    Schur,
    /// PUTD with Householder reflections.
    PutdHouseholder,
    /// PUTD with Gauss elimination.
    PutdGauss,
    /// Singular value decomposition.
    Svd,
    /// QR with column pivoting.
    Qr,
    /// Coordinate partitioning (Wehage–Haug).
    CoordinatePartitioning,
    /// Wang–Huston (Euler-angle coordinates).
    WangHuston,
}

/// Constraint stabilization of the complement methods.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Stabilization {
    /// None.
    None,
    /// Baumgarte: Φ̈ + 2α Φ̇ + β² Φ = 0.
    Baumgarte {
        /// α.
        alpha: f64,
        /// β.
        beta: f64,
    },
    /// Newton–Raphson position correction after each step.
    NewtonRaphson,
}

/// A dynamics formulation (front-end) with its parameters. Symbols as in NOTATION.md.
///
/// ```
/// use mbs::Method;
/// let m: Method = "alf-index1:alpha=1e6:every=10".parse()?;
/// assert!(matches!(m, Method::Alf { alpha: mbs::method::AlphaScale::Absolute(1e6), projection_every: 10, .. }));
/// assert_eq!(m.to_string(), "alf-index1:alpha=1e6:every=10");
/// let e = "alf-index7".parse::<Method>().unwrap_err();
/// assert!(e.to_string().contains("valid methods: lagrange"));
/// # Ok::<(), mbs::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub enum Method {
    /// Lagrange multipliers, M q̈ + Φ_qᵀ λ = Q, Φ_q q̈ = γ (Bayo–Ledesma eq 4), optionally
    /// Baumgarte-stabilized (γ − 2α̂ Φ̇ − β̂² Φ) and/or with mass-orthogonal projections
    /// every `projection_every` steps (0 = never).
    Lagrange {
        /// Baumgarte (α̂, β̂), or `None`.
        baumgarte: Option<(f64, f64)>,
        /// Projection period in accepted steps (0 = never).
        projection_every: usize,
        /// Strict KKT solve (`strict=true`): dependent constraint rows (redundant
        /// constraints, singular configurations) stop the run with an error naming the
        /// joints and the time, instead of the default least-squares (min-norm) solve
        /// that handles them.
        strict: bool,
    },
    /// Augmented Lagrangian, index 1 (Bayo–Ledesma eqs 5–8): penalty α, damping ratio μ,
    /// natural frequency Ω, multiplier iterations up to `max_iter` or until the change
    /// is below `tol`; mass-orthogonal projections every `projection_every` steps
    /// (0 = "ALF", 1 = "ALF-INDEX1" of Table 2).
    ///
    /// The penalty is relative by default, `kappa=κ`: α = κ · tr M / tr(Φ_qᵀΦ_q) at
    /// the initial state (κ = [`DEFAULT_KAPPA`]), so that the method works whatever
    /// the masses; `alpha=α` gives the absolute α of the papers (Bayo–Ledesma use
    /// 1e7 for unit masses and lengths).
    Alf {
        /// Penalty: absolute α (`alpha=`) or relative κ (`kappa=`).
        alpha: AlphaScale,
        /// Damping ratio μ.
        mu: f64,
        /// Natural frequency Ω.
        omega: f64,
        /// Maximum multiplier iterations per evaluation.
        max_iter: usize,
        /// Convergence tolerance of the multiplier iteration.
        tol: f64,
        /// Projection period in accepted steps (0 = never).
        projection_every: usize,
    },
    /// ALF-INDEX3 (Bayo–Ledesma eqs 35–40): positions as primary unknowns of an implicit
    /// rule, augmented-Lagrangian iteration, velocity and acceleration projections.
    AlfIndex3 {
        /// Penalty α.
        alpha: f64,
        /// Maximum Newton (augmented-Lagrangian) iterations per step.
        max_iter: usize,
        /// Newton tolerance on ‖Δq‖∞/(1 + ‖q‖∞) and ‖Φ‖∞/(1 + ‖q‖∞).
        tol: f64,
    },
    /// Chiou's penalty constraint stabilization, λ = Φ/ε (sec 5.3).
    ///
    /// ε is relative by default, `kappa=κ`: ε = κ ϱ² d̃ with ϱ = h/2 of the fixed-step
    /// rule (5 ms under adaptive integrators) and d̃ the median of diag(B M⁻¹ Bᵀ) at
    /// the initial state (κ = [`DEFAULT_EPSILON_KAPPA`], see [`EpsilonScale`]);
    /// `epsilon=ε` gives the absolute ε of the thesis (1e-6 for its unit masses).
    /// Under adaptive integrators a run stops with a named error when the
    /// constraints deflect by more than the tolerance allows (the penalty motion is
    /// only O(ε) accurate, `mbs_alf::PenaltyOde::with_tolerance`).
    Penalty {
        /// Penalty coefficient: absolute ε (`epsilon=`) or relative κ (`kappa=`).
        epsilon: EpsilonScale,
        /// Linear-algebra backend.
        backend: PenaltyBackend,
    },
    /// ALF-DCA (Malczyk–Frączek): divide and conquer with augmented Lagrangian, with or
    /// without DCA-form projections.
    AlfDca {
        /// Penalty α.
        alpha: f64,
        /// Damping ratio μ.
        mu: f64,
        /// Natural frequency Ω.
        omega: f64,
        /// Maximum multiplier iterations per level.
        max_iter: usize,
        /// Project positions and velocities after every step.
        projections: bool,
    },
    /// Hamiltonian divide and conquer in joint coordinates and momenta (Chadaj et al.).
    Hdca,
    /// Chiou's natural partitioning (thesis sec 5.4): body-by-body null space of the
    /// spanning-tree Jacobian, cut joints by a second null space; with the two-stage
    /// staggered scheme (procedure 5.5.7) or any ODE integrator.
    NaturalPartitioning,
    /// Orthogonal/natural complement family (Pękal–Frączek).
    Complement {
        /// Which decomposition.
        kind: ComplementKind,
        /// Stabilization.
        stabilization: Stabilization,
    },
}

/// Every method name, in the order shown to users, with a one-line description.
pub const METHOD_NAMES: &[(&str, &str)] = &[
    ("lagrange", "Lagrange multipliers, no stabilization"),
    (
        "lagrange-baumgarte",
        "Lagrange multipliers with Baumgarte stabilization (α̂ = β̂ = 10)",
    ),
    (
        "lagrange-projection",
        "Lagrange multipliers with mass-orthogonal projections every step",
    ),
    (
        "alf",
        "augmented Lagrangian index-1 (α = κ·tr M/tr(Φ_qᵀΦ_q), κ = 1e4; μ = 1, Ω = 10), no projections",
    ),
    (
        "alf-index1",
        "augmented Lagrangian index-1 (α relative to M, κ = 1e4; `alpha=` for an absolute α) with mass-orthogonal projections every step",
    ),
    (
        "alf-index3",
        "augmented Lagrangian index-3 (positions primary) with projections",
    ),
    (
        "penalty",
        "Chiou's penalty stabilization (ε = κ·ϱ²·median diag(B M⁻¹ Bᵀ), κ = 1e-2; `epsilon=` for an absolute ε), dense solve",
    ),
    (
        "penalty-pcg",
        "Chiou's penalty stabilization, Schur-complement PCG",
    ),
    ("alf-dca", "ALF divide-and-conquer, without projections"),
    (
        "alf-dca-proj",
        "ALF divide-and-conquer with DCA-form projections",
    ),
    (
        "hdca",
        "Hamiltonian divide-and-conquer in joint coordinates and momenta",
    ),
    (
        "natural-partitioning",
        "Chiou's natural partitioning (tree null space body by body, cut joints by a second null space)",
    ),
    (
        "complement-zero-eigenvalue",
        "natural complement by zero-eigenvalue decomposition",
    ),
    (
        "complement-schur",
        "natural complement by Schur decomposition",
    ),
    (
        "complement-putd-h",
        "natural complement by PUTD (Householder)",
    ),
    (
        "complement-putd-g",
        "natural complement by PUTD (Gauss elimination)",
    ),
    ("complement-svd", "natural complement by SVD"),
    (
        "complement-qr",
        "natural complement by QR with column pivoting",
    ),
    ("coordinate-partitioning", "coordinate partitioning"),
    ("wang-huston", "Wang–Huston (Euler angles)"),
];

/// Splits `name:key=value:key=value` into the name and its parameters.
pub(crate) fn split_params(s: &str) -> Result<(String, Vec<(String, String)>), Error> {
    let mut parts = s.trim().split(':');
    let name = parts.next().unwrap_or("").trim().to_ascii_lowercase();
    let mut params = Vec::new();
    for p in parts {
        match p.split_once('=') {
            Some((k, v)) if !k.trim().is_empty() => {
                params.push((k.trim().to_ascii_lowercase(), v.trim().to_string()));
            }
            _ => {
                return Err(Error::param(
                    name.clone(),
                    p,
                    "must be written key=value",
                    p,
                ));
            }
        }
    }
    Ok((name, params))
}

pub(crate) fn parse_f64(element: &str, key: &str, v: &str, positive: bool) -> Result<f64, Error> {
    match v.parse::<f64>() {
        Ok(x) if x.is_finite() && (!positive || x > 0.0) => Ok(x),
        Ok(x) if positive && x.is_finite() => {
            Err(Error::param(element, key, "must be positive", x))
        }
        _ => Err(Error::param(element, key, "must be a finite number", v)),
    }
}

/// A finite number ≥ 0 (μ, Ω: a negative value would make the penalty system of
/// Bayo–Ledesma eq 5 unstable).
fn parse_non_negative(element: &str, key: &str, v: &str) -> Result<f64, Error> {
    match parse_f64(element, key, v, false)? {
        x if x >= 0.0 => Ok(x),
        x => Err(Error::param(element, key, "must not be negative", x)),
    }
}

pub(crate) fn parse_usize(element: &str, key: &str, v: &str) -> Result<usize, Error> {
    v.parse::<usize>()
        .map_err(|_| Error::param(element, key, "must be a non-negative integer", v))
}

fn parse_bool(element: &str, key: &str, v: &str) -> Result<bool, Error> {
    match v {
        "true" | "yes" | "1" | "on" => Ok(true),
        "false" | "no" | "0" | "off" => Ok(false),
        _ => Err(Error::param(element, key, "must be true or false", v)),
    }
}

impl Method {
    /// The method with the defaults of `name` (see [`METHOD_NAMES`]).
    pub fn from_name(name: &str) -> Result<Self, Error> {
        use ComplementKind as C;
        let complement = |kind| Method::Complement {
            kind,
            stabilization: Stabilization::None,
        };
        let alf = |projection_every| Method::Alf {
            alpha: AlphaScale::Relative(DEFAULT_KAPPA),
            mu: 1.0,
            omega: 10.0,
            max_iter: 20,
            tol: 1e-12,
            projection_every,
        };
        let dca = |projections| Method::AlfDca {
            alpha: 1e6,
            mu: 1.0,
            omega: 1.0,
            max_iter: 10,
            projections,
        };
        Ok(match name.trim().to_ascii_lowercase().as_str() {
            "lagrange" => Method::Lagrange {
                baumgarte: None,
                projection_every: 0,
                strict: false,
            },
            "lagrange-baumgarte" | "baumgarte" => Method::Lagrange {
                baumgarte: Some((10.0, 10.0)),
                projection_every: 0,
                strict: false,
            },
            "lagrange-projection" => Method::Lagrange {
                baumgarte: None,
                projection_every: 1,
                strict: false,
            },
            "alf" => alf(0),
            "alf-index1" => alf(1),
            "alf-index3" => Method::AlfIndex3 {
                alpha: 1e7,
                max_iter: 25,
                tol: 1e-11,
            },
            "penalty" => Method::Penalty {
                epsilon: EpsilonScale::Relative(DEFAULT_EPSILON_KAPPA),
                backend: PenaltyBackend::Dense,
            },
            "penalty-pcg" => Method::Penalty {
                epsilon: EpsilonScale::Relative(DEFAULT_EPSILON_KAPPA),
                backend: PenaltyBackend::Pcg,
            },
            "alf-dca" => dca(false),
            "alf-dca-proj" => dca(true),
            "hdca" => Method::Hdca,
            "natural-partitioning" => Method::NaturalPartitioning,
            "complement-zero-eigenvalue" => complement(C::ZeroEigenvalue),
            "complement-schur" => complement(C::Schur),
            "complement-putd-h" => complement(C::PutdHouseholder),
            "complement-putd-g" => complement(C::PutdGauss),
            "complement-svd" => complement(C::Svd),
            "complement-qr" => complement(C::Qr),
            "coordinate-partitioning" | "complement-partitioning" => {
                complement(C::CoordinatePartitioning)
            }
            "wang-huston" | "complement-wang-huston" => complement(C::WangHuston),
            other => {
                return Err(Error::UnknownMethod {
                    name: other.to_string(),
                    valid: valid_names(),
                });
            }
        })
    }

    /// The canonical name of this method's family and defaults (the name
    /// [`Method::from_name`] maps to the closest default).
    pub fn name(&self) -> &'static str {
        use ComplementKind as C;
        match self {
            Method::Lagrange {
                baumgarte: Some(_), ..
            } => "lagrange-baumgarte",
            Method::Lagrange {
                baumgarte: None,
                projection_every,
                ..
            } => {
                if *projection_every == 1 {
                    "lagrange-projection"
                } else {
                    "lagrange"
                }
            }
            Method::Alf {
                projection_every, ..
            } => {
                if *projection_every == 0 {
                    "alf"
                } else {
                    "alf-index1"
                }
            }
            Method::AlfIndex3 { .. } => "alf-index3",
            Method::Penalty { backend, .. } => match backend {
                PenaltyBackend::Dense => "penalty",
                PenaltyBackend::Pcg => "penalty-pcg",
            },
            Method::AlfDca { projections, .. } => {
                if *projections {
                    "alf-dca-proj"
                } else {
                    "alf-dca"
                }
            }
            Method::Hdca => "hdca",
            Method::NaturalPartitioning => "natural-partitioning",
            Method::Complement { kind, .. } => match kind {
                C::ZeroEigenvalue => "complement-zero-eigenvalue",
                C::Schur => "complement-schur",
                C::PutdHouseholder => "complement-putd-h",
                C::PutdGauss => "complement-putd-g",
                C::Svd => "complement-svd",
                C::Qr => "complement-qr",
                C::CoordinatePartitioning => "coordinate-partitioning",
                C::WangHuston => "wang-huston",
            },
        }
    }

    /// The parameters of this method as (key, value) pairs, in the order of the
    /// `:key=value` syntax.
    pub fn params(&self) -> Vec<(&'static str, String)> {
        let f = |x: f64| format!("{x:e}").replace("e0", "");
        match self {
            Method::Lagrange {
                baumgarte,
                projection_every,
                strict,
            } => {
                let mut v = vec![
                    ("every", projection_every.to_string()),
                    ("strict", strict.to_string()),
                ];
                if let Some((a, b)) = baumgarte {
                    v.push(("alpha_hat", f(*a)));
                    v.push(("beta_hat", f(*b)));
                }
                v
            }
            Method::Alf {
                alpha,
                mu,
                omega,
                max_iter,
                tol,
                projection_every,
            } => vec![
                match alpha {
                    AlphaScale::Absolute(a) => ("alpha", f(*a)),
                    AlphaScale::Relative(k) => ("kappa", f(*k)),
                },
                ("mu", f(*mu)),
                ("omega", f(*omega)),
                ("iter", max_iter.to_string()),
                ("tol", f(*tol)),
                ("every", projection_every.to_string()),
            ],
            Method::AlfIndex3 {
                alpha,
                max_iter,
                tol,
            } => vec![
                ("alpha", f(*alpha)),
                ("iter", max_iter.to_string()),
                ("tol", f(*tol)),
            ],
            Method::Penalty { epsilon, .. } => vec![match epsilon {
                EpsilonScale::Absolute(e) => ("epsilon", f(*e)),
                EpsilonScale::Relative(k) => ("kappa", f(*k)),
            }],
            Method::AlfDca {
                alpha,
                mu,
                omega,
                max_iter,
                projections,
            } => vec![
                ("alpha", f(*alpha)),
                ("mu", f(*mu)),
                ("omega", f(*omega)),
                ("iter", max_iter.to_string()),
                ("project", projections.to_string()),
            ],
            Method::Hdca | Method::NaturalPartitioning => vec![],
            Method::Complement { stabilization, .. } => match stabilization {
                Stabilization::None => vec![("stab", "none".into())],
                Stabilization::NewtonRaphson => vec![("stab", "nr".into())],
                Stabilization::Baumgarte { alpha, beta } if (*alpha, *beta) == (10.0, 10.0) => {
                    vec![("stab", "baumgarte".into())]
                }
                Stabilization::Baumgarte { alpha, beta } => vec![
                    ("stab", "baumgarte".into()),
                    ("alpha_hat", f(*alpha)),
                    ("beta_hat", f(*beta)),
                ],
            },
        }
    }

    /// Sets one parameter from its `key=value` text.
    pub fn set_param(&mut self, key: &str, value: &str) -> Result<(), Error> {
        let el = format!("method `{}`", self.name());
        let el = el.as_str();
        let unknown = |m: &Method| {
            let mut keys: Vec<&str> = m.params().iter().map(|(k, _)| *k).collect();
            // a penalty is given absolute or relative: both keys are valid
            match m {
                Method::Alf { .. } => keys.extend(["alpha", "kappa"]),
                Method::Penalty { .. } => keys.extend(["epsilon", "kappa"]),
                _ => {}
            }
            keys.sort_unstable();
            keys.dedup();
            Error::param(
                el,
                key,
                format!(
                    "is not a parameter of this method (parameters: {})",
                    keys.join(", ")
                ),
                value,
            )
        };
        match (self, key) {
            (
                Method::Lagrange {
                    projection_every, ..
                }
                | Method::Alf {
                    projection_every, ..
                },
                "every",
            ) => *projection_every = parse_usize(el, key, value)?,
            (Method::Lagrange { strict, .. }, "strict") => *strict = parse_bool(el, key, value)?,
            (Method::Lagrange { baumgarte, .. }, "alpha_hat") => {
                let a = parse_f64(el, key, value, false)?;
                *baumgarte = Some((a, baumgarte.map_or(a, |b| b.1)));
            }
            (Method::Lagrange { baumgarte, .. }, "beta_hat") => {
                let b = parse_f64(el, key, value, false)?;
                *baumgarte = Some((baumgarte.map_or(b, |a| a.0), b));
            }
            (Method::Alf { alpha, .. }, "alpha") => {
                *alpha = AlphaScale::Absolute(parse_f64(el, key, value, true)?)
            }
            (Method::Alf { alpha, .. }, "kappa") => {
                *alpha = AlphaScale::Relative(parse_f64(el, key, value, true)?)
            }
            (Method::AlfIndex3 { alpha, .. } | Method::AlfDca { alpha, .. }, "alpha") => {
                *alpha = parse_f64(el, key, value, true)?
            }
            (Method::Alf { mu, .. } | Method::AlfDca { mu, .. }, "mu") => {
                *mu = parse_non_negative(el, key, value)?
            }
            (Method::Alf { omega, .. } | Method::AlfDca { omega, .. }, "omega") => {
                *omega = parse_non_negative(el, key, value)?
            }
            (
                Method::Alf { max_iter, .. }
                | Method::AlfIndex3 { max_iter, .. }
                | Method::AlfDca { max_iter, .. },
                "iter",
            ) => *max_iter = parse_usize(el, key, value)?,
            (Method::Alf { tol, .. } | Method::AlfIndex3 { tol, .. }, "tol") => {
                *tol = parse_f64(el, key, value, true)?
            }
            (Method::AlfDca { projections, .. }, "project") => {
                *projections = parse_bool(el, key, value)?
            }
            (Method::Penalty { epsilon, .. }, "epsilon") => {
                *epsilon = EpsilonScale::Absolute(parse_f64(el, key, value, true)?)
            }
            (Method::Penalty { epsilon, .. }, "kappa") => {
                *epsilon = EpsilonScale::Relative(parse_f64(el, key, value, true)?)
            }
            (Method::Complement { stabilization, .. }, "stab") => {
                *stabilization = match value {
                    "none" => Stabilization::None,
                    "nr" | "newton-raphson" => Stabilization::NewtonRaphson,
                    "baumgarte" => Stabilization::Baumgarte {
                        alpha: 10.0,
                        beta: 10.0,
                    },
                    _ => {
                        return Err(Error::param(
                            el,
                            key,
                            "must be none, baumgarte or nr",
                            value,
                        ));
                    }
                }
            }
            (Method::Complement { stabilization, .. }, "alpha_hat" | "beta_hat") => {
                let x = parse_f64(el, key, value, false)?;
                let (mut a, mut b) = match *stabilization {
                    Stabilization::Baumgarte { alpha, beta } => (alpha, beta),
                    _ => (10.0, 10.0),
                };
                if key == "alpha_hat" {
                    a = x
                } else {
                    b = x
                }
                *stabilization = Stabilization::Baumgarte { alpha: a, beta: b };
            }
            (m, _) => return Err(unknown(m)),
        }
        Ok(())
    }
}

/// The valid method names, comma separated (for error messages).
pub fn valid_names() -> String {
    METHOD_NAMES
        .iter()
        .map(|(n, _)| *n)
        .collect::<Vec<_>>()
        .join(", ")
}

impl FromStr for Method {
    type Err = Error;
    /// Parses `name[:key=value]*`, e.g. `alf-index1:alpha=1e6:every=10`.
    fn from_str(s: &str) -> Result<Self, Error> {
        let (name, params) = split_params(s)?;
        let mut m = Method::from_name(&name)?;
        for (k, v) in params {
            m.set_param(&k, &v)?;
        }
        Ok(m)
    }
}

impl fmt::Display for Method {
    /// The name followed by the parameters that differ from the name's defaults, so
    /// that `s.parse::<Method>()` gives the method back.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = self.name();
        f.write_str(name)?;
        let defaults = Method::from_name(name)
            .map(|m| m.params())
            .unwrap_or_default();
        for (k, v) in self.params() {
            if !defaults.iter().any(|(dk, dv)| *dk == k && *dv == v) {
                write!(f, ":{k}={v}")?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_parses_and_round_trips() {
        for (name, _) in METHOD_NAMES {
            let m: Method = name.parse().unwrap();
            assert_eq!(m.to_string(), *name, "{m:?}");
            assert_eq!(m.to_string().parse::<Method>().unwrap(), m);
        }
    }

    #[test]
    fn parameters_parse_and_display() {
        let m: Method = "alf-index1:alpha=1e6:every=10".parse().unwrap();
        assert!(matches!(
            m,
            Method::Alf {
                alpha: AlphaScale::Absolute(1e6),
                projection_every: 10,
                ..
            }
        ));
        let m: Method = "alf:kappa=1e3".parse().unwrap();
        assert!(matches!(
            m,
            Method::Alf {
                alpha: AlphaScale::Relative(1e3),
                ..
            }
        ));
        assert_eq!(m.to_string(), "alf:kappa=1e3");
        assert_eq!(m.to_string().parse::<Method>().unwrap(), m);
        assert_eq!(m.to_string().parse::<Method>().unwrap(), m);
        let m: Method = "lagrange:alpha_hat=5:beta_hat=3".parse().unwrap();
        assert_eq!(
            m,
            Method::Lagrange {
                baumgarte: Some((5.0, 3.0)),
                projection_every: 0,
                strict: false
            }
        );
        assert_eq!(m.to_string().parse::<Method>().unwrap(), m);
        let m: Method = "lagrange:strict=true".parse().unwrap();
        assert!(matches!(m, Method::Lagrange { strict: true, .. }));
        assert_eq!(m.to_string(), "lagrange:strict=true");
        assert_eq!(m.to_string().parse::<Method>().unwrap(), m);
        let m: Method = "complement-svd:stab=baumgarte".parse().unwrap();
        assert_eq!(m.to_string().parse::<Method>().unwrap(), m);
    }

    #[test]
    fn errors_name_the_problem() {
        let e = "alf-index7".parse::<Method>().unwrap_err().to_string();
        assert!(e.contains("alf-index7") && e.contains("alf-index3"), "{e}");
        let e = "alf:alpha=-1".parse::<Method>().unwrap_err().to_string();
        assert!(e.contains("alpha") && e.contains("-1"), "{e}");
        let e = "penalty:mu=1".parse::<Method>().unwrap_err().to_string();
        assert!(e.contains("mu") && e.contains("epsilon"), "{e}");
        let e = "alf:alpha".parse::<Method>().unwrap_err().to_string();
        assert!(e.contains("key=value"), "{e}");
        let e = "alf-index1:omega=-2"
            .parse::<Method>()
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("omega") && e.contains("-2") && e.contains("negative"),
            "{e}"
        );
        assert!("alf-index1:mu=0:omega=0".parse::<Method>().is_ok());
    }
}
