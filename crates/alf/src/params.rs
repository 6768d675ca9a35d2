//! Parameters of the descriptor-form front-ends, with the papers' defaults.

/// Baumgarte stabilization γ̄ = γ − 2α̂Φ̇ − β̂²Φ (Pękal–Frączek sec 2), defined in
/// `mbs-constraints` and used by every front-end.
pub use mbs_constraints::Baumgarte;

/// Augmented-Lagrangian parameters (Bayo–Ledesma eqs 5–8).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AlfParams {
    /// Penalty α (scalar, the same for every constraint). The paper recommends
    /// 1e5…1e7 for constraints scaled to unity. Larger α needs fewer multiplier
    /// iterations (each contracts by ≈ 1/(α Φ_q M⁻¹ Φ_qᵀ)) but the accelerations
    /// carry a round-off error ≈ α·ε relative (the backward error of factoring
    /// M + Φ_qᵀαΦ_q seen on the null space of Φ_q): ≈ 1e-10 at the default 1e6.
    pub alpha: f64,
    /// Damping ratio μ of the penalty system (eq 5).
    pub mu: f64,
    /// Natural frequency Ω of the penalty system (eq 5).
    pub omega: f64,
    /// Cap on the multiplier iterations of eq 8 per evaluation.
    pub max_iter: usize,
    /// Stop when ‖q̈ᵢ₊₁ − q̈ᵢ‖∞ ≤ tol · (1 + ‖q̈ᵢ₊₁‖∞).
    pub tol: f64,
    /// Start the iterations from the previous evaluation's λ* instead of λ₀* = 0
    /// (the paper's choice). Saves iterations; off by default so that results do
    /// not depend on the evaluation history.
    pub warm_start: bool,
}

impl Default for AlfParams {
    fn default() -> Self {
        Self {
            alpha: 1e6,
            mu: 1.0,
            omega: 10.0,
            max_iter: 20,
            tol: 1e-12,
            warm_start: false,
        }
    }
}

/// Parameters of the mass-orthogonal projections (Bayo–Ledesma eqs 9–34).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ProjectionParams {
    /// Penalty α of the projections (eqs 10, 19, 28).
    pub alpha: f64,
    /// Stop the position iterations when ‖Δq‖∞ ≤ eps_q · (1 + ‖q‖∞) and ‖Φ‖∞ ≤ eps_q.
    pub eps_q: f64,
    /// Stop the velocity iterations when ‖Δq̇‖∞ ≤ eps_v · (1 + ‖q̇‖∞) and ‖Φ̇‖∞ ≤ eps_v.
    pub eps_v: f64,
    /// Largest violation ‖Φ‖∞, ‖Φ̇‖∞ (relative to 1 + ‖x‖∞) accepted from a
    /// projection that stalled at round-off: the last correction is below the
    /// round-off of the state and the violation stopped decreasing, as happens near
    /// singular configurations along the vanishing singular values of Φ_q (see
    /// `projection::converged`). An infeasible target stalls far above it and fails.
    pub eps_stall: f64,
    /// Cap on the iterations of each projection.
    pub max_iter: usize,
    /// The position projection reuses the leading matrix factored at q* (the
    /// paper's modified Newton) while ‖Φ‖∞ ≤ reuse_below · (1 + ‖q‖∞); above it
    /// (a large correction, e.g. an inconsistent initial state) the matrix is
    /// refactored at each iterate, since the mismatch of Φ_q times the large
    /// penalty force αΦ would otherwise push the iterate along the manifold.
    pub reuse_below: f64,
}

impl Default for ProjectionParams {
    fn default() -> Self {
        Self {
            alpha: 1e7,
            eps_q: 1e-13,
            eps_v: 1e-13,
            eps_stall: 1e-8,
            max_iter: 25,
            reuse_below: 1e-7,
        }
    }
}

/// How accelerations are computed in an evaluation of the index-1 equations.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Formulation {
    /// Classical Lagrange multipliers, KKT system of Bayo–Ledesma eq 4, with optional
    /// Baumgarte stabilization. Fails on redundant constraints unless `min_norm`.
    Lagrange {
        /// Baumgarte terms, or none.
        baumgarte: Option<Baumgarte>,
        /// Solve the KKT system in the least-squares (pseudo-inverse) sense, which
        /// tolerates redundant constraints.
        min_norm: bool,
    },
    /// The augmented Lagrangian formulation (eqs 6–8).
    Alf(AlfParams),
}

/// Which mass-orthogonal projection to apply after accepted steps.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Projection {
    /// None.
    None,
    /// Augmented-Lagrangian projections with the leading matrix M + Φ_qᵀαΦ_q
    /// (eqs 13–15, 23–24).
    AugmentedLagrangian(ProjectionParams),
    /// Classical Lagrange projections with the KKT matrix (eqs 16 and 25); this is
    /// also the Newton–Raphson position correction of the Lagrange formulation.
    Kkt(ProjectionParams),
}
