//! End to end: a double-pendulum URDF → link graph → mbs model → `aba`, against the
//! closed-form equations of a double pendulum of two uniform rods (relative angles;
//! Spong, Hutchinson & Vidyasagar, *Robot Modeling and Control*, 2006, sec. 7.4):
//! H and C at the initial state, the trajectory of a DOP853 integration of the
//! closed-form equations, and energy conservation to integration error.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

use mbs_hdca::{Aba, AbaParams, joint_space_dynamics};
use mbs_import::{ImportOptions, load};
use mbs_integrators::{EmbeddedRk, OdeSystem, Recorder, RkParams, SystemError};
use nalgebra::{Matrix2, Vector2, Vector3};

const G: f64 = 9.81;
/// Rod mass, length, centre-of-mass distance, inertia about the centre (the URDF's).
const M: f64 = 1.0;
const L: f64 = 1.0;
const LC: f64 = 0.5;
const I: f64 = 0.083_333_333_333_333_3;
/// Shoulder height.
const Z0: f64 = 2.0;

/// H(θ₂) and C(θ, θ̇) of the double pendulum: θ₁ of the upper rod, θ₂ of the lower
/// relative to it, both about +y, gravity −z, rods hanging along −z at θ = 0.
fn closed_form(th: Vector2<f64>, w: Vector2<f64>) -> (Matrix2<f64>, Vector2<f64>) {
    let (c2, s2) = (th[1].cos(), th[1].sin());
    let h11 = 2.0 * I + M * LC * LC + M * (L * L + LC * LC + 2.0 * L * LC * c2);
    let h12 = I + M * (LC * LC + L * LC * c2);
    let h22 = I + M * LC * LC;
    let h = -M * L * LC * s2;
    // ∂V/∂θ with z₁ = Z0 − LC cos θ₁, z₂ = Z0 − L cos θ₁ − LC cos(θ₁ + θ₂)
    let g1 = G * (M * LC * th[0].sin() + M * (L * th[0].sin() + LC * (th[0] + th[1]).sin()));
    let g2 = G * M * LC * (th[0] + th[1]).sin();
    let c = Vector2::new(
        h * (2.0 * w[0] * w[1] + w[1] * w[1]) + g1,
        -h * w[0] * w[0] + g2,
    );
    (Matrix2::new(h11, h12, h12, h22), c)
}

/// Centres of mass of the rods (rotation by θ about +y turns −z into (−sin θ, 0, −cos θ)).
fn centres(th: Vector2<f64>) -> (Vector3<f64>, Vector3<f64>) {
    let down = |a: f64| Vector3::new(-a.sin(), 0.0, -a.cos());
    let top = Vector3::new(0.0, 0.0, Z0);
    let upper = top + LC * down(th[0]);
    let lower = top + L * down(th[0]) + LC * down(th[0] + th[1]);
    (upper, lower)
}

/// The closed-form equations as an ODE in y = [θ; θ̇].
struct ClosedForm;
impl OdeSystem for ClosedForm {
    fn dim(&self) -> usize {
        4
    }
    fn rhs(&mut self, _t: f64, y: &[f64], dy: &mut [f64]) -> Result<(), SystemError> {
        let (th, w) = (Vector2::new(y[0], y[1]), Vector2::new(y[2], y[3]));
        let (h, c) = closed_form(th, w);
        let a = h.try_inverse().unwrap() * (-c);
        dy.copy_from_slice(&[w[0], w[1], a[0], a[1]]);
        Ok(())
    }
}

fn options(th: [f64; 2], w: [f64; 2]) -> ImportOptions {
    let by_name = |a: f64, b: f64| {
        BTreeMap::from([
            ("shoulder".to_string(), vec![a]),
            ("elbow".to_string(), vec![b]),
        ])
    };
    ImportOptions {
        q0: by_name(th[0], th[1]),
        v0: by_name(w[0], w[1]),
        ..Default::default()
    }
}

#[test]
fn double_pendulum_matches_the_closed_form() {
    let (th0, w0) = ([0.7, -1.1], [1.3, -0.4]);
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/double_pendulum.urdf");
    let imported = load(&path, &options(th0, w0)).unwrap();
    let model = imported.model;
    assert_eq!(model.n_bodies(), 2);
    assert_eq!(model.topology().grubler_mobility(), 2);

    // H and C at the initial state
    let js = joint_space_dynamics(&model).unwrap();
    assert_eq!(js.dof_names, ["shoulder", "elbow"]);
    let (th, w) = (Vector2::from(th0), Vector2::from(w0));
    assert!((js.u.as_slice()[0] - w[0]).abs() < 1e-13 && (js.u[1] - w[1]).abs() < 1e-13);
    let (h, c) = closed_form(th, w);
    for i in 0..2 {
        assert!(
            (js.bias[i] - c[i]).abs() < 1e-12 * c.amax(),
            "C {} vs {c}",
            js.bias
        );
        for j in 0..2 {
            let e = (js.mass_matrix[(i, j)] - h[(i, j)]).abs();
            assert!(e < 1e-13 * h.amax(), "H {} vs {h}", js.mass_matrix);
        }
    }

    // the initial centres of mass
    let body = |name: &str| model.body_by_name(name).unwrap().0;
    let (upper, lower) = (body("upper"), body("lower"));
    let (cu, cl) = centres(th);
    assert!((model.bodies()[upper].initial.position - cu).norm() < 1e-14);
    assert!((model.bodies()[lower].initial.position - cl).norm() < 1e-14);

    // 3 s of motion: aba against the closed form, both DOP853
    let t1 = 3.0;
    let mut aba = Aba::new(Arc::new(model), AbaParams::default()).unwrap();
    let y0 = aba.initial_state().unwrap();
    let e0 = aba.energy(0.0, &y0).unwrap();
    let times: Vec<f64> = (1..=30).map(|k| 0.1 * k as f64).collect();
    let mut rec = Recorder::default();
    let mut rk = EmbeddedRk::dop853(y0.len(), RkParams::with_tol(1e-11, 1e-11));
    rk.integrate(&mut aba, 0.0, &y0, t1, &times, &mut rec)
        .unwrap();
    let mut rec_cf = Recorder::default();
    let mut rk_cf = EmbeddedRk::dop853(4, RkParams::with_tol(1e-12, 1e-12));
    let y_cf = [th0[0], th0[1], w0[0], w0[1]];
    rk_cf
        .integrate(&mut ClosedForm, 0.0, &y_cf, t1, &times, &mut rec_cf)
        .unwrap();
    let (mut drift, mut worst) = (0.0_f64, 0.0_f64);
    for k in 0..times.len() {
        let y = rec.state(k).to_vec();
        drift = drift.max((aba.energy(times[k], &y).unwrap() - e0).abs());
        let s = aba.to_state(times[k], &y).unwrap();
        let cf = rec_cf.state(k);
        let (cu, cl) = centres(Vector2::new(cf[0], cf[1]));
        worst = worst
            .max((s.position(upper) - cu).norm())
            .max((s.position(lower) - cl).norm());
    }
    println!(
        "double pendulum: energy drift {drift:.1e} J of {e0:.3} J, centre-of-mass difference {worst:.1e} m"
    );
    // the motion is chaotic enough to test: the lower rod travels metres
    assert!(e0.abs() > 1.0);
    assert!(drift < 1e-8 * e0.abs(), "energy drift {drift:e} of {e0}");
    assert!(worst < 1e-7, "centre-of-mass difference {worst:e} m");
}

#[test]
fn urdf_damping_dissipates() {
    // the same pendulum with <dynamics damping> on both joints loses energy
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/double_pendulum.urdf");
    let text = std::fs::read_to_string(&path).unwrap().replace(
        "<axis xyz=\"0 1 0\"/>",
        "<axis xyz=\"0 1 0\"/><dynamics damping=\"0.2\"/>",
    );
    let graph = mbs_import::urdf::parse_str(
        &text,
        &path,
        path.parent().unwrap(),
        &ImportOptions::default(),
    )
    .unwrap();
    assert!(graph.joints.iter().all(|j| j.dynamics.damping == 0.2));
    let imported = mbs_import::build(&graph, &options([0.7, -1.1], [1.3, -0.4])).unwrap();
    let js = joint_space_dynamics(&imported.model).unwrap();
    let (_, c) = closed_form(Vector2::new(0.7, -1.1), Vector2::new(1.3, -0.4));
    // C gains the damper torques c·θ̇
    assert!((js.bias[0] - (c[0] + 0.2 * 1.3)).abs() < 1e-12 * c.amax());
    assert!((js.bias[1] - (c[1] - 0.2 * 0.4)).abs() < 1e-12 * c.amax());
}
