//! Branch guard of the descriptor methods without projections (Lagrange with or
//! without Baumgarte terms, ALF of Bayo–Ledesma 1996 eqs 5–8 without the projections
//! of eqs 9–34, Chiou's penalty method).
//!
//! At a singular configuration the constraint Jacobian Φ_q loses rank and the
//! motion can bifurcate: the IFToMM N-four-bar (González et al. 2006, benchmark
//! A02) passes one twice per crank turn. Integrated without projections, the
//! accumulated drift decides which branch the solution follows, and these methods
//! were seen to leave the parallelogram motion for a folded branch on which Φ_q
//! stays rank-deficient — silently. The guard evaluates the rank of Φ_q at every
//! accepted step and stops with [`AlfError::SingularConfiguration`] when it falls
//! below the rank at the initial state (the model's own redundant rows are part of
//! that initial rank deficit and never trigger it).
//!
//! An open tree of lower-pair joints (no cut joint, no driver) cannot lose rank
//! ([`mbs_constraints::full_rank_everywhere`]: Φ_q is block triangular with full-rank
//! diagonal blocks). The guard then watches nothing and costs nothing; elsewhere its
//! Gram–Schmidt costs O(m² n) per accepted step, which dominates the sparse
//! backends' O(n) evaluations on large closed loops.

use std::sync::Arc;

use mbs_constraints::full_rank_everywhere;
use mbs_model::Model;

use crate::descriptor::{Descriptor, Level, max_abs};
use crate::error::AlfError;
use crate::lagrange::dependent_rows_within;
use crate::mechanism::MechanismDescriptor;

/// Rank watch of Φ_q along a run (positions q in the 7-per-body [r, p] layout).
#[derive(Debug)]
pub struct BranchGuard {
    /// `None` for a model whose Φ_q has full row rank at every configuration.
    watch: Option<(MechanismDescriptor, usize)>,
    method: &'static str,
}

impl BranchGuard {
    /// The guard of `method` (its name, for the error) on `model`, with the rank of
    /// Φ_q at the model's initial state.
    pub fn new(model: Arc<Model>, method: &'static str) -> Result<Self, AlfError> {
        if full_rank_everywhere(&model) {
            return Ok(Self {
                watch: None,
                method,
            });
        }
        let mut desc = MechanismDescriptor::new(model);
        let (q0, v0) = desc.initial();
        desc.evaluate(0.0, &q0, &v0, Level::Velocities)?;
        let rank0 = rank(0.0, &desc).0;
        Ok(Self {
            watch: Some((desc, rank0)),
            method,
        })
    }

    /// Whether the guard checks anything: `false` for an open tree of lower pairs
    /// without drivers, whose Φ_q has full row rank at every configuration.
    pub fn watches(&self) -> bool {
        self.watch.is_some()
    }

    /// Checks the rank of Φ_q at (t, q).
    pub fn check(&mut self, t: f64, q: &[f64]) -> Result<(), AlfError> {
        let Some((desc, rank0)) = &mut self.watch else {
            return Ok(());
        };
        let v = vec![0.0; q.len()];
        desc.evaluate(t, q, &v, Level::Velocities)?;
        let (rank, dependent) = rank(t, desc);
        if rank < *rank0 {
            // a singular configuration satisfies the constraints; a state far off
            // them lost rank because the integration blew up
            let phi = desc.phi().as_slice();
            let (row, violation) = match phi.iter().position(|x| !x.is_finite()) {
                Some(row) => (row, f64::NAN),
                None => max_abs(phi),
            };
            if violation.is_nan() || violation > DRIFT_TOL {
                return Err(AlfError::Diverged {
                    t,
                    violation,
                    location: desc.row_label(row),
                    rank,
                    rank0: *rank0,
                });
            }
            return Err(AlfError::SingularConfiguration {
                t,
                rank,
                rank0: *rank0,
                dependent,
                method: self.method,
            });
        }
        Ok(())
    }
}

/// Largest |Φᵢ| (m or rad) with which a rank drop of Φ_q is taken for a singular
/// configuration: the methods guarded drift by far less (Baumgarte terms hold Φ near
/// 0, the N-four-bar's folded branch sits at 1e-6…1e-5); a larger violation means
/// the state left the constraints, so the run diverged ([`AlfError::Diverged`]).
pub const DRIFT_TOL: f64 = 1e-2;

/// Relative size below which a row of Φ_q counts as dependent on the others: the
/// guard fires within ≈ 1e-4 (rad, or m per unit length) of a singular
/// configuration. The accepted steps of a run that passes through one land that
/// close with a small probability, but the folded branches these methods drift onto
/// stay there (the N-four-bar's folded branch sits at 1e-6…1e-5).
const RANK_TOL: f64 = 1e-4;

/// Numerical rank of Φ_q (Gram–Schmidt on the rows, relative tolerance
/// [`RANK_TOL`]) and the joints whose rows are dependent.
fn rank(t: f64, sys: &dyn Descriptor) -> (usize, String) {
    match dependent_rows_within(t, sys, RANK_TOL) {
        AlfError::DependentConstraints {
            rank, dependent, ..
        } => (rank, dependent),
        _ => (sys.m(), String::new()),
    }
}
