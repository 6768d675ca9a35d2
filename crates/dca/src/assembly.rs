//! The assembly phase (paper sec 2.2, eqs 9–32): from the leaves to the root, each
//! node condenses its pool equations onto its handles.
//!
//! # Algebra
//! One multiplier iteration substitutes λ = λ* + α(Φ_{q^A} q̈^A + Φ_{q^B} q̈^B + γ̄) (eqs 6,
//! 17) for every constraint handled at node C (the joints between A and B). With the
//! children's condensed equations (eqs 11–14, here with any number of handles) this
//! gives, over the pool P = H_A ∪ H_B ordered [E; H],
//!
//! ```text
//!   K = blockdiag-scatter(S_A, S_B) + Σ_{j handled at C} Φ_{q}^{jT} α Φ_{q}^{j}       (eqs 9–10)
//!   r = scatter(r_A, r_B)            − Σ_{j handled at C} Φ_{q}^{jT} (λ*_j + α γ̄_j)
//!   K [a_E; a_H] + (boundary terms of C's handles) = r.
//! ```
//!
//! Eliminating the inner accelerations a_E (the q̈₂ᴬ, q̈₁ᴮ of eqs 18–24):
//!
//! ```text
//!   a_E = K_EE⁻¹ (r_E − K_EH a_H)                          (eqs 21, 23)
//!   S_C = K_HH − K_HE K_EE⁻¹ K_EH                          (eqs 27–30, M_ij^C)
//!   r_C = r_H − K_HE K_EE⁻¹ r_E                            (eqs 31–32, Q_i^C)
//! ```
//!
//! This is the paper's elimination written in stiffness (Schur complement) form: the
//! paper eliminates λ first with C = (α⁻¹I + Φ_{q₂ᴬ}(M₂₂ᴬ)⁻¹Φᵀ + Φ_{q₁ᴮ}(M₁₁ᴮ)⁻¹Φᵀ)⁻¹
//! (eq 20), which by the Woodbury identity gives the same M_ij^C and Q_i^C. K_EE is
//! symmetric positive definite even with redundant constraints and at singular
//! configurations (a principal block of a Schur complement of M + Φ_qᵀαΦ_q).
//!
//! The matrices (K's factor, X = K_EE⁻¹K_EH, S) depend on positions only: they are
//! formed once per evaluation by `matrix_node` and reused by every multiplier and
//! projection iteration, which only recompute vectors in `vector_up` (sec 4.4).

use mbs_constraints::ConstraintBlock;
use nalgebra::{Matrix3, SMatrix, Vector6};

use crate::handles::Node;
use mbs_linalg::small::{cholesky_in_place, cholesky_solve, dot};

/// Read-only data of one pass.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Ctx<'a> {
    /// Constraint blocks (Jacobians w.r.t. [ṙ; ω'], Φ, Φ_t, γ), one per entry.
    pub blocks: &'a [ConstraintBlock],
    /// Body masses.
    pub mass: &'a [f64],
    /// Body centroidal inertias J'.
    pub inertia: &'a [Matrix3<f64>],
    /// Per entry, the penalty α_r of each row (`crate::PenaltyScale`).
    pub alpha: &'a [Vector6<f64>],
    /// Use only the holonomic rows (position projection).
    pub holonomic_only: bool,
    /// Per entry, the constant vector cⱼ of the level (γ̄ⱼ for accelerations, Φⱼ for
    /// positions, Φ_tⱼ for velocities), zero beyond the rows taking part.
    pub c: &'a [Vector6<f64>],
    /// Per body, the leaf right-hand side (6 per body).
    pub leaf_rhs: &'a [f64],
}

impl Ctx<'_> {
    /// Rows of entry `e` taking part.
    #[inline]
    pub fn rows(&self, e: usize) -> usize {
        let b = &self.blocks[e];
        if self.holonomic_only {
            b.n_holonomic
        } else {
            b.rows
        }
    }
}

/// The Jacobian blocks of entry `e` restricted to the rows taking part (rows beyond
/// them zeroed; a copy only when nonholonomic rows must be masked).
#[inline]
fn jacobians(ctx: &Ctx, e: usize) -> (SMatrix<f64, 6, 6>, SMatrix<f64, 6, 6>) {
    let blk = &ctx.blocks[e];
    let nr = ctx.rows(e);
    let (mut ji, mut jj) = (blk.ji, blk.jj);
    if nr < blk.rows {
        for row in nr..6 {
            ji.row_mut(row).fill(0.0);
            jj.row_mut(row).fill(0.0);
        }
    }
    (ji, jj)
}

/// K[6pa.., 6pb..] += B (a 6×6 block of the column-major K, leading dimension ld).
#[inline]
fn add_block(k: &mut [f64], ld: usize, pa: usize, pb: usize, b: &SMatrix<f64, 6, 6>) {
    for c in 0..6 {
        let col = &mut k[(6 * pb + c) * ld + 6 * pa..(6 * pb + c) * ld + 6 * pa + 6];
        for (x, y) in col.iter_mut().zip(b.column(c).iter()) {
            *x += y;
        }
    }
}

/// Matrix part of the assembly of one node (eqs 9–10, 27–30). On failure returns the
/// pool bodies of the node.
pub(crate) fn matrix_node(
    n: &mut Node,
    kids: Option<(&Node, &Node)>,
    ctx: &Ctx,
) -> Result<(), Vec<usize>> {
    let ld = 6 * n.pool.len();
    let k = n.k.as_mut_slice();
    k.fill(0.0);
    match kids {
        None => {
            // A single body: M = diag(m I, J') in [ṙ, ω'] (eqs 1–2 without the
            // normalization rows, which this layout does not need).
            let b = n.pool[0];
            let mut m = SMatrix::<f64, 6, 6>::zeros();
            for i in 0..3 {
                m[(i, i)] = ctx.mass[b];
                for j in 0..3 {
                    m[(3 + i, 3 + j)] = ctx.inertia[b][(i, j)];
                }
            }
            add_block(k, ld, 0, 0, &m);
        }
        Some((l, r)) => {
            for c in [l, r] {
                let cld = 6 * c.nh;
                let s = c.s.as_slice();
                for (a, &pa) in c.up_map.iter().enumerate() {
                    for (b, &pb) in c.up_map.iter().enumerate() {
                        for j in 0..6 {
                            let src = &s[(6 * b + j) * cld + 6 * a..(6 * b + j) * cld + 6 * a + 6];
                            let dst =
                                &mut k[(6 * pb + j) * ld + 6 * pa..(6 * pb + j) * ld + 6 * pa + 6];
                            for (x, y) in dst.iter_mut().zip(src) {
                                *x += y;
                            }
                        }
                    }
                }
            }
        }
    }
    for &(e, pi, pj) in &n.handled {
        let (mut ji, mut jj) = jacobians(ctx, e);
        // √α_r on each row: Φ_qᵀ diag(α_r) Φ_q (rows scaled, no 6×6 product)
        for (r, alpha) in ctx.alpha[e].iter().enumerate() {
            let s = alpha.sqrt();
            ji.row_mut(r).scale_mut(s);
            jj.row_mut(r).scale_mut(s);
        }
        if let Some(pi) = pi {
            add_block(k, ld, pi, pi, &(ji.transpose() * ji));
        }
        if let Some(pj) = pj {
            add_block(k, ld, pj, pj, &(jj.transpose() * jj));
        }
        if let (Some(pi), Some(pj)) = (pi, pj) {
            let c = ji.transpose() * jj;
            add_block(k, ld, pi, pj, &c);
            add_block(k, ld, pj, pi, &c.transpose());
        }
    }
    let (e6, h6) = (6 * n.ne, 6 * n.nh);
    if cholesky_in_place(k, ld, e6, 0.0).is_err() {
        return Err(n.pool.clone());
    }
    // X = K_EE⁻¹ K_EH, column by column (columns of K_EH are contiguous).
    let x = n.x.as_mut_slice();
    for c in 0..h6 {
        let xc = &mut x[c * e6..(c + 1) * e6];
        xc.copy_from_slice(&k[(e6 + c) * ld..(e6 + c) * ld + e6]);
        cholesky_solve(k, ld, e6, xc);
    }
    // S = K_HH − K_HE X (symmetric: lower triangle computed, mirrored).
    let s = n.s.as_mut_slice();
    for j in 0..h6 {
        let xj = &x[j * e6..(j + 1) * e6];
        for i in j..h6 {
            let v = k[(e6 + j) * ld + e6 + i] - dot(&k[(e6 + i) * ld..(e6 + i) * ld + e6], xj);
            s[j * h6 + i] = v;
            s[i * h6 + j] = v;
        }
    }
    Ok(())
}

/// Vector part of the assembly of one node (eqs 31–32 with eqs 22, 24): the pool
/// right-hand side, y_E = K_EE⁻¹ r_E and the condensed r_C.
pub(crate) fn vector_up(
    n: &mut Node,
    kids: Option<(&Node, &Node)>,
    ctx: &Ctx,
) -> Result<(), Vec<usize>> {
    let r = n.r.as_mut_slice();
    match kids {
        None => {
            let b = n.pool[0];
            r[..6].copy_from_slice(&ctx.leaf_rhs[mbs_model::body_coords::v_range(b)]);
        }
        Some((lk, rk)) => {
            r.fill(0.0);
            for c in [lk, rk] {
                for (a, &pa) in c.up_map.iter().enumerate() {
                    for (x, y) in r[6 * pa..6 * pa + 6]
                        .iter_mut()
                        .zip(&c.rc.as_slice()[6 * a..6 * a + 6])
                    {
                        *x += y;
                    }
                }
            }
        }
    }
    // r −= Φ_qᵀ(λ* + αc) of the constraints handled here (zero beyond the rows taking
    // part).
    for (k, &(e, pi, pj)) in n.handled.iter().enumerate() {
        let blk = &ctx.blocks[e];
        let w = &(n.lam[k] + ctx.alpha[e].component_mul(&ctx.c[e]));
        for (p, jac) in [(pi, &blk.ji), (pj, &blk.jj)] {
            let Some(p) = p else { continue };
            let f = jac.tr_mul(w);
            for (x, y) in r[6 * p..6 * p + 6].iter_mut().zip(f.iter()) {
                *x -= y;
            }
        }
    }
    let ld = 6 * n.pool.len();
    let (e6, h6) = (6 * n.ne, 6 * n.nh);
    let k = n.k.as_slice();
    let (re, rh) = r.split_at_mut(e6);
    cholesky_solve(k, ld, e6, re);
    let rc = n.rc.as_mut_slice();
    for i in 0..h6 {
        rc[i] = rh[i] - dot(&k[(e6 + i) * ld..(e6 + i) * ld + e6], re);
    }
    Ok(())
}
