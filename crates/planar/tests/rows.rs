//! Finite-difference checks of the planar equations at random (inconsistent) states:
//! Φ_q against central differences of Φ, Φ_q q̇ + Φ_t against dΦ/dt along a line, and
//! γ against d²Φ/dt² along a parabola q(s) = q + s q̇ + ½ s² a (Φ̈ = Φ_q a − γ), on
//! every kind of in-plane constraint (revolute, prismatic at an angle, sine path, angle driver
//! with either sense of zᵢ, translation and point drivers) and on built-in planar
//! mechanisms.

use std::sync::Arc;

use mbs_alf::{Descriptor, Level};
use mbs_model::{BodyRef, DriverKind, JointKind, Model, ModelBuilder, TimeFunction};
use mbs_planar::{PlanarDescriptor, PlanarModel};
use nalgebra::{DMatrix, DVector, Matrix3, Vector3};

/// Every in-plane constraint kind: a crank (revolute to ground), a link on the crank
/// (revolute about −z), a slider on a prismatic joint at 0.3 rad to x, a prismatic
/// joint between the link and the slider, and angle, translation and point drivers.
fn every_kind() -> Model {
    let mut b = ModelBuilder::new("kinds");
    b.gravity(Vector3::new(0.0, -9.81, 0.0));
    let j = Matrix3::from_diagonal(&Vector3::new(0.01, 0.02, 0.025));
    let about_z = |a: f64| mbs_kinematics::euler_params::from_axis_angle(&Vector3::z(), a);
    let crank = b.body("crank", 1.0, j);
    b.set_initial_pose(crank, Vector3::new(0.3, 0.1, 0.0), about_z(0.4));
    let link = b.body("link", 2.0, j);
    b.set_initial_pose(link, Vector3::new(0.6, 0.5, 0.0), about_z(-0.7));
    let slider = b.body("slider", 3.0, j);
    b.set_initial_pose(slider, Vector3::new(1.0, 0.2, 0.0), about_z(0.2));
    let (g, c, l, s) = (
        BodyRef::Ground,
        BodyRef::Body(crank),
        BodyRef::Body(link),
        BodyRef::Body(slider),
    );
    b.joint_at(
        "O",
        JointKind::Revolute,
        g,
        c,
        Vector3::new(0.05, -0.02, 0.0),
        Vector3::z(),
    );
    let a = b.joint_at(
        "A",
        JointKind::Revolute,
        c,
        l,
        Vector3::new(0.5, 0.3, 0.0),
        -Vector3::z(),
    );
    let axis = Vector3::new(0.3f64.cos(), 0.3f64.sin(), 0.0);
    let p = b.joint_at(
        "P",
        JointKind::Prismatic,
        g,
        s,
        Vector3::new(1.0, 0.2, 0.0),
        axis,
    );
    b.joint_at(
        "Q",
        JointKind::Prismatic,
        l,
        s,
        Vector3::new(0.8, 0.4, 0.0),
        Vector3::new(-0.6, 0.8, 0.0),
    );
    // a sine path of the slider's point in a frame on the crank turned about −z
    let si = b.marker_at_global("wave.i", s, Vector3::new(1.1, 0.3, 0.0), Vector3::z(), None);
    let sj = b.marker_at_global(
        "wave.j",
        c,
        Vector3::new(0.2, 0.1, 0.0),
        -Vector3::z(),
        Some(Vector3::new(0.8, 0.6, 0.0)),
    );
    b.joint(
        "wave",
        JointKind::SinePath {
            amplitude: 0.2,
            wavenumber: 3.0,
        },
        si,
        sj,
    );
    b.driver(
        "angle",
        DriverKind::JointAngle { joint: a },
        TimeFunction::Harmonic {
            amplitude: 0.3,
            frequency: 2.0,
            phase: 0.1,
            offset: 0.5,
        },
    );
    b.driver(
        "slide",
        DriverKind::JointTranslation { joint: p },
        TimeFunction::Polynomial {
            coefficients: vec![0.1, 0.2, -0.3],
        },
    );
    let m = b.marker_at_global("tip", l, Vector3::new(0.7, 0.6, 0.0), Vector3::z(), None);
    b.driver(
        "height",
        DriverKind::PointCoordinate { marker: m, axis: 1 },
        TimeFunction::Harmonic {
            amplitude: 0.1,
            frequency: 3.0,
            phase: 0.0,
            offset: 0.4,
        },
    );
    b.build().unwrap()
}

/// Deterministic numbers in [−1, 1).
struct Lcg(u64);
impl Lcg {
    fn next(&mut self) -> f64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 11) as f64 / (1u64 << 53) as f64) * 2.0 - 1.0
    }
    fn vec(&mut self, n: usize, scale: f64) -> Vec<f64> {
        (0..n).map(|_| scale * self.next()).collect()
    }
}

fn descriptor(model: Model) -> PlanarDescriptor {
    let planar = PlanarModel::new(&model).unwrap();
    let heights = vec![0.0; model.n_bodies()];
    PlanarDescriptor::new(Arc::new(model), planar, heights)
}

/// (Φ, Φ_q, Φ_t, γ) at (t, q, q̇).
fn eval(
    d: &mut PlanarDescriptor,
    t: f64,
    q: &[f64],
    v: &[f64],
) -> (DVector<f64>, DMatrix<f64>, DVector<f64>, DVector<f64>) {
    d.evaluate(t, q, v, Level::Velocities).unwrap();
    // γ needs no loads; Level::Full would also evaluate them
    let (phi, jac, phi_t) = (d.phi().clone(), d.phi_q().clone(), d.phi_t().clone());
    d.evaluate(t, q, v, Level::Full).unwrap();
    (phi, jac, phi_t, d.gamma().clone())
}

/// Checks Φ_q, Φ_t and γ of `model` at 5 random states; returns the largest errors.
fn check(model: Model, seed: u64) -> (f64, f64, f64) {
    let mut d = descriptor(model);
    let n = d.n();
    let mut rng = Lcg(seed);
    let (mut e_jac, mut e_t, mut e_g) = (0.0_f64, 0.0_f64, 0.0_f64);
    for _ in 0..5 {
        let t = 0.5 + 0.5 * rng.next();
        let q = rng.vec(n, 2.0);
        let v = rng.vec(n, 3.0);
        let a = rng.vec(n, 3.0);
        let (_, jac, phi_t, gamma) = eval(&mut d, t, &q, &v);
        let phi_at = |d: &mut PlanarDescriptor, t: f64, q: &[f64]| {
            d.evaluate(t, q, &v, Level::Positions).unwrap();
            d.phi().clone()
        };
        // Φ_q by central differences
        let h = 1e-6;
        for c in 0..n {
            let (mut qp, mut qm) = (q.clone(), q.clone());
            qp[c] += h;
            qm[c] -= h;
            let col = (phi_at(&mut d, t, &qp) - phi_at(&mut d, t, &qm)) / (2.0 * h);
            e_jac = e_jac.max((col - jac.column(c)).amax());
        }
        // Φ̇ = Φ_q q̇ + Φ_t and Φ̈ = Φ_q a − γ along q(s) = q + s q̇ + ½ s² a, t + s
        let at = |d: &mut PlanarDescriptor, s: f64| {
            let qs: Vec<f64> = (0..n)
                .map(|i| q[i] + s * v[i] + 0.5 * s * s * a[i])
                .collect();
            phi_at(d, t + s, &qs)
        };
        let vv = DVector::from_column_slice(&v);
        let aa = DVector::from_column_slice(&a);
        let h = 1e-6;
        let dphi = (at(&mut d, h) - at(&mut d, -h)) / (2.0 * h);
        e_t = e_t.max((dphi - (&jac * &vv + &phi_t)).amax());
        // second differences at h and h/2, Richardson-extrapolated (error O(h⁴))
        let z = at(&mut d, 0.0);
        let mut second = |h: f64| (at(&mut d, h) - 2.0 * &z + at(&mut d, -h)) / (h * h);
        let h = 2e-3;
        let ddphi = (4.0 * second(0.5 * h) - second(h)) / 3.0;
        e_g = e_g.max((ddphi - (&jac * &aa - &gamma)).amax());
    }
    (e_jac, e_t, e_g)
}

#[test]
fn jacobian_phi_t_and_gamma_match_finite_differences_for_every_kind() {
    let (j, t, g) = check(every_kind(), 7);
    eprintln!("every kind: Φ_q {j:.1e}, Φ̇ {t:.1e}, γ {g:.1e}");
    assert!(j < 1e-8, "Φ_q error {j:e}");
    assert!(t < 1e-8, "Φ̇ error {t:e}");
    assert!(g < 1e-6, "γ error {g:e}");
}

#[test]
fn jacobian_and_gamma_match_finite_differences_on_planar_built_ins() {
    for name in [
        "five-bar",
        "crank-slider",
        "double-pendulum",
        "andrews-squeezer",
    ] {
        let model = mbs_mechanisms::registry::find(name)
            .unwrap()
            .mechanism
            .build()
            .unwrap();
        let (j, t, g) = check(model, 11);
        eprintln!("{name}: Φ_q {j:.1e}, Φ̇ {t:.1e}, γ {g:.1e}");
        assert!(
            j < 1e-8 && t < 1e-8 && g < 1e-7,
            "{name}: {j:e} {t:e} {g:e}"
        );
    }
}

#[test]
fn planar_rows_count_three_coordinates_per_body_and_two_rows_per_joint() {
    let model = every_kind();
    let d = descriptor(model);
    // 3 bodies; 2 revolute + 2 prismatic joints, a sine path, 3 drivers
    assert_eq!((d.n(), d.m()), (9, 2 * 4 + 1 + 3));
    let five = mbs_mechanisms::registry::find("five-bar")
        .unwrap()
        .mechanism
        .build()
        .unwrap();
    let p = PlanarModel::new(&five).unwrap();
    assert_eq!((3 * p.bodies.len(), p.rows()), (12, 10));
}
