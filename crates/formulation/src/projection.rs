//! The convergence test shared by the mass-orthogonal projection iterations of every
//! front-end (positions, velocities, accelerations; Bayo & Ledesma 1996, eqs 9–34),
//! with its stall rule for singular configurations.

/// A correction below this many ulps of the state (‖Δ‖∞ ≤ ROUNDOFF·ε·(1 + ‖x‖∞)) is
/// at the round-off of the state: further iterations cannot move it.
const ROUNDOFF: f64 = 64.0;

/// The convergence test of every projection iteration (positions, velocities,
/// accelerations), given the violation before (`prev_viol`) and after (`viol`) the
/// last correction `change`, the state scale 1 + ‖x‖∞ and the tolerances:
///
/// * **converged**: ‖g‖∞ ≤ eps·scale and ‖Δ‖∞ ≤ eps·scale;
/// * **converged along the manifold**: ‖g‖∞ ≤ eps·scale and ‖Δ‖∞ ≤ 1e-8·scale
///   (near singular configurations the corrections stall along the near-null
///   directions of Φ_q once Φ is satisfied; the remainder only moves the iterate
///   along the manifold by a round-off-level error of the mass-orthogonality
///   condition);
/// * **stalled at the achievable accuracy**: the correction is at the round-off of
///   the state (‖Δ‖∞ ≤ 64ε·scale), the violation stopped decreasing
///   (‖g‖∞ > ½‖g_prev‖∞) and ‖g‖∞ ≤ eps_stall·scale. Near a singular
///   configuration the rows along the vanishing singular values s of Φ_q can only be
///   corrected by Δ ≈ g/s, which the solves resolve only down to s ≈ √(rank tol):
///   the residual left there is the part of the step's local error along those rows,
///   and no iteration reduces it. An infeasible target (inconsistent constraints)
///   stalls the same way but far above eps_stall and still fails.
pub fn converged(
    viol: f64,
    prev_viol: f64,
    change: f64,
    scale: f64,
    eps: f64,
    eps_stall: f64,
) -> bool {
    let roundoff = ROUNDOFF * f64::EPSILON * scale;
    (viol <= eps * scale && change <= eps.max(1e-8) * scale)
        || (change <= roundoff && viol > 0.5 * prev_viol && viol <= eps_stall * scale)
}

#[cfg(test)]
mod tests {
    use super::converged;

    const EPS: f64 = 1e-13;
    const STALL: f64 = 1e-8;

    #[test]
    fn a_small_violation_and_correction_converge() {
        assert!(converged(1e-14, 1e-9, 1e-14, 2.0, EPS, STALL));
        // Φ satisfied, correction only along the manifold (≤ 1e-8 relative)
        assert!(converged(1e-14, 1e-14, 1e-9, 2.0, EPS, STALL));
        // a correction of 1e-6 still moves the iterate: not converged
        assert!(!converged(1e-14, 1e-14, 1e-6, 2.0, EPS, STALL));
    }

    #[test]
    fn a_stall_at_round_off_converges() {
        // the N-four-bar at its singular configuration: ‖Φ̇‖ = 1.78e-11 stays put while
        // the corrections are 2.4e-16 (reported as a failure before)
        assert!(converged(1.778e-11, 1.778e-11, 2.36e-16, 5.89, EPS, STALL));
    }

    #[test]
    fn a_stall_that_still_decreases_or_moves_is_not_converged() {
        // violation still decreasing by more than half: keep iterating
        assert!(!converged(1e-11, 1e-9, 1e-16, 2.0, EPS, STALL));
        // correction above the round-off of the state
        assert!(!converged(1e-11, 1e-11, 1e-12, 2.0, EPS, STALL));
    }

    #[test]
    fn an_infeasible_target_is_not_converged() {
        // stalled (no correction, no decrease) but far from the manifold
        assert!(!converged(0.5, 0.5, 0.0, 2.0, EPS, STALL));
        assert!(!converged(1e-6, 1e-6, 1e-17, 2.0, EPS, STALL));
    }
}
