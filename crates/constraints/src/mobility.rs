//! Rank-based mobility and redundant-constraint count at a state, from the rank of
//! Φ_q in the [ṙ, ω'] layout (no normalization rows), and Grübler's count. The rank
//! is found by sparse elimination of the bodies ([`mobility_limited`], O(n) memory
//! on chains, trees and ladders of loops); [`mobility_dense`] takes the singular
//! values of the dense Φ_q (the reference it is tested against).
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
//! Dense: a singular value σ counts toward the rank when σ > tol · max(1, σ_max).
//! Sparse: a row counts when its remainder against the earlier rows is above
//! tol · max(1, largest row norm); rank = rows − dependent rows.

use mbs_model::{BodyRef, JointKind, Layout, Model, State};
use nalgebra::DMatrix;

use crate::assembly::{ConstraintSource, SystemLayout};
use crate::elimination::{SparseRow, dependent_rows_sparse};
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
    /// Most f64 entries the rank computation held at once: the elimination's rows
    /// and fill ([`mobility_limited`]), or rows × columns of the dense Φ_q
    /// ([`mobility_dense`]). A work counter: it grows like n on chains and trees.
    pub peak_entries: usize,
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
                    | JointKind::Planar
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
/// rank tolerance `tol` (e.g. 1e-9), by sparse elimination ([`mobility_with`]).
/// Allocates (an analysis, not a per-step call).
pub fn mobility(model: &Model, state: &State, tol: f64) -> Result<Mobility, ConstraintError> {
    let sys = SystemLayout::new(model, Layout::EulerParamsOmega);
    mobility_with(model, &sys, &state.to_layout(Layout::EulerParamsOmega), tol)
}

/// [`mobility`] for an assembly in the [ṙ, ω'] layout (custom constraints included),
/// without a storage limit ([`mobility_limited`]).
pub fn mobility_with(
    model: &Model,
    sys: &SystemLayout,
    state: &State,
    tol: f64,
) -> Result<Mobility, ConstraintError> {
    mobility_limited(model, sys, state, tol, usize::MAX)
}

fn check_omega_layout(sys: &SystemLayout) -> Result<(), ConstraintError> {
    if sys.layout() != Layout::EulerParamsOmega {
        return Err(ConstraintError::LayoutMismatch {
            expected: Layout::EulerParamsOmega,
            got: sys.layout(),
        });
    }
    Ok(())
}

/// [`mobility_with`] by eliminating bodies one at a time (see `elimination`): the
/// memory is that of the sparse rows plus their fill — O(n) on chains, trees and
/// ladders of loops. The dependent rows are those of [`dependent_rows`] over the rows
/// in order, with threshold `tol · max(1, largest row norm)`, and
/// rank = rows − dependent rows. Errors with [`ConstraintError::StorageLimit`] when
/// the elimination would hold more than `max_entries` f64 entries (fill of a densely
/// coupled mechanism), before it holds them.
pub fn mobility_limited(
    model: &Model,
    sys: &SystemLayout,
    state: &State,
    tol: f64,
    max_entries: usize,
) -> Result<Mobility, ConstraintError> {
    check_omega_layout(sys)?;
    let mut ws = Workspace::new(sys);
    ws.evaluate_constraints(model, sys, state)?;
    let mut rows: Vec<SparseRow> = vec![Vec::new(); sys.n_rows()];
    for (e, b) in sys.entries().iter().zip(ws.blocks()) {
        for r in 0..e.rows() {
            let row = &mut rows[e.global_row(r)];
            for (body, j) in [(e.body_i, &b.ji), (e.body_j, &b.jj)] {
                if let BodyRef::Body(id) = body {
                    let mut v = [0.0; 6];
                    v.iter_mut().enumerate().for_each(|(c, x)| *x = j[(r, c)]);
                    row.push((id.0, v));
                }
            }
            row.sort_unstable_by_key(|(c, _)| *c);
        }
    }
    drop(ws);
    let scale = rows
        .iter()
        .map(|r| {
            r.iter()
                .flat_map(|(_, v)| v)
                .map(|x| x * x)
                .sum::<f64>()
                .sqrt()
        })
        .fold(1.0_f64, f64::max);
    let (m, n_v) = (sys.n_rows(), sys.n_v());
    let found =
        dependent_rows_sparse(rows, sys.n_bodies(), tol * scale, max_entries).map_err(|e| {
            ConstraintError::StorageLimit {
                what: "sparse elimination",
                rows: m,
                columns: n_v,
                entries: e.entries,
                limit: max_entries,
            }
        })?;
    let nh = sys.n_holonomic();
    let dependent_holonomic = found.dependent.iter().filter(|r| **r < nh).count();
    Ok(assemble_mobility(
        model,
        sys,
        nh - dependent_holonomic,
        m - found.dependent.len(),
        found.dependent.into_iter().filter(|r| *r < nh).collect(),
        found.peak_entries,
    ))
}

/// [`mobility_with`] by dense singular values of Φ_q (rows × 6n) and dense
/// Gram–Schmidt for the dependent rows: O(n²) memory and O(n³) time. The reference
/// the sparse elimination is tested against.
pub fn mobility_dense(
    model: &Model,
    sys: &SystemLayout,
    state: &State,
    tol: f64,
) -> Result<Mobility, ConstraintError> {
    check_omega_layout(sys)?;
    let mut ws = Workspace::new(sys);
    ws.evaluate_constraints(model, sys, state)?;
    let mut jac = DMatrix::zeros(sys.n_rows(), sys.n_v());
    ws.phi_q_dense(sys, &mut jac)?;
    let nh = sys.n_holonomic();
    let hol = jac.rows(0, nh).into_owned();
    let scale = (0..nh).map(|r| hol.row(r).norm()).fold(1.0_f64, f64::max);
    let dependent = dependent_rows(&hol, tol * scale);
    Ok(assemble_mobility(
        model,
        sys,
        rank(&hol, tol),
        rank(&jac, tol),
        dependent,
        jac.len(),
    ))
}

/// The [`Mobility`] of the ranks and the dependent holonomic rows.
fn assemble_mobility(
    model: &Model,
    sys: &SystemLayout,
    r_hol: usize,
    r_all: usize,
    dependent: Vec<usize>,
    peak_entries: usize,
) -> Mobility {
    let nh = sys.n_holonomic();
    let free_dof: usize = model.bodies().iter().map(|b| b.free_dof()).sum();
    let n6 = free_dof as i64;
    Mobility {
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
        dependent: dependent
            .into_iter()
            .map(|r| (r, sys.source_of_row(r)))
            .collect(),
        peak_entries,
    }
}
