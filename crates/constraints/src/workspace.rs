//! The per-evaluation data: body frames, constraint blocks, body loads; evaluation and
//! the global fills of Φ, Φ_t, γ and Φ_q (dense, sparse values, matrix-free products).
//! Nothing here allocates after [`Workspace::new`].

use mbs_kinematics::euler_params::{normalization, normalization_gamma};
use mbs_model::{BodyRef, Layout, Model, State};
use nalgebra::{DMatrix, Vector3};

use crate::assembly::{ConstraintSource, NONE, SystemLayout};
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

fn check_len(what: &'static str, expected: usize, got: usize) -> Result<(), ConstraintError> {
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

    /// Frames only ([`update_frames`]).
    pub fn update_frames(
        &mut self,
        model: &Model,
        sys: &SystemLayout,
        state: &State,
    ) -> Result<(), ConstraintError> {
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

    /// Frames and every constraint block (Φ, Jacobian blocks in both forms, Φ_t, γ).
    pub fn evaluate_constraints(
        &mut self,
        model: &Model,
        sys: &SystemLayout,
        state: &State,
    ) -> Result<(), ConstraintError> {
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
                    evaluate_joint(j, &m, block);
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
    /// potential energy ([`Self::evaluate_forces`]).
    pub fn evaluate(
        &mut self,
        model: &Model,
        sys: &SystemLayout,
        state: &State,
    ) -> Result<(), ConstraintError> {
        self.evaluate_constraints(model, sys, state)?;
        self.evaluate_forces(model);
        Ok(())
    }

    /// Global Φ (length m): holonomic rows Φ (normalization pᵀp − 1 included), then the
    /// nonholonomic residuals B v + b.
    pub fn phi(&self, sys: &SystemLayout, out: &mut [f64]) -> Result<(), ConstraintError> {
        check_len("phi", sys.m, out.len())?;
        self.scatter_rows(sys, out, |b| &b.phi, |f| normalization(&f.p))
    }

    /// Velocity-level residual Φ̇ = Φ_q v + Φ_t (length m) at the evaluated state:
    /// holonomic rows Φ̇ (normalization rows 2pᵀṗ), nonholonomic rows B v + b.
    /// Φ_q v is computed with the [ṙ; ω'] blocks, which equals the [ṙ; ṗ] product
    /// exactly (ω' = H ṗ, see [`crate::frame`]).
    pub fn phi_dot(&self, sys: &SystemLayout, out: &mut [f64]) -> Result<(), ConstraintError> {
        check_len("phi_dot", sys.m, out.len())?;
        for (e, b) in sys.entries.iter().zip(&self.blocks) {
            let vi = velocity6(self.frame(e.body_i));
            let vj = velocity6(self.frame(e.body_j));
            for r in 0..e.rows() {
                let jv: f64 = (0..6).map(|c| b.ji[(r, c)] * vi[c] + b.jj[(r, c)] * vj[c]).sum();
                out[e.global_row(r)] = jv + b.phi_t[r];
            }
        }
        if let Some(ns) = sys.normalization_start {
            for (k, f) in self.frames.iter().enumerate() {
                out[ns + k] = 2.0 * f.p.dot(&f.pdot);
            }
        }
        Ok(())
    }

    /// Global Φ_t (length m); b for nonholonomic rows, 0 for normalization rows.
    pub fn phi_t(&self, sys: &SystemLayout, out: &mut [f64]) -> Result<(), ConstraintError> {
        check_len("phi_t", sys.m, out.len())?;
        self.scatter_rows(sys, out, |b| &b.phi_t, |_| 0.0)
    }

    /// Global γ (length m), Φ_q v̇ = γ; normalization rows −2ṗᵀṗ.
    pub fn gamma(&self, sys: &SystemLayout, out: &mut [f64]) -> Result<(), ConstraintError> {
        check_len("gamma", sys.m, out.len())?;
        self.scatter_rows(sys, out, |b| &b.gamma, |f| normalization_gamma(&f.pdot))
    }

    fn scatter_rows(
        &self,
        sys: &SystemLayout,
        out: &mut [f64],
        get: impl Fn(&ConstraintBlock) -> &nalgebra::SVector<f64, 6>,
        norm: impl Fn(&BodyFrame) -> f64,
    ) -> Result<(), ConstraintError> {
        for (e, b) in sys.entries.iter().zip(&self.blocks) {
            let v = get(b);
            for r in 0..e.rows() {
                out[e.global_row(r)] = v[r];
            }
        }
        if let Some(ns) = sys.normalization_start {
            for (k, f) in self.frames.iter().enumerate() {
                out[ns + k] = norm(f);
            }
        }
        Ok(())
    }

    /// The Jacobian block (in the state's layout) of entry `k`, slot 0 (i) or 1 (j).
    #[inline]
    fn layout_block(&self, sys: &SystemLayout, k: usize, slot: usize) -> (&[f64], usize) {
        // Column-major storage: column c starts at c * MAX_ROWS.
        let b = &self.blocks[k];
        match (sys.layout, slot) {
            (Layout::EulerParamsOmega, 0) => (b.ji.as_slice(), 6),
            (Layout::EulerParamsOmega, _) => (b.jj.as_slice(), 6),
            (Layout::EulerParamsPdot, 0) => (b.ji_pdot.as_slice(), 7),
            (Layout::EulerParamsPdot, _) => (b.jj_pdot.as_slice(), 7),
        }
    }

    /// Calls `f(row, col, value)` for every structurally present entry of Φ_q.
    fn for_each_entry(&self, sys: &SystemLayout, mut f: impl FnMut(usize, usize, f64)) {
        let nvb = sys.layout.v_per_body();
        for (k, e) in sys.entries.iter().enumerate() {
            for (slot, body) in [e.body_i, e.body_j].into_iter().enumerate() {
                let BodyRef::Body(id) = body else { continue };
                let (data, ncols) = self.layout_block(sys, k, slot);
                let col0 = nvb * id.0;
                for c in 0..ncols {
                    for r in 0..e.rows() {
                        f(
                            e.global_row(r),
                            col0 + c,
                            data[c * crate::block::MAX_ROWS + r],
                        );
                    }
                }
            }
        }
        if let Some(ns) = sys.normalization_start {
            for (b, fr) in self.frames.iter().enumerate() {
                for c in 0..4 {
                    f(ns + b, nvb * b + 3 + c, 2.0 * fr.p[c]);
                }
            }
        }
    }

    /// Dense Φ_q (m × n_v) into `out` (zeroed first; must have that shape).
    pub fn phi_q_dense(
        &self,
        sys: &SystemLayout,
        out: &mut DMatrix<f64>,
    ) -> Result<(), ConstraintError> {
        check_len("phi_q rows", sys.m, out.nrows())?;
        check_len("phi_q columns", sys.n_v(), out.ncols())?;
        out.fill(0.0);
        self.for_each_entry(sys, |r, c, v| out[(r, c)] += v);
        Ok(())
    }

    /// The values of Φ_q in the order of [`SystemLayout::pattern`] (length nnz).
    pub fn phi_q_values(&self, sys: &SystemLayout, out: &mut [f64]) -> Result<(), ConstraintError> {
        check_len("phi_q values", sys.pattern.nnz(), out.len())?;
        let nvb = sys.layout.v_per_body();
        for (k, e) in sys.entries.iter().enumerate() {
            let pos = &sys.positions[k];
            for (slot, body) in [e.body_i, e.body_j].into_iter().enumerate() {
                if body == BodyRef::Ground {
                    continue;
                }
                let (data, _) = self.layout_block(sys, k, slot);
                for (part, (r0, len)) in [(0, e.n_holonomic), (e.n_holonomic, e.n_nonholonomic)]
                    .into_iter()
                    .enumerate()
                {
                    for c in 0..nvb {
                        let p = pos[slot][part][c];
                        if p == NONE {
                            continue;
                        }
                        let col = &data[c * crate::block::MAX_ROWS..];
                        out[p..p + len].copy_from_slice(&col[r0..r0 + len]);
                    }
                }
            }
        }
        for (b, fr) in sys.norm_positions.iter().zip(&self.frames) {
            for c in 0..4 {
                out[b[c]] = 2.0 * fr.p[c];
            }
        }
        Ok(())
    }

    /// out = Φ_q x (x of length n_v, out of length m), matrix-free.
    pub fn phi_q_mul(
        &self,
        sys: &SystemLayout,
        x: &[f64],
        out: &mut [f64],
    ) -> Result<(), ConstraintError> {
        check_len("phi_q_mul x", sys.n_v(), x.len())?;
        check_len("phi_q_mul out", sys.m, out.len())?;
        out.fill(0.0);
        self.for_each_entry(sys, |r, c, v| out[r] += v * x[c]);
        Ok(())
    }

    /// out = Φ_qᵀ y (y of length m, out of length n_v), matrix-free.
    pub fn phi_q_tr_mul(
        &self,
        sys: &SystemLayout,
        y: &[f64],
        out: &mut [f64],
    ) -> Result<(), ConstraintError> {
        check_len("phi_q_tr_mul y", sys.m, y.len())?;
        check_len("phi_q_tr_mul out", sys.n_v(), out.len())?;
        out.fill(0.0);
        self.for_each_entry(sys, |r, c, v| out[c] += v * y[r]);
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
pub(crate) fn velocity6(f: &BodyFrame) -> nalgebra::Vector6<f64> {
    nalgebra::Vector6::new(
        f.rdot.x,
        f.rdot.y,
        f.rdot.z,
        f.omega_body.x,
        f.omega_body.y,
        f.omega_body.z,
    )
}
