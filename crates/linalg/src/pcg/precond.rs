//! PCG preconditioners for `M* λ = b` (Chiou sec 6.5), computed joint by joint.
//!
//! With `M_j⁻¹ = L_j⁻ᵀ L_j⁻¹` (Cholesky, eq 6.5.1.2) and `G_(i,j) = B_(i,j) L_j⁻ᵀ`,
//! the diagonal block of joint `i` is
//! `M*_ii = ε I + ϱ² Σ_j G_(i,j) G_(i,j)ᵀ`, formed from the joint's own blocks only.
//!
//! - [`Preconditioner::Diagonal`] (eq 6.5.1.3): `P_i = diag(M*_ii)`; `z = P⁻¹ r`.
//! - [`Preconditioner::Scaled`] (eqs 6.5.2.1–6.5.2.7): with `D_i = diag(M*_ii)` and
//!   `V_i = D_i^{-1/2} (M*_ii − D_i) D_i^{-1/2}`, the first two terms of the
//!   Neumann series of `(I + V)⁻¹` give `P_i = D_i^{-1/2} (I − V_i) D_i^{-1/2}`
//!   (eq 6.5.2.7), applied as `z_i = P_i r_i`. The thesis evaluates the expansion
//!   "at the individual joint level", so `V_i` is the coupling inside the joint's
//!   diagonal block. The series needs `‖V_i‖ < 1`; where `I − V_i` is not positive
//!   definite (possible for blocks of 3 or more rows) that joint falls back to the
//!   diagonal preconditioner, so that `P` stays SPD and PCG stays valid.

use super::arrowhead::ArrowheadOperator;
use crate::Par;
use crate::small::{cholesky_forward, cholesky_in_place};

/// PCG preconditioner choice.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Preconditioner {
    /// Plain CG (eqs 6.4.1–6.4.6).
    None,
    /// Diagonal of `M*` (eq 6.5.1.3).
    #[default]
    Diagonal,
    /// Scaled, first-order Neumann (eq 6.5.2.7).
    Scaled,
}

/// Precomputed preconditioner data (padded joint layout).
#[derive(Debug, Clone)]
pub(crate) struct PrecondData {
    pub(crate) kind: Preconditioner,
    inv_diag: Vec<f64>,
    blocks: Vec<f64>,
    pub(crate) fallbacks: usize,
    /// Scratch of [`Self::refresh`], sized at construction so that a refresh (once per
    /// right-hand side of the penalty formulation) does not allocate.
    scratch: Scratch,
}

/// Work arrays of one joint's block: `M*_ii`, the rows of `G`, `I − V_i` and its
/// Cholesky test copy.
#[derive(Debug, Clone)]
struct Scratch {
    mstar: Vec<f64>,
    g: Vec<f64>,
    work: Vec<f64>,
    test: Vec<f64>,
}

impl PrecondData {
    pub(crate) fn new(op: &ArrowheadOperator, kind: Preconditioner) -> Self {
        let mut data = Self {
            kind,
            inv_diag: vec![0.0; op.padded_m()],
            blocks: if kind == Preconditioner::Scaled {
                vec![0.0; op.num_joints() * op.rmax * op.rmax]
            } else {
                Vec::new()
            },
            fallbacks: 0,
            scratch: Scratch {
                mstar: vec![0.0; op.rmax * op.rmax],
                g: vec![0.0; op.dmax * op.rmax],
                work: vec![0.0; op.rmax * op.rmax],
                test: vec![0.0; op.rmax * op.rmax],
            },
        };
        data.refresh(op);
        data
    }

    /// Recomputes from the current operator values.
    pub(crate) fn refresh(&mut self, op: &ArrowheadOperator) {
        if self.kind == Preconditioner::None {
            return;
        }
        let rmax = op.rmax;
        let rho2 = op.rho * op.rho;
        let Scratch {
            mstar,
            g,
            work,
            test,
        } = &mut self.scratch;
        self.fallbacks = 0;
        for i in 0..op.num_joints() {
            let r = op.joint_dim[i];
            mstar.iter_mut().for_each(|v| *v = 0.0);
            for e in op.joint_ptr[i]..op.joint_ptr[i + 1] {
                let j = op.entry_body[e];
                let d = op.body_dim[j];
                let b = op.block(e);
                // rows of G = B L⁻ᵀ: g_a = L⁻¹ b_aᵀ
                for a in 0..r {
                    let ga = &mut g[a * op.dmax..a * op.dmax + d];
                    for k in 0..d {
                        ga[k] = b[a + k * r];
                    }
                    cholesky_forward(op.chol(j), op.dmax, d, ga);
                }
                for a in 0..r {
                    for c in 0..r {
                        let mut s = 0.0;
                        for k in 0..d {
                            s += g[a * op.dmax + k] * g[c * op.dmax + k];
                        }
                        mstar[a + c * rmax] += rho2 * s;
                    }
                }
            }
            for a in 0..r {
                mstar[a + a * rmax] += op.epsilon;
            }
            for a in 0..r {
                let dval = mstar[a + a * rmax];
                self.inv_diag[i * rmax + a] = if dval > 0.0 { 1.0 / dval } else { 1.0 };
            }
            if self.kind == Preconditioner::Scaled {
                // I − V_i, with V_i = D^{-1/2}(M*_ii − D)D^{-1/2}
                for a in 0..r {
                    for c in 0..r {
                        let v = if a == c {
                            1.0
                        } else {
                            -mstar[a + c * rmax]
                                * (self.inv_diag[i * rmax + a] * self.inv_diag[i * rmax + c]).sqrt()
                        };
                        work[a + c * rmax] = v;
                    }
                }
                let blk = &mut self.blocks[i * rmax * rmax..(i + 1) * rmax * rmax];
                blk.iter_mut().for_each(|v| *v = 0.0);
                test.copy_from_slice(work);
                let spd = cholesky_in_place(test, rmax, r, 0.0).is_ok();
                for a in 0..r {
                    for c in 0..r {
                        let sa = self.inv_diag[i * rmax + a].sqrt();
                        let sc = self.inv_diag[i * rmax + c].sqrt();
                        blk[a + c * rmax] = if spd {
                            sa * work[a + c * rmax] * sc
                        } else if a == c {
                            self.inv_diag[i * rmax + a]
                        } else {
                            0.0
                        };
                    }
                }
                if !spd {
                    self.fallbacks += 1;
                }
            }
        }
    }

    fn apply_joint(&self, i: usize, rmax: usize, r: &[f64], zi: &mut [f64]) {
        let ri = &r[i * rmax..(i + 1) * rmax];
        match self.kind {
            Preconditioner::None => zi.copy_from_slice(ri),
            Preconditioner::Diagonal => {
                for a in 0..rmax {
                    zi[a] = self.inv_diag[i * rmax + a] * ri[a];
                }
            }
            Preconditioner::Scaled => {
                let blk = &self.blocks[i * rmax * rmax..(i + 1) * rmax * rmax];
                for a in 0..rmax {
                    let mut s = 0.0;
                    for c in 0..rmax {
                        s += blk[a + c * rmax] * ri[c];
                    }
                    zi[a] = s;
                }
            }
        }
    }

    /// `z = P r` on padded joint vectors.
    pub(crate) fn apply(&self, rmax: usize, r: &[f64], z: &mut [f64], par: Par) {
        par.for_each_chunk(z, rmax, |i, zi| self.apply_joint(i, rmax, r, zi));
    }
}
