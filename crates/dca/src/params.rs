//! Parameters of ALF-DCA, with the values of the paper (sec 4.1) as defaults except
//! the penalties, which are relative to the model's masses ([`PenaltyScale`]).

use mbs_linalg::Par;

/// Default κ of the relative penalty of the accelerations,
/// α_r = κ / (Φ_q,r M_b⁻¹ Φ_q,rᵀ) ([`PenaltyScale::Relative`]).
///
/// d_r is the diagonal of Φ_q M⁻¹ Φ_qᵀ with each row's two bodies alone; the
/// iteration's contraction is set by the smallest eigenvalue of the whole closed
/// loop's Φ_q M⁻¹ Φ_qᵀ, which is smaller, so κ is larger than the global ALF's
/// trace-ratio κ. Measured on Andrew's squeezer (DOP853, t_end = 0.03,
/// rtol = atol = 1e-10, ε_a following rtol; steps, multiplier iterations per
/// right-hand side): κ = 1e3: 158, 10.0 (the cap: no convergence); 1e4: 160, 6.2;
/// 1e5: 160, 4.1; 1e6: 166, 3.1; 1e7: 192, 3.0; 1e8: 344, 2.6; 1e9: 12 956 (the
/// round-off ≈ κ·ε now above the tolerance); the paper's absolute α = 1e6 took
/// 3 040 steps. κ = 1e5 lets the run without projections of
/// `double-loop-singular` leave the rhombus for its other branch
/// (`tests/singular_configurations.rs`); 1e6 does not.
pub const DEFAULT_KAPPA: f64 = 1e6;

/// Default κ of the relative penalty of the projections. Measured on
/// `five-bar-singular` (`tests/singular_configurations.rs`, with κ = 1e6 for the
/// accelerations): κ_p = 1e10 leaves ‖Φ̇‖ = 3.4e-8 after a projection near the
/// singular configuration (3 unconverged); 1e11 and 1e12 keep ‖Φ‖, ‖Φ̇‖ at round-off.
/// The projections iterate in correction form, so the round-off κ_p·ε applies to
/// the correction only.
pub const DEFAULT_PROJECTION_KAPPA: f64 = 1e11;

/// How a penalty α of ALF-DCA is given.
///
/// The multiplier iteration (eqs 6–8, 17) contracts a constraint mode by
/// ≈ 1/(1 + α Φ_q M⁻¹ Φ_qᵀ) per iteration, while the solve of (M + Φ_qᵀαΦ_q) carries
/// a round-off ≈ α·ε/λ_min(M) relative: both depend on α *relative to the inverse
/// masses the constraint rows see*, not on α itself. The paper's α = 1e6 is for unit
/// masses; with bodies of grams (Andrew's squeezer) or light fingers on a heavy arm
/// (λ_min(M) = 7.5e-7 on a Panda) its round-off exceeds an adaptive integrator's
/// tolerance, which then shrinks its steps without end. [`PenaltyScale::Relative`]
/// gives every constraint row r of a joint between bodies i and j its own penalty
///
/// ```text
///   α_r = κ / d_r,    d_r = Φ_{q_i},r M_i⁻¹ Φ_{q_i},rᵀ + Φ_{q_j},r M_j⁻¹ Φ_{q_j},rᵀ
/// ```
///
/// (M_b = diag(m_b I, J'_b), ground contributing nothing; d_r is the inverse
/// effective mass of the row with the two bodies alone), evaluated whenever the
/// matrices of the assembly are formed (eqs 27–30), so that α_r d_r = κ is
/// dimensionless on every row whatever the units, the mass ratios (a joint between a
/// 10 kg base and a 1 g finger gets the finger's scale) and the orientation. A
/// diagonal penalty matrix is an augmented Lagrangian like a scalar one: the
/// converged accelerations do not depend on it. A row with d_r = 0 (no Jacobian) gets
/// α_r = κ.
///
/// Per row rather than one global α (a trace ratio as `mbs-alf`'s `AlphaScale`), by
/// measurement on a spatial arm of links of 10 kg … 1 g (`light_end_arm` in
/// `crates/mbs/tests/dca_scales.rs`; DOP853, t_end = 1, rtol = 1e-9; steps,
/// multiplier iterations per right-hand side): per row, κ = 1e6: 168, 3.0. No single
/// α does both: α = 1e6 needs ≈ 3e5 steps (round-off on the 1 g link); 1e4: 242, 8.0;
/// 1e2: 166, 10.0 (the cap); α ≤ 1 leaves the motion (energy guard). `aba`: 144.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum PenaltyScale {
    /// α itself, the same for every row (the paper: α = 1e6 for unit masses).
    Absolute(f64),
    /// κ of α_r = κ / d_r, per row.
    Relative(f64),
}

impl PenaltyScale {
    /// α (absolute) or κ (relative).
    pub fn value(self) -> f64 {
        match self {
            PenaltyScale::Absolute(v) | PenaltyScale::Relative(v) => v,
        }
    }

    /// The penalty of a row whose inverse effective mass is `d` (see the type docs).
    #[inline]
    pub fn row_alpha(self, d: f64) -> f64 {
        match self {
            PenaltyScale::Absolute(alpha) => alpha,
            PenaltyScale::Relative(kappa) if d > 0.0 && d.is_finite() => kappa / d,
            PenaltyScale::Relative(kappa) => kappa,
        }
    }
}

/// Parameters of ALF-DCA (Malczyk & Frączek 2012).
///
/// Defaults are the paper's (sec 4.1): μ = Ω = 1, at most 10 multiplier iterations,
/// ε_p = 1e-14, ε_v = 1e-12, ε_a = 1e-10, projections after every step; except the
/// penalties, relative to the masses by default ([`PenaltyScale`]; the paper's
/// absolute α = 1e6 is `PenaltyScale::Absolute(1e6)`), the projections' own penalty
/// [`Self::projection_alpha`] and iteration cap [`Self::projection_max_iter`] (see
/// there), and ε_a, which the facade ties to the integrator's tolerance
/// (`crate::method`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DcaParams {
    /// Penalty α of the multiplier iterations of the accelerations (eqs 6–8, 17),
    /// default relative with κ = [`DEFAULT_KAPPA`]. The accelerations carry a
    /// round-off error ≈ α·ε/λ_min(M) (as the global ALF does), ≈ κ·ε with the
    /// relative penalty.
    pub alpha: PenaltyScale,
    /// Penalty α of the projections (eqs 45–47, 61–63), default relative with
    /// κ = [`DEFAULT_PROJECTION_KAPPA`] (before: absolute 1e10). The paper uses
    /// one α for both; here they are separate. A projection is a correction whose
    /// result is checked against the exact Φ (Φ_t), so a larger α only speeds the
    /// augmented-Lagrangian contraction m/(m + ασ²) per iteration of a constraint
    /// mode with singular value σ of Φ_q (≈ 1, i.e. no progress, for σ < 1e-3 with
    /// α = 1e6: near singular configurations), while the round-off of the solve,
    /// ≈ α·ε/λ_min(M) relative, applies to the correction Δq (Δq̇), which is tiny;
    /// both levels are iterated in correction form (see `crate::projection`).
    /// Set it to `alpha` for the paper's single α.
    pub projection_alpha: PenaltyScale,
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
    /// `max_iter` iterations are done. Replaced by [`Self::eps_a_for`] of the
    /// integrator's rtol in a run of the facade while [`Self::eps_a_follows_rtol`].
    pub eps_a: f64,
    /// Whether a run of the facade (`alf-dca`, `alf-dca-proj` with an adaptive
    /// integrator) sets ε_a from the integrator's rtol ([`Self::eps_a_for`]); the
    /// `tol=` key sets ε_a and turns this off.
    pub eps_a_follows_rtol: bool,
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
    /// `reuse_below · alpha / projection_alpha` (the same penalty force αΦ; the ratio
    /// of the κ's for relative penalties, 1 if one is absolute and the other relative).
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
            alpha: PenaltyScale::Relative(DEFAULT_KAPPA),
            projection_alpha: PenaltyScale::Relative(DEFAULT_PROJECTION_KAPPA),
            mu: 1.0,
            omega: 1.0,
            max_iter: 10,
            projection_max_iter: 25,
            eps_a: 1e-10,
            eps_a_follows_rtol: true,
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

/// ε_a = [`EPS_A_FRACTION`] · rtol in a run with an adaptive integrator
/// ([`DcaParams::eps_a_for`]).
pub const EPS_A_FRACTION: f64 = 1e-2;

impl DcaParams {
    /// The multiplier iteration's tolerance ε_a for an adaptive integrator with
    /// relative tolerance `rtol`: a fraction [`EPS_A_FRACTION`] of it, so that the
    /// iteration's error stays below the integrator's error estimate (an error of the
    /// right-hand side that changes with the iteration count between stages is seen
    /// by the estimate as a non-smooth term and costs steps), but not below the
    /// round-off of the iterated accelerations, ≈ κ·ε relative with the relative
    /// penalty (the iteration would then run to its cap without converging):
    ///
    /// ```text
    ///   ε_a = max(EPS_A_FRACTION · rtol, 1e3·ε, 10·κ·ε)     (κ: relative penalty only)
    /// ```
    pub fn eps_a_for(&self, rtol: f64) -> f64 {
        let kappa = match self.alpha {
            PenaltyScale::Relative(k) => k,
            PenaltyScale::Absolute(_) => 0.0,
        };
        (EPS_A_FRACTION * rtol)
            .max(1e3 * f64::EPSILON)
            .max(10.0 * kappa * f64::EPSILON)
    }

    /// The ratio α_acc / α_proj of the two penalties (of the κ's when both are
    /// relative), at most 1; 1 when one is absolute and the other relative.
    pub(crate) fn penalty_ratio(&self) -> f64 {
        match (self.alpha, self.projection_alpha) {
            (PenaltyScale::Absolute(a), PenaltyScale::Absolute(b))
            | (PenaltyScale::Relative(a), PenaltyScale::Relative(b)) => (a / b).min(1.0),
            _ => 1.0,
        }
    }

    /// The defaults without projections (the paper's first variant, "DCA without
    /// projections").
    pub fn without_projections() -> Self {
        Self {
            projections: false,
            ..Self::default()
        }
    }
}
