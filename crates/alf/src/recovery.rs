//! Multipliers recovered at a state: for front-ends without multipliers (reduced and
//! coordinate methods, HDCA), or whose multipliers are scaled differently (penalty
//! forces Φ/ε, ALF's λ*), the Lagrange multipliers of the exact constrained equations
//! of motion at (q, q̇, t) (Bayo–Ledesma eq 4, NOTATION.md signs):
//!
//! ```text
//!   [ M    Φ_qᵀ ] [ q̈ ]   [ Q ]
//!   [ Φ_q  0    ] [ λ  ] = [ γ ]
//! ```
//!
//! solved by [`LagrangeAccelerations`] without stabilization, in the pseudo-inverse
//! sense (min-norm backend), so that redundant rows share the reaction with the
//! least-norm λ rather than fail. Rows are those of `mbs-constraints` in the
//! [ṙ, ṗ] layout (joints, drivers, custom, normalization, then nonholonomic).
//!
//! From [`SPARSE_FROM_BODIES`] bodies on, and where the sparse elimination of
//! [`mbs_constraints::mobility`] finds no dependent row at the model's initial state, the same system is solved by the sparse `LDLᵀ`
//! of [`SparseLagrange`] (O(n) per state on chains and trees, instead of the dense
//! factorization's O(n³) time and O(n²) memory: 1.2 GB at 1024 bodies). λ is then
//! unique and both solves agree to round-off; a state where the sparse solve fails
//! (a singular configuration) is solved densely.
//!
//! A model of as many bodies whose rows are dependent (closed loops of revolute
//! joints in 3-D, ladders) is solved by [`MinNormLagrange`]: the sparse solve of the
//! independent rows and the projection of λ onto range(Φ_q), the same minimum-norm λ
//! without the dense solve's O(m² n) row split per state.

use std::sync::Arc;

use mbs_constraints::SystemLayout;
use mbs_model::{Layout, Model, State};
use nalgebra::DVector;

use crate::descriptor::{Descriptor, Level};
use crate::error::AlfError;
use crate::lagrange::LagrangeAccelerations;
use crate::mechanism::MechanismDescriptor;
use crate::min_norm::MinNormLagrange;
use crate::sparse_lagrange::SparseLagrange;

/// Bodies from which the recovery solves sparsely (where no row is dependent).
pub const SPARSE_FROM_BODIES: usize = 32;

/// Relative rank tolerance of the sparse elimination that finds the dependent rows
/// (that of the sparse Lagrange front-end's rank probe).
const DEPENDENT_TOL: f64 = 1e-9;

/// The dense min-norm solve (built on first use when the sparse one serves).
#[derive(Debug)]
struct DenseRecovery {
    desc: MechanismDescriptor,
    lagrange: LagrangeAccelerations,
}

impl DenseRecovery {
    fn new(model: Arc<Model>) -> Self {
        let desc = MechanismDescriptor::new(model);
        let lagrange = LagrangeAccelerations::new(desc.n(), desc.m(), None, true);
        Self { desc, lagrange }
    }

    fn solve(
        &mut self,
        s: &State,
        qdd: &mut DVector<f64>,
        lambda: &mut DVector<f64>,
    ) -> Result<(), AlfError> {
        let (q, v) = (s.q.as_slice(), s.v.as_slice());
        self.desc.evaluate(s.t, q, v, Level::Full)?;
        self.lagrange.solve(s.t, &self.desc, v, qdd)?;
        lambda.copy_from(&self.lagrange.multipliers());
        Ok(())
    }
}

/// Workspace of the multiplier recovery of one model.
#[derive(Debug)]
pub struct MultiplierRecovery {
    model: Arc<Model>,
    layout: SystemLayout,
    sparse: Option<SparseLagrange>,
    min_norm: Option<MinNormLagrange>,
    dense: Option<DenseRecovery>,
    qdd: DVector<f64>,
    lambda: DVector<f64>,
}

impl MultiplierRecovery {
    /// Storage for `model`: the sparse solve for large models without dependent rows
    /// (see the module doc), else the dense one.
    pub fn new(model: Arc<Model>) -> Self {
        let large = model.n_bodies() >= SPARSE_FROM_BODIES;
        Self::choose(model, large)
    }

    /// The sparse solves (dense only where neither serves) at any size: the
    /// comparison of the sparse and dense solves on small models.
    pub fn sparse(model: Arc<Model>) -> Self {
        Self::choose(model, true)
    }

    fn choose(model: Arc<Model>, large: bool) -> Self {
        // the rows that depend on earlier ones at the initial state, by the sparse
        // elimination (O(n) on chains, trees and ladders of loops)
        let mobility = large
            .then(|| {
                let start = State::initial(&model, Layout::EulerParamsOmega);
                mbs_constraints::mobility(&model, &start, DEPENDENT_TOL).ok()
            })
            .flatten();
        let (mut sparse, mut min_norm) = (None, None);
        if let Some(mob) = mobility {
            if mob.redundant == 0 {
                sparse = SparseLagrange::new(model.clone(), None, false).ok();
            } else if mob.dependent.len() == mob.redundant {
                // holonomic rows before the normalization rows have the same index in
                // the [ṙ, ω'] layout of the elimination and the [ṙ, ṗ] layout here
                let dependent: Vec<usize> = mob.dependent.iter().map(|(r, _)| *r).collect();
                min_norm = MinNormLagrange::new(model.clone(), dependent);
            }
        }
        let dense =
            (sparse.is_none() && min_norm.is_none()).then(|| DenseRecovery::new(model.clone()));
        let layout = SystemLayout::new(&model, Layout::EulerParamsPdot);
        let (n, m) = (layout.n_v(), layout.n_rows());
        Self {
            model,
            layout,
            sparse,
            min_norm,
            dense,
            qdd: DVector::zeros(n),
            lambda: DVector::zeros(m),
        }
    }

    /// The dense min-norm solve at any size (the reference of the sparse one).
    pub fn dense(model: Arc<Model>) -> Self {
        let layout = SystemLayout::new(&model, Layout::EulerParamsPdot);
        let (n, m) = (layout.n_v(), layout.n_rows());
        Self {
            dense: Some(DenseRecovery::new(model.clone())),
            model,
            layout,
            sparse: None,
            min_norm: None,
            qdd: DVector::zeros(n),
            lambda: DVector::zeros(m),
        }
    }

    /// Whether a sparse solve serves this model (with or without dependent rows).
    pub fn is_sparse(&self) -> bool {
        self.sparse.is_some() || self.min_norm.is_some()
    }

    /// The dependent rows the sparse min-norm solve leaves out of its KKT matrix
    /// (empty unless a large model has dependent rows).
    pub fn dependent_rows(&self) -> &[usize] {
        self.min_norm.as_ref().map_or(&[], |m| m.dependent())
    }

    /// The model's constraint assembly (row ranges of λ).
    pub fn layout(&self) -> &SystemLayout {
        &self.layout
    }

    /// λ (one per row of [`Self::layout`]) and q̈ at `state` (any layout).
    pub fn solve(&mut self, state: &State) -> Result<(&[f64], &[f64]), AlfError> {
        let converted;
        let s = if state.layout == Layout::EulerParamsPdot {
            state
        } else {
            converted = state.to_layout(Layout::EulerParamsPdot);
            &converted
        };
        let sparse_ok = match &mut self.sparse {
            Some(sp) => {
                let (q, v) = (s.q.as_slice(), s.v.as_slice());
                let ok = sp.accelerations(s.t, q, v, self.qdd.as_mut_slice()).is_ok();
                if ok {
                    self.lambda.copy_from_slice(sp.multipliers());
                }
                ok
            }
            None => match &mut self.min_norm {
                Some(mn) => match mn.solve(s, self.qdd.as_mut_slice()) {
                    Ok(l) => {
                        self.lambda.copy_from_slice(l);
                        true
                    }
                    Err(_) => false,
                },
                None => false,
            },
        };
        if !sparse_ok {
            let model = &self.model;
            self.dense
                .get_or_insert_with(|| DenseRecovery::new(model.clone()))
                .solve(s, &mut self.qdd, &mut self.lambda)?;
        }
        Ok((self.lambda.as_slice(), self.qdd.as_slice()))
    }
}
