//! Per-body mass matrices, generalized forces Q (applied + quadratic-velocity) and
//! kinetic energy, in both velocity layouts (NOTATION.md; thesis eqs 3.4.14–3.4.19):
//!
//! - [ṙ, ω']: M = diag(m I, J'), Q = [f; n' − ω̃' J' ω'] (eq 3.4.19);
//! - [ṙ, ṗ]: M = diag(m I, 4 Gᵀ J' G) (singular, rank 6 of 7), Q = [f; 2 Gᵀ n' + 8 Ġᵀ J' Ġ p]
//!   with G = G(p), Ġ = G(ṗ) (Nikravesh; Bayo–Ledesma eq 3 with Euler parameters).
//!
//! so that M v̇ + Φ_qᵀ λ = Q. f is the applied force (global), n' the applied torque
//! (body frame) about the centre of mass, from [`crate::Workspace::evaluate_forces`].
//! T = ½ m ṙᵀṙ + ½ ω'ᵀ J' ω' in both layouts.

use mbs_kinematics::euler_params::g_matrix;
use mbs_model::Layout;
use nalgebra::{DMatrix, Matrix6, SMatrix, Vector3};

use crate::assembly::SystemLayout;
use crate::error::ConstraintError;
use crate::workspace::Workspace;

/// The mass matrix block of one body.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum MassBlock {
    /// 6×6 diag(m I, J') for [ṙ, ω'].
    Omega(Matrix6<f64>),
    /// 7×7 diag(m I, 4 Gᵀ J' G) for [ṙ, ṗ].
    Pdot(SMatrix<f64, 7, 7>),
}

impl MassBlock {
    /// Dimension (6 or 7).
    pub fn dim(&self) -> usize {
        match self {
            MassBlock::Omega(_) => 6,
            MassBlock::Pdot(_) => 7,
        }
    }
    /// Entry (r, c).
    pub fn get(&self, r: usize, c: usize) -> f64 {
        match self {
            MassBlock::Omega(m) => m[(r, c)],
            MassBlock::Pdot(m) => m[(r, c)],
        }
    }
}

impl Workspace {
    /// Mass block of body `b` at the last evaluated state.
    pub fn mass_block(&self, sys: &SystemLayout, b: usize) -> MassBlock {
        let m = sys.masses[b];
        let j = &sys.inertias[b];
        match sys.layout {
            Layout::EulerParamsOmega => {
                let mut out = Matrix6::zeros();
                out.fixed_view_mut::<3, 3>(0, 0).fill_diagonal(m);
                out.fixed_view_mut::<3, 3>(3, 3).copy_from(j);
                MassBlock::Omega(out)
            }
            Layout::EulerParamsPdot => {
                let g = g_matrix(&self.frames[b].p);
                let mut out = SMatrix::<f64, 7, 7>::zeros();
                out.fixed_view_mut::<3, 3>(0, 0).fill_diagonal(m);
                out.fixed_view_mut::<4, 4>(3, 3)
                    .copy_from(&(4.0 * g.transpose() * j * g));
                MassBlock::Pdot(out)
            }
        }
    }

    /// Dense block-diagonal mass matrix (n_v × n_v) into `out`.
    pub fn mass_dense(
        &self,
        sys: &SystemLayout,
        out: &mut DMatrix<f64>,
    ) -> Result<(), ConstraintError> {
        let n = sys.n_v();
        if out.nrows() != n || out.ncols() != n {
            return Err(ConstraintError::DimensionMismatch {
                what: "mass matrix (rows × columns)",
                expected: n * n,
                got: out.nrows() * out.ncols(),
            });
        }
        out.fill(0.0);
        let nvb = sys.layout.v_per_body();
        for b in 0..sys.n_bodies {
            let mb = self.mass_block(sys, b);
            for r in 0..nvb {
                for c in 0..nvb {
                    out[(nvb * b + r, nvb * b + c)] = mb.get(r, c);
                }
            }
        }
        Ok(())
    }

    /// out = M x, body by body.
    pub fn mass_mul(
        &self,
        sys: &SystemLayout,
        x: &[f64],
        out: &mut [f64],
    ) -> Result<(), ConstraintError> {
        let n = sys.n_v();
        for (what, len) in [("mass_mul x", x.len()), ("mass_mul out", out.len())] {
            if len != n {
                return Err(ConstraintError::DimensionMismatch {
                    what,
                    expected: n,
                    got: len,
                });
            }
        }
        let nvb = sys.layout.v_per_body();
        for b in 0..sys.n_bodies {
            let mb = self.mass_block(sys, b);
            for r in 0..nvb {
                out[nvb * b + r] = (0..nvb).map(|c| mb.get(r, c) * x[nvb * b + c]).sum();
            }
        }
        Ok(())
    }

    /// Q = applied + quadratic-velocity generalized forces (length n_v), such that
    /// M v̇ + Φ_qᵀ λ = Q. Requires [`Workspace::evaluate_forces`] (or `evaluate`).
    pub fn generalized_forces(
        &self,
        sys: &SystemLayout,
        out: &mut [f64],
    ) -> Result<(), ConstraintError> {
        let n = sys.n_v();
        if out.len() != n {
            return Err(ConstraintError::DimensionMismatch {
                what: "generalized forces",
                expected: n,
                got: out.len(),
            });
        }
        for b in 0..sys.n_bodies {
            let (f, n_body) = self.loads[b];
            let fr = &self.frames[b];
            let j = &sys.inertias[b];
            let ob = &mut out[sys.layout.v_range(b)];
            match sys.layout {
                Layout::EulerParamsOmega => {
                    // Euler's equation J'ω̇' + ω̃'J'ω' = n' (thesis eq 3.4.9).
                    let w = fr.omega_body;
                    let rot: Vector3<f64> = n_body - w.cross(&(j * w));
                    ob[..3].copy_from_slice(f.as_slice());
                    ob[3..].copy_from_slice(rot.as_slice());
                }
                Layout::EulerParamsPdot => {
                    let g = g_matrix(&fr.p);
                    let gd = g_matrix(&fr.pdot);
                    let rot = 2.0 * g.transpose() * n_body + 8.0 * gd.transpose() * j * (gd * fr.p);
                    ob[..3].copy_from_slice(f.as_slice());
                    ob[3..].copy_from_slice(rot.as_slice());
                }
            }
        }
        Ok(())
    }

    /// Kinetic energy T = Σ ½ m ṙᵀṙ + ½ ω'ᵀ J' ω'.
    pub fn kinetic_energy(&self, sys: &SystemLayout) -> f64 {
        self.frames
            .iter()
            .enumerate()
            .map(|(b, f)| {
                0.5 * sys.masses[b] * f.rdot.norm_squared()
                    + 0.5 * f.omega_body.dot(&(sys.inertias[b] * f.omega_body))
            })
            .sum()
    }

    /// Total mechanical energy T + V.
    pub fn total_energy(&self, sys: &SystemLayout) -> f64 {
        self.kinetic_energy(sys) + self.potential
    }
}
