//! Constraint stabilization (Pękal–Frączek sec 2): Baumgarte's modified Γ and
//! the Newton–Raphson correction of positions (and velocities).

use nalgebra::DVector;

use crate::basis::min_norm_solve;
use crate::coords::{Equations, Evaluator, Level};
use crate::error::ComplementError;
use crate::params::Stabilization;

/// Γ̄ = Γ − 2α̂ Φ̇ − β̂² Φ for Baumgarte (Φ̇ on every row, Φ on the holonomic
/// rows), Γ otherwise.
pub fn gamma_bar(stab: Stabilization, eq: &Equations, v: &[f64]) -> DVector<f64> {
    let mut g = eq.gamma.clone();
    if let Stabilization::Baumgarte { alpha, beta } = stab {
        let phi_dot = eq.phi_dot(v);
        g.axpy(-2.0 * alpha, &phi_dot, 1.0);
        let m_h = eq.phi.len();
        g.rows_mut(0, m_h).axpy(-beta * beta, &eq.phi, 1.0);
    }
    g
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
pub fn correct(
    eval: &mut Evaluator,
    t: f64,
    q: &mut [f64],
    v: &mut [f64],
    tol: f64,
    max_iter: usize,
    rank_tol: f64,
) -> Result<Correction, ComplementError> {
    let mut out = Correction::default();
    let m_h = eval.m_holonomic();
    eval.evaluate(t, q, v, Level::Positions)?;
    let mut res = eval.eq.phi.norm();
    if res > tol {
        out.position = true;
        let target = 1e-2 * tol;
        while res > target && out.iterations < max_iter {
            let jac = eval.eq.phi_q.rows(0, m_h).clone_owned();
            let dq = min_norm_solve(&jac, &eval.eq.phi, rank_tol);
            for (qi, d) in q.iter_mut().zip(dq.iter()) {
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
    let phi_dot = eval.eq.phi_dot(v);
    if out.position || phi_dot.norm() > tol {
        out.velocity = true;
        let dv = min_norm_solve(&eval.eq.phi_q, &phi_dot, rank_tol);
        for (vi, d) in v.iter_mut().zip(dv.iter()) {
            *vi -= d;
        }
    }
    Ok(out)
}
