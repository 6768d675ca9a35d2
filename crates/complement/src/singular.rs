//! Detection of singular configurations (rank loss of `Φ_q`) between accepted
//! steps.
//!
//! The orthogonal-complement reduction (Pękal & Frączek 2016, eqs 3.3–3.8) needs
//! `X = [Φ_q; B]` non-singular. Where `Φ_q` loses rank (the N-four-bar's
//! horizontal configuration), the null space gains a direction, `P` jumps, the
//! reduced equations are not defined, and the motion may continue on either
//! branch. An adaptive integrator either collapses its step there or steps over
//! the point silently, possibly onto the wrong branch.
//!
//! At every accepted step `k` the monitor keeps `Φ_r(q_k)` (the full-row-rank
//! rows, see [`crate::redundancy`]). At the next accepted step it forms
//!
//! ```text
//!   H = ½ (Φ_r(q_{k+1}) Φ_r(q_k)ᵀ + Φ_r(q_k) Φ_r(q_{k+1})ᵀ)      (r × r)
//! ```
//!
//! which is close to the positive definite `Φ_r Φ_rᵀ` when the step is regular.
//! When a singular value of `Φ_r` passes through zero between the steps, its left
//! singular vector `u` gives `uᵀ H u ≈ σ(q_k) · (−σ(q_{k+1})) < 0`: `H` is not
//! positive definite (Cholesky fails), whatever the number of singular values that
//! cross at once (the N-four-bar loses two ranks together, which a determinant
//! sign would miss). The step-size collapse before such a point is caught by the
//! rank of `Φ_r` counted with the looser relative tolerance `singular_tol`
//! (|R_ii| / |R_00| of the pivoted QR).

use mbs_linalg::nullspace::{
    NullSpaceMethod, NullSpaceParams, NullSpaceWorkspace, null_space_into,
};
use mbs_linalg::small::cholesky_in_place;
use nalgebra::DMatrix;

use crate::workspace::{fview, mmut, mul};

/// What the monitor found.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum SingularEvent {
    /// `H` was not positive definite: `lost` singular values of `Φ_r` passed
    /// through zero between `t_prev` and `t`.
    Crossed {
        /// Last accepted step before the crossing.
        t_prev: f64,
        /// Number of non-positive eigenvalues of `H`.
        lost: usize,
    },
    /// The rank of `Φ_r` counted with `singular_tol` fell to `rank`.
    Reached {
        /// Rank found.
        rank: usize,
    },
}

/// Monitor of `Φ_r` (`r × n`, full row rank at the start) over accepted steps;
/// allocation-free after construction (except when it reports a crossing).
#[derive(Debug)]
pub struct SingularityMonitor {
    r: usize,
    n: usize,
    params: NullSpaceParams,
    ns: NullSpaceWorkspace,
    phi_prev: DMatrix<f64>,
    h: DMatrix<f64>,
    t_prev: Option<f64>,
}

impl SingularityMonitor {
    /// A monitor for `r × n` Jacobians with relative rank tolerance `singular_tol`.
    pub fn new(r: usize, n: usize, singular_tol: f64) -> Self {
        Self {
            r,
            n,
            params: NullSpaceParams {
                rank_tol: singular_tol,
                compute_s: false,
            },
            ns: NullSpaceWorkspace::new(r, n),
            phi_prev: DMatrix::zeros(r, n),
            h: DMatrix::zeros(r, r),
            t_prev: None,
        }
    }

    /// `P` (`n × (n − r)`, orthonormal, column major): the QR null space of `Φ_r`
    /// at the last accepted step.
    pub fn p(&self) -> &[f64] {
        self.ns.p_data()
    }

    /// Forgets the previous step (a new run).
    pub fn reset(&mut self) {
        self.t_prev = None;
    }

    /// Checks the accepted step at `t` with Jacobian `phi_r`; a time not after the
    /// previous one starts a new run.
    pub fn check(&mut self, t: f64, phi_r: &DMatrix<f64>) -> Result<(), SingularEvent> {
        if self.r == 0 || phi_r.shape() != (self.r, self.n) {
            return Ok(());
        }
        match self.t_prev {
            Some(t_prev) if t > t_prev => {
                // H = sym(Φ_r Φ_prevᵀ)
                self.product(phi_r);
                let r = self.r;
                for i in 0..r {
                    for j in 0..i {
                        let a = 0.5 * (self.h[(i, j)] + self.h[(j, i)]);
                        self.h[(i, j)] = a;
                        self.h[(j, i)] = a;
                    }
                }
                if cholesky_in_place(self.h.as_mut_slice(), r, r, 0.0).is_err() {
                    self.product(phi_r);
                    let sym = 0.5 * (&self.h + self.h.transpose());
                    let lost = sym
                        .symmetric_eigenvalues()
                        .iter()
                        .filter(|&&l| l <= 0.0)
                        .count()
                        .max(1);
                    self.t_prev = None;
                    return Err(SingularEvent::Crossed { t_prev, lost });
                }
            }
            _ => self.t_prev = None,
        }
        if null_space_into(NullSpaceMethod::Qr, phi_r, None, &self.params, &mut self.ns).is_err()
            || self.ns.rank() < self.r
        {
            self.t_prev = None;
            return Err(SingularEvent::Reached {
                rank: self.ns.rank().min(self.r),
            });
        }
        self.phi_prev.copy_from(phi_r);
        self.t_prev = Some(t);
        Ok(())
    }
}

/// Confirms a [`SingularEvent::Crossed`] of one long accepted step: the same test
/// on `n_sub` sub-steps of the straight path between the two configurations
/// (`phi_at(s)`: `Φ_r` at the fraction `s ∈ [0, 1]` of it). A large step can turn
/// the row space of `Φ_r` far enough for `H` to lose definiteness without any rank
/// loss; on short sub-steps it cannot, while a path between the two sides of a
/// singular configuration still crosses it. Returns the number of lost ranks, or
/// `None` when no sub-step crosses (allocates; called only after a coarse alarm).
pub fn confirm_crossing<E>(
    r: usize,
    n: usize,
    n_sub: usize,
    mut phi_at: impl FnMut(f64) -> Result<DMatrix<f64>, E>,
) -> Result<Option<usize>, E> {
    let mut m = SingularityMonitor::new(r, n, 0.0);
    for i in 0..=n_sub {
        let phi = phi_at(i as f64 / n_sub as f64)?;
        if let Err(SingularEvent::Crossed { lost, .. }) = m.check(i as f64, &phi) {
            return Ok(Some(lost));
        }
    }
    Ok(None)
}

impl SingularityMonitor {
    /// `h = Φ_r Φ_prevᵀ`.
    fn product(&mut self, phi_r: &DMatrix<f64>) {
        let r = self.r;
        mul(
            mmut(self.h.as_mut_slice(), r, r),
            fview(phi_r),
            fview(&self.phi_prev).transpose(),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A planar "toggle": Φ_r = [cos θ, sin θ, 0; 0, 0, 1] has full rank; the
    /// monitor sees nothing on a regular path, and a sign change when the first row
    /// is scaled through zero (rank loss).
    #[test]
    fn detects_a_rank_crossing_and_not_a_regular_path() {
        let jac = |th: f64, s: f64| {
            DMatrix::from_row_slice(2, 3, &[s * th.cos(), s * th.sin(), 0.0, 0.0, 0.0, 1.0])
        };
        let mut m = SingularityMonitor::new(2, 3, 1e-8);
        for k in 0..100 {
            let th = 0.1 * k as f64;
            assert_eq!(m.check(0.01 * k as f64, &jac(th, 1.0)), Ok(()), "step {k}");
        }
        let mut m = SingularityMonitor::new(2, 3, 1e-8);
        let mut found = None;
        for k in 0..10 {
            let s = 0.45 - 0.1 * k as f64; // passes 0 between k = 4 and 5
            if let Err(e) = m.check(k as f64, &jac(0.3, s)) {
                found = Some((k, e));
                break;
            }
        }
        assert_eq!(
            found,
            Some((
                5,
                SingularEvent::Crossed {
                    t_prev: 4.0,
                    lost: 1
                }
            ))
        );
        // two rows through zero at once (a determinant keeps its sign)
        let jac2 = |s: f64| {
            DMatrix::from_row_slice(
                3,
                4,
                &[s, 0.0, 0.0, 0.0, 0.0, s, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0],
            )
        };
        let mut m = SingularityMonitor::new(3, 4, 1e-8);
        assert_eq!(m.check(0.0, &jac2(0.3)), Ok(()));
        assert_eq!(
            m.check(1.0, &jac2(-0.2)),
            Err(SingularEvent::Crossed {
                t_prev: 0.0,
                lost: 2
            })
        );
        // landing (nearly) on the singular configuration
        let mut m = SingularityMonitor::new(2, 3, 1e-8);
        assert_eq!(m.check(0.0, &jac(0.3, 1.0)), Ok(()));
        assert_eq!(
            m.check(1.0, &jac(0.3, 1e-12)),
            Err(SingularEvent::Reached { rank: 1 })
        );
    }
}
