//! Global assembly: sparse pattern fill equals dense fill, matrix-free products, row
//! ranges and normalization rows, four-bar mobility, custom constraints, errors.

mod common;

use std::sync::Arc;

use common::{Draw, fixed_axis_kinds, random_state};
use mbs_constraints::{
    BodyFrame, ConstraintError, ConstraintSource, CustomConstraint, MAX_ROWS, SystemLayout,
    Workspace, mobility,
};
use mbs_kinematics::euler_params::identity;
use mbs_kinematics::skew;
use mbs_model::{
    BodyId, BodyRef, DriverKind, JointKind, Layout, Model, ModelBuilder, State, TimeFunction,
};
use nalgebra::{DMatrix, Matrix3, SMatrix, Vector3};

/// A model exercising every joint and driver kind (not assembled consistently: only the
/// structure matters here).
fn zoo() -> Model {
    let mut b = ModelBuilder::new("zoo");
    let ids: Vec<BodyId> = (0..6)
        .map(|k| b.body(format!("b{k}"), 1.0 + k as f64, Matrix3::identity()))
        .collect();
    let kinds = fixed_axis_kinds(1.0)
        .into_iter()
        .chain([JointKind::SinePath {
            amplitude: 0.3,
            wavenumber: 1.0,
        }]);
    let mut joints = Vec::new();
    for (k, kind) in kinds.into_iter().enumerate() {
        let bi = if k == 0 {
            BodyRef::Ground
        } else {
            BodyRef::Body(ids[k % 6])
        };
        let bj = BodyRef::Body(ids[(k + 1) % 6]);
        joints.push(b.joint_at(
            format!("j{k}"),
            kind,
            bi,
            bj,
            Vector3::new(k as f64, 0.0, 0.0),
            Vector3::z(),
        ));
    }
    let ball = b.marker(
        "ball",
        BodyRef::Body(ids[5]),
        Vector3::new(0.0, 0.1, 0.0),
        Matrix3::identity(),
    );
    let floor = b.marker(
        "floor",
        BodyRef::Ground,
        Vector3::zeros(),
        Matrix3::identity(),
    );
    b.joint(
        "roll",
        JointKind::RollingSphere { radius: 0.5 },
        ball,
        floor,
    );
    let f = TimeFunction::Harmonic {
        amplitude: 0.5,
        frequency: 1.0,
        phase: 0.0,
        offset: 0.0,
    };
    b.driver(
        "angle",
        DriverKind::JointAngle { joint: joints[2] },
        f.clone(),
    );
    b.driver(
        "slide",
        DriverKind::JointTranslation { joint: joints[4] },
        f.clone(),
    );
    b.driver(
        "point",
        DriverKind::PointCoordinate {
            marker: ball,
            axis: 1,
        },
        f,
    );
    b.build().unwrap()
}

#[test]
fn sparse_fill_equals_dense_fill_and_products() {
    let model = zoo();
    for layout in [Layout::EulerParamsOmega, Layout::EulerParamsPdot] {
        let sys = SystemLayout::new(&model, layout);
        let mut ws = Workspace::new(&sys);
        let mut d = Draw::new((0..97).map(|k| ((k as f64) * 0.7123).sin()).collect());
        let state = random_state(&mut d, layout, model.n_bodies());
        ws.evaluate(&model, &sys, &state).unwrap();
        let (m, n) = (sys.n_rows(), sys.n_v());
        let mut dense = DMatrix::zeros(m, n);
        ws.phi_q_dense(&sys, &mut dense).unwrap();
        let pat = sys.pattern();
        let mut values = vec![f64::NAN; pat.nnz()];
        ws.phi_q_values(&sys, &mut values).unwrap();
        let mut from_sparse = DMatrix::zeros(m, n);
        for c in 0..n {
            let rows = &pat.row_idx[pat.col_ptr[c]..pat.col_ptr[c + 1]];
            assert!(
                rows.windows(2).all(|w| w[0] < w[1]),
                "rows sorted and unique in column {c}"
            );
            for (k, &r) in rows.iter().enumerate() {
                from_sparse[(r, c)] = values[pat.col_ptr[c] + k];
            }
        }
        assert_eq!(
            from_sparse, dense,
            "{layout:?}: sparse fill differs from dense fill"
        );
        // Every non-zero of the dense fill is in the pattern (checked above by equality),
        // and the pattern is not trivially dense.
        assert!(pat.nnz() < m * n / 2);
        let x: Vec<f64> = (0..n).map(|k| (k as f64 * 1.3).cos()).collect();
        let y: Vec<f64> = (0..m).map(|k| (k as f64 * 0.9).sin()).collect();
        let mut ax = vec![0.0; m];
        let mut aty = vec![0.0; n];
        ws.phi_q_mul(&sys, &x, &mut ax).unwrap();
        ws.phi_q_tr_mul(&sys, &y, &mut aty).unwrap();
        let ax_ref = &dense * nalgebra::DVector::from_column_slice(&x);
        let aty_ref = dense.transpose() * nalgebra::DVector::from_column_slice(&y);
        assert!((ax_ref - nalgebra::DVector::from_column_slice(&ax)).amax() < 1e-12);
        assert!((aty_ref - nalgebra::DVector::from_column_slice(&aty)).amax() < 1e-12);

        // Row ranges: holonomic first, contiguous, covering every row once.
        let mut covered = vec![0; m];
        for r in sys.row_ranges() {
            for k in r.start..r.start + r.len {
                covered[k] += 1;
                assert_eq!(r.holonomic, k < sys.n_holonomic());
            }
        }
        assert!(covered.iter().all(|&c| c == 1));
        let expected_rows = 3 + 4 + 5 + 4 + 5 + 3 + 6 + 1 + 1 + 3 + 3;
        let norm = if layout == Layout::EulerParamsPdot {
            6
        } else {
            0
        };
        assert_eq!(m, expected_rows + norm);
        assert_eq!(sys.n_nonholonomic(), 2);
        assert_eq!(
            sys.source_of_row(m - 1),
            Some(ConstraintSource::Joint(mbs_model::JointId(9)))
        );

        // Normalization rows: Φ = pᵀp − 1, Jacobian 2pᵀ, γ = −2ṗᵀṗ.
        if let Some(ns) = sys.normalization_start() {
            let mut phi = vec![0.0; m];
            let mut gamma = vec![0.0; m];
            ws.phi(&sys, &mut phi).unwrap();
            ws.gamma(&sys, &mut gamma).unwrap();
            for b in 0..model.n_bodies() {
                let p = state.euler_params(b);
                let pd = state.pdot(b);
                assert!((phi[ns + b] - (p.norm_squared() - 1.0)).abs() < 1e-15);
                assert!((gamma[ns + b] + 2.0 * pd.norm_squared()).abs() < 1e-14);
                for c in 0..4 {
                    assert_eq!(dense[(ns + b, 7 * b + 3 + c)], 2.0 * p[c]);
                }
            }
        }

        // Φ̇ = Φ_q v + Φ_t equals dΦ/ds along the motion (holonomic rows).
        let mut phi_dot = vec![0.0; m];
        ws.phi_dot(&sys, &mut phi_dot).unwrap();
        let h = 1e-6;
        let mut ws2 = Workspace::new(&sys);
        let mut fp = vec![0.0; m];
        let mut fm = vec![0.0; m];
        ws2.evaluate(&model, &sys, &common::along_motion(&state, h, true))
            .unwrap();
        ws2.phi(&sys, &mut fp).unwrap();
        ws2.evaluate(&model, &sys, &common::along_motion(&state, -h, true))
            .unwrap();
        ws2.phi(&sys, &mut fm).unwrap();
        for r in 0..sys.n_holonomic() {
            let fd = (fp[r] - fm[r]) / (2.0 * h);
            assert!(
                (fd - phi_dot[r]).abs() < 1e-6 * (1.0 + fd.abs()),
                "{layout:?} row {r}: {fd} vs {}",
                phi_dot[r]
            );
        }

        // Repeated evaluation on the same workspace gives identical results.
        let blocks = ws.blocks().to_vec();
        ws.evaluate(&model, &sys, &state).unwrap();
        assert_eq!(blocks, ws.blocks());
    }
}

/// A planar four-bar of revolutes: Grübler 18 − 20 = −2, mobility 1, 3 redundant rows.
#[test]
fn four_bar_mobility() {
    let mut b = ModelBuilder::new("four-bar");
    let (a, bb, c, d) = (
        Vector3::new(0.0, 0.0, 0.0),
        Vector3::new(0.0, 1.0, 0.0),
        Vector3::new(2.0, 1.5, 0.0),
        Vector3::new(2.5, 0.0, 0.0),
    );
    let crank = b.body("crank", 1.0, Matrix3::from_diagonal_element(0.1));
    let coupler = b.body("coupler", 1.0, Matrix3::from_diagonal_element(0.1));
    let rocker = b.body("rocker", 1.0, Matrix3::from_diagonal_element(0.1));
    b.set_initial_pose(crank, (a + bb) / 2.0, identity());
    b.set_initial_pose(coupler, (bb + c) / 2.0, identity());
    b.set_initial_pose(rocker, (c + d) / 2.0, identity());
    let z = Vector3::z();
    b.joint_at(
        "A",
        JointKind::Revolute,
        BodyRef::Ground,
        BodyRef::Body(crank),
        a,
        z,
    );
    b.joint_at(
        "B",
        JointKind::Revolute,
        BodyRef::Body(crank),
        BodyRef::Body(coupler),
        bb,
        z,
    );
    b.joint_at(
        "C",
        JointKind::Revolute,
        BodyRef::Body(coupler),
        BodyRef::Body(rocker),
        c,
        z,
    );
    b.joint_at(
        "D",
        JointKind::Revolute,
        BodyRef::Body(rocker),
        BodyRef::Ground,
        d,
        z,
    );
    let model = b.build().unwrap();
    let sys = SystemLayout::new(&model, Layout::EulerParamsPdot);
    assert_eq!(
        sys.source_of_row(7),
        Some(ConstraintSource::Joint(mbs_model::JointId(1)))
    );
    assert_eq!(
        sys.source_name(&model, ConstraintSource::Joint(mbs_model::JointId(1))),
        "joint `B` (revolute)"
    );
    assert_eq!(
        sys.source_name(&model, ConstraintSource::Normalization(BodyId(2))),
        "normalization of body `rocker`"
    );
    for layout in [Layout::EulerParamsOmega, Layout::EulerParamsPdot] {
        let state = State::initial(&model, layout);
        let mob = mobility(&model, &state, 1e-9).unwrap();
        assert_eq!(mob.rows, 20);
        assert_eq!(mob.grubler, -2);
        assert_eq!(mob.mobility, 1);
        assert_eq!(mob.redundant, 3);
        assert_eq!(mob.rank, 17);
    }
}

/// A hand-written custom constraint: a body point at height h (holonomic) that cannot
/// move along global x (nonholonomic). Its rows equal those of point drivers.
#[derive(Debug)]
struct PointOnPlane {
    body: BodyId,
    s: Vector3<f64>,
    height: f64,
}

impl CustomConstraint for PointOnPlane {
    fn name(&self) -> &str {
        "point on plane"
    }
    fn bodies(&self) -> (BodyRef, BodyRef) {
        (BodyRef::Body(self.body), BodyRef::Ground)
    }
    fn holonomic_rows(&self) -> usize {
        1
    }
    fn nonholonomic_rows(&self) -> usize {
        1
    }
    fn position(&self, _t: f64, fi: &BodyFrame, _fj: &BodyFrame, phi: &mut [f64]) {
        phi[0] = fi.point(&self.s).z - self.height;
    }
    fn velocity(
        &self,
        _t: f64,
        fi: &BodyFrame,
        _fj: &BodyFrame,
        ji: &mut SMatrix<f64, MAX_ROWS, 6>,
        _jj: &mut SMatrix<f64, MAX_ROWS, 6>,
        phi_t: &mut [f64],
    ) {
        let jw = -fi.a * skew(&self.s);
        for (row, axis) in [(0, 2), (1, 0)] {
            ji[(row, axis)] = 1.0;
            for c in 0..3 {
                ji[(row, 3 + c)] = jw[(axis, c)];
            }
            phi_t[row] = 0.0;
        }
    }
    fn acceleration(&self, _t: f64, fi: &BodyFrame, _fj: &BodyFrame, gamma: &mut [f64]) {
        let acc = fi.omega.cross(&fi.omega.cross(&(fi.a * self.s)));
        gamma[0] = -acc.z;
        gamma[1] = -acc.x;
    }
}

#[test]
fn custom_constraint_matches_point_drivers() {
    let mut b = ModelBuilder::new("custom");
    let body = b.body("body", 1.0, Matrix3::identity());
    let s = Vector3::new(0.3, -0.2, 0.5);
    let mk = b.marker("m", BodyRef::Body(body), s, Matrix3::identity());
    b.driver(
        "z",
        DriverKind::PointCoordinate {
            marker: mk,
            axis: 2,
        },
        TimeFunction::constant(0.25),
    );
    b.driver(
        "x",
        DriverKind::PointCoordinate {
            marker: mk,
            axis: 0,
        },
        TimeFunction::constant(0.0),
    );
    let model = b.build().unwrap();
    let custom: Arc<dyn CustomConstraint> = Arc::new(PointOnPlane {
        body,
        s,
        height: 0.25,
    });
    for layout in [Layout::EulerParamsOmega, Layout::EulerParamsPdot] {
        let sys = SystemLayout::with_custom(&model, layout, vec![custom.clone()]).unwrap();
        let mut ws = Workspace::new(&sys);
        let mut d = Draw::new((0..40).map(|k| ((k as f64) * 1.37).sin()).collect());
        let state = random_state(&mut d, layout, 1);
        ws.evaluate(&model, &sys, &state).unwrap();
        let (dz, dx, cu) = (ws.block(0), ws.block(1), ws.block(2));
        assert_eq!(sys.entries()[2].source, ConstraintSource::Custom(0));
        assert!((cu.phi[0] - dz.phi[0]).abs() < 1e-14);
        assert!((cu.gamma[0] - dz.gamma[0]).abs() < 1e-14);
        assert!((cu.gamma[1] - dx.gamma[0]).abs() < 1e-14);
        assert!((cu.ji_pdot.row(0) - dz.ji_pdot.row(0)).amax() < 1e-14);
        assert!((cu.ji_pdot.row(1) - dx.ji_pdot.row(0)).amax() < 1e-14);
        // The nonholonomic residual is the point's x velocity.
        let vx = ws.frames()[0].point_velocity(&s).x;
        assert!((cu.phi[1] - vx).abs() < 1e-14);
        // Global rows: 2 driver rows, 1 custom holonomic, normalization, then 1 nonholonomic.
        let norm = usize::from(layout == Layout::EulerParamsPdot);
        assert_eq!(sys.n_holonomic(), 3 + norm);
        assert_eq!(sys.n_rows(), 4 + norm);
    }
    let bad: Arc<dyn CustomConstraint> = Arc::new(PointOnPlane {
        body: BodyId(3),
        s,
        height: 0.0,
    });
    let err = SystemLayout::with_custom(&model, Layout::EulerParamsOmega, vec![bad]).unwrap_err();
    assert!(
        matches!(err, ConstraintError::InvalidCustom { index: 0, .. }),
        "{err}"
    );
}

#[test]
fn errors_name_the_body_and_the_buffer() {
    let model = zoo();
    let sys = SystemLayout::new(&model, Layout::EulerParamsOmega);
    let mut ws = Workspace::new(&sys);
    let mut state = State::initial(&model, Layout::EulerParamsOmega);
    state.q[7 * 2 + 1] = f64::NAN;
    let err = ws.evaluate(&model, &sys, &state).unwrap_err();
    assert!(err.to_string().contains("`b2`"), "{err}");
    let mut state = State::initial(&model, Layout::EulerParamsOmega);
    state.q.fixed_rows_mut::<4>(7 * 4 + 3).fill(0.0);
    let err = ws.evaluate(&model, &sys, &state).unwrap_err();
    assert!(
        matches!(&err, ConstraintError::DegenerateEulerParams { body, .. } if body == "b4"),
        "{err}"
    );
    let state = State::initial(&model, Layout::EulerParamsPdot);
    let err = ws.evaluate(&model, &sys, &state).unwrap_err();
    assert!(matches!(err, ConstraintError::LayoutMismatch { .. }));
    let state = State::initial(&model, Layout::EulerParamsOmega);
    ws.evaluate(&model, &sys, &state).unwrap();
    let mut short = vec![0.0; 3];
    let err = ws.phi(&sys, &mut short).unwrap_err();
    assert!(matches!(
        err,
        ConstraintError::DimensionMismatch { what: "phi", .. }
    ));
}
