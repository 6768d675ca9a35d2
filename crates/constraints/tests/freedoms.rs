//! The joint catalog's free relative motions ([`Freedoms`]) are the null space of
//! the joint's rows: at an assembled configuration with generic marker frames,
//! every free motion of marker j's body relative to marker i (on ground) leaves the
//! rows unchanged to first order (Φ_q v = 0), and Φ_q has rank 6 − n_free, so the
//! free motions span the whole null space; the rows are as many as the constrained
//! motions. Rolling and curved-path joints have no such description.

mod common;

use common::fixed_axis_kinds;
use mbs_constraints::joints::{Freedoms, NoFreedoms, Rotation, Translation};
use mbs_constraints::{SystemLayout, Workspace};
use mbs_kinematics::euler_params::{from_rotation_vector, rotation};
use mbs_model::{BodyRef, JointKind, Layout, ModelBuilder, State};
use nalgebra::{DMatrix, DVector, Matrix3, Vector3};

/// Free motions (v_P, ω) at marker j's origin P, global components, independent of
/// the rows' code: translations along the free directions, rotations about the free
/// axes.
fn free_motions(
    f: Freedoms,
    ai: &Matrix3<f64>,
    aj: &Matrix3<f64>,
    d: &Vector3<f64>,
) -> Vec<(Vector3<f64>, Vector3<f64>)> {
    let o = Vector3::zeros();
    let e = [Vector3::x(), Vector3::y(), Vector3::z()];
    let (zi, zj) = (ai.column(2).into_owned(), aj.column(2).into_owned());
    let mut out = Vec::new();
    match f.translation {
        Translation::Locked => {}
        Translation::AlongZ => out.push((zi, o)),
        Translation::InPlane => {
            out.push((ai.column(0).into_owned(), o));
            out.push((ai.column(1).into_owned(), o));
        }
        Translation::Sphere => {
            let n = d.normalize();
            let t1 = n.cross(&Vector3::new(0.3, 0.5, 0.8)).normalize();
            out.push((t1, o));
            out.push((n.cross(&t1), o));
        }
        Translation::Free => out.extend(e.iter().map(|v| (*v, o))),
    }
    match f.rotation {
        Rotation::Locked => {}
        Rotation::AboutZ => out.push((o, zi)),
        Rotation::Pins => {
            out.push((o, zi));
            out.push((o, zj));
        }
        Rotation::Free => out.extend(e.iter().map(|v| (o, *v))),
    }
    out
}

fn check(kind: JointKind) {
    let f = Freedoms::of(&kind).unwrap();
    let ai = rotation(&from_rotation_vector(&Vector3::new(0.3, -0.7, 0.4)));
    let p_i = Vector3::new(0.2, -0.1, 0.5);
    // marker j's frame: the same as i's where the rows align the axes, the pin
    // turned by 90° about xᵢ for the universal joint, generic otherwise
    let aj = match kind {
        JointKind::Universal => {
            ai * rotation(&from_rotation_vector(&Vector3::new(
                std::f64::consts::FRAC_PI_2,
                0.0,
                0.0,
            )))
        }
        JointKind::Spherical | JointKind::Distance { .. } => {
            rotation(&from_rotation_vector(&Vector3::new(-0.5, 0.2, 1.1)))
        }
        _ => ai,
    };
    let p_j = match kind {
        JointKind::Distance { length } => p_i + length * Vector3::new(0.6, -0.48, 0.64),
        _ => p_i,
    };
    // the body's pose: centre of mass away from P, generic orientation
    let e_body = from_rotation_vector(&Vector3::new(0.9, 0.1, -0.4));
    let a_body = rotation(&e_body);
    let r = p_j + Vector3::new(0.4, 0.3, -0.2);
    let mut b = ModelBuilder::new("one joint");
    let body = b.body("link", 1.0, Matrix3::identity());
    b.set_initial_pose(body, r, e_body);
    let mi = b.marker("i", BodyRef::Ground, p_i, ai);
    let mj = b.marker(
        "j",
        BodyRef::Body(body),
        a_body.transpose() * (p_j - r),
        a_body.transpose() * aj,
    );
    b.joint("joint", kind.clone(), mi, mj);
    let model = b.build().unwrap();
    let sys = SystemLayout::new(&model, Layout::EulerParamsOmega);
    let mut ws = Workspace::new(&sys);
    let state = State::initial(&model, Layout::EulerParamsOmega);
    ws.evaluate(&model, &sys, &state).unwrap();
    let blk = ws.block(0);
    let jac = DMatrix::from_fn(blk.rows, 6, |i, k| blk.jj[(i, k)]);
    let mut phi = vec![0.0; sys.n_rows()];
    ws.phi(&sys, &mut phi).unwrap();
    assert!(
        phi.iter().all(|x| x.abs() < 1e-12),
        "{kind:?} not assembled: {phi:?}"
    );
    for (v_p, w) in free_motions(f, &ai, &aj, &(p_j - p_i)) {
        // body velocity [ṙ; ω'] of the rigid motion (v_P at P, ω)
        let rdot = v_p + w.cross(&(r - p_j));
        let wb = a_body.transpose() * w;
        let v = DVector::from_column_slice(&[rdot.x, rdot.y, rdot.z, wb.x, wb.y, wb.z]);
        let res = (&jac * v).amax();
        assert!(
            res < 1e-12,
            "{kind:?}: free motion ({v_p:?}, {w:?}) violates the rows by {res:e}"
        );
    }
    let sv = jac.clone().svd(false, false).singular_values;
    let rank = sv.iter().filter(|&&s| s > 1e-9 * sv.max()).count();
    assert_eq!(rank, f.n_constrained(), "{kind:?}: rank of the rows");
    assert_eq!(blk.rows, f.n_constrained(), "{kind:?}: rows");
    assert_eq!(blk.n_holonomic, blk.rows, "{kind:?}: holonomic rows");
}

#[test]
fn free_motions_are_the_null_space_of_the_rows() {
    for kind in fixed_axis_kinds(0.7) {
        check(kind);
    }
    assert_eq!(Freedoms::FREE.n_free(), 6);
    for (kind, why) in [
        (
            JointKind::RollingSphere { radius: 1.0 },
            NoFreedoms::Nonholonomic,
        ),
        (
            JointKind::RollingDisc { radius: 1.0 },
            NoFreedoms::Nonholonomic,
        ),
        (
            JointKind::SinePath {
                amplitude: 1.0,
                wavenumber: 1.0,
            },
            NoFreedoms::CurvedPath,
        ),
    ] {
        assert_eq!(Freedoms::of(&kind), Err(why));
    }
}
