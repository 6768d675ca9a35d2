//! Acceptance 4: the torque-free top (Chiou eq 5.5.2.2), J ω̇ + ω × J ω = 0,
//! with Euler parameters advanced by the closed-form implicit rule
//! (eqs 5.5.4.4–5.5.4.6).
//!
//! With J = diag(1, 1, 2) and ω = (ε, 0, ω₃), ω₃ stays constant and the
//! transverse components rotate at the rate (J₃ − J₁)/J₁ ω₃ = ω₃ ≈ |ω|: the
//! linearized model of the thesis (D = ω̃, eq 5.5.2.34) holds exactly.

use mbs_integrators::*;

/// x = Euler parameters p = [e0, e1, e2, e3], v = body angular velocity ω'.
#[derive(Debug)]
struct Top {
    j: [f64; 3],
}

impl PartitionedSystem for Top {
    fn dim_positions(&self) -> usize {
        4
    }
    fn dim_velocities(&self) -> usize {
        3
    }
    fn accelerations(
        &mut self,
        _t: f64,
        _x: &[f64],
        w: &[f64],
        a: &mut [f64],
    ) -> Result<(), SystemError> {
        // J ω̇ = −ω × J ω   (eq 5.5.2.2)
        let j = self.j;
        let jw = [j[0] * w[0], j[1] * w[1], j[2] * w[2]];
        a[0] = -(w[1] * jw[2] - w[2] * jw[1]) / j[0];
        a[1] = -(w[2] * jw[0] - w[0] * jw[2]) / j[1];
        a[2] = -(w[0] * jw[1] - w[1] * jw[0]) / j[2];
        Ok(())
    }
    /// (I − h/2 A(ω)) p⁺ = (I + h/2 A(ω)) p with ṗ = A(ω) p = ½ p ⊗ (0, ω'):
    /// A is skew with A² = −|ω|²/4 I, so (eq 5.5.4.5–5.5.4.6)
    /// p⁺ = (I + h/2 A)² p / (1 + h²|ω|²/16).
    fn advance_positions(
        &mut self,
        p: &[f64],
        w: &[f64],
        h: f64,
        out: &mut [f64],
    ) -> Result<(), SystemError> {
        let c = 0.25 * h; // (h/2)·(1/2)
        let apply = |q: &[f64; 4]| -> [f64; 4] {
            let (w1, w2, w3) = (c * w[0], c * w[1], c * w[2]);
            [
                q[0] - w1 * q[1] - w2 * q[2] - w3 * q[3],
                q[1] + w1 * q[0] + w3 * q[2] - w2 * q[3],
                q[2] + w2 * q[0] - w3 * q[1] + w1 * q[3],
                q[3] + w3 * q[0] + w2 * q[1] - w1 * q[2],
            ]
        };
        let q = apply(&apply(&[p[0], p[1], p[2], p[3]]));
        let delta = 1.0 + c * c * (w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);
        for i in 0..4 {
            out[i] = q[i] / delta;
        }
        Ok(())
    }
}

const W0: [f64; 3] = [0.1, 0.0, 1.0];

fn norm(w: &[f64]) -> f64 {
    w.iter().map(|v| v * v).sum::<f64>().sqrt()
}

/// Largest transverse |ω| over the run divided by the initial one, and the
/// largest |pᵀp − 1|; a non-finite state counts as unbounded.
struct Watch {
    max_ratio: f64,
    max_norm_err: f64,
}

impl Observer for Watch {
    fn step(&mut self, _t: f64, y: &[f64]) -> std::ops::ControlFlow<()> {
        let wt = (y[4] * y[4] + y[5] * y[5]).sqrt() / W0[0];
        self.max_ratio = self.max_ratio.max(wt);
        self.max_norm_err = self.max_norm_err.max((norm(&y[..4]) - 1.0).abs());
        if wt > 1e6 || !wt.is_finite() {
            self.max_ratio = f64::INFINITY;
            return std::ops::ControlFlow::Break(());
        }
        std::ops::ControlFlow::Continue(())
    }
}

fn run(staggered: bool, h: f64, steps: usize) -> Watch {
    let mut sys = Top { j: [1.0, 1.0, 2.0] };
    let p0 = [1.0, 0.0, 0.0, 0.0];
    let mut watch = Watch {
        max_ratio: 1.0,
        max_norm_err: 0.0,
    };
    let params = StaggeredParams::new(h);
    let t_end = h * steps as f64;
    let r = if staggered {
        TwoStageStaggered::new(4, 3, params).integrate(
            &mut sys,
            0.0,
            &p0,
            &W0,
            t_end,
            &[],
            &mut watch,
        )
    } else {
        CentralDifference::new(4, 3, params).integrate(
            &mut sys,
            0.0,
            &p0,
            &W0,
            t_end,
            &[],
            &mut watch,
        )
    };
    if r.is_err() {
        watch.max_ratio = f64::INFINITY;
    }
    watch
}

#[test]
fn central_difference_with_lagged_velocity_grows_without_bound() {
    // eq 5.5.2.37: unstable for every h; forward Euler growth √(1 + h²ω₃²) per step.
    for h in [0.01, 0.1, 0.5] {
        let steps = (200.0 / h) as usize;
        let w = run(false, h, steps);
        assert!(w.max_ratio > 2.0, "h = {h}: ratio {}", w.max_ratio);
        // Unbounded: doubling the time span makes it (much) larger.
        let w2 = run(false, h, 2 * steps);
        assert!(
            w.max_ratio.is_infinite() || w2.max_ratio > w.max_ratio * 1.5,
            "h = {h}: {} vs {}",
            w2.max_ratio,
            w.max_ratio
        );
    }
}

#[test]
fn two_stage_staggered_is_bounded_below_the_bound() {
    let wn = norm(&W0);
    for f in [0.1, 0.5, 0.95] {
        let h = f * 2.0 / wn;
        let w = run(true, h, 20_000);
        assert!(
            w.max_ratio < 5.0,
            "h = {f}·2/|ω|: transverse |ω| grew by {}",
            w.max_ratio
        );
        // The closed-form implicit Euler-parameter update keeps |p| = 1.
        assert!(w.max_norm_err < 1e-12, "|p| drift {}", w.max_norm_err);
    }
}

#[test]
fn two_stage_staggered_grows_above_the_bound() {
    let wn = norm(&W0);
    // Just above the sharp bound h|ω| = 2 …
    let w = run(true, 1.05 * 2.0 / wn, 2_000);
    assert!(w.max_ratio.is_infinite(), "ratio {}", w.max_ratio);
    // … and, contrary to eq 5.5.2.44, still inside the thesis's h ≤ 2√2/|ω|.
    let w = run(true, 0.95 * 2.0 * 2f64.sqrt() / wn, 2_000);
    assert!(w.max_ratio.is_infinite(), "ratio {}", w.max_ratio);
    // Far above both.
    let w = run(true, 1.2 * 2.0 * 2f64.sqrt() / wn, 2_000);
    assert!(w.max_ratio.is_infinite(), "ratio {}", w.max_ratio);
}
