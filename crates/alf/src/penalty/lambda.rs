//! The constraint-force solve of the penalty stage (thesis eq 5.5.5.2, ch 6):
//!
//! ```text
//!   (D + ϱ² B M⁻¹ Bᵀ) λ = rhs,     D = diag(d_i) ≥ 0,
//! ```
//!
//! with the dense backend (form the m × m matrix, Cholesky) or the matrix-free
//! Schur-complement PCG of `mbs_linalg::pcg` (eqs 6.2.8–6.2.10, 6.4.1–6.4.7, body by
//! body; preconditioners of sec 6.5).
//!
//! The arrowhead operator has one scalar ε. A diagonal D with unequal entries
//! (nonholonomic rows carry ϱε, holonomic rows ε — see [`super::system`]) is reduced
//! to it by the symmetric row scaling S = diag(√(ε/dᵢ)), ε = max dᵢ:
//!
//! ```text
//!   S (D + ϱ² B M⁻¹ Bᵀ) S μ = S rhs,   S D S = ε I,   λ = S μ,
//! ```
//!
//! i.e. the operator is given the row-scaled blocks S B. D = 0 (the Lagrange
//! multipliers B M⁻¹ Bᵀ λ = rhs) needs no scaling.

use mbs_linalg::dense::{DenseCholesky, as_faer};
use mbs_linalg::pcg::{ArrowheadOperator, JointBlocks, PcgInfo, PcgParams, PcgSolver};
use mbs_linalg::{LinalgError, SpdSolver};
use mbs_model::BodyRef;
use nalgebra::DMatrix;

use super::core::Core;
use crate::error::AlfError;

/// Which linear solver computes λ from eq 5.5.5.2.
#[derive(Clone, Copy, Debug)]
pub enum LambdaBackend {
    /// Form `D + ϱ² B M⁻¹ Bᵀ` (m × m) and factor it by dense Cholesky.
    Dense,
    /// Schur-complement PCG, matrix-free body by body (thesis ch 6). With
    /// `warm_start` the previous station's λ starts the iteration.
    Pcg(PcgParams),
}

impl LambdaBackend {
    /// PCG with the diagonal preconditioner (eq 6.5.1.3), relative tolerance 1e-12,
    /// warm start from the previous λ, sequential.
    pub fn pcg() -> Self {
        LambdaBackend::Pcg(PcgParams {
            tol: 1e-12,
            warm_start: true,
            ..PcgParams::default()
        })
    }
}

/// A row block of B handed to the arrowhead operator: one part (holonomic or
/// nonholonomic) of one constraint entry.
#[derive(Clone, Debug)]
struct RowBlock {
    entry: usize,
    /// First block row within the entry's `ConstraintBlock`.
    r0: usize,
    len: usize,
    /// First global row.
    start: usize,
    /// Which of `ji` (slot 0), `jj` (slot 1) are bodies, in the order given to the
    /// operator.
    slots: Vec<usize>,
}

#[derive(Debug)]
enum Backend {
    Dense {
        /// Gᵀ = M^{-½} Bᵀ (n × m), with M^{-½} = L⁻¹ on ω'.
        gt: DMatrix<f64>,
        b: DMatrix<f64>,
        a: DMatrix<f64>,
        chol: DenseCholesky,
    },
    Pcg {
        solver: Box<PcgSolver>,
        blocks: Vec<RowBlock>,
        /// S per global row.
        scale: Vec<f64>,
        /// Block values scratch (≤ 6 × 6).
        values: Vec<f64>,
        /// Scaled rhs and unknown, in the operator's row order.
        rhs_op: Vec<f64>,
        x_op: Vec<f64>,
    },
}

/// Solver of `(D + ϱ² B M⁻¹ Bᵀ) λ = rhs` at the state last evaluated in a [`Core`].
#[derive(Debug)]
pub(crate) struct LambdaSolver {
    backend: Backend,
    /// D = 0 of the Lagrange multipliers (length m).
    zeros: Vec<f64>,
}

impl LambdaSolver {
    pub fn new(core: &Core, kind: LambdaBackend) -> Result<Self, LinalgError> {
        let (n, m) = (core.n_v(), core.m());
        let backend = match kind {
            LambdaBackend::Dense => Backend::Dense {
                gt: DMatrix::zeros(n, m),
                b: DMatrix::zeros(m, n),
                a: DMatrix::zeros(m, m),
                chol: DenseCholesky::new(m),
            },
            LambdaBackend::Pcg(params) => {
                let mut blocks = Vec::new();
                for (k, e) in core.sys.entries().iter().enumerate() {
                    let slots: Vec<usize> = [e.body_i, e.body_j]
                        .iter()
                        .enumerate()
                        .filter(|(_, b)| matches!(b, BodyRef::Body(_)))
                        .map(|(s, _)| s)
                        .collect();
                    for (r0, len, start) in [
                        (0, e.n_holonomic, e.holonomic_start),
                        (e.n_holonomic, e.n_nonholonomic, e.nonholonomic_start),
                    ] {
                        if len > 0 && !slots.is_empty() {
                            blocks.push(RowBlock {
                                entry: k,
                                r0,
                                len,
                                start,
                                slots: slots.clone(),
                            });
                        }
                    }
                }
                blocks.sort_by_key(|b| b.start);
                let covered: usize = blocks.iter().map(|b| b.len).sum();
                if covered != m {
                    // A constraint touching no body at all: its rows cannot be solved.
                    return Err(LinalgError::DimensionMismatch {
                        what: "penalty PCG: constraint rows coupled to bodies",
                        expected: m,
                        got: covered,
                    });
                }
                let masses: Vec<DMatrix<f64>> = (0..core.n_bodies())
                    .map(|b| {
                        let mut mb = DMatrix::zeros(6, 6);
                        for k in 0..3 {
                            mb[(k, k)] = core.sys.mass(b);
                        }
                        mb.view_mut((3, 3), (3, 3)).copy_from(core.sys.inertia(b));
                        mb
                    })
                    .collect();
                let joints: Vec<JointBlocks> = blocks
                    .iter()
                    .map(|rb| {
                        let e = &core.sys.entries()[rb.entry];
                        rb.slots
                            .iter()
                            .map(|&s| {
                                let body = if s == 0 { e.body_i } else { e.body_j };
                                let id = body.body().map(|b| b.0).unwrap_or(0);
                                (id, DMatrix::zeros(rb.len, 6))
                            })
                            .collect()
                    })
                    .collect();
                let op = ArrowheadOperator::new(&masses, &joints, 1.0, 1.0)?;
                Backend::Pcg {
                    solver: Box::new(PcgSolver::new(op, params)?),
                    blocks,
                    scale: vec![1.0; m],
                    values: vec![0.0; 36],
                    rhs_op: vec![0.0; m],
                    x_op: vec![0.0; m],
                }
            }
        };
        Ok(Self {
            backend,
            zeros: vec![0.0; m],
        })
    }

    /// The Lagrange multipliers `B M⁻¹ Bᵀ λ = rhs` at the state last evaluated in
    /// `core`, the minimum-norm ones when the constraints are redundant (a planar
    /// loop modelled in 3-D: B M⁻¹ Bᵀ is singular and its Cholesky factorization
    /// fails). Those come from iterated Tikhonov regularization,
    ///
    /// ```text
    ///   (δ I + B M⁻¹ Bᵀ) Δλ = rhs − B M⁻¹ Bᵀ λ,   λ ← λ + Δλ,   λ⁰ = 0,
    /// ```
    ///
    /// with δ = 1e-8 × the median of diag(B M⁻¹ Bᵀ), which converges to the
    /// minimum-norm solution (the part of rhs in the range of B M⁻¹ Bᵀ; the
    /// null-space part, round-off for consistent data, is divided by δ and never
    /// enters Bᵀλ). Only Bᵀλ enters the equations of motion, and it is the
    /// mechanism's constraint force for any solution. Allocates only in that
    /// redundant case (initial state only).
    pub fn lagrange(
        &mut self,
        core: &Core,
        t: f64,
        rhs: &[f64],
        lambda: &mut [f64],
    ) -> Result<(), AlfError> {
        let (m, n) = (core.m(), core.n_v());
        let linalg = |source| AlfError::Linalg {
            t,
            context: "Lagrange multipliers B M⁻¹ Bᵀ λ = B M⁻¹ F − γ",
            source,
        };
        let zeros = std::mem::take(&mut self.zeros);
        let first = self.solve(core, &zeros, 1.0, rhs, lambda);
        self.zeros = zeros;
        match first {
            Err(LinalgError::NotPositiveDefinite { .. }) => {}
            other => return other.map(|_| ()).map_err(linalg),
        }
        let mut d = vec![0.0; m];
        core.constraint_inverse_masses(&mut d)?;
        let reg = vec![1e-8 * median(&d).max(f64::MIN_POSITIVE); m];
        let (mut residual, mut delta_lambda) = (rhs.to_vec(), vec![0.0; m]);
        let (mut tmp_n, mut tmp_m) = (vec![0.0; n], vec![0.0; m]);
        lambda.iter_mut().for_each(|l| *l = 0.0);
        let norm = |v: &[f64]| v.iter().fold(0.0f64, |a, b| a.max(b.abs()));
        let rhs_norm = norm(rhs);
        for _ in 0..MIN_NORM_ITERATIONS {
            delta_lambda.iter_mut().for_each(|l| *l = 0.0);
            self.solve(core, &reg, 1.0, &residual, &mut delta_lambda)
                .map_err(linalg)?;
            for (l, dl) in lambda.iter_mut().zip(&delta_lambda) {
                *l += dl;
            }
            // residual = rhs − B M⁻¹ Bᵀ λ
            core.bt_mul(lambda, &mut tmp_n)?;
            core.minv_in_place(&mut tmp_n);
            core.b_mul(&tmp_n, &mut tmp_m)?;
            for i in 0..m {
                residual[i] = rhs[i] - tmp_m[i];
            }
            if norm(&residual) <= 1e-13 * rhs_norm {
                break;
            }
        }
        Ok(())
    }

    /// Solves `(D + ϱ² B M⁻¹ Bᵀ) λ = rhs` with B of the state last evaluated in
    /// `core`. `lambda` holds the warm start on entry (PCG) and the solution on exit.
    /// `d` must be all zero or all positive. Returns the PCG statistics (PCG backend).
    pub fn solve(
        &mut self,
        core: &Core,
        d: &[f64],
        rho: f64,
        rhs: &[f64],
        lambda: &mut [f64],
    ) -> Result<Option<PcgInfo>, LinalgError> {
        let m = core.m();
        if m == 0 {
            return Ok(None);
        }
        match &mut self.backend {
            Backend::Dense { gt, b, a, chol } => {
                // Gᵀ = M^{-½} Bᵀ body by body, A = D + ϱ² G Gᵀ, A = L Lᵀ.
                core.ws
                    .phi_q_dense(&core.sys, b)
                    .map_err(|_| LinalgError::DimensionMismatch {
                        what: "penalty dense B",
                        expected: m,
                        got: b.nrows(),
                    })?;
                for i in 0..m {
                    for body in 0..core.n_bodies() {
                        let c = mbs_model::body_coords::v_range(body).start;
                        let sm = core.inv_mass[body].sqrt();
                        for k in 0..3 {
                            gt[(c + k, i)] = sm * b[(i, c + k)];
                        }
                        let w = nalgebra::Vector3::new(b[(i, c + 3)], b[(i, c + 4)], b[(i, c + 5)]);
                        let z = core.chol_inertia[body]
                            .solve_lower_triangular(&w)
                            .unwrap_or(w);
                        for k in 0..3 {
                            gt[(c + 3 + k, i)] = z[k];
                        }
                    }
                }
                a.gemm_tr(rho * rho, gt, gt, 0.0);
                for i in 0..m {
                    a[(i, i)] += d[i];
                }
                chol.factor_mat(as_faer(a))?;
                lambda.copy_from_slice(rhs);
                chol.solve_in_place(lambda)?;
                Ok(None)
            }
            Backend::Pcg {
                solver,
                blocks,
                scale,
                values,
                rhs_op,
                x_op,
            } => {
                // S = diag(√(ε/dᵢ)), ε = max dᵢ (S = I when all dᵢ are equal or zero).
                let eps = d.iter().copied().fold(0.0, f64::max);
                for i in 0..m {
                    scale[i] = if eps > 0.0 {
                        if d[i] <= 0.0 {
                            return Err(LinalgError::NotPositiveDefinite { index: i });
                        }
                        (eps / d[i]).sqrt()
                    } else {
                        1.0
                    };
                }
                let op = solver.operator_mut();
                op.set_penalty(eps, rho)?;
                let mut pos = 0;
                for (bi, rb) in blocks.iter().enumerate() {
                    let cb = core.ws.block(rb.entry);
                    for (k, &slot) in rb.slots.iter().enumerate() {
                        let src = if slot == 0 { &cb.ji } else { &cb.jj };
                        for c in 0..6 {
                            for r in 0..rb.len {
                                values[r + c * rb.len] = scale[rb.start + r] * src[(rb.r0 + r, c)];
                            }
                        }
                        op.set_block(bi, k, &values[..rb.len * 6])?;
                    }
                    for r in 0..rb.len {
                        let g = rb.start + r;
                        rhs_op[pos + r] = scale[g] * rhs[g];
                        x_op[pos + r] = lambda[g] / scale[g];
                    }
                    pos += rb.len;
                }
                if solver.params().preconditioner != mbs_linalg::pcg::Preconditioner::None {
                    solver.refresh_preconditioner();
                }
                let max_iter = solver.params().max_iter;
                let info = match solver.solve(rhs_op, x_op) {
                    Ok(info) => info,
                    // stopped before the iteration limit: restarts no longer reduce
                    // the true residual, the attainable accuracy ≈ ε_mach κ of the
                    // stage matrix (κ ≈ 1 + ϱ² max d / ε) is reached
                    Err(LinalgError::NotConverged {
                        iterations,
                        residual,
                        ..
                    }) if iterations < max_iter && residual <= PCG_ATTAINABLE => PcgInfo {
                        iterations,
                        relative_residual: residual,
                    },
                    Err(e) => return Err(e),
                };
                let mut pos = 0;
                for rb in blocks.iter() {
                    for r in 0..rb.len {
                        let g = rb.start + r;
                        lambda[g] = scale[g] * x_op[pos + r];
                    }
                    pos += rb.len;
                }
                Ok(Some(info))
            }
        }
    }
}

/// Largest relative residual of a PCG solve of eq 5.5.5.2 that stalled at its
/// attainable accuracy and is accepted: a relative ε = κ ϱ² d̃ (see
/// [`crate::penalty_scale::EpsilonScale`]) on a mechanism with stiff rows (the
/// spatial slider-crank's crank, 1e-6 kg m² about its axis, max d / d̃ = 3e4) makes
/// the stage matrix's condition number ≈ 1e6, and PCG stalls at ≈ 2e-12 on it.
const PCG_ATTAINABLE: f64 = 1e-9;

/// Refinements of the minimum-norm multipliers of [`LambdaSolver::lagrange`]: each
/// gains ≈ log₁₀(σ/δ) digits on the range of B M⁻¹ Bᵀ (σ its smallest nonzero
/// eigenvalue).
const MIN_NORM_ITERATIONS: usize = 8;

/// The median of `v` (0 for an empty slice).
pub(crate) fn median(v: &[f64]) -> f64 {
    if v.is_empty() {
        return 0.0;
    }
    let mut s = v.to_vec();
    s.sort_by(f64::total_cmp);
    s[s.len() / 2]
}
