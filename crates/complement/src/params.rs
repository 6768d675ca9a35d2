//! Parameters of the orthogonal-complement front-end ([`crate::Complement`]).

use mbs_kinematics::EulerSequence;
use mbs_linalg::nullspace::NullSpaceMethod;

/// Orientation coordinates of the absolute-coordinate formulation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Coordinates {
    /// Euler parameters with velocities [ṙ, ṗ], 7 + 7 per body, and one
    /// normalization row pᵀp − 1 per body in Φ (mass matrix singular along p).
    EulerParams,
    /// Euler angles θ of the given sequence with velocities [ṙ, θ̇], 6 + 6 per
    /// body (Pękal–Frączek sec 2 use ZXZ): non-singular mass matrix except at
    /// gimbal lock, which is reported as an error.
    EulerAngles(EulerSequence),
}

impl Coordinates {
    /// Position coordinates per body (7 or 6).
    pub fn q_per_body(self) -> usize {
        match self {
            Coordinates::EulerParams => 7,
            Coordinates::EulerAngles(_) => 6,
        }
    }
    /// Velocity coordinates per body (7 or 6).
    pub fn v_per_body(self) -> usize {
        self.q_per_body()
    }
    /// Short name.
    pub fn name(self) -> String {
        match self {
            Coordinates::EulerParams => "euler-params".into(),
            Coordinates::EulerAngles(s) => format!("euler-angles-{s}").to_lowercase(),
        }
    }
}

/// Constraint stabilization (Pękal–Frączek sec 2).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Stabilization {
    /// Plain index-1 equations: Φ and Φ̇ drift.
    None,
    /// Baumgarte: Γ̄ = Γ − 2α̂ Φ̇ − β̂² Φ (the paper uses α̂ = β̂ = 10).
    Baumgarte {
        /// α̂ (1/s).
        alpha: f64,
        /// β̂ (1/s).
        beta: f64,
    },
    /// Newton–Raphson correction of q whenever ‖Φ‖₂ > `tol` after an accepted
    /// step (and of q̇ whenever ‖Φ̇‖₂ > `tol`), in the integrator's projection hook.
    NewtonRaphson {
        /// Tolerance on ‖Φ‖₂ (and ‖Φ̇‖₂).
        tol: f64,
    },
}

impl Stabilization {
    /// Baumgarte with the paper's α̂ = β̂ = 10.
    pub const PAPER_BAUMGARTE: Stabilization = Stabilization::Baumgarte {
        alpha: 10.0,
        beta: 10.0,
    };

    /// The paper's three cases: none, Baumgarte α̂ = β̂ = 10, Newton–Raphson
    /// (tolerance `nr_tol`).
    pub fn paper_cases(nr_tol: f64) -> [Stabilization; 3] {
        [
            Stabilization::None,
            Self::PAPER_BAUMGARTE,
            Stabilization::NewtonRaphson { tol: nr_tol },
        ]
    }

    /// Short name.
    pub fn name(self) -> &'static str {
        match self {
            Stabilization::None => "none",
            Stabilization::Baumgarte { .. } => "baumgarte",
            Stabilization::NewtonRaphson { .. } => "newton-raphson",
        }
    }
}

/// Parameters of [`crate::Complement`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ComplementParams {
    /// Null-space method (default QR, the paper's recommendation).
    pub method: NullSpaceMethod,
    /// Orientation coordinates (default Euler parameters).
    pub coordinates: Coordinates,
    /// Constraint stabilization (default none).
    pub stabilization: Stabilization,
    /// Relative rank tolerance of the null-space method (default 1e-10).
    pub rank_tol: f64,
    /// Coordinate partitioning: re-select the partition when the smallest pivot
    /// of Φ_u over max|Φ_q| falls below this (default 1e-3).
    pub reselect_ratio: f64,
    /// Euler angles: gimbal lock is reported when |sin β| (proper sequences) or
    /// |cos β| (Tait–Bryan) falls below this (default 1e-6).
    pub gimbal_tol: f64,
    /// Newton–Raphson: maximum iterations per correction (default 20).
    pub newton_max_iter: usize,
    /// Relative tolerance below which `Φ_q` counts as singular at an accepted step
    /// (|R_ii| / |R_00| of its pivoted QR, default 1e-8; see
    /// `crate::singular`).
    pub singular_tol: f64,
    /// The singular-configuration monitor is silent at accepted steps whose
    /// constraint violation max|Φ| exceeds this (default 1e-6): there the state is
    /// too far off the manifold for the rank of Φ_q to mean a singular
    /// configuration of the mechanism (loose tolerances without stabilization).
    pub singular_drift: f64,
}

impl Default for ComplementParams {
    fn default() -> Self {
        Self {
            method: NullSpaceMethod::Qr,
            coordinates: Coordinates::EulerParams,
            stabilization: Stabilization::None,
            rank_tol: 1e-10,
            reselect_ratio: 1e-3,
            gimbal_tol: 1e-6,
            newton_max_iter: 20,
            singular_tol: 1e-8,
            singular_drift: 1e-6,
        }
    }
}

impl ComplementParams {
    /// Defaults with `method`.
    pub fn with_method(method: NullSpaceMethod) -> Self {
        Self {
            method,
            ..Self::default()
        }
    }

    /// Checks the numeric parameters.
    pub(crate) fn validate(&self) -> Result<(), crate::ComplementError> {
        let bad = |what: String| Err(crate::ComplementError::InvalidParams(what));
        if !(self.rank_tol.is_finite() && self.rank_tol > 0.0) {
            return bad(format!("rank_tol must be positive, got {}", self.rank_tol));
        }
        if !(self.singular_tol.is_finite() && self.singular_tol >= 0.0) {
            return bad(format!(
                "singular_tol must be finite and non-negative, got {}",
                self.singular_tol
            ));
        }
        if !(self.gimbal_tol.is_finite() && self.gimbal_tol > 0.0) {
            return bad(format!(
                "gimbal_tol must be positive, got {}",
                self.gimbal_tol
            ));
        }
        match self.stabilization {
            Stabilization::Baumgarte { alpha, beta }
                if !(alpha.is_finite() && beta.is_finite() && alpha >= 0.0) =>
            {
                bad(format!(
                    "Baumgarte α̂ = {alpha}, β̂ = {beta} must be finite, α̂ ≥ 0"
                ))
            }
            Stabilization::NewtonRaphson { tol } if !(tol.is_finite() && tol > 0.0) => bad(
                format!("Newton–Raphson tolerance must be positive, got {tol}"),
            ),
            _ => Ok(()),
        }
    }
}
