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
//! formed once per evaluation by [`matrix_node`] and reused by every multiplier and
//! projection iteration, which only recompute vectors in [`vector_up`] (sec 4.4).

use mbs_constraints::ConstraintBlock;
use nalgebra::{Matrix3, SMatrix, Vector6};

use crate::dense::{cholesky_in_place, cholesky_solve};
use crate::handles::Node;

/// Read-only data of one pass.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Ctx<'a> {
    /// Constraint blocks (Jacobians w.r.t. [ṙ; ω'], Φ, Φ_t, γ), one per entry.
    pub blocks: &'a [ConstraintBlock],
    /// Body masses.
    pub mass: &'a [f64],
    /// Body centroidal inertias J'.
    pub inertia: &'a [Matrix3<f64>],
    /// Penalty α.
    pub alpha: f64,
    /// Use only the holonomic rows (position projection).
    pub holonomic_only: bool,
    /// Per entry, λ*ⱼ + α γ̄ⱼ (first rows used).
    pub w: &'a [Vector6<f64>],
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

/// K[6pa.., 6pb..] += α Aᵀ B over the first `nr` rows.
fn add_jtj(
    k: &mut nalgebra::DMatrix<f64>,
    pa: usize,
    pb: usize,
    ja: &SMatrix<f64, 6, 6>,
    jb: &SMatrix<f64, 6, 6>,
    nr: usize,
    alpha: f64,
) {
    for c in 0..6 {
        for i in 0..6 {
            let mut s = 0.0;
            for row in 0..nr {
                s += ja[(row, i)] * jb[(row, c)];
            }
            k[(6 * pa + i, 6 * pb + c)] += alpha * s;
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
    n.k.fill(0.0);
    match kids {
        None => {
            // A single body: M = diag(m I, J') in [ṙ, ω'] (eqs 1–2 without the
            // normalization rows, which this layout does not need).
            let b = n.pool[0];
            for i in 0..3 {
                n.k[(i, i)] = ctx.mass[b];
                for j in 0..3 {
                    n.k[(3 + i, 3 + j)] = ctx.inertia[b][(i, j)];
                }
            }
        }
        Some((l, r)) => {
            for c in [l, r] {
                for (a, &pa) in c.up_map.iter().enumerate() {
                    for (b, &pb) in c.up_map.iter().enumerate() {
                        for j in 0..6 {
                            for i in 0..6 {
                                n.k[(6 * pa + i, 6 * pb + j)] += c.s[(6 * a + i, 6 * b + j)];
                            }
                        }
                    }
                }
            }
        }
    }
    for &(e, pi, pj) in &n.handled {
        let blk = &ctx.blocks[e];
        let nr = ctx.rows(e);
        if let Some(pi) = pi {
            add_jtj(&mut n.k, pi, pi, &blk.ji, &blk.ji, nr, ctx.alpha);
        }
        if let Some(pj) = pj {
            add_jtj(&mut n.k, pj, pj, &blk.jj, &blk.jj, nr, ctx.alpha);
        }
        if let (Some(pi), Some(pj)) = (pi, pj) {
            add_jtj(&mut n.k, pi, pj, &blk.ji, &blk.jj, nr, ctx.alpha);
            add_jtj(&mut n.k, pj, pi, &blk.jj, &blk.ji, nr, ctx.alpha);
        }
    }
    let (e6, h6) = (6 * n.ne, 6 * n.nh);
    if !cholesky_in_place(&mut n.k, e6) {
        return Err(n.pool.clone());
    }
    // X = K_EE⁻¹ K_EH, column by column.
    for c in 0..h6 {
        for i in 0..e6 {
            n.x[(i, c)] = n.k[(i, e6 + c)];
        }
        let col = &mut n.x.as_mut_slice()[c * e6..(c + 1) * e6];
        cholesky_solve(&n.k, e6, col);
    }
    // S = K_HH − K_HE X (symmetric: lower triangle computed, mirrored).
    for j in 0..h6 {
        for i in j..h6 {
            let mut s = n.k[(e6 + i, e6 + j)];
            for p in 0..e6 {
                s -= n.k[(p, e6 + i)] * n.x[(p, j)];
            }
            n.s[(i, j)] = s;
            n.s[(j, i)] = s;
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
    n.r.fill(0.0);
    match kids {
        None => {
            let b = n.pool[0];
            for i in 0..6 {
                n.r[i] = ctx.leaf_rhs[6 * b + i];
            }
        }
        Some((l, r)) => {
            for c in [l, r] {
                for (a, &pa) in c.up_map.iter().enumerate() {
                    for i in 0..6 {
                        n.r[6 * pa + i] += c.rc[6 * a + i];
                    }
                }
            }
        }
    }
    for &(e, pi, pj) in &n.handled {
        let blk = &ctx.blocks[e];
        let nr = ctx.rows(e);
        let w = &ctx.w[e];
        for (p, jac) in [(pi, &blk.ji), (pj, &blk.jj)] {
            let Some(p) = p else { continue };
            for c in 0..6 {
                let mut s = 0.0;
                for row in 0..nr {
                    s += jac[(row, c)] * w[row];
                }
                n.r[6 * p + c] -= s;
            }
        }
    }
    let (e6, h6) = (6 * n.ne, 6 * n.nh);
    cholesky_solve(&n.k, e6, &mut n.r.as_mut_slice()[..e6]);
    for i in 0..h6 {
        let mut s = n.r[e6 + i];
        for p in 0..e6 {
            s -= n.k[(p, e6 + i)] * n.r[p];
        }
        n.rc[i] = s;
    }
    Ok(())
}
