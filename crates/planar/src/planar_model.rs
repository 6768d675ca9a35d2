//! A [`Model`] seen in the x–y plane: per body the mass m, the moment of inertia J_zz
//! about the centre of mass and the (constant) height z; per joint and driver the
//! in-plane data of its markers. Everything that would move a body out of the plane
//! or need out-of-plane equations is refused here, naming the element and the value.
//!
//! A body is planar when its orientation is a rotation about z (Euler parameters
//! [cos θ/2, 0, 0, sin θ/2]), its inertia has no products J_xz, J_yz (otherwise turning
//! about z needs out-of-plane moments, ω̃′J′ω′ ≠ 0) and its initial velocity lies in
//! the plane (ż = 0, ω_x = ω_y = 0).

use mbs_model::{BodyRef, DriverKind, JointKind, MarkerId, Model, TimeFunction};
use nalgebra::{Vector2, Vector3};

use crate::error::PlanarError;

/// Tolerance on the out-of-plane components that must vanish (unit vectors, Euler
/// parameters, relative heights in metres).
pub const PLANAR_TOL: f64 = 1e-9;

/// A body in the plane.
#[derive(Clone, Debug, PartialEq)]
pub struct PlanarBody {
    /// Mass m.
    pub mass: f64,
    /// Centroidal moment of inertia about z, J′_zz.
    pub jzz: f64,
}

/// A point fixed in a body (or in ground): body-frame in-plane coordinates s′.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Point {
    /// The body (None: ground, s′ global).
    pub body: Option<usize>,
    /// In-plane coordinates s′ in the body frame.
    pub s: Vector2<f64>,
}

/// A direction fixed in a body (or in ground): the in-plane angle β′ of a unit vector
/// in the body frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Direction {
    /// The body (None: ground).
    pub body: Option<usize>,
    /// Angle β′ from the body's x axis.
    pub angle: f64,
}

/// The in-plane equations of one joint or driver.
#[derive(Clone, Debug, PartialEq)]
pub enum PlanarConstraint {
    /// Revolute joint about z (Nikravesh sec 7.2.1; Haug sec 3.3.1): Pᵢ − Pⱼ = 0,
    /// 2 rows.
    Revolute {
        /// Marker i's origin.
        pi: Point,
        /// Marker j's origin.
        pj: Point,
    },
    /// Prismatic (translational) joint with in-plane axis uᵢ (Nikravesh sec 7.2.2; Haug
    /// sec 3.3.2): sin(βⱼ − βᵢ) = 0 (the axes stay parallel) and nᵢ·(Pⱼ − Pᵢ) = 0
    /// (nᵢ = k × uᵢ), 2 rows.
    Prismatic {
        /// Marker i's origin.
        pi: Point,
        /// Marker j's origin.
        pj: Point,
        /// Marker i's axis zᵢ.
        ui: Direction,
        /// Marker j's axis zⱼ.
        uj: Direction,
    },
    /// Sine path (a line for A = 0): marker i's origin in marker j's frame,
    /// x̄ = xⱼ·(Pᵢ − Pⱼ), ȳ = yⱼ·(Pᵢ − Pⱼ) with yⱼ = σ k × xⱼ, stays on
    /// ȳ − A sin(k x̄) = 0, 1 row (the 3-D joint's equation; zⱼ = σk).
    SinePath {
        /// Marker i's origin.
        pi: Point,
        /// Marker j's origin.
        pj: Point,
        /// Marker j's x axis.
        xj: Direction,
        /// σ = zⱼ·k = ±1.
        sigma: f64,
        /// Amplitude A.
        amplitude: f64,
        /// Wavenumber k.
        wavenumber: f64,
    },
    /// Angle driver of a revolute joint: sin(θ − f(t)) = 0 with θ = σ(aⱼ − aᵢ) the
    /// angle from xᵢ to xⱼ about zᵢ = σk (the 3-D driver's equation in the plane).
    Angle {
        /// Marker i's x axis.
        xi: Direction,
        /// Marker j's x axis.
        xj: Direction,
        /// σ = zᵢ·k = ±1.
        sigma: f64,
        /// f(t).
        f: TimeFunction,
    },
    /// Translation driver of a prismatic joint: uᵢ·(Pⱼ − Pᵢ) − f(t) = 0.
    Translation {
        /// Marker i's origin.
        pi: Point,
        /// Marker j's origin.
        pj: Point,
        /// Marker i's axis zᵢ.
        ui: Direction,
        /// f(t).
        f: TimeFunction,
    },
    /// One global coordinate (0 = x, 1 = y) of a point: P_axis − f(t) = 0.
    Coordinate {
        /// The point.
        p: Point,
        /// 0 or 1.
        axis: usize,
        /// f(t).
        f: TimeFunction,
    },
}

impl PlanarConstraint {
    /// Number of rows.
    pub fn rows(&self) -> usize {
        match self {
            PlanarConstraint::Revolute { .. } | PlanarConstraint::Prismatic { .. } => 2,
            _ => 1,
        }
    }
}

/// The planar view of a model.
#[derive(Clone, Debug, PartialEq)]
pub struct PlanarModel {
    /// Bodies in model order.
    pub bodies: Vec<PlanarBody>,
    /// Joints then drivers, with their labels ("joint `name`").
    pub constraints: Vec<(String, PlanarConstraint)>,
}

impl PlanarModel {
    /// Total constraint rows.
    pub fn rows(&self) -> usize {
        self.constraints.iter().map(|(_, c)| c.rows()).sum()
    }

    /// The planar view of `model`, or why it is not planar.
    pub fn new(model: &Model) -> Result<Self, PlanarError> {
        let g = model.gravity();
        if g.z.abs() > 0.0 {
            return Err(PlanarError::not_planar(
                "gravity",
                "must lie in the x–y plane (g_z = 0)",
                g.as_slice(),
            ));
        }
        let bodies = model
            .bodies()
            .iter()
            .map(|b| {
                let element = format!("body `{}`", b.name);
                let p = &b.initial.orientation;
                if p[1].abs() > PLANAR_TOL || p[2].abs() > PLANAR_TOL {
                    return Err(PlanarError::not_planar(
                        format!("{element} initial orientation"),
                        "must be a rotation about z (Euler parameters e1 = e2 = 0)",
                        p.as_slice(),
                    ));
                }
                let j = &b.inertia;
                let scale = j.abs().max();
                if j[(0, 2)].abs() > PLANAR_TOL * scale || j[(1, 2)].abs() > PLANAR_TOL * scale {
                    return Err(PlanarError::not_planar(
                        format!("{element} inertia"),
                        "needs no products J_xz, J_yz (turning about z would need out-of-plane moments)",
                        &[j[(0, 2)], j[(1, 2)]],
                    ));
                }
                let (v, w) = (&b.initial.velocity, &b.initial.omega);
                if v.z.abs() > PLANAR_TOL {
                    return Err(PlanarError::not_planar(
                        format!("{element} initial velocity"),
                        "must lie in the x–y plane (ż = 0)",
                        v.as_slice(),
                    ));
                }
                if w.x.abs() > PLANAR_TOL || w.y.abs() > PLANAR_TOL {
                    return Err(PlanarError::not_planar(
                        format!("{element} initial omega"),
                        "must be about z (ω_x = ω_y = 0)",
                        w.as_slice(),
                    ));
                }
                Ok(PlanarBody {
                    mass: b.mass,
                    jzz: j[(2, 2)],
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        let mut constraints = Vec::new();
        for j in model.joints() {
            let element = format!("joint `{}`", j.name);
            let c = match j.kind {
                JointKind::Revolute => {
                    normal_axis(model, &element, "marker i", j.marker_i)?;
                    normal_axis(model, &element, "marker j", j.marker_j)?;
                    same_height(model, &element, j.marker_i, j.marker_j)?;
                    PlanarConstraint::Revolute {
                        pi: point(model, j.marker_i),
                        pj: point(model, j.marker_j),
                    }
                }
                JointKind::Prismatic => {
                    let ui = in_plane_axis(model, &element, "marker i", j.marker_i)?;
                    let uj = in_plane_axis(model, &element, "marker j", j.marker_j)?;
                    same_height(model, &element, j.marker_i, j.marker_j)?;
                    PlanarConstraint::Prismatic {
                        pi: point(model, j.marker_i),
                        pj: point(model, j.marker_j),
                        ui,
                        uj,
                    }
                }
                JointKind::SinePath {
                    amplitude,
                    wavenumber,
                } => PlanarConstraint::SinePath {
                    pi: point(model, j.marker_i),
                    pj: point(model, j.marker_j),
                    xj: x_direction(model, j.marker_j),
                    sigma: normal_axis(model, &element, "marker j", j.marker_j)?,
                    amplitude,
                    wavenumber,
                },
                ref k => {
                    return Err(PlanarError::Unsupported {
                        element,
                        reason: format!(
                            "a {} joint has no in-plane form here: the planar method takes revolute joints about z, prismatic joints along an in-plane axis and sine paths in the plane",
                            k.label()
                        ),
                    });
                }
            };
            constraints.push((element, c));
        }
        for d in model.drivers() {
            let element = format!("driver `{}`", d.name);
            let f = d.function.clone();
            let c = match d.kind {
                DriverKind::JointAngle { joint } => {
                    let j = model.joint(joint);
                    if j.kind != JointKind::Revolute {
                        return Err(PlanarError::Unsupported {
                            element,
                            reason: format!(
                                "an angle driver in the plane needs a revolute joint, not {}",
                                j.kind.label()
                            ),
                        });
                    }
                    let sigma = normal_axis(model, &element, "marker i", j.marker_i)?;
                    PlanarConstraint::Angle {
                        xi: x_direction(model, j.marker_i),
                        xj: x_direction(model, j.marker_j),
                        sigma,
                        f,
                    }
                }
                DriverKind::JointTranslation { joint } => {
                    let j = model.joint(joint);
                    if j.kind != JointKind::Prismatic {
                        return Err(PlanarError::Unsupported {
                            element,
                            reason: format!(
                                "a translation driver in the plane needs a prismatic joint, not {}",
                                j.kind.label()
                            ),
                        });
                    }
                    PlanarConstraint::Translation {
                        pi: point(model, j.marker_i),
                        pj: point(model, j.marker_j),
                        ui: in_plane_axis(model, &element, "marker i", j.marker_i)?,
                        f,
                    }
                }
                DriverKind::PointCoordinate { marker, axis } => {
                    if axis > 1 {
                        return Err(PlanarError::not_planar(
                            element,
                            "a point driver in the plane prescribes x (axis 0) or y (axis 1)",
                            &[axis as f64],
                        ));
                    }
                    PlanarConstraint::Coordinate {
                        p: point(model, marker),
                        axis,
                        f,
                    }
                }
            };
            constraints.push((element, c));
        }
        Ok(Self {
            bodies,
            constraints,
        })
    }
}

fn body_index(b: BodyRef) -> Option<usize> {
    b.body().map(|id| id.0)
}

/// The marker's origin as an in-plane point of its body.
fn point(model: &Model, m: MarkerId) -> Point {
    let mk = model.marker(m);
    Point {
        body: body_index(mk.body),
        s: Vector2::new(mk.position.x, mk.position.y),
    }
}

/// The in-plane angle of the marker's x axis (its z axis is ±k).
fn x_direction(model: &Model, m: MarkerId) -> Direction {
    let x = model.marker(m).x_axis();
    Direction {
        body: body_index(model.marker(m).body),
        angle: x.y.atan2(x.x),
    }
}

/// σ = z·k = ±1 of a marker whose z axis must be normal to the plane (body frames turn
/// about z, so the body-frame axis decides).
fn normal_axis(model: &Model, element: &str, which: &str, m: MarkerId) -> Result<f64, PlanarError> {
    let z: Vector3<f64> = model.marker(m).z_axis();
    if z.x.abs() > PLANAR_TOL || z.y.abs() > PLANAR_TOL {
        return Err(PlanarError::not_planar(
            format!("{element} {which} (`{}`) z axis", model.marker(m).name),
            "must be along ±z (a revolute axis normal to the plane)",
            z.as_slice(),
        ));
    }
    Ok(z.z.signum())
}

/// The in-plane direction of a marker's z axis (a prismatic axis).
fn in_plane_axis(
    model: &Model,
    element: &str,
    which: &str,
    m: MarkerId,
) -> Result<Direction, PlanarError> {
    let z: Vector3<f64> = model.marker(m).z_axis();
    if z.z.abs() > PLANAR_TOL {
        return Err(PlanarError::not_planar(
            format!("{element} {which} (`{}`) z axis", model.marker(m).name),
            "must lie in the x–y plane (a prismatic axis in the plane)",
            z.as_slice(),
        ));
    }
    Ok(Direction {
        body: body_index(model.marker(m).body),
        angle: z.y.atan2(z.x),
    })
}

/// Global height of a marker origin at the initial state.
fn height(model: &Model, m: MarkerId) -> f64 {
    let mk = model.marker(m);
    match mk.body.body() {
        None => mk.position.z,
        Some(id) => model.body(id).initial.position.z + mk.position.z,
    }
}

/// The two markers of a joint at the same height (the plane of the joint).
fn same_height(
    model: &Model,
    element: &str,
    mi: MarkerId,
    mj: MarkerId,
) -> Result<(), PlanarError> {
    let (zi, zj) = (height(model, mi), height(model, mj));
    if (zi - zj).abs() > PLANAR_TOL {
        return Err(PlanarError::not_planar(
            element,
            "needs its two marker origins at the same height z",
            &[zi, zj],
        ));
    }
    Ok(())
}
