//! The global structure of the constraint system of a model in one velocity layout,
//! computed once: dimensions, row ranges with their sources, body column offsets and
//! the fixed CSC sparsity pattern of Φ_q (symbolic once, numeric per evaluation).
//!
//! Row order: all holonomic rows first — joints in model order, then drivers, then
//! holonomic rows of custom constraints, then (in the [ṙ, ṗ] layout only) one
//! normalization row pᵀp − 1 per body in body order — then all nonholonomic rows
//! (joints in model order, then custom constraints). The position-level Φ is therefore
//! the prefix of length `n_holonomic`.

use std::sync::Arc;

use mbs_model::{BodyId, BodyRef, DriverId, JointId, Layout, Model};
use nalgebra::Matrix3;

use crate::custom::CustomConstraint;
use crate::drivers::driver_bodies;
use crate::error::ConstraintError;

/// Where a range of constraint rows comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ConstraintSource {
    /// A joint of the model.
    Joint(JointId),
    /// A driver of the model.
    Driver(DriverId),
    /// The Euler-parameter normalization of a body ([ṙ, ṗ] layout only).
    Normalization(BodyId),
    /// A custom constraint (index in the list given to [`SystemLayout::with_custom`]).
    Custom(usize),
}

/// A contiguous range of global rows from one source.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RowRange {
    /// The source.
    pub source: ConstraintSource,
    /// First global row.
    pub start: usize,
    /// Number of rows.
    pub len: usize,
    /// Holonomic (position-level) rows, or nonholonomic.
    pub holonomic: bool,
}

/// A joint, driver or custom constraint of the assembly, evaluated into one
/// [`crate::ConstraintBlock`] (same index in the workspace).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ConstraintEntry {
    /// The source (never `Normalization`).
    pub source: ConstraintSource,
    /// Body of marker i (the `ji` block).
    pub body_i: BodyRef,
    /// Body of marker j (the `jj` block).
    pub body_j: BodyRef,
    /// Holonomic rows (block rows `0..n_holonomic`).
    pub n_holonomic: usize,
    /// Nonholonomic rows (block rows `n_holonomic..`).
    pub n_nonholonomic: usize,
    /// Global row of block row 0.
    pub holonomic_start: usize,
    /// Global row of block row `n_holonomic`.
    pub nonholonomic_start: usize,
}

impl ConstraintEntry {
    /// Global row of block row `r`.
    #[inline]
    pub fn global_row(&self, r: usize) -> usize {
        if r < self.n_holonomic {
            self.holonomic_start + r
        } else {
            self.nonholonomic_start + (r - self.n_holonomic)
        }
    }
    /// Total rows.
    #[inline]
    pub fn rows(&self) -> usize {
        self.n_holonomic + self.n_nonholonomic
    }
}

/// A compressed-sparse-column pattern (column pointers, sorted row indices per column).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CscPattern {
    /// Rows.
    pub nrows: usize,
    /// Columns.
    pub ncols: usize,
    /// `col_ptr[c]..col_ptr[c + 1]` are the entries of column c (length ncols + 1).
    pub col_ptr: Vec<usize>,
    /// Row index of every entry, ascending within a column.
    pub row_idx: Vec<usize>,
}

impl CscPattern {
    /// Number of stored entries.
    pub fn nnz(&self) -> usize {
        self.row_idx.len()
    }
}

/// Position in the CSC value array of the first row of a block part, per local column.
pub(crate) const NONE: usize = usize::MAX;

/// The orders of `model`'s dense matrices in the [ṙ, ṗ] layout: n = 7 coordinates per
/// body and m constraint rows (Euler-parameter normalization included) — what the
/// front-ends' dense-storage estimates are written in.
pub fn dense_orders(model: &Model) -> (usize, usize) {
    let l = SystemLayout::new(model, Layout::EulerParamsPdot);
    (l.n_q(), l.n_rows())
}

/// The global constraint structure of a model in one layout; see the module docs.
#[derive(Clone, Debug)]
pub struct SystemLayout {
    pub(crate) layout: Layout,
    pub(crate) n_bodies: usize,
    pub(crate) n_holonomic: usize,
    pub(crate) m: usize,
    pub(crate) entries: Vec<ConstraintEntry>,
    pub(crate) ranges: Vec<RowRange>,
    pub(crate) normalization_start: Option<usize>,
    pub(crate) pattern: CscPattern,
    /// Per entry, per slot (i, j), per part (holonomic, nonholonomic), per local column:
    /// value index of the part's first row in that column (NONE if absent).
    pub(crate) positions: Vec<[[[usize; 7]; 2]; 2]>,
    /// Per body, value index of the normalization row in its 4 ṗ columns.
    pub(crate) norm_positions: Vec<[usize; 4]>,
    pub(crate) customs: Vec<Arc<dyn CustomConstraint>>,
    pub(crate) masses: Vec<f64>,
    pub(crate) inertias: Vec<Matrix3<f64>>,
}

impl SystemLayout {
    /// The layout of `model`'s joints and drivers in `layout`.
    pub fn new(model: &Model, layout: Layout) -> Self {
        // Nothing can fail without custom constraints: every id of a validated model is
        // valid and every joint has at most 6 rows.
        Self::build(model, layout, Vec::new())
    }

    /// The layout of `model`'s joints and drivers plus user constraints. Errors when a
    /// custom constraint has more than 6 rows, refers to a body that does not exist or
    /// connects a body to itself.
    pub fn with_custom(
        model: &Model,
        layout: Layout,
        customs: Vec<Arc<dyn CustomConstraint>>,
    ) -> Result<Self, ConstraintError> {
        let n_bodies = model.n_bodies();
        for (k, c) in customs.iter().enumerate() {
            let bad = |reason: String| ConstraintError::InvalidCustom {
                index: k,
                name: c.name().to_string(),
                reason,
            };
            let rows = c.holonomic_rows() + c.nonholonomic_rows();
            if rows == 0 || rows > crate::block::MAX_ROWS {
                return Err(bad(format!("has {rows} rows, must have 1 to 6")));
            }
            let (bi, bj) = c.bodies();
            for b in [bi, bj] {
                if let BodyRef::Body(id) = b
                    && id.0 >= n_bodies
                {
                    return Err(bad(format!(
                        "refers to body #{} of a model with {n_bodies} bodies",
                        id.0
                    )));
                }
            }
            if bi == bj {
                return Err(bad("connects a body to itself".into()));
            }
        }
        Ok(Self::build(model, layout, customs))
    }

    /// Builds the layout of checked custom constraints.
    fn build(model: &Model, layout: Layout, customs: Vec<Arc<dyn CustomConstraint>>) -> Self {
        let n_bodies = model.n_bodies();

        // Entries with their shapes, in the order of the holonomic rows.
        let mut entries = Vec::new();
        let push = |entries: &mut Vec<ConstraintEntry>,
                    source,
                    (bi, bj): (BodyRef, BodyRef),
                    nh: usize,
                    nn: usize| {
            entries.push(ConstraintEntry {
                source,
                body_i: bi,
                body_j: bj,
                n_holonomic: nh,
                n_nonholonomic: nn,
                holonomic_start: 0,
                nonholonomic_start: 0,
            })
        };
        for (k, j) in model.joints().iter().enumerate() {
            let id = JointId(k);
            push(
                &mut entries,
                ConstraintSource::Joint(id),
                model.joint_bodies(id),
                j.kind.holonomic_rows(),
                j.kind.nonholonomic_rows(),
            );
        }
        for (k, d) in model.drivers().iter().enumerate() {
            push(
                &mut entries,
                ConstraintSource::Driver(DriverId(k)),
                driver_bodies(model, d),
                1,
                0,
            );
        }
        for (k, c) in customs.iter().enumerate() {
            push(
                &mut entries,
                ConstraintSource::Custom(k),
                c.bodies(),
                c.holonomic_rows(),
                c.nonholonomic_rows(),
            );
        }

        // Row numbering and ranges.
        let mut ranges = Vec::new();
        let mut row = 0;
        for e in entries.iter_mut() {
            e.holonomic_start = row;
            if e.n_holonomic > 0 {
                ranges.push(RowRange {
                    source: e.source,
                    start: row,
                    len: e.n_holonomic,
                    holonomic: true,
                });
            }
            row += e.n_holonomic;
        }
        let normalization_start = (layout == Layout::EulerParamsPdot).then_some(row);
        if layout == Layout::EulerParamsPdot {
            for b in 0..n_bodies {
                ranges.push(RowRange {
                    source: ConstraintSource::Normalization(BodyId(b)),
                    start: row + b,
                    len: 1,
                    holonomic: true,
                });
            }
            row += n_bodies;
        }
        let n_holonomic = row;
        for e in entries.iter_mut() {
            e.nonholonomic_start = row;
            if e.n_nonholonomic > 0 {
                ranges.push(RowRange {
                    source: e.source,
                    start: row,
                    len: e.n_nonholonomic,
                    holonomic: false,
                });
            }
            row += e.n_nonholonomic;
        }
        let m = row;

        // Sparsity: per column, the segments (first row, rows, owner) that touch it.
        #[derive(Clone, Copy)]
        enum Owner {
            Block {
                e: usize,
                slot: usize,
                part: usize,
                col: usize,
            },
            Norm {
                body: usize,
                col: usize,
            },
        }
        let nvb = layout.v_per_body();
        let ncols = nvb * n_bodies;
        let mut columns: Vec<Vec<(usize, usize, Owner)>> = vec![Vec::new(); ncols];
        for (ei, e) in entries.iter().enumerate() {
            for (slot, b) in [e.body_i, e.body_j].into_iter().enumerate() {
                let BodyRef::Body(id) = b else { continue };
                for (part, (start, len)) in [
                    (e.holonomic_start, e.n_holonomic),
                    (e.nonholonomic_start, e.n_nonholonomic),
                ]
                .into_iter()
                .enumerate()
                {
                    if len == 0 {
                        continue;
                    }
                    for c in 0..nvb {
                        columns[nvb * id.0 + c].push((
                            start,
                            len,
                            Owner::Block {
                                e: ei,
                                slot,
                                part,
                                col: c,
                            },
                        ));
                    }
                }
            }
        }
        if let Some(ns) = normalization_start {
            for b in 0..n_bodies {
                for c in 0..4 {
                    columns[nvb * b + 3 + c].push((ns + b, 1, Owner::Norm { body: b, col: c }));
                }
            }
        }
        let mut col_ptr = Vec::with_capacity(ncols + 1);
        let mut row_idx = Vec::new();
        let mut positions = vec![[[[NONE; 7]; 2]; 2]; entries.len()];
        let mut norm_positions = vec![
            [NONE; 4];
            if normalization_start.is_some() {
                n_bodies
            } else {
                0
            }
        ];
        col_ptr.push(0);
        for col in columns.iter_mut() {
            col.sort_by_key(|s| s.0);
            for &(start, len, owner) in col.iter() {
                // Two segments of one column never overlap: row ranges are disjoint, and a
                // body appears in at most one slot of an entry.
                let pos = row_idx.len();
                match owner {
                    Owner::Block { e, slot, part, col } => positions[e][slot][part][col] = pos,
                    Owner::Norm { body, col } => norm_positions[body][col] = pos,
                }
                row_idx.extend(start..start + len);
            }
            col_ptr.push(row_idx.len());
        }

        Self {
            layout,
            n_bodies,
            n_holonomic,
            m,
            entries,
            ranges,
            normalization_start,
            pattern: CscPattern {
                nrows: m,
                ncols,
                col_ptr,
                row_idx,
            },
            positions,
            norm_positions,
            customs,
            masses: model.bodies().iter().map(|b| b.mass).collect(),
            inertias: model.bodies().iter().map(|b| b.inertia).collect(),
        }
    }

    /// The velocity layout.
    pub fn layout(&self) -> Layout {
        self.layout
    }
    /// Number of moving bodies.
    pub fn n_bodies(&self) -> usize {
        self.n_bodies
    }
    /// Length of q (7 per body).
    pub fn n_q(&self) -> usize {
        7 * self.n_bodies
    }
    /// Length of v (7 or 6 per body).
    pub fn n_v(&self) -> usize {
        self.layout.v_per_body() * self.n_bodies
    }
    /// Total number of constraint rows m (holonomic + nonholonomic).
    pub fn n_rows(&self) -> usize {
        self.m
    }
    /// Number of holonomic rows (the prefix of the row order), normalization included.
    pub fn n_holonomic(&self) -> usize {
        self.n_holonomic
    }
    /// Number of nonholonomic rows.
    pub fn n_nonholonomic(&self) -> usize {
        self.m - self.n_holonomic
    }
    /// First normalization row ([ṙ, ṗ] layout only).
    pub fn normalization_start(&self) -> Option<usize> {
        self.normalization_start
    }
    /// First velocity column of body `b`.
    pub fn body_column(&self, b: BodyId) -> usize {
        self.layout.v_per_body() * b.0
    }
    /// The joints, drivers and custom constraints, in holonomic row order.
    pub fn entries(&self) -> &[ConstraintEntry] {
        &self.entries
    }
    /// Every row range with its source, in row order for the holonomic part, then the
    /// nonholonomic part.
    pub fn row_ranges(&self) -> &[RowRange] {
        &self.ranges
    }
    /// The source of a global row (binary search: the ranges are in row order).
    pub fn source_of_row(&self, row: usize) -> Option<ConstraintSource> {
        let k = self.ranges.partition_point(|r| r.start + r.len <= row);
        self.ranges
            .get(k)
            .filter(|r| (r.start..r.start + r.len).contains(&row))
            .map(|r| r.source)
    }
    /// A readable name of a source for reports and errors, e.g. "joint `A` (revolute)".
    pub fn source_name(&self, model: &Model, source: ConstraintSource) -> String {
        match source {
            ConstraintSource::Joint(id) => {
                let j = model.joint(id);
                format!("joint `{}` ({})", j.name, j.kind.label())
            }
            ConstraintSource::Driver(id) => format!("driver `{}`", model.driver(id).name),
            ConstraintSource::Normalization(id) => {
                format!("normalization of body `{}`", model.body(id).name)
            }
            ConstraintSource::Custom(k) => {
                format!("custom constraint `{}`", self.customs[k].name())
            }
        }
    }
    /// The CSC pattern of Φ_q (m × n_v), fixed for the model and layout.
    pub fn pattern(&self) -> &CscPattern {
        &self.pattern
    }
    /// The custom constraints.
    pub fn customs(&self) -> &[Arc<dyn CustomConstraint>] {
        &self.customs
    }
    /// Mass of body b.
    pub fn mass(&self, b: usize) -> f64 {
        self.masses[b]
    }
    /// Centroidal inertia J' of body b (body frame).
    pub fn inertia(&self, b: usize) -> &Matrix3<f64> {
        &self.inertias[b]
    }
}
