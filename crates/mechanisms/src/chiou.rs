//! Test cases of Chiou's thesis (1990, *Constraint treatment techniques and parallel
//! algorithms for multibody dynamic analysis*, PhD thesis, University of Colorado,
//! ch. 7): the crank-slider (sec 7.2), the three-link manipulator deployment (sec 7.3),
//! the bowling ball (sec 7.4), the spatial four-bar with spherical joints (sec 7.5) and
//! the space crane (sec 7.6). The vehicle of sec 7.7 is in
//! [`crate::vehicle`](mod@crate::vehicle).
//!
//! The thesis gives the equations of these examples but almost none of their numbers
//! (its figures did not survive): every value below that is not quoted from the thesis
//! is a **choice**, listed in the doc comment of its builder. Summary:
//!
//! | example | thesis | ours |
//! |---|---|---|
//! | crank-slider | M = diag(j₁, j₂, m, m), F = [τ, 0, 0, −mg], constraints (7.2.4), rod horizontal at start; one cycle takes T = 0.82 s | the same equations; **choices**: r, l, l₁, m, j₁, j₂, g, τ (τ = 0.64 N m chosen so that one revolution from rest takes ≈ 0.82 s) |
//! | three-link manipulator | M = diag(j, m_x, m_y), spring matrix (7.3.6), force f on x₃ (7.3.9), constraints (7.3.10), links folded at start | the same equations; **choices**: l, m, J, k₁…k₃, f, initial angles |
//! | bowling ball | m = 71.32 N (a weight), a = 10.9 cm, r₀ = 0 or 0.15 cm, J₁ = J₂ = J₃ = 2/5 m a², x⁰ = y⁰ = 0, identity orientation, ω₁ = −ω₂ = −1, ω₃ = 0, track y = sin x | the same; **choices**: mass 71.32/9.81 kg, g = 9.81, ẋ⁰ = ẏ⁰ = +a (the thesis' a ω₁⁰ = −a contradicts its own no-slip rows) |
//! | spatial four-bar | four bars, five spherical joints, F_y⁽¹⁾ = F_y⁽⁴⁾ = 1 at the centres of mass of bars 1 and 4, symmetric, 8 s | the same; **choices**: layout, ℓ = 1 m, 1 kg, J, no gravity |
//! | space crane | three links, spherical joints, tip y prescribed by (7.6.1), v_x = v_z = −0.454545 v_y, T = 180 s | **choices**: configuration and masses (Gawronski & Ih's, not in the thesis), a quintic rest-to-rest profile instead of the piecewise (7.6.1), v_θ not imposed |
//!
//! Independent values: the crank-slider's cycle time 0.82 s was used to choose τ, so
//! it is not a check; the three-link manipulator's published numbers (Newton
//! iterations per step) belong to the methods; the bowling ball and the space crane
//! have plots only. The spatial four-bar's symmetry between bars 1 and 4 (and 2 and 3),
//! which the thesis states, is checked in the facade's `published_values` tests.

use mbs_kinematics::euler_params::identity;
use mbs_model::{
    BodyRef, DriverKind, ForceElement, JointKind, LoadFrame, Model, ModelBuilder, ModelError,
    TimeFunction,
};
use nalgebra::{Matrix3, Vector3};

use crate::bayo_ledesma::ROD_AXIAL_FRACTION;
use crate::util::{add_link, body, dir, p2, revolute_z, rod_inertia, spherical};

fn zero() -> TimeFunction {
    TimeFunction::constant(0.0)
}

fn constant_vector(v: Vector3<f64>) -> [TimeFunction; 3] {
    [
        TimeFunction::constant(v.x),
        TimeFunction::constant(v.y),
        TimeFunction::constant(v.z),
    ]
}

/// Data of the crank-slider (sec 7.2). Every number is a choice (the thesis gives
/// none).
#[derive(Clone, Debug, PartialEq)]
pub struct CrankSliderParams {
    /// Crank radius r (m).
    pub crank_radius: f64,
    /// Connecting-rod length l (m).
    pub rod_length: f64,
    /// Distance l₁ from the crank pin to the rod's centre of mass (m).
    pub rod_cm: f64,
    /// Rod mass m (kg).
    pub rod_mass: f64,
    /// Rod moment of inertia j₂ about its centre of mass (kg m²).
    pub rod_inertia: f64,
    /// Crank mass (kg) (its centre of mass is on the pivot, so it never enters the
    /// motion).
    pub crank_mass: f64,
    /// Crank moment of inertia j₁ about the pivot (kg m²).
    pub crank_inertia: f64,
    /// Constant torque τ on the crank (N m).
    pub torque: f64,
    /// Gravitational acceleration along −y (m/s²).
    pub gravity: f64,
}

impl Default for CrankSliderParams {
    fn default() -> Self {
        Self {
            crank_radius: 0.1,
            rod_length: 0.4,
            rod_cm: 0.2,
            rod_mass: 1.0,
            rod_inertia: 1.0 * 0.4 * 0.4 / 12.0,
            crank_mass: 1.0,
            crank_inertia: 0.01,
            torque: 0.64,
            gravity: 9.81,
        }
    }
}

/// The crank-slider of sec 7.2 (Fig 7.2.1): u = \[θ, φ, x, y\], mass matrix
/// diag(j₁, j₂, m, m), applied forces \[τ, 0, 0, −mg\], constraints (7.2.4): the crank
/// pin r(cos θ, sin θ) is the rod point at distance l₁ behind the rod's centre of
/// mass, and the rod's far end (at l − l₁ ahead of it) stays on the line y = 0. The
/// slider is massless in the thesis, so it is not a body here: the third row of
/// (7.2.4) is a [`JointKind::SinePath`] of zero amplitude (the point stays on y = 0 of
/// the ground marker's frame). The connecting rod starts horizontal (θ = φ = 0), from
/// rest.
///
/// **Choices**: r = 0.1 m, l = 0.4 m, l₁ = 0.2 m, m = 1 kg, j₂ = m l²/12, crank 1 kg
/// with its centre of mass on the pivot and J' = diag(j₁) with j₁ = 0.01 kg m²,
/// g = 9.81 m/s² along −y, τ = 0.64 N m (with these, one crank revolution from rest
/// takes ≈ 0.82 s, the cycle time the thesis reports). Rod J' = diag(0.01 j₂, j₂, j₂).
/// Markers `pin` and `slider`. Expected figures: Grübler 12 − 11 = 1, mobility 1, none
/// redundant.
pub fn crank_slider(p: &CrankSliderParams) -> Result<Model, ModelError> {
    let mut b = ModelBuilder::new("crank-slider");
    b.gravity(Vector3::new(0.0, -p.gravity, 0.0));
    let crank = b.body(
        "crank",
        p.crank_mass,
        Matrix3::from_diagonal_element(p.crank_inertia),
    );
    let j2 = p.rod_inertia;
    let rod = b.body(
        "rod",
        p.rod_mass,
        Matrix3::from_diagonal(&Vector3::new(ROD_AXIAL_FRACTION * j2, j2, j2)),
    );
    let pin = p2(p.crank_radius, 0.0);
    let slider = p2(p.crank_radius + p.rod_length, 0.0);
    b.set_initial_pose(rod, p2(p.crank_radius + p.rod_cm, 0.0), identity());
    revolute_z(
        &mut b,
        "crank-pivot",
        BodyRef::Ground,
        body(crank),
        Vector3::zeros(),
    );
    revolute_z(&mut b, "pin", body(crank), body(rod), pin);
    let ms = b.marker_at_global(
        "slider",
        body(rod),
        slider,
        Vector3::z(),
        Some(Vector3::x()),
    );
    let mg = b.marker_at_global(
        "slide-line",
        BodyRef::Ground,
        Vector3::zeros(),
        Vector3::z(),
        Some(Vector3::x()),
    );
    b.joint(
        "slider",
        JointKind::SinePath {
            amplitude: 0.0,
            wavenumber: 1.0,
        },
        ms,
        mg,
    );
    let mt = b.marker_at_global(
        "crank.axis",
        body(crank),
        Vector3::zeros(),
        Vector3::z(),
        None,
    );
    b.force(ForceElement::Torque {
        name: "drive".into(),
        marker: mt,
        torque: [zero(), zero(), TimeFunction::constant(p.torque)],
        frame: LoadFrame::Global,
    });
    b.build()
}

/// Data of the three-link manipulator (sec 7.3). Every number is a choice.
#[derive(Clone, Debug, PartialEq)]
pub struct ThreeLinkParams {
    /// Link length l (m).
    pub length: f64,
    /// Link mass (kg).
    pub mass: f64,
    /// Coil-spring stiffnesses k₁, k₂, k₃ (N m/rad).
    pub stiffness: [f64; 3],
    /// Deploying force f along +x at the centre of mass of link 3 (N).
    pub force: f64,
    /// Initial angles θ₁, θ₂, θ₃ of (7.3.10) (rad).
    pub angles: [f64; 3],
}

impl Default for ThreeLinkParams {
    fn default() -> Self {
        Self {
            length: 1.0,
            mass: 1.0,
            stiffness: [1.0, 1.0, 1.0],
            force: 5.0,
            angles: [0.2, 0.1, 0.0],
        }
    }
}

/// The three-link manipulator deployment of sec 7.3 (Fig 7.3.1): three links folded
/// together, coil springs at the joints (K of (7.3.5)–(7.3.6): k₁ at the ground joint,
/// k₂, k₃ between the links), a constant force f on link 3 in the x direction
/// ((7.3.9): it acts on x₃, the centre-of-mass coordinate of link 3), no gravity.
/// Constraints (7.3.10): link 1 from the origin in direction θ₁, link 2 from its end
/// back in direction θ₂ + π, link 3 from there in direction θ₃ (a folded Z).
///
/// **Choices**: l = 1 m, m = 1 kg, J' = diag(0.01, 1, 1)·m l²/12, k₁ = k₂ = k₃ = 1 N m/rad,
/// f = 5 N, initial angles θ = (0.2, 0.1, 0.0) rad (exactly folded links, θ equal,
/// would be a dead position: f along the links); the springs are relaxed at the
/// initial pose (the thesis' K u has its zero at u = 0, i.e. folded); from rest.
/// Expected figures: Grübler 3, mobility 3, none redundant.
pub fn three_link_manipulator(p: &ThreeLinkParams) -> Result<Model, ModelError> {
    let mut b = ModelBuilder::new("three-link-manipulator");
    let l = p.length;
    let [t1, t2, t3] = p.angles;
    let j0 = Vector3::zeros();
    let j1 = l * dir(t1);
    let j2 = j1 - l * dir(t2);
    let tip = j2 + l * dir(t3);
    let inertia = rod_inertia(p.mass, l, ROD_AXIAL_FRACTION);
    let l1 = add_link(&mut b, "link1", j0, j1, p.mass, inertia);
    let l2 = add_link(&mut b, "link2", j1, j2, p.mass, inertia);
    let l3 = add_link(&mut b, "link3", j2, tip, p.mass, inertia);
    let joints = [
        revolute_z(&mut b, "joint1", BodyRef::Ground, body(l1), j0),
        revolute_z(&mut b, "joint2", body(l1), body(l2), j1),
        revolute_z(&mut b, "joint3", body(l2), body(l3), j2),
    ];
    for (k, j) in joints.iter().enumerate() {
        b.force(ForceElement::RotationalSpringDamper {
            name: format!("coil{}", k + 1),
            joint: *j,
            stiffness: p.stiffness[k],
            damping: 0.0,
            free_angle: 0.0,
            actuator: TimeFunction::default(),
        });
    }
    let cm3 = b.initial(l3).position;
    let m3 = b.marker_at_global("link3.cm", body(l3), cm3, Vector3::z(), None);
    b.marker_at_global("tip", body(l3), tip, Vector3::z(), None);
    b.force(ForceElement::PointForce {
        name: "deploy".into(),
        marker: m3,
        force: constant_vector(Vector3::new(p.force, 0.0, 0.0)),
        frame: LoadFrame::Global,
    });
    b.build()
}

/// Data of the bowling ball (sec 7.4).
#[derive(Clone, Debug, PartialEq)]
pub struct BowlingBallParams {
    /// Mass (kg). The thesis prints "m = 71.32 N", a weight: the **chosen** mass is
    /// 71.32/9.81 = 7.27 kg (a 16-lb ball).
    pub mass: f64,
    /// Radius a (m) (10.9 cm).
    pub radius: f64,
    /// Offset r₀ of the centre of mass from the geometric centre, along the body 3
    /// axis (vertical at t = 0) (m): 0 or 0.15 cm.
    pub offset: f64,
    /// Gravitational acceleration along −z (m/s²).
    pub gravity: f64,
    /// Initial body angular velocity (ω₁, ω₂, ω₃) (rad/s).
    pub omega: Vector3<f64>,
    /// Track y = A sin(k x): amplitude A (m).
    pub amplitude: f64,
    /// Track wavenumber k (rad/m).
    pub wavenumber: f64,
}

impl Default for BowlingBallParams {
    fn default() -> Self {
        Self {
            mass: 71.32 / 9.81,
            radius: 0.109,
            offset: 0.0,
            gravity: 9.81,
            omega: Vector3::new(-1.0, 1.0, 0.0),
            amplitude: 1.0,
            wavenumber: 1.0,
        }
    }
}

impl BowlingBallParams {
    /// The offset case, r₀ = 0.15 cm.
    pub fn with_offset() -> Self {
        Self {
            offset: 0.0015,
            ..Self::default()
        }
    }
}

/// The bowling ball of sec 7.4 (Fig 7.4.1): a sphere of radius a rolling without slip
/// on the horizontal plane z = 0 (one holonomic contact row and two nonholonomic
/// no-slip rows: [`JointKind::RollingSphere`]), its centre kept on the track y = sin x
/// ((7.4.9): [`JointKind::SinePath`]); J₁ = J₂ = J₃ = 2/5 m a²; x⁰ = y⁰ = 0, identity
/// orientation, ω₁ = −ω₂ = −1, ω₃ = 0; gravity along −z.
///
/// The initial velocity follows from rolling: the centre moves at ω × (a e₃) =
/// (a, a, 0) (the thesis prints ẋ⁰ = ẏ⁰ = a ω₁⁰, i.e. −a: a sign slip, since its own
/// no-slip rows (7.4.2) give +a, which is also the only value tangent to the track);
/// the centre of mass, r₀ above the centre at t = 0 (the sign that gives the gravity
/// torque (7.4.6)), moves at (a + r₀)(1, 1, 0).
///
/// **Choices**: mass 71.32/9.81 kg (see [`BowlingBallParams::mass`]); g = 9.81 m/s²;
/// lengths in metres, so the track is y = 1 m · sin(x / 1 m); the centroidal inertia is
/// the thesis' 2/5 m a² also with the offset. Markers `centre` (geometric centre) and
/// `contact-plane`, `track` on ground. Expected figures: Grübler 6 − 2 = 4 (position
/// level), velocity-level freedom 4 − 2 = 2, none redundant.
///
/// This is the centroidal Newton–Euler form. The thesis writes eqs 7.4.1–7.4.7 about
/// the geometric centre (5 velocities, the offset mass coupling translation and
/// rotation in M); that form is the mbs-alf test fixture `tests/common/bowling_ball.rs`,
/// which gives the same motion when its J about the centre is J_c + m(r₀² I − ρρᵀ).
pub fn bowling_ball(p: &BowlingBallParams) -> Result<Model, ModelError> {
    let name = if p.offset == 0.0 {
        "bowling-ball"
    } else {
        "bowling-ball-offset"
    };
    let mut b = ModelBuilder::new(name);
    b.gravity(Vector3::new(0.0, 0.0, -p.gravity));
    let a = p.radius;
    let ball = b.body(
        "ball",
        p.mass,
        Matrix3::from_diagonal_element(0.4 * p.mass * a * a),
    );
    let centre = Vector3::new(0.0, 0.0, a);
    let cm = centre + Vector3::new(0.0, 0.0, p.offset);
    b.set_initial_pose(ball, cm, identity());
    // rolling: v_cm = ω × (r_cm − contact), contact at the origin
    let omega = p.omega; // body = global axes at t = 0
    b.set_initial_velocity(ball, omega.cross(&cm), omega);
    let mc = b.marker_at_global(
        "centre",
        body(ball),
        centre,
        Vector3::z(),
        Some(Vector3::x()),
    );
    let mp = b.marker_at_global(
        "contact-plane",
        BodyRef::Ground,
        Vector3::zeros(),
        Vector3::z(),
        Some(Vector3::x()),
    );
    b.joint("rolling", JointKind::RollingSphere { radius: a }, mc, mp);
    let mc2 = b.marker_at_global(
        "centre.track",
        body(ball),
        centre,
        Vector3::z(),
        Some(Vector3::x()),
    );
    let mt = b.marker_at_global(
        "track",
        BodyRef::Ground,
        Vector3::zeros(),
        Vector3::z(),
        Some(Vector3::x()),
    );
    b.joint(
        "track",
        JointKind::SinePath {
            amplitude: p.amplitude,
            wavenumber: p.wavenumber,
        },
        mc2,
        mt,
    );
    b.build()
}

/// Data of the spatial four-bar (sec 7.5).
#[derive(Clone, Debug, PartialEq)]
pub struct SpatialFourBarParams {
    /// Length of every bar (m).
    pub length: f64,
    /// Mass of every bar (kg).
    pub mass: f64,
    /// Vertical (+y) force on bars 1 and 4 at their centres of mass (N).
    pub force: f64,
    /// Gravitational acceleration along −y (m/s²) (none in the thesis' description).
    pub gravity: f64,
}

impl Default for SpatialFourBarParams {
    fn default() -> Self {
        Self {
            length: 1.0,
            mass: 1.0,
            force: 1.0,
            gravity: 0.0,
        }
    }
}

/// The closed four-bar linkage of sec 7.5 (Fig 7.5.1): four bars joined in a loop
/// ground–1–2–3–4–ground by five spherical joints, vertical forces F_y⁽¹⁾ = F_y⁽⁴⁾ = 1
/// at the centres of mass of bars 1 and 4, 8 s; the geometry and loads are symmetric
/// (bars 1 ↔ 4, 2 ↔ 3).
///
/// **Choices** (Fig 7.5.1 did not survive): y is vertical, the bars lie initially in
/// the horizontal plane y = 0 — ground joints at (0, 0, 0) and (√3 ℓ, 0, 0), bar 1
/// along +z to (0, 0, ℓ), bar 4 from (√3 ℓ, 0, ℓ) back to ground, bars 2 and 3 meeting
/// at the apex (√3ℓ/2, 0, 1.5ℓ) — so every bar has length ℓ and the forces lift the
/// linkage out of its plane; ℓ = 1 m, 1 kg per bar, J' = diag(0.01, 1, 1)·m ℓ²/12 with
/// body x along the bar; no gravity; from rest. Expected figures: Grübler 6·4 − 3·5 = 9,
/// mobility 9 (5 plus the 4 idle spins of the bars about their axes), none redundant.
pub fn spatial_four_bar(p: &SpatialFourBarParams) -> Result<Model, ModelError> {
    let mut b = ModelBuilder::new("spatial-four-bar");
    b.gravity(Vector3::new(0.0, -p.gravity, 0.0));
    let l = p.length;
    let s3 = 3f64.sqrt();
    let pts = [
        Vector3::new(0.0, 0.0, 0.0),
        Vector3::new(0.0, 0.0, l),
        Vector3::new(0.5 * s3 * l, 0.0, 1.5 * l),
        Vector3::new(s3 * l, 0.0, l),
        Vector3::new(s3 * l, 0.0, 0.0),
    ];
    let inertia = rod_inertia(p.mass, l, ROD_AXIAL_FRACTION);
    let bars: Vec<_> = (0..4)
        .map(|k| {
            add_link(
                &mut b,
                &format!("bar{}", k + 1),
                pts[k],
                pts[k + 1],
                p.mass,
                inertia,
            )
        })
        .collect();
    spherical(&mut b, "joint1", BodyRef::Ground, body(bars[0]), pts[0]);
    for k in 1..4 {
        spherical(
            &mut b,
            &format!("joint{}", k + 1),
            body(bars[k - 1]),
            body(bars[k]),
            pts[k],
        );
    }
    spherical(&mut b, "joint5", body(bars[3]), BodyRef::Ground, pts[4]);
    for k in [0, 3] {
        let cm = b.initial(bars[k]).position;
        let m = b.marker_at_global(
            format!("bar{}.cm", k + 1),
            body(bars[k]),
            cm,
            Vector3::z(),
            None,
        );
        b.force(ForceElement::PointForce {
            name: format!("lift{}", k + 1),
            marker: m,
            force: constant_vector(Vector3::new(0.0, p.force, 0.0)),
            frame: LoadFrame::Global,
        });
    }
    b.build()
}

/// Data of the space crane (sec 7.6).
#[derive(Clone, Debug, PartialEq)]
pub struct SpaceCraneParams {
    /// Joint positions: ground joint, elbow 1, elbow 2, tip (m).
    pub points: [Vector3<f64>; 4],
    /// Mass of each link (kg).
    pub mass: f64,
    /// Tip travel along y over the manoeuvre (m).
    pub travel_y: f64,
    /// Ratios v_x/v_y and v_z/v_y of (7.6.3).
    pub ratio_xz: [f64; 2],
    /// Duration T of the manoeuvre (s).
    pub duration: f64,
}

impl Default for SpaceCraneParams {
    fn default() -> Self {
        Self {
            points: [
                Vector3::new(0.0, 0.0, 0.0),
                Vector3::new(6.0, 0.0, 8.0),
                Vector3::new(6.0, 8.0, 14.0),
                Vector3::new(14.0, 8.0, 8.0),
            ],
            mass: 100.0,
            travel_y: 10.0,
            ratio_xz: [-0.454545, -0.454545],
            duration: 180.0,
        }
    }
}

/// The rigid space crane of sec 7.6 (Figs 7.6.5–7.6.9): three links joined by
/// spherical joints (the first to ground), the tip of link 3 prescribed in time by
/// three [`DriverKind::PointCoordinate`] drivers: y_t(t) from rest to rest over
/// T = 180 s, and v_x = v_z = −0.454545 v_y ((7.6.3)); no gravity (in orbit).
///
/// **Choices**: the initial configuration and mass distribution of Gawronski & Ih are
/// not in the thesis: joints at (0, 0, 0), (6, 0, 8), (6, 8, 14) and tip (14, 8, 8) m
/// (three 10 m links, well away from the stretched singularity during the
/// manoeuvre), 100 kg per link with J' = diag(0.01, 1, 1)·m l²/12 (body x along the
/// link); tip travel Δy = 10 m. The thesis' profile (7.6.1) is piecewise (cosine
/// ramps and a cruise phase); [`TimeFunction`] has no piecewise form, so the **chosen**
/// profile is the C² quintic rest-to-rest y(t) = y₀ + Δy (10 s³ − 15 s⁴ + 6 s⁵),
/// s = t/T (same end points, zero velocity and acceleration at both ends). The
/// tip-rotation rate v_θ of (7.6.3) has no counterpart with spherical joints (the spin
/// of link 3 is free) and is not imposed. From rest. Expected figures: Grübler
/// 6·3 − 3·3 − 3 = 6, mobility 6 (3 spins of the links about their axes and 3 elbow
/// motions compatible with the prescribed tip), none redundant.
pub fn space_crane(p: &SpaceCraneParams) -> Result<Model, ModelError> {
    let mut b = ModelBuilder::new("space-crane");
    let pts = &p.points;
    let links: Vec<_> = (0..3)
        .map(|k| {
            let l = (pts[k + 1] - pts[k]).norm();
            add_link(
                &mut b,
                &format!("link{}", k + 1),
                pts[k],
                pts[k + 1],
                p.mass,
                rod_inertia(p.mass, l, ROD_AXIAL_FRACTION),
            )
        })
        .collect();
    spherical(&mut b, "shoulder", BodyRef::Ground, body(links[0]), pts[0]);
    spherical(&mut b, "elbow1", body(links[0]), body(links[1]), pts[1]);
    spherical(&mut b, "elbow2", body(links[1]), body(links[2]), pts[2]);
    let tip = b.marker_at_global("tip", body(links[2]), pts[3], Vector3::z(), None);
    let t = p.duration;
    let quintic = |start: f64, travel: f64| TimeFunction::Polynomial {
        coefficients: vec![
            start,
            0.0,
            0.0,
            10.0 * travel / t.powi(3),
            -15.0 * travel / t.powi(4),
            6.0 * travel / t.powi(5),
        ],
    };
    let travel = [
        p.ratio_xz[0] * p.travel_y,
        p.travel_y,
        p.ratio_xz[1] * p.travel_y,
    ];
    for (axis, name) in ["tip-x", "tip-y", "tip-z"].iter().enumerate() {
        b.driver(
            *name,
            DriverKind::PointCoordinate { marker: tip, axis },
            quintic(pts[3][axis], travel[axis]),
        );
    }
    b.build()
}
