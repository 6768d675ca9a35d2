//! Parameters of `alf-joint` (Bayo & Ledesma 1996, eqs 5–8, in joint coordinates).

/// Default κ of the relative penalty α = κ · tr H / ‖Φ_q‖²_F: the penalty term
/// α Φ_qᵀ Φ_q of the leading matrix is κ times the joint-space mass matrix H in trace,
/// the same dimensionless rule (and value) as `alf-index1`'s `kappa`.
pub const DEFAULT_KAPPA: f64 = 1e4;

/// How the penalty α of [`JointAlfParams`] is given.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum JointAlpha {
    /// α itself.
    Absolute(f64),
    /// κ of α = κ · tr H / ‖Φ_q‖²_F at the initial state.
    Relative(f64),
}

/// Options of [`crate::JointAlf`].
#[derive(Clone, Debug, PartialEq)]
pub struct JointAlfParams {
    /// The penalty α of eqs 5–8 (default relative, κ = [`DEFAULT_KAPPA`]).
    pub alpha: JointAlpha,
    /// Damping ratio μ of the penalty system (eq 5).
    pub mu: f64,
    /// Natural frequency Ω of the penalty system (eq 5).
    pub omega: f64,
    /// Maximum multiplier iterations per evaluation (eq 8); three when the
    /// iteration contracts normally, more only near singular configurations.
    pub max_iter: usize,
    /// Tolerance of the multiplier iteration on ‖Δu̇‖∞ / (1 + ‖u̇‖∞).
    pub tol: f64,
    /// Tolerance of the projections relative to the state's scale: positions until
    /// ‖Φ‖∞ ≤ tol (1 + ‖q‖∞), velocities until ‖Φ̇‖∞ ≤ tol (1 + ‖u‖∞), with the
    /// corrections at the same level (`mbs_formulation::projection::converged`).
    pub projection_tol: f64,
    /// The residual accepted when the corrections stall at round-off near a
    /// singular configuration (relative as `projection_tol`; the shared rule of
    /// `mbs_formulation::projection::converged`).
    pub stall_tol: f64,
}

impl Default for JointAlfParams {
    fn default() -> Self {
        Self {
            alpha: JointAlpha::Relative(DEFAULT_KAPPA),
            mu: 1.0,
            omega: 10.0,
            max_iter: 20,
            tol: 1e-12,
            projection_tol: 1e-13,
            stall_tol: 1e-8,
        }
    }
}
