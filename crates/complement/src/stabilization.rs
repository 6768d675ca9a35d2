//! Constraint stabilization (Pękal–Frączek sec 2): Baumgarte's modified Γ and
//! the Newton–Raphson correction of positions (and velocities).

use mbs_constraints::Baumgarte;
use nalgebra::DVector;

use crate::basis::min_norm_solve_into;
use crate::coords::{Equations, Evaluator, Level};
use crate::error::ComplementError;
use crate::params::Stabilization;
use crate::workspace::MinNormWork;

/// Γ̄ = Γ − 2α̂ Φ̇ − β̂² Φ for Baumgarte (Φ̇ on every row, Φ on the holonomic
/// rows), Γ otherwise, into `g` (length m), with `phi_dot` (length m) as scratch;
/// allocation-free.
pub fn gamma_bar_into(
    stab: Stabilization,
    eq: &Equations,
    v: &[f64],
    g: &mut DVector<f64>,
    phi_dot: &mut DVector<f64>,
) {
    g.copy_from(&eq.gamma);
    if let Stabilization::Baumgarte { alpha, beta } = stab {
        eq.phi_dot_into(v, phi_dot);
        Baumgarte { alpha, beta }.apply(g.as_mut_slice(), eq.phi.as_slice(), phi_dot.as_slice());
    }
}

/// Scratch of [`correct`]: minimum-norm solves over the holonomic rows (positions)
/// and over all rows (velocities), and Φ̇.
#[derive(Debug)]
pub struct CorrectionWork {
    position: MinNormWork,
    velocity: MinNormWork,
    phi_dot: DVector<f64>,
}

impl CorrectionWork {
    /// Scratch for `m` rows (`m_h` holonomic) and `n` coordinates.
    pub fn new(m: usize, m_h: usize, n: usize) -> Self {
        Self {
            position: MinNormWork::new(m_h, n),
            velocity: MinNormWork::new(m, n),
            phi_dot: DVector::zeros(m),
        }
    }
}

/// What a [`correct`] call did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Correction {
    /// Positions were corrected.
    pub position: bool,
    /// Velocities were corrected.
    pub velocity: bool,
    /// Newton iterations on the positions.
    pub iterations: usize,
}

/// Newton–Raphson projection onto Φ(q, t) = 0 when ‖Φ‖₂ > `tol`:
///
/// ```text
///   Φ_q Δq = −Φ,   Δq of minimum norm (redundant rows dropped),   q ← q + Δq
/// ```
///
/// iterated until ‖Φ‖₂ ≤ tol/100 (quadratic convergence: usually 1–2
/// iterations); then, if positions moved or ‖Φ̇‖₂ > `tol`, the velocities are
/// projected onto Φ_q q̇ + Φ_t = 0 the same way (one linear step).
///
/// Allocation-free with a [`CorrectionWork`] built for the evaluator's sizes
/// (except for the ill-conditioned fallback of
/// [`crate::basis::min_norm_solve_into`] and the error message).
#[allow(clippy::too_many_arguments)]
pub fn correct(
    eval: &mut Evaluator,
    work: &mut CorrectionWork,
    t: f64,
    q: &mut [f64],
    v: &mut [f64],
    tol: f64,
    max_iter: usize,
    rank_tol: f64,
) -> Result<Correction, ComplementError> {
    let mut out = Correction::default();
    eval.evaluate(t, q, v, Level::Positions)?;
    let mut res = eval.eq.phi.norm();
    if res > tol {
        out.position = true;
        let target = 1e-2 * tol;
        while res > target && out.iterations < max_iter {
            min_norm_solve_into(
                &eval.eq.phi_q,
                eval.eq.phi.as_slice(),
                rank_tol,
                &mut work.position,
            );
            for (qi, d) in q.iter_mut().zip(work.position.x.iter()) {
                *qi -= d;
            }
            out.iterations += 1;
            eval.evaluate(t, q, v, Level::Positions)?;
            let new = eval.eq.phi.norm();
            if new >= res && new <= tol {
                res = new;
                break; // stagnated at round-off below the tolerance
            }
            res = new;
        }
        if res.is_nan() || res > tol {
            let (row, _) = eval
                .eq
                .phi
                .iter()
                .enumerate()
                .fold(
                    (0, 0.0),
                    |(bi, bv), (i, x)| if x.abs() > bv { (i, x.abs()) } else { (bi, bv) },
                );
            return Err(ComplementError::NewtonNotConverged {
                t,
                residual: res,
                tol,
                iterations: out.iterations,
                location: eval.row_label(row),
            });
        }
    }
    eval.evaluate(t, q, v, Level::Velocities)?;
    eval.eq.phi_dot_into(v, &mut work.phi_dot);
    if out.position || work.phi_dot.norm() > tol {
        out.velocity = true;
        min_norm_solve_into(
            &eval.eq.phi_q,
            work.phi_dot.as_slice(),
            rank_tol,
            &mut work.velocity,
        );
        for (vi, d) in v.iter_mut().zip(work.velocity.x.iter()) {
            *vi -= d;
        }
    }
    Ok(out)
}
