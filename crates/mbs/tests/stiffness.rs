//! Stiffness detected and acted on (issue #31): the linearized spectrum at the
//! initial state picks RADAU5 for a stiff model and keeps the class's explicit
//! integrator otherwise (`mbs::spectrum`); an explicit run held by stability says so
//! (Hairer's test of RK45/DOP853, `Trajectory::stiffness_note`).

use std::sync::Arc;

use mbs::recommend::{IntegratorKind, recommend};
use mbs::spectrum::{Spectrum, linearized_spectrum};
use mbs_model::{BodyRef, ForceElement, JointKind, Model, ModelBuilder, TimeFunction};
use nalgebra::{Matrix3, Vector3};

fn model(name: &str) -> Arc<Model> {
    Arc::new(mbs::builtin(name).unwrap())
}

/// A 2 kg slider on a prismatic joint along x, held by a 1e6 N/m spring at its free
/// length, no gravity: y = [x, ẋ], ẍ = −(k/m) x, eigenvalues ±i √(k/m).
fn spring_mass(k: f64, m: f64) -> Model {
    let mut b = ModelBuilder::new("spring-mass");
    b.gravity(Vector3::zeros());
    let id = b.body("slider", m, Matrix3::identity() * 0.01);
    let r = Vector3::new(1.0, 0.0, 0.0);
    b.set_initial_pose(id, r, nalgebra::Vector4::new(1.0, 0.0, 0.0, 0.0));
    b.joint_at(
        "slide",
        JointKind::Prismatic,
        BodyRef::Ground,
        BodyRef::Body(id),
        r,
        Vector3::x(),
    );
    let anchor = b.marker(
        "anchor",
        BodyRef::Ground,
        Vector3::zeros(),
        Matrix3::identity(),
    );
    let end = b.marker_at_global("end", BodyRef::Body(id), r, Vector3::z(), None);
    b.force(ForceElement::SpringDamper {
        name: "spring".into(),
        marker_i: anchor,
        marker_j: end,
        stiffness: k,
        damping: 0.0,
        free_length: 1.0,
        actuator: TimeFunction::default(),
    });
    b.build().unwrap()
}

/// The largest |λ| of the spring–mass equals √(k/m) (independent: the oscillator's
/// frequency) to 1e-3 relative; a lone oscillator is not stiff (ratio 1).
#[test]
fn spring_mass_spectrum_is_sqrt_k_over_m() {
    let (k, m) = (1e6, 2.0);
    let model = Arc::new(spring_mass(k, m));
    let r = recommend(&model);
    assert_eq!(r.method.name(), "aba");
    let s = linearized_spectrum(&r.method, &model).unwrap();
    let want = (k / m).sqrt();
    println!("spring-mass: {s:?}, √(k/m) = {want}");
    assert_eq!(s.states, 2);
    assert!(
        (s.largest / want - 1.0).abs() < 1e-3,
        "{} vs {want}",
        s.largest
    );
    assert!((s.smallest.unwrap() / want - 1.0).abs() < 1e-3);
    assert!((s.ratio(1.0) - 1.0).abs() < 1e-3);
    assert!(!s.is_stiff(1.0));
    assert_eq!(r.integrator_for(1.0).0, IntegratorKind::Adams);
}

/// The bushing chain (4 links, k = 1e6 N m/rad) is stiff on t = 0 … 1: its largest
/// |λ| is of the order of the bending frequency √(k·(a few)/J), J ≈ m l²/3 = 1/3 kg m²
/// (`mbs_mechanisms::stiff`: 2e3–1e4 1/s), and the default integrator becomes RADAU5,
/// saying why.
#[test]
fn bushing_chain_is_stiff_and_gets_radau5() {
    let name = "bushing-chain:n=4:k=1e6:c=10";
    let m = model(name);
    let r = recommend(&m);
    let s = r.spectrum.clone().unwrap();
    println!("{name}: {} {s:?} ratio {:e}", r.method, s.ratio(1.0));
    assert!(
        s.largest > 2e3 && s.largest < 1e4,
        "largest |λ| = {}",
        s.largest
    );
    assert!(s.is_stiff(1.0));
    let (kind, why) = r.integrator_for(1.0);
    assert_eq!(kind, IntegratorKind::Radau5);
    assert!(why.unwrap().starts_with("stiff spectrum: ratio"));
    let sim = mbs::Simulation::new(m).t_end(1.0);
    assert_eq!(sim.get_integrator().name(), "radau5");
    assert!(sim.integrator_reason().unwrap().contains("largest |λ|"));
    let chosen = mbs::Simulation::builtin(name)
        .unwrap()
        .t_end(1.0)
        .choose(None, &Default::default())
        .unwrap();
    assert_eq!(
        chosen.get_integrator().to_string(),
        "radau5:rtol=1e-6:atol=1e-6"
    );
    // on a short enough interval the explicit method is not held by stability
    assert!(!s.is_stiff(1e-4));
}

/// The five-bar (small loop, alf-joint) and the 4-link chain (tree, aba) are not
/// stiff: their default integrator stays the class's (Adams).
#[test]
fn five_bar_and_chain_are_not_stiff() {
    for name in ["five-bar", "chain:n=4"] {
        let m = model(name);
        let r = recommend(&m);
        let s: Spectrum = r.spectrum.clone().unwrap();
        println!("{name}: {} {s:?} ratio {:e}", r.method, s.ratio(1.0));
        assert!(!s.is_stiff(1.0), "{name}: {s:?}");
        assert_eq!(r.integrator_for(1.0), (r.integrator, None));
        assert_eq!(r.integrator, IntegratorKind::Adams);
        let sim = mbs::Simulation::new(m).t_end(1.0);
        assert_eq!(sim.get_integrator().name(), "adams");
        assert_eq!(sim.integrator_reason(), None);
    }
}

/// An explicit run of Andrew's squeezer with the 1e8 N/m spring (`alf-dca-proj`, the
/// stiff suite's method, DOP853 at rtol 1e-3 over 0.01 s) is held by stability: the
/// trajectory's statistics carry Hairer's report and its note suggests RADAU5; the
/// rigid squeezer's run carries none. (At rtol 1e-6 the test stays silent: the
/// spring's mode is an undamped oscillation, `λ` near the imaginary axis, where the
/// explicit step is held below the real-axis boundary 6.1 the test compares with.)
#[test]
fn explicit_run_of_stiff_squeezer_reports_stiffness() {
    let run = |name: &str| {
        mbs::Simulation::builtin(name)
            .unwrap()
            .method("alf-dca-proj".parse().unwrap())
            .integrator("dop853:rtol=1e-3:atol=1e-3".parse().unwrap())
            .t_end(0.01)
            .samples(3)
            .run()
            .unwrap()
    };
    let stiff = run("andrews-squeezer-stiff-spring");
    let r = stiff.stats.stiffness.expect("stiffness reported");
    println!("{r:?} {:?}", stiff.stiffness_note());
    assert_eq!(r.boundary, mbs_integrators::stiffness::DOP853_BOUNDARY);
    assert!(r.steps_at_boundary >= 15 && r.first_t < 0.005, "{r:?}");
    assert!(r.h_lambda > r.boundary);
    let note = stiff.stiffness_note().unwrap();
    assert!(
        note.contains("DOP853 stiffness test") && note.ends_with("try --integrator radau5"),
        "{note}"
    );
    let rigid = run("andrews-squeezer");
    assert_eq!(rigid.stats.stiffness, None);
    assert_eq!(rigid.stiffness_note(), None);
}

/// The squeezer's linearized spectrum (alf-joint, the small-loop default) is stiff
/// over Hairer–Wanner's 0.03 s: the largest |λ| is of the order of the spring's
/// frequency √(k/m) ≈ 1e5 1/s (k = 1e8 N/m, bodies of 4–70 g; `mbs_mechanisms`),
/// and RADAU5 is the default.
#[test]
fn stiff_squeezer_spectrum_picks_radau5() {
    let r = recommend(&model("andrews-squeezer-stiff-spring"));
    let s = r.spectrum.clone().unwrap();
    println!("{} {s:?}", r.method);
    assert!(s.largest > 3e4 && s.largest < 3e5, "{s:?}");
    assert_eq!(r.integrator_for(0.03).0, IntegratorKind::Radau5);
    let rigid = recommend(&model("andrews-squeezer"));
    assert_eq!(rigid.integrator_for(0.03).0, rigid.integrator);
}
