//! Parameters of ALF-DCA, with the values of the paper (sec 4.1) as defaults.

use mbs_linalg::Par;

/// Parameters of ALF-DCA (Malczyk & Frączek 2012).
///
/// Defaults are the paper's (sec 4.1): α = 1e6, μ = Ω = 1, at most 10 multiplier
/// iterations, ε_p = 1e-14, ε_v = 1e-12, ε_a = 1e-10, projections after every step; except
/// the projections' own penalty [`Self::projection_alpha`] and iteration cap
/// [`Self::projection_max_iter`] (see there).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DcaParams {
    /// Penalty α of the multiplier iterations of the accelerations (eqs 6–8, 17); the
    /// same for every constraint row. The accelerations carry a round-off error
    /// ≈ α·ε/λ_min(M) (as the global ALF does).
    pub alpha: f64,
    /// Penalty α of the projections (eqs 45–47, 61–63), default 1e10. The paper uses
    /// one α for both; here they are separate. A projection is a correction whose
    /// result is checked against the exact Φ (Φ_t), so a larger α only speeds the
    /// augmented-Lagrangian contraction m/(m + ασ²) per iteration of a constraint
    /// mode with singular value σ of Φ_q (≈ 1, i.e. no progress, for σ < 1e-3 with
    /// α = 1e6: near singular configurations), while the round-off of the solve,
    /// ≈ α·ε/λ_min(M) relative, applies to the correction Δq (Δq̇), which is tiny;
    /// both levels are iterated in correction form (see `crate::projection`).
    /// Set it to `alpha` for the paper's single α.
    pub projection_alpha: f64,
    /// Damping ratio μ of the stabilization term 2Ωμ Φ̇ in γ̄ (eqs 7–8).
    pub mu: f64,
    /// Natural frequency Ω of the stabilization terms 2Ωμ Φ̇ + Ω²Φ in γ̄ (eqs 7–8).
    pub omega: f64,
    /// Cap on the multiplier iterations of the accelerations.
    pub max_iter: usize,
    /// Cap on the iterations of each projection level (positions, velocities),
    /// default 25 (the paper: 10, as for the accelerations). Measured on
    /// `five-bar-singular` (`tests/singular_configurations.rs`, RK45 tolerances
    /// 0.8…1.25e-6): with α = 1e10 and 10 iterations a step near the singular
    /// configuration kept ‖Φ̇‖ 5e-12 at tolerance 0.8e-6; with 25, ‖Φ‖ and ‖Φ̇‖ stay at
    /// round-off (≤ 8.6e-16) at every step of all five runs.
    pub projection_max_iter: usize,
    /// Accelerations: stop when ‖q̈ᵢ₊₁ − q̈ᵢ‖∞ ≤ ε_a (1 + ‖q̈ᵢ₊₁‖∞). With ε_a = 0 exactly
    /// `max_iter` iterations are done.
    pub eps_a: f64,
    /// Positions: stop when ‖Δq‖∞ < ε_p (eq 56 and the text after it).
    pub eps_p: f64,
    /// Velocities: stop when ‖q̇ᵢ₊₁ − q̇ᵢ‖∞ < ε_v (eq 72 and the text after it).
    pub eps_v: f64,
    /// Position projection: the matrices formed at q* are reused (the paper's
    /// modified Newton, sec 3.2) while ‖Φ‖∞ ≤ `reuse_below`; above it (a large
    /// correction, e.g. an inconsistent initial state) they are formed again at each
    /// iterate, since the mismatch of Φ_q times the large penalty force αΦ would
    /// otherwise make the iteration diverge. Set for the penalty `alpha`: with a larger
    /// [`Self::projection_alpha`] the threshold used is
    /// `reuse_below · alpha / projection_alpha` (the same penalty force αΦ).
    pub reuse_below: f64,
    /// Apply the mass-orthogonal projections in [`mbs_integrators::OdeSystem::project`].
    pub projections: bool,
    /// Project every `project_every` calls of the projection hook (1 = every step).
    pub project_every: usize,
    /// Where assembly and disassembly of independent subtrees run (default
    /// [`Par::Rayon`]). Results are bit for bit the same either way.
    pub par: Par,
    /// Subtrees with fewer bodies than this are processed sequentially.
    pub parallel_min_bodies: usize,
}

impl Default for DcaParams {
    fn default() -> Self {
        Self {
            alpha: 1e6,
            projection_alpha: 1e10,
            mu: 1.0,
            omega: 1.0,
            max_iter: 10,
            projection_max_iter: 25,
            eps_a: 1e-10,
            eps_p: 1e-14,
            eps_v: 1e-12,
            reuse_below: 1e-6,
            projections: true,
            project_every: 1,
            par: Par::Rayon,
            parallel_min_bodies: 64,
        }
    }
}

impl DcaParams {
    /// The defaults without projections (the paper's first variant, "DCA without
    /// projections").
    pub fn without_projections() -> Self {
        Self {
            projections: false,
            ..Self::default()
        }
    }
}
