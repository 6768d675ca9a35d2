//! The nine-body vehicle with suspensions of Chiou's thesis (1990, *Constraint treatment
//! techniques and parallel algorithms for multibody dynamic analysis*, sec 7.7,
//! Figs 7.7.1–7.7.2).
//!
//! The thesis' data (provided by P. Nikravesh) did not survive; it states: nine bodies,
//! four spring–dampers, tires as unilateral springs, released from rest one metre
//! above the ground, gravity; and its partition table lists ten joints. The model
//! below is a **choice** consistent with that (x forward, y left, z up, g = 9.81 m/s²
//! along −z):
//!
//! | body | mass (kg) | J' (kg m²) | joints |
//! |---|---|---|---|
//! | 1 chassis | 1000 | diag(400, 1600, 1800) | — |
//! | 2, 5 front upper arm (left, right) | 5 | diag(0.05, 0.02, 0.05) | revolute to chassis (axis x), spherical to spindle |
//! | 3, 6 front lower arm | 10 | diag(0.1, 0.05, 0.1) | revolute to chassis (axis x), spherical to spindle |
//! | 4, 7 front spindle + wheel | 20 | diag(0.8, 1.2, 0.8) | the two ball joints |
//! | 8, 9 rear trailing arm + wheel | 30 | diag(1.0, 1.5, 1.0) | revolute to chassis (axis y) |
//!
//! Ten joints: 4 + 2 revolute (front arms, rear arms), 4 spherical (front ball joints).
//! Geometry (left side; the right side is its mirror image y → −y), with the wheel
//! centres at height z_w = r + 1 m (tire radius r = 0.3 m, the tires' lowest points 1 m
//! above the ground): front wheel centre (1.3, 0.75, z_w); lower arm from (1.3, 0.30,
//! z_w − 0.15) to its ball joint (1.3, 0.65, z_w − 0.15); upper arm from (1.3, 0.40,
//! z_w + 0.15) to (1.3, 0.62, z_w + 0.15); spindle centre of mass at the wheel centre;
//! rear arm pivot (−0.9, 0.75, z_w), arm centre of mass (−1.2, 0.75, z_w), wheel centre
//! (−1.3, 0.75, z_w); chassis centre of mass (0, 0, z_w + 0.2).
//! Spring–dampers (free at the initial pose, so the vehicle starts in free fall):
//! front k = 3·10⁴ N/m, c = 2·10³ N s/m from the lower arm (1.3, 0.5, z_w − 0.15) to the
//! chassis (1.3, 0.45, z_w + 0.35); rear k = 2.5·10⁴ N/m, c = 2·10³ N s/m from the rear
//! arm (−1.3, 0.65, z_w) to the chassis (−1.3, 0.65, z_w + 0.4). Tires: unilateral
//! springs k = 2·10⁵ N/m, c = 500 N s/m acting while the wheel centre is less than
//! r above the ground, as springs to a ground anchor 100 m below the wheel (free length
//! 100 m + r: a vertical force to within 1e-2 rad for horizontal offsets up to 1 m, i.e.
//! flat ground; see `TIRE_ANCHOR_DEPTH`).
//! Every front spindle turns freely about its kingpin (the line of its ball joints; no
//! tie rod among the ten joints); the loads are symmetric about that line, so this
//! mode stays at rest. Expected figures: Grübler 54 − 30 − 12 = 12, mobility 12
//! (chassis 6, 2 per front corner — travel and kingpin spin —, 1 per rear corner),
//! none redundant.
//!
//! Thesis vs ours: nine bodies, four spring–dampers, unilateral tire springs, dropped from
//! rest 1 m above the ground under gravity, ten joints — all kept; every number in the
//! table and the geometry above (masses, inertias, positions, stiffnesses, dampings,
//! tire radius, g = 9.81) is a **choice**. Independent values: none (the thesis plots
//! body displacements of its lost data); our layout is mirror-symmetric about y = 0,
//! so the drop keeps the left and right sides mirror images, and the vehicle lands on
//! its tires (no wheel centre sinks below the ground): checks of the builder rather
//! than of the thesis, in the facade's `published_values` tests.

use mbs_model::{
    BodyId, BodyRef, ForceElement, JointKind, Model, ModelBuilder, ModelError, TimeFunction,
};
use nalgebra::{Matrix3, Vector3};

use crate::util::{body, spherical};

/// The main numbers of the vehicle (defaults: the choices of the module
/// documentation; the drop height is the thesis' 1 m).
#[derive(Clone, Debug, PartialEq)]
pub struct VehicleParams {
    /// Height of the tires' lowest points above the ground at t = 0 (m).
    pub drop_height: f64,
    /// Tire radius r (free length of the tire springs) (m).
    pub tire_radius: f64,
    /// Tire stiffness (N/m) and damping (N s/m).
    pub tire: [f64; 2],
    /// Front spring stiffness (N/m) and damping (N s/m).
    pub front_spring: [f64; 2],
    /// Rear spring stiffness (N/m) and damping (N s/m).
    pub rear_spring: [f64; 2],
    /// Chassis mass (kg).
    pub chassis_mass: f64,
    /// Gravitational acceleration along −z (m/s²).
    pub gravity: f64,
}

impl Default for VehicleParams {
    fn default() -> Self {
        Self {
            drop_height: 1.0,
            tire_radius: 0.3,
            tire: [2e5, 500.0],
            front_spring: [3e4, 2e3],
            rear_spring: [2.5e4, 2e3],
            chassis_mass: 1000.0,
            gravity: 9.81,
        }
    }
}

/// Tyre stiffness of [`VehicleParams::stiff_tyres`] (N/m, a **choice**): 500 × the
/// default 2·10⁵, a wheel-hop frequency √(k/m_wheel) ≈ 2·10³ rad/s (front spindle,
/// 20 kg) against the body modes of ≈ 5 rad/s; with the default tyre damping
/// (500 N s/m) the hop is lightly damped (ζ ≈ 0.6 %).
pub const STIFF_TYRE: f64 = 1e8;

impl VehicleParams {
    /// The vehicle with stiff tyres (issue #31's stiff suite): the default vehicle with
    /// tyre stiffness [`STIFF_TYRE`], everything else unchanged; registered as
    /// `vehicle-stiff-tyres`.
    pub fn stiff_tyres() -> Self {
        Self {
            tire: [STIFF_TYRE, 500.0],
            ..Self::default()
        }
    }
}

fn diag(a: f64, b: f64, c: f64) -> Matrix3<f64> {
    Matrix3::from_diagonal(&Vector3::new(a, b, c))
}

fn add(b: &mut ModelBuilder, name: &str, m: f64, j: Matrix3<f64>, r: Vector3<f64>) -> BodyId {
    let id = b.body(name, m, j);
    b.set_initial_pose(id, r, mbs_kinematics::euler_params::identity());
    id
}

fn spring(
    b: &mut ModelBuilder,
    name: &str,
    i: BodyRef,
    pi: Vector3<f64>,
    j: BodyRef,
    pj: Vector3<f64>,
    k: f64,
    c: f64,
) {
    let mi = b.marker_at_global(format!("{name}.i"), i, pi, Vector3::z(), None);
    let mj = b.marker_at_global(format!("{name}.j"), j, pj, Vector3::z(), None);
    b.force(ForceElement::SpringDamper {
        name: name.into(),
        marker_i: mi,
        marker_j: mj,
        stiffness: k,
        damping: c,
        free_length: (pj - pi).norm(),
        actuator: TimeFunction::default(),
    });
}

/// Depth below the ground of each tire spring's ground anchor (m, a choice): the spring
/// from the wheel centre to a point this far below it, with free length depth + r,
/// pushes the wheel up as soon as its centre is less than r above the ground, in a
/// direction within (horizontal offset)/depth of the vertical — a tire on flat ground.
/// An anchor on the ground surface would push the wheel radially away from one point,
/// and a wheel that the suspension moves sideways slides off that point and falls
/// through the ground (which the first version of this model did).
const TIRE_ANCHOR_DEPTH: f64 = 100.0;

fn tire(b: &mut ModelBuilder, p: &VehicleParams, name: &str, wheel: BodyRef, centre: Vector3<f64>) {
    let mi = b.marker_at_global(format!("{name}.wheel"), wheel, centre, Vector3::z(), None);
    let ground_pt = Vector3::new(centre.x, centre.y, -TIRE_ANCHOR_DEPTH);
    let mj = b.marker_at_global(
        format!("{name}.ground"),
        BodyRef::Ground,
        ground_pt,
        Vector3::z(),
        None,
    );
    b.force(ForceElement::UnilateralSpring {
        name: name.into(),
        marker_i: mi,
        marker_j: mj,
        stiffness: p.tire[0],
        damping: p.tire[1],
        free_length: TIRE_ANCHOR_DEPTH + p.tire_radius,
    });
}

/// The nine-body vehicle of sec 7.7; every value is listed in the module
/// documentation (all of them chosen except the body count, the four spring–dampers,
/// the unilateral tires, the 1 m drop from rest and gravity).
pub fn vehicle(p: &VehicleParams) -> Result<Model, ModelError> {
    vehicle_named("vehicle", p)
}

/// [`vehicle`] under another model name (the registry's `vehicle-stiff-tyres` is
/// `vehicle_named("vehicle-stiff-tyres", &VehicleParams::stiff_tyres())`).
pub fn vehicle_named(name: &str, p: &VehicleParams) -> Result<Model, ModelError> {
    let mut b = ModelBuilder::new(name);
    b.gravity(Vector3::new(0.0, 0.0, -p.gravity));
    let zw = p.tire_radius + p.drop_height;
    let chassis = add(
        &mut b,
        "chassis",
        p.chassis_mass,
        diag(400.0, 1600.0, 1800.0),
        Vector3::new(0.0, 0.0, zw + 0.2),
    );
    let ch = body(chassis);
    let v = |x: f64, y: f64, z: f64| Vector3::new(x, y, z);
    // front corners
    let mut front = Vec::new();
    for (side, s) in [("left", 1.0), ("right", -1.0)] {
        let lower_in = v(1.3, s * 0.30, zw - 0.15);
        let lower_out = v(1.3, s * 0.65, zw - 0.15);
        let upper_in = v(1.3, s * 0.40, zw + 0.15);
        let upper_out = v(1.3, s * 0.62, zw + 0.15);
        let wheel = v(1.3, s * 0.75, zw);
        let upper = add(
            &mut b,
            &format!("front-upper-arm-{side}"),
            5.0,
            diag(0.05, 0.02, 0.05),
            0.5 * (upper_in + upper_out),
        );
        let lower = add(
            &mut b,
            &format!("front-lower-arm-{side}"),
            10.0,
            diag(0.1, 0.05, 0.1),
            0.5 * (lower_in + lower_out),
        );
        let spindle = add(
            &mut b,
            &format!("front-spindle-{side}"),
            20.0,
            diag(0.8, 1.2, 0.8),
            wheel,
        );
        front.push((
            upper, lower, spindle, side, s, wheel, upper_in, upper_out, lower_in, lower_out,
        ));
    }
    let mut rear = Vec::new();
    for (side, s) in [("left", 1.0), ("right", -1.0)] {
        let arm = add(
            &mut b,
            &format!("rear-arm-{side}"),
            30.0,
            diag(1.0, 1.5, 1.0),
            v(-1.2, s * 0.75, zw),
        );
        rear.push((arm, side, s));
    }
    for &(upper, lower, spindle, side, s, wheel, upper_in, upper_out, lower_in, lower_out) in &front
    {
        b.joint_at(
            format!("front-upper-pivot-{side}"),
            JointKind::Revolute,
            ch,
            body(upper),
            upper_in,
            Vector3::x(),
        );
        b.joint_at(
            format!("front-lower-pivot-{side}"),
            JointKind::Revolute,
            ch,
            body(lower),
            lower_in,
            Vector3::x(),
        );
        spherical(
            &mut b,
            &format!("front-upper-ball-{side}"),
            body(upper),
            body(spindle),
            upper_out,
        );
        spherical(
            &mut b,
            &format!("front-lower-ball-{side}"),
            body(lower),
            body(spindle),
            lower_out,
        );
        spring(
            &mut b,
            &format!("front-spring-{side}"),
            body(lower),
            v(1.3, s * 0.5, zw - 0.15),
            ch,
            v(1.3, s * 0.45, zw + 0.35),
            p.front_spring[0],
            p.front_spring[1],
        );
        tire(
            &mut b,
            p,
            &format!("front-tire-{side}"),
            body(spindle),
            wheel,
        );
    }
    for &(arm, side, s) in &rear {
        b.joint_at(
            format!("rear-pivot-{side}"),
            JointKind::Revolute,
            ch,
            body(arm),
            v(-0.9, s * 0.75, zw),
            Vector3::y(),
        );
        spring(
            &mut b,
            &format!("rear-spring-{side}"),
            body(arm),
            v(-1.3, s * 0.65, zw),
            ch,
            v(-1.3, s * 0.65, zw + 0.4),
            p.rear_spring[0],
            p.rear_spring[1],
        );
        tire(
            &mut b,
            p,
            &format!("rear-tire-{side}"),
            body(arm),
            v(-1.3, s * 0.75, zw),
        );
    }
    b.build()
}
