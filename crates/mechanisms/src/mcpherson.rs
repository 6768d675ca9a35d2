//! The simplified and the over-constrained McPherson struts of Pękal & Frączek
//! (*Comparison of natural complement formulations for multibody dynamics*, sec 4.1,
//! Fig 1, Table 1; after Haug 1989 and Wojtyra & Frączek 2013).
//!
//! Paper data: 5 rigid bodies, 4 degrees of freedom of which 2 are local mobilities
//! (bodies 3 and 4); Table 1 lengths; centres of mass in the middle of |AB|, |CD|,
//! |JK|, |IL|, |LN| (bodies 1–5); m = 1 kg and J = diag(0.1, 0.1, 0.1) kg m² for every
//! body; F_z = 40 N at the centre of mass of body 1; F_y = 0.1 sin t N on body 5;
//! gravity −9.80665 m/s² along z; the over-constrained strut has the same motion as
//! the simplified one plus redundant constraints.
//!
//! Fig 1 did not survive, so the layout is a **choice** that uses the Table 1 lengths
//! as follows (x forward, y outboard, z up; u = (0, −sin 10°, cos 10°) is the strut
//! axis, tilted 10° inboard):
//!
//! | body | what | points |
//! |---|---|---|
//! | 1 | lower control arm | A = (0, 0, 0) (pivot, axis x) → B = A + \|AB\|·y, \|AB\| = 0.3 |
//! | 2 | strut tube + knuckle | C = B + \|BC\|·z (\|BC\| = 0.05) → D = C + \|CD\|·u (\|CD\| = 0.45); steering-arm base E = C + \|CE\|·u (0.1); spindle base F = C + \|CF\|·u (0.25); tie-rod ball joint H = E − \|EH\|·x (0.15); wheel-centre marker G = F + \|FG\|·y (0.1) |
//! | 3 | tie rod | K = H → J = H − \|JK\|·y (0.3) |
//! | 4 | piston rod | I = F → L = I + \|IL\|·u (0.5), top mount at L |
//! | 5 | steering rack | from J inboard by \|LN\| = 0.2, translating along y |
//!
//! Joints of the simplified strut: revolute ground–1 at A (axis x), spherical 1–2 at
//! B, cylindrical 2–4 along u at D, spherical 4–ground at L (top mount), spherical
//! 2–3 at H and 3–5 at J, prismatic 5–ground along y (26 rows: Grübler 30 − 26 = 4 =
//! mobility; local mobilities: the spins of the tie rod 3 and of the piston rod 4 about
//! their own axes). The over-constrained strut (**choice** of the redundancy) bears the
//! control arm in two coaxial revolute joints at A_a = A − |AA_a|·x and
//! A_b = A + |AA_b|·x (|AA_a| = |AA_b| = 0.025) instead of one at A: 31 rows, Grübler
//! −1, mobility 4, 5 redundant constraints. |FG| = 0.1 places the **chosen** wheel-centre
//! marker G = F + |FG|·y (a marker only: no mass or load there); |GI| = 0.05 of Table 1
//! is not used (its role is not recoverable without Fig 1). F_z acts at the centre of
//! mass of body 1, F_y at the centre of mass of body 5; from rest.
//!
//! | quantity | paper | ours |
//! |---|---|---|
//! | \|AB\|, \|AA_a\|, \|AA_b\| | 0.3, 0.025, 0.025 m | the same |
//! | \|CD\|, \|CE\|, \|CF\|, \|BC\|, \|FG\|, \|EH\|, \|GI\| | 0.45, 0.1, 0.25, 0.05, 0.1, 0.15, 0.05 m | the same, \|GI\| unused |
//! | \|JK\|, \|IL\|, \|LN\| | 0.3, 0.5, 0.2 m | the same lengths; body 5 (length \|LN\|) is **our** steering rack from J: the letter L shared with body 4's \|IL\| hints that Fig 1 joins bodies 4 and 5 at L, which we cannot recover |
//! | masses, inertias | m = 1 kg, J_x = J_y = J_z = 0.1 kg m² | the same |
//! | centres of mass | middle of \|AB\|, \|CD\|, \|JK\|, \|IL\|, \|LN\| | the same |
//! | loads | F_z = 40 N on body 1, F_y = 0.1 sin t N on body 5, g = −9.80665 m/s² along z | the same, at the centres of mass |
//! | layout, joint axes, strut inclination | Fig 1 (lost) | **choice**: table above, 10° |
//! | initial velocities | not stated | **choice**: rest |
//!
//! Independent values: none. The paper checked its results against Adams but prints
//! only computation times (Figs 2–5), which belong to the methods.

use mbs_model::{
    BodyRef, ForceElement, JointKind, LoadFrame, Model, ModelBuilder, ModelError, TimeFunction,
};
use nalgebra::{Matrix3, Vector3};

use crate::util::{add_link, body, spherical};

/// Data of the McPherson struts (Table 1 and sec 4.1).
#[derive(Clone, Debug, PartialEq)]
pub struct McPhersonParams {
    /// Mass of every body (kg).
    pub mass: f64,
    /// Principal moment of inertia of every body (kg m²).
    pub inertia: f64,
    /// Constant vertical force on body 1 (N).
    pub force_z: f64,
    /// Amplitude of the lateral force 0.1 sin t on body 5 (N).
    pub force_y: f64,
    /// Gravitational acceleration along −z (m/s²).
    pub gravity: f64,
    /// Inclination of the strut axis from the vertical (rad) (choice: 10°).
    pub strut_inclination: f64,
}

impl Default for McPhersonParams {
    fn default() -> Self {
        Self {
            mass: 1.0,
            inertia: 0.1,
            force_z: 40.0,
            force_y: 0.1,
            gravity: 9.80665,
            strut_inclination: 10f64.to_radians(),
        }
    }
}

// Table 1 [m]
const AB: f64 = 0.3;
const AA: f64 = 0.025;
const CD: f64 = 0.45;
const CE: f64 = 0.1;
const CF: f64 = 0.25;
const BC: f64 = 0.05;
const FG: f64 = 0.1;
const EH: f64 = 0.15;
const JK: f64 = 0.3;
const IL: f64 = 0.5;
const LN: f64 = 0.2;

fn strut(name: &str, p: &McPhersonParams, overconstrained: bool) -> Result<Model, ModelError> {
    let mut b = ModelBuilder::new(name);
    b.gravity(Vector3::new(0.0, 0.0, -p.gravity));
    let j = Matrix3::from_diagonal_element(p.inertia);
    let (x, y, z) = (Vector3::x(), Vector3::y(), Vector3::z());
    let u = Vector3::new(0.0, -p.strut_inclination.sin(), p.strut_inclination.cos());
    let a = Vector3::zeros();
    let bp = a + AB * y;
    let c = bp + BC * z;
    let d = c + CD * u;
    let e = c + CE * u;
    let f = c + CF * u;
    let g = f + FG * y;
    let h = e - EH * x;
    let jp = h - JK * y;
    let i = f;
    let l = i + IL * u;
    let n = jp - LN * y;

    let arm = add_link(&mut b, "body1-control-arm", a, bp, p.mass, j);
    let knuckle = add_link(&mut b, "body2-strut-knuckle", c, d, p.mass, j);
    let tie_rod = add_link(&mut b, "body3-tie-rod", jp, h, p.mass, j);
    let piston = add_link(&mut b, "body4-piston-rod", i, l, p.mass, j);
    let rack = add_link(&mut b, "body5-rack", n, jp, p.mass, j);
    let ground = BodyRef::Ground;

    if overconstrained {
        b.joint_at(
            "arm-bearing-a",
            JointKind::Revolute,
            ground,
            body(arm),
            a - AA * x,
            x,
        );
        b.joint_at(
            "arm-bearing-b",
            JointKind::Revolute,
            ground,
            body(arm),
            a + AA * x,
            x,
        );
    } else {
        b.joint_at("arm-pivot", JointKind::Revolute, ground, body(arm), a, x);
    }
    spherical(&mut b, "ball-joint", body(arm), body(knuckle), bp);
    b.joint_at(
        "strut",
        JointKind::Cylindrical,
        body(knuckle),
        body(piston),
        d,
        u,
    );
    spherical(&mut b, "top-mount", body(piston), ground, l);
    spherical(&mut b, "tie-rod-outer", body(knuckle), body(tie_rod), h);
    spherical(&mut b, "tie-rod-inner", body(tie_rod), body(rack), jp);
    let rack_cm = b.initial(rack).position;
    b.joint_at(
        "rack-slide",
        JointKind::Prismatic,
        ground,
        body(rack),
        rack_cm,
        y,
    );

    b.marker_at_global("wheel-centre", body(knuckle), g, y, None);
    let arm_cm = b.initial(arm).position;
    let m1 = b.marker_at_global("body1.cm", body(arm), arm_cm, z, None);
    let m5 = b.marker_at_global("body5.cm", body(rack), rack_cm, z, None);
    let c0 = || TimeFunction::constant(0.0);
    b.force(ForceElement::PointForce {
        name: "Fz".into(),
        marker: m1,
        force: [c0(), c0(), TimeFunction::constant(p.force_z)],
        frame: LoadFrame::Global,
    });
    b.force(ForceElement::PointForce {
        name: "Fy".into(),
        marker: m5,
        force: [
            c0(),
            TimeFunction::Harmonic {
                amplitude: p.force_y,
                frequency: 1.0,
                phase: 0.0,
                offset: 0.0,
            },
            c0(),
        ],
        frame: LoadFrame::Global,
    });
    b.build()
}

/// The simplified McPherson strut (Fig 1a), no redundant constraints; layout and
/// choices in the module documentation. Expected figures: Grübler 4, mobility 4, none
/// redundant.
pub fn mcpherson_simplified(p: &McPhersonParams) -> Result<Model, ModelError> {
    strut("mcpherson-simplified", p, false)
}

/// The over-constrained McPherson strut (Fig 1b): the simplified strut with the control
/// arm borne in two coaxial revolute joints (choice, see the module documentation).
/// Expected figures: Grübler −1, mobility 4, 5 redundant constraints.
pub fn mcpherson_overconstrained(p: &McPhersonParams) -> Result<Model, ModelError> {
    strut("mcpherson-overconstrained", p, true)
}
