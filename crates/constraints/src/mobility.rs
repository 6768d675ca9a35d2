//! Rank-based mobility and redundant-constraint count at a state, from the singular
//! values of Φ_q in the [ṙ, ω'] layout (no normalization rows), and Grübler's count.
//!
//! With F = Σ fᵢ the free degrees of freedom of the bodies (fᵢ = 6, or 3 for a point
//! mass, whose rotation is not a degree of freedom of the mechanism: nothing acts on
//! it, so its columns of Φ_q are zero and do not change the rank):
//!
//! - Grübler: F − (holonomic rows);
//! - mobility (finite degrees of freedom): F − rank(holonomic rows of Φ_q);
//! - velocity degrees of freedom: F − rank(Φ_q) (nonholonomic rows included);
//! - redundant rows: rows − rank(Φ_q).
//!
//! A singular value σ counts toward the rank when σ > tol · max(1, σ_max).

use mbs_model::{JointKind, Layout, Model, State};
use nalgebra::DMatrix;

use crate::assembly::{ConstraintSource, SystemLayout};
use crate::error::ConstraintError;
use crate::workspace::Workspace;

/// The result of [`mobility`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mobility {
    /// Number of moving bodies n.
    pub n_bodies: usize,
    /// All constraint rows (holonomic + nonholonomic) in the [ṙ, ω'] layout.
    pub rows: usize,
    /// Holonomic rows.
    pub holonomic_rows: usize,
    /// Rank of Φ_q.
    pub rank: usize,
    /// Rank of the holonomic rows of Φ_q.
    pub rank_holonomic: usize,
    /// Free degrees of freedom F of the bodies: 6 per body, 3 per point mass.
    pub free_dof: usize,
    /// F − rank(holonomic rows).
    pub mobility: i64,
    /// F − rank(Φ_q).
    pub velocity_dof: i64,
    /// rows − rank(Φ_q).
    pub redundant: usize,
    /// Grübler's count F − holonomic rows.
    pub grubler: i64,
    /// The holonomic rows that depend on earlier rows ([`dependent_rows`] with the
    /// rank's relative tolerance) and the joint or driver each belongs
    /// to: one choice of rows that could be removed. Empty when the rows are
    /// independent.
    pub dependent: Vec<(usize, Option<ConstraintSource>)>,
}

/// Rows of `m` that depend on earlier rows: classical Gram–Schmidt over the rows in
/// order; a row is dependent when its remainder's norm
/// is at most `threshold` (absolute). One choice of rows whose removal leaves a
/// full-rank matrix; used to name redundant constraints. Allocates (diagnosis only).
pub fn dependent_rows(m: &DMatrix<f64>, threshold: f64) -> Vec<usize> {
    let mut basis: Vec<nalgebra::DVector<f64>> = Vec::new();
    let mut dependent = Vec::new();
    for r in 0..m.nrows() {
        let mut v = m.row(r).transpose();
        for b in &basis {
            let c = b.dot(&v);
            v.axpy(-c, b, 1.0);
        }
        let n = v.norm();
        if n > threshold {
            basis.push(v / n);
        } else {
            dependent.push(r);
        }
    }
    dependent
}

/// Whether Φ_q of `model` has full row rank at every configuration that satisfies
/// its joints, by structure: an open tree (no cut joint) of lower pairs (spherical,
/// universal, revolute, cylindrical, prismatic, rigid, distance with L > 0) without
/// drivers. With rows ordered by tree joint and columns by its child body, Φ_q is
/// block lower triangular (a joint's rows involve its child and the child's parent,
/// which comes earlier), and each diagonal block — a lower pair's rows with respect
/// to its child's pose, plus the child's Euler-parameter normalization — has full
/// row rank wherever the joint holds. Such a model has no singular configuration:
/// rank watches can skip it.
pub fn full_rank_everywhere(model: &Model) -> bool {
    model.topology().cut_joints().is_empty()
        && model.drivers().is_empty()
        && model.joints().iter().all(|j| {
            matches!(
                j.kind,
                JointKind::Spherical
                    | JointKind::Universal
                    | JointKind::Revolute
                    | JointKind::Cylindrical
                    | JointKind::Prismatic
                    | JointKind::Rigid
            ) || matches!(j.kind, JointKind::Distance { length } if length > 0.0)
        })
}

fn rank(m: &DMatrix<f64>, tol: f64) -> usize {
    if m.nrows() == 0 || m.ncols() == 0 {
        return 0;
    }
    let sv = m.clone().svd(false, false).singular_values;
    let smax = sv.max().max(1.0);
    sv.iter().filter(|&&s| s > tol * smax).count()
}

/// Mobility of `model` at `state` (any layout; converted to [ṙ, ω']), with relative
/// rank tolerance `tol` (e.g. 1e-9). Allocates (an analysis, not a per-step call).
pub fn mobility(model: &Model, state: &State, tol: f64) -> Result<Mobility, ConstraintError> {
    let sys = SystemLayout::new(model, Layout::EulerParamsOmega);
    mobility_with(model, &sys, &state.to_layout(Layout::EulerParamsOmega), tol)
}

/// [`mobility`] for an assembly in the [ṙ, ω'] layout (custom constraints included).
pub fn mobility_with(
    model: &Model,
    sys: &SystemLayout,
    state: &State,
    tol: f64,
) -> Result<Mobility, ConstraintError> {
    if sys.layout() != Layout::EulerParamsOmega {
        return Err(ConstraintError::LayoutMismatch {
            expected: Layout::EulerParamsOmega,
            got: sys.layout(),
        });
    }
    let mut ws = Workspace::new(sys);
    ws.evaluate_constraints(model, sys, state)?;
    let mut jac = DMatrix::zeros(sys.n_rows(), sys.n_v());
    ws.phi_q_dense(sys, &mut jac)?;
    let nh = sys.n_holonomic();
    let r_all = rank(&jac, tol);
    let r_hol = rank(&jac.rows(0, nh).into_owned(), tol);
    let free_dof: usize = model.bodies().iter().map(|b| b.free_dof()).sum();
    let n6 = free_dof as i64;
    Ok(Mobility {
        n_bodies: sys.n_bodies(),
        free_dof,
        rows: sys.n_rows(),
        holonomic_rows: nh,
        rank: r_all,
        rank_holonomic: r_hol,
        mobility: n6 - r_hol as i64,
        velocity_dof: n6 - r_all as i64,
        redundant: sys.n_rows() - r_all,
        grubler: n6 - nh as i64,
        dependent: {
            let hol = jac.rows(0, nh).into_owned();
            let scale = (0..nh).map(|r| hol.row(r).norm()).fold(1.0_f64, f64::max);
            dependent_rows(&hol, tol * scale)
        }
        .into_iter()
        .map(|r| (r, sys.source_of_row(r)))
        .collect(),
    })
}
