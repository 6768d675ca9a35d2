//! The second-order descriptor system the index-3 integrator steps:
//!
//! ```text
//!   M(q) q̈ + Φ_qᵀ λ = Q(t, q, q̇),     Φ(t, q) = 0
//! ```
//!
//! (Bayo–Ledesma 1996 eqs 1–2; Arnold–Brüls 2007 eq 1). The integrator owns the
//! rule (the relations between positions, velocities and accelerations over a
//! step, [`super::DescriptorRule`]) and the Newton iteration's policy (tolerance,
//! stall, failure, step rejection); the system owns the mechanics: it evaluates the
//! residual of the equations of motion and of the constraints at an [`Iterate`],
//! builds its iteration matrix from the coefficients the rule gives (M, Φ_q, the
//! tangent stiffness and damping when it has them) and solves the Newton linear
//! system itself, so a formulation keeps its own solver (dense or sparse KKT, the
//! augmented-Lagrangian leading matrix) and its own multipliers (λ as unknowns of a
//! KKT solve, or Bayo–Ledesma's iterated λ*).

use crate::error::SystemError;

/// A point (t, q, q̇) where the system is evaluated.
#[derive(Debug, Clone, Copy)]
pub struct Point<'a> {
    /// Time.
    pub t: f64,
    /// Positions (length [`DescriptorSystem::dim_positions`]).
    pub q: &'a [f64],
    /// Velocities (length [`DescriptorSystem::dim_velocities`]).
    pub v: &'a [f64],
}

/// One Newton iterate of a step from tₙ to tₙ₊₁ = tₙ + h, as the rule defines it
/// from the unknown position increment Δqₙ (qₙ₊₁ = qₙ ⊕ Δqₙ).
///
/// The Newton iteration solves for a correction δ of Δqₙ the linearisation of
///
/// ```text
///   r  = M q̈ + Φ_qᵀ λ − Q = 0      at `dynamics`,
///   Φ(tₙ₊₁, qₙ₊₁) = 0              at `end`,
/// ```
///
/// where q̈ and q̇ₙ₊₁ depend on Δqₙ through the rule: ∂q̈/∂Δq = [`c_qdd`](Self::c_qdd),
/// ∂q̇ₙ₊₁/∂Δq = [`c_v`](Self::c_v). The iteration matrix of Arnold–Brüls 2007
/// (eq 14; the constraint rows scaled by β' as in their sec 3 and Bottasso,
/// Bauchau & Cardona 2007, which keeps its condition number O(1) as h → 0) is
///
/// ```text
///   [ c_qdd M + c_v C_t + K_t   Φ_qᵀ ] [ δ      ]     [ r     ]
///   [ Φ_q                       0    ] [ δλ/β'  ] = − [ β' Φ  ]
/// ```
///
/// with K_t = ∂(M q̈ − Q)/∂q and C_t = −∂Q/∂q̇ (dropped when
/// [`force_tangent`](Self::force_tangent) is false, as Bayo–Ledesma's eq 40 does);
/// an augmented-Lagrangian system replaces the constraint block by its penalty
/// term Φ_qᵀ α Φ_q and the multiplier update λ* ← λ* + αΦ (eq 15).
#[derive(Debug, Clone, Copy)]
pub struct Iterate<'a> {
    /// The step size h.
    pub h: f64,
    /// Where the equations of motion are evaluated: the step's end for the
    /// trapezoidal rule and generalized-α, the midpoint for the midpoint rule.
    pub dynamics: Point<'a>,
    /// The step's end (tₙ₊₁, qₙ₊₁, q̇ₙ₊₁), where Φ must vanish.
    pub end: Point<'a>,
    /// The accelerations q̈ the equations of motion must hold with (length
    /// [`DescriptorSystem::dim_velocities`]).
    pub qdd: &'a [f64],
    /// ∂q̈/∂Δq of the rule: the mass-matrix coefficient (β' of Arnold–Brüls,
    /// b of Bayo–Ledesma eq 36).
    pub c_qdd: f64,
    /// ∂q̇ₙ₊₁/∂Δq of the rule: the damping coefficient (γ' of Arnold–Brüls, a of
    /// Bayo–Ledesma eq 36).
    pub c_v: f64,
    /// Whether the iteration matrix should include the tangent stiffness and
    /// damping of the forces (true for generalized-α; Bayo–Ledesma's rules use the
    /// approximate tangent of their eq 40 without them).
    pub force_tangent: bool,
    /// The previous attempt of this step failed with the matrix the system kept:
    /// rebuild its Jacobians (a system reusing them across iterations and steps).
    pub refresh: bool,
}

/// A constrained second-order system in descriptor form, stepped by
/// [`super::DescriptorIntegrator`].
///
/// Positions q and velocities v may have different lengths (Euler parameters with
/// angular velocities): the position increment of a step lives in velocity space
/// and [`advance_positions`](Self::advance_positions) applies it, like
/// [`crate::PartitionedSystem::advance_positions`].
pub trait DescriptorSystem {
    /// Length of q.
    fn dim_positions(&self) -> usize;
    /// Length of v (and of q̈ and of the position increments).
    fn dim_velocities(&self) -> usize;
    /// Number of multipliers λ the system reports.
    fn dim_multipliers(&self) -> usize;

    /// Consistent accelerations q̈₀ (and the system's multipliers) at (t, q, v).
    fn initial_accelerations(
        &mut self,
        t: f64,
        q: &[f64],
        v: &[f64],
        qdd: &mut [f64],
    ) -> Result<(), SystemError>;

    /// The Newton correction δ of the position increment at `it` (see [`Iterate`]),
    /// written into `delta` (length [`dim_velocities`](Self::dim_velocities)); a
    /// system solving for its multipliers updates them here.
    fn newton_correction(&mut self, it: &Iterate<'_>, delta: &mut [f64])
    -> Result<(), SystemError>;

    /// The corrected iterate `end`: the largest |Φ| there. A system iterating its
    /// multipliers (Bayo–Ledesma eq 15: λ* ← λ* + αΦ) updates them here.
    fn constraint_residual(&mut self, end: Point<'_>) -> Result<f64, SystemError>;

    /// A Newton iteration stalled at the round-off floor of its solve with Φ not yet
    /// within tolerance (near a singular position): a position correction `delta`
    /// (velocity space) that finishes it (Bayo–Ledesma: the mass-orthogonal
    /// position projection of eq 13), or `false` (the default) if the system has
    /// none.
    fn stalled_correction(
        &mut self,
        end: Point<'_>,
        delta: &mut [f64],
    ) -> Result<bool, SystemError> {
        let _ = (end, delta);
        Ok(false)
    }

    /// Why the Newton iteration of the step ending at `t` did not converge, naming
    /// the constraint where the system can (default: the counts only).
    fn newton_failure(&self, t: f64, iterations: usize, change: f64) -> SystemError {
        SystemError::new(format!(
            "t = {t}: Newton iteration did not converge in {iterations} iterations (last correction {change:e})"
        ))
    }

    /// The multipliers of the last converged iterate (length
    /// [`dim_multipliers`](Self::dim_multipliers)).
    fn multipliers(&self) -> &[f64];

    /// Reset the multipliers to those of the last accepted step before a step is
    /// attempted (again, after a rejection).
    fn set_multipliers(&mut self, lambda: &[f64]);

    /// Whether the positions form a vector space with q ⊕ Δq = q + Δq (default: when
    /// the lengths agree). The integrator then iterates on q itself, q ← q + δ,
    /// with Δq = q − qₙ (Bayo–Ledesma's arithmetic, so ALF-INDEX3 keeps its results
    /// to the last bit); otherwise it accumulates Δq and calls
    /// [`advance_positions`](Self::advance_positions).
    fn vector_positions(&self) -> bool {
        self.dim_positions() == self.dim_velocities()
    }

    /// qₙ₊₁ = q ⊕ Δq into `q_out` (used when not
    /// [`vector_positions`](Self::vector_positions)). The default, valid when the
    /// position and velocity lengths agree, is q + Δq.
    fn advance_positions(
        &mut self,
        q: &[f64],
        dq: &[f64],
        q_out: &mut [f64],
    ) -> Result<(), SystemError> {
        if q.len() != dq.len() {
            return Err(SystemError::new(
                "default advance_positions needs dim_positions == dim_velocities; override it",
            ));
        }
        for i in 0..q.len() {
            q_out[i] = q[i] + dq[i];
        }
        Ok(())
    }

    /// q̇ from v at q (the positions' time derivative, for the dense output's cubic
    /// Hermite interpolant). The default, valid when the lengths agree, is v.
    fn position_rates(
        &mut self,
        q: &[f64],
        v: &[f64],
        qdot: &mut [f64],
    ) -> Result<(), SystemError> {
        if q.len() != v.len() {
            return Err(SystemError::new(
                "default position_rates needs dim_positions == dim_velocities; override it",
            ));
        }
        qdot.copy_from_slice(v);
        Ok(())
    }

    /// Projection of velocities and accelerations after an accepted step (the
    /// driver's schedule): Bayo–Ledesma eqs 23 and 33. `Ok(true)` if anything
    /// changed; the default does nothing.
    fn project(
        &mut self,
        t: f64,
        q: &[f64],
        v: &mut [f64],
        qdd: &mut [f64],
    ) -> Result<bool, SystemError> {
        let _ = (t, q, v, qdd);
        Ok(false)
    }
}
