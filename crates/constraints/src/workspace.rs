//! The per-evaluation data: body frames, constraint blocks, body loads, and evaluation
//! (the global fills are in [`crate::fill`]). Nothing here allocates after
//! [`Workspace::new`].

use mbs_model::{BodyRef, Layout, Model, StateView};
use nalgebra::Vector3;

use crate::assembly::{ConstraintSource, SystemLayout};
use crate::block::ConstraintBlock;
use crate::drivers::evaluate_driver;
use crate::error::ConstraintError;
use crate::frame::{BodyFrame, frame_of, update_frames};
use crate::joints::{MarkerPair, evaluate_joint};

/// Preallocated evaluation data of one [`SystemLayout`].
#[derive(Clone, Debug)]
pub struct Workspace {
    pub(crate) frames: Vec<BodyFrame>,
    pub(crate) ground: BodyFrame,
    pub(crate) blocks: Vec<ConstraintBlock>,
    pub(crate) t: f64,
    /// Per body: applied force (global) and applied torque n' (body frame) about the
    /// centre of mass, quadratic-velocity terms excluded.
    pub(crate) loads: Vec<(Vector3<f64>, Vector3<f64>)>,
    pub(crate) potential: f64,
}

pub(crate) fn check_len(
    what: &'static str,
    expected: usize,
    got: usize,
) -> Result<(), ConstraintError> {
    if expected == got {
        Ok(())
    } else {
        Err(ConstraintError::DimensionMismatch {
            what,
            expected,
            got,
        })
    }
}

impl Workspace {
    /// A workspace for `sys` (all storage allocated here).
    pub fn new(sys: &SystemLayout) -> Self {
        Self {
            frames: vec![BodyFrame::ground(); sys.n_bodies],
            ground: BodyFrame::ground(),
            blocks: sys
                .entries
                .iter()
                .map(|e| ConstraintBlock::new(e.rows(), e.n_holonomic))
                .collect(),
            t: 0.0,
            loads: vec![(Vector3::zeros(), Vector3::zeros()); sys.n_bodies],
            potential: 0.0,
        }
    }

    /// The body frames of the last evaluation.
    pub fn frames(&self) -> &[BodyFrame] {
        &self.frames
    }
    /// The frame of a body reference (ground included).
    pub fn frame(&self, b: BodyRef) -> &BodyFrame {
        frame_of(&self.frames, &self.ground, b)
    }
    /// The block of entry `k` (same index as [`SystemLayout::entries`]).
    pub fn block(&self, k: usize) -> &ConstraintBlock {
        &self.blocks[k]
    }
    /// All blocks.
    pub fn blocks(&self) -> &[ConstraintBlock] {
        &self.blocks
    }
    /// Time of the last evaluation.
    pub fn time(&self) -> f64 {
        self.t
    }

    /// Frames only ([`update_frames`]). `state` is a [`State`](mbs_model::State) or a borrowed
    /// [`StateView`] (e.g. the halves of an integrator's y, no copy).
    pub fn update_frames<'s>(
        &mut self,
        model: &Model,
        sys: &SystemLayout,
        state: impl Into<StateView<'s>>,
    ) -> Result<(), ConstraintError> {
        let state = state.into();
        if state.layout != sys.layout {
            return Err(ConstraintError::LayoutMismatch {
                expected: sys.layout,
                got: state.layout,
            });
        }
        update_frames(model, state, &mut self.frames)?;
        self.t = state.t;
        Ok(())
    }

    /// Frames and every constraint block (Φ, Jacobian blocks in both forms, Φ_t, γ)
    /// at `state` (a [`State`](mbs_model::State) or a borrowed [`StateView`]).
    pub fn evaluate_constraints<'s>(
        &mut self,
        model: &Model,
        sys: &SystemLayout,
        state: impl Into<StateView<'s>>,
    ) -> Result<(), ConstraintError> {
        let state = state.into();
        self.update_frames(model, sys, state)?;
        let t = state.t;
        let pdot = sys.layout == Layout::EulerParamsPdot;
        for (k, e) in sys.entries.iter().enumerate() {
            let block = &mut self.blocks[k];
            block.clear();
            match e.source {
                ConstraintSource::Joint(id) => {
                    let j = model.joint(id);
                    let m =
                        MarkerPair::new(model, &self.frames, &self.ground, j.marker_i, j.marker_j);
                    evaluate_joint(j, &m, block)?;
                }
                ConstraintSource::Driver(id) => {
                    evaluate_driver(
                        model,
                        model.driver(id),
                        &self.frames,
                        &self.ground,
                        t,
                        block,
                    );
                }
                ConstraintSource::Custom(c) => {
                    evaluate_custom(
                        sys,
                        c,
                        e.body_i,
                        e.body_j,
                        &self.frames,
                        &self.ground,
                        t,
                        block,
                    )?;
                }
                ConstraintSource::Normalization(_) => {}
            }
            if pdot {
                let h = |b: BodyRef| b.body().map(|id| &self.frames[id.0].omega_pdot);
                block.derive_pdot(h(e.body_i), h(e.body_j));
            }
        }
        Ok(())
    }

    /// Everything: constraints ([`Self::evaluate_constraints`]) and applied forces and
    /// potential energy ([`Self::evaluate_forces`]) at `state` (a [`State`](mbs_model::State) or a
    /// borrowed [`StateView`]).
    pub fn evaluate<'s>(
        &mut self,
        model: &Model,
        sys: &SystemLayout,
        state: impl Into<StateView<'s>>,
    ) -> Result<(), ConstraintError> {
        self.evaluate_constraints(model, sys, state)?;
        self.evaluate_forces(model);
        Ok(())
    }
}

/// Evaluates custom constraint `c` into `block`, checking finiteness.
fn evaluate_custom(
    sys: &SystemLayout,
    c: usize,
    bi: BodyRef,
    bj: BodyRef,
    frames: &[BodyFrame],
    ground: &BodyFrame,
    t: f64,
    block: &mut ConstraintBlock,
) -> Result<(), ConstraintError> {
    let cc = &sys.customs[c];
    let (fi, fj) = (frame_of(frames, ground, bi), frame_of(frames, ground, bj));
    let (rows, nh) = (block.rows, block.n_holonomic);
    cc.position(t, fi, fj, &mut block.phi.as_mut_slice()[..nh]);
    cc.velocity(
        t,
        fi,
        fj,
        &mut block.ji,
        &mut block.jj,
        &mut block.phi_t.as_mut_slice()[..rows],
    );
    cc.acceleration(t, fi, fj, &mut block.gamma.as_mut_slice()[..rows]);
    // Nonholonomic residual B v + b from the velocity level.
    let vi = velocity6(fi);
    let vj = velocity6(fj);
    for r in nh..rows {
        block.phi[r] = block.ji.row(r).dot(&vi.transpose())
            + block.jj.row(r).dot(&vj.transpose())
            + block.phi_t[r];
    }
    // Ground has no columns.
    if bi == BodyRef::Ground {
        block.ji.fill(0.0);
    }
    if bj == BodyRef::Ground {
        block.jj.fill(0.0);
    }
    let bad = |what, row| ConstraintError::NonFiniteCustom {
        index: c,
        name: cc.name().to_string(),
        what,
        row,
    };
    for r in 0..rows {
        if !(block.phi[r].is_finite()) {
            return Err(bad("phi", r));
        }
        if !(block.phi_t[r].is_finite()) {
            return Err(bad("phi_t", r));
        }
        if !(block.gamma[r].is_finite()) {
            return Err(bad("gamma", r));
        }
        if !(block
            .ji
            .row(r)
            .iter()
            .chain(block.jj.row(r).iter())
            .all(|x| x.is_finite()))
        {
            return Err(bad("Jacobian", r));
        }
    }
    Ok(())
}

/// [ṙ; ω'] of a frame.
#[inline]
pub fn velocity6(f: &BodyFrame) -> nalgebra::Vector6<f64> {
    nalgebra::Vector6::new(
        f.rdot.x,
        f.rdot.y,
        f.rdot.z,
        f.omega_body.x,
        f.omega_body.y,
        f.omega_body.z,
    )
}
