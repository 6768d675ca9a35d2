//! Parameters of the index-1 augmented Lagrangian methods (Bayo–Ledesma eqs 5–8).

use mbs_formulation::params::{self, Key, Params, Preset};

use crate::params::AlfParams;
use crate::penalty_scale::AlphaScale;

/// Augmented Lagrangian, index 1 (Bayo–Ledesma eqs 5–8): penalty α, damping ratio μ,
/// natural frequency Ω, multiplier iterations up to `max_iter` or until the change
/// is below `tol` (the defaults of [`AlfParams`]); mass-orthogonal projections every
/// `projection_every` steps (0 = "ALF", 1 = "ALF-INDEX1" of Table 2).
///
/// The penalty is relative by default ([`AlphaScale::DEFAULT`]), so that the method
/// works whatever the masses; `alpha=α` gives the absolute α of the papers
/// (Bayo–Ledesma use 1e7 for unit masses and lengths).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AlfIndex1Params {
    /// Penalty: absolute α (`alpha=`) or relative κ (`kappa=`).
    pub alpha: AlphaScale,
    /// Damping ratio μ.
    pub mu: f64,
    /// Natural frequency Ω.
    pub omega: f64,
    /// Maximum multiplier iterations per evaluation.
    pub max_iter: usize,
    /// Convergence tolerance of the multiplier iteration.
    pub tol: f64,
    /// Projection period in accepted steps (0 = never).
    pub projection_every: usize,
}

impl AlfIndex1Params {
    /// The defaults with projections every `projection_every` steps.
    pub fn with_projections(projection_every: usize) -> Self {
        let d = AlfParams::default();
        Self {
            alpha: AlphaScale::DEFAULT,
            mu: d.mu,
            omega: d.omega,
            max_iter: d.max_iter,
            tol: d.tol,
            projection_every,
        }
    }
}

impl Default for AlfIndex1Params {
    /// ALF-INDEX1: projections after every step.
    fn default() -> Self {
        Self::with_projections(1)
    }
}

impl Params for AlfIndex1Params {
    fn keys() -> &'static [Key<Self>] {
        &[
            Key {
                key: "alpha",
                meaning: "absolute penalty α (instead of kappa)",
                get: |p| match p.alpha {
                    AlphaScale::Absolute(a) => Some(params::number_text(a)),
                    AlphaScale::Relative(_) => None,
                },
                set: |p, v| {
                    params::assign(&mut p.alpha, params::positive(v).map(AlphaScale::Absolute))
                },
            },
            Key {
                key: "kappa",
                meaning: "relative penalty κ: α = κ·tr M/tr(Φ_qᵀΦ_q) at the initial state",
                get: |p| match p.alpha {
                    AlphaScale::Relative(k) => Some(params::number_text(k)),
                    AlphaScale::Absolute(_) => None,
                },
                set: |p, v| {
                    params::assign(&mut p.alpha, params::positive(v).map(AlphaScale::Relative))
                },
            },
            Key {
                key: "mu",
                meaning: "damping ratio μ of the penalty system (eq 5)",
                get: |p| Some(params::number_text(p.mu)),
                set: |p, v| params::assign(&mut p.mu, params::non_negative(v)),
            },
            Key {
                key: "omega",
                meaning: "natural frequency Ω of the penalty system (eq 5)",
                get: |p| Some(params::number_text(p.omega)),
                set: |p, v| params::assign(&mut p.omega, params::non_negative(v)),
            },
            Key {
                key: "iter",
                meaning: "maximum multiplier iterations per evaluation (eq 8)",
                get: |p| Some(p.max_iter.to_string()),
                set: |p, v| params::assign(&mut p.max_iter, params::count(v)),
            },
            Key {
                key: "tol",
                meaning: "tolerance of the multiplier iteration on ‖Δq̈‖∞/(1 + ‖q̈‖∞)",
                get: |p| Some(params::number_text(p.tol)),
                set: |p, v| params::assign(&mut p.tol, params::positive(v)),
            },
            Key {
                key: "every",
                meaning: "projection period in accepted steps (0 = never)",
                get: |p| Some(p.projection_every.to_string()),
                set: |p, v| params::assign(&mut p.projection_every, params::count(v)),
            },
        ]
    }

    fn presets() -> &'static [Preset<Self>] {
        &[
            Preset {
                make: || AlfIndex1Params::with_projections(0),
                aliases: &[],
                summary: "augmented Lagrangian index-1, no projections",
            },
            Preset {
                make: || AlfIndex1Params::with_projections(1),
                aliases: &[],
                summary: "augmented Lagrangian index-1 with mass-orthogonal projections every step",
            },
        ]
    }

    fn name(&self) -> &'static str {
        if self.projection_every == 0 {
            "alf"
        } else {
            "alf-index1"
        }
    }
}
