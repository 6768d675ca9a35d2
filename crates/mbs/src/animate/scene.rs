//! What the animation page draws, as plain serializable data: each body's shapes (or,
//! without shapes, sticks from its centre of mass to its markers), the ground markers,
//! the scene's bounds and a camera direction.

use mbs_model::{BodyRef, Geometry, Model, Shape};
use nalgebra::Vector3;
use serde::Serialize;

use super::meshes::{Meshes, SceneMesh};
use crate::trajectory::Trajectory;

/// One body: its shapes in the body frame, and its marker positions (body frame).
#[derive(Serialize, Debug)]
pub(super) struct SceneBody {
    name: String,
    shapes: Vec<SceneShape>,
    /// Marker origins in the body frame (sticks are drawn to them from the centre of
    /// mass when the body has no shapes; small spheres mark them either way).
    markers: Vec<[f32; 3]>,
}

/// A shape as three.js builds it: kind, dimensions, pose (quaternion x, y, z, w).
#[derive(Serialize, Debug)]
pub(super) struct SceneShape {
    kind: &'static str,
    /// Box: half-extents; cylinder and capsule: [radius, length, 0]; sphere: [radius, 0, 0].
    dims: [f32; 3],
    /// A mesh's index in the scene's `meshes`.
    #[serde(skip_serializing_if = "Option::is_none")]
    mesh: Option<usize>,
    position: [f32; 3],
    quaternion: [f32; 4],
    color: Option<String>,
}

/// A ground marker: global position and z axis.
#[derive(Serialize, Debug)]
pub(super) struct GroundMarker {
    name: String,
    position: [f32; 3],
    z: [f32; 3],
}

/// The static part of the scene.
#[derive(Serialize, Debug)]
pub(super) struct Scene {
    pub(super) bodies: Vec<SceneBody>,
    /// The triangle meshes the mesh shapes draw.
    meshes: Vec<SceneMesh>,
    /// What the page could not draw as given (meshes not read, decimated).
    pub(super) notes: Vec<String>,
    ground: Vec<GroundMarker>,
    /// Centre of the box that holds the motion.
    centre: [f32; 3],
    /// Its diagonal (the length scale of markers, sticks and camera distance).
    size: f32,
    /// The "up" direction (against gravity; y without gravity).
    up: [f32; 3],
    /// Unit vector from the centre towards the camera.
    view: [f32; 3],
    /// The lowest point of the motion along `up` (where the grid is drawn).
    floor: f32,
}

fn f3(v: &Vector3<f64>) -> [f32; 3] {
    [v.x as f32, v.y as f32, v.z as f32]
}

/// The page's form of `s`; `None` for a mesh that is not drawn.
fn scene_shape(s: &Shape, meshes: &Meshes) -> Option<SceneShape> {
    let (dims, mesh) = match &s.geometry {
        Geometry::Box { half_extents } => (*half_extents, None),
        &Geometry::Cylinder { radius, length } | &Geometry::Capsule { radius, length } => {
            (Vector3::new(radius, length, 0.0), None)
        }
        &Geometry::Sphere { radius } => (Vector3::new(radius, 0.0, 0.0), None),
        Geometry::Mesh { path, scale } => (Vector3::zeros(), Some(meshes.get(path, scale)?.0)),
    };
    let p = &s.orientation;
    Some(SceneShape {
        kind: s.geometry.kind(),
        dims: f3(&dims),
        mesh,
        position: f3(&s.position),
        // Euler parameters [e0, e1, e2, e3] are the quaternion (w, x, y, z)
        quaternion: [p[1] as f32, p[2] as f32, p[3] as f32, p[0] as f32],
        color: s.color.as_ref().map(mbs_model::format_rgb),
    })
}

/// The distance from the body origin beyond which no point of `s` lies.
fn shape_reach(s: &Shape, meshes: &Meshes) -> f64 {
    let own = match &s.geometry {
        Geometry::Mesh { path, scale } => meshes.get(path, scale).map_or(0.0, |m| m.1),
        g => g.half_extents().norm(),
    };
    s.position.norm() + own
}

/// The radius of a sphere about the body origin that holds its shapes and markers.
fn body_reach(model: &Model, i: usize, meshes: &Meshes) -> f64 {
    let b = &model.bodies()[i];
    let shapes = b.shapes.iter().map(|s| shape_reach(s, meshes));
    let markers = model
        .markers()
        .iter()
        .filter(|m| m.body == BodyRef::Body(mbs_model::BodyId(i)))
        .map(|m| m.position.norm());
    shapes.chain(markers).fold(0.0, f64::max)
}

impl Scene {
    /// The scene of `model` moving along `traj` (bodies in the same order).
    pub(super) fn new(model: &Model, traj: &Trajectory) -> Self {
        let meshes = Meshes::of(model);
        let bodies: Vec<SceneBody> = model
            .bodies()
            .iter()
            .enumerate()
            .map(|(i, b)| SceneBody {
                name: b.name.clone(),
                shapes: b
                    .shapes
                    .iter()
                    .filter_map(|s| scene_shape(s, &meshes))
                    .collect(),
                markers: model
                    .markers()
                    .iter()
                    .filter(|m| m.body == BodyRef::Body(mbs_model::BodyId(i)))
                    .map(|m| f3(&m.position))
                    .collect(),
            })
            .collect();
        let ground: Vec<GroundMarker> = model
            .markers()
            .iter()
            .filter(|m| m.body == BodyRef::Ground)
            .map(|m| GroundMarker {
                name: m.name.clone(),
                position: f3(&m.position),
                z: f3(&m.z_axis()),
            })
            .collect();
        // bounds of every body's reach at every sample (not of the ground markers: a
        // joint's are at a body's marker anyway, and a force element's may be far away,
        // as the vehicle's tire anchors 100 m below the road)
        let (mut lo, mut hi) = (
            Vector3::repeat(f64::INFINITY),
            Vector3::repeat(f64::NEG_INFINITY),
        );
        let mut include = |p: Vector3<f64>, r: f64| {
            if p.iter().all(|x| x.is_finite()) {
                lo = lo.inf(&(p - Vector3::repeat(r)));
                hi = hi.sup(&(p + Vector3::repeat(r)));
            }
        };
        let reach: Vec<f64> = (0..model.n_bodies())
            .map(|i| body_reach(model, i, &meshes))
            .collect();
        for k in 0..traj.len() {
            for (i, r) in reach.iter().enumerate() {
                include(traj.position(k, i), *r);
            }
        }
        if !(lo.iter().all(|x| x.is_finite()) && hi.iter().all(|x| x.is_finite())) {
            (lo, hi) = (-Vector3::repeat(0.5), Vector3::repeat(0.5));
        }
        let centre = 0.5 * (lo + hi);
        let extent = hi - lo;
        let size = extent.norm().max(1e-3);
        let g = model.gravity();
        let up = if g.norm() > 0.0 {
            -g.normalize()
        } else {
            Vector3::y()
        };
        let view = view_direction(&extent, &up);
        // the lowest corner of the box along `up`
        let floor = (0..8)
            .map(|c| {
                let corner = Vector3::new(
                    if c & 1 == 0 { lo.x } else { hi.x },
                    if c & 2 == 0 { lo.y } else { hi.y },
                    if c & 4 == 0 { lo.z } else { hi.z },
                );
                corner.dot(&up)
            })
            .fold(f64::INFINITY, f64::min);
        Scene {
            bodies,
            meshes: meshes.table,
            notes: meshes.notes,
            ground,
            centre: f3(&centre),
            size: size as f32,
            up: f3(&up),
            view: f3(&view),
            floor: floor as f32,
        }
    }
}

/// A three-quarter view: mostly along the coordinate axis (not along `up`) in which the
/// motion is thinnest — the normal of a planar mechanism's plane — raised a little
/// towards `up` and turned a little about it.
fn view_direction(extent: &Vector3<f64>, up: &Vector3<f64>) -> Vector3<f64> {
    let mut best = (f64::INFINITY, Vector3::z());
    for a in 0..3 {
        let mut e = Vector3::zeros();
        e[a] = 1.0;
        if e.dot(up).abs() > 0.9 {
            continue;
        }
        if extent[a] < best.0 {
            best = (extent[a], e);
        }
    }
    let normal = best.1;
    let side = up.cross(&normal);
    (normal + 0.35 * up + 0.25 * side).normalize()
}

/// Body poses per sample as f32: x, y, z, then the quaternion (x, y, z, w) = (e1, e2,
/// e3, e0), body after body, sample after sample.
pub(super) fn poses(traj: &Trajectory) -> Vec<f32> {
    let mut out = Vec::with_capacity(traj.len() * traj.n_bodies() * 7);
    for k in 0..traj.len() {
        for i in 0..traj.n_bodies() {
            let r = traj.position(k, i);
            let p = traj.euler_params(k, i);
            // unit quaternion for drawing (the state's norm drifts within tolerance)
            let p = p / p.norm();
            out.extend([r.x, r.y, r.z, p[1], p[2], p[3], p[0]].map(|v| v as f32));
        }
    }
    out
}
