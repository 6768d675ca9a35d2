//! A builder for [`Model`]s. Markers can be placed by their *global* pose at the
//! bodies' initial configuration, so that joints built this way are satisfied at t = 0.

use mbs_kinematics::{EulerParams, euler_params::rotation};
use nalgebra::{Matrix3, Vector3};

use crate::body::{Body, BodyInitial};
use crate::driver::{Driver, DriverKind};
use crate::error::ModelError;
use crate::force::ForceElement;
use crate::ids::{BodyId, BodyRef, DriverId, ForceId, JointId, MarkerId};
use crate::joint::{Joint, JointKind};
use crate::marker::{Marker, frame_from_z};
use crate::model::{Model, ModelParts};
use crate::time_function::TimeFunction;

/// Builds a [`Model`]; [`ModelBuilder::build`] validates.
///
/// ```
/// use mbs_model::{ModelBuilder, BodyRef, JointKind};
/// use nalgebra::{Matrix3, Vector3};
/// let mut b = ModelBuilder::new("pendulum");
/// b.gravity(Vector3::new(0.0, -9.81, 0.0));
/// let link = b.body("link", 1.0, Matrix3::from_diagonal_element(0.1));
/// b.set_initial_pose(link, Vector3::new(0.5, 0.0, 0.0), mbs_kinematics::euler_params::identity());
/// b.joint_at("pivot", JointKind::Revolute, BodyRef::Ground, BodyRef::Body(link),
///            Vector3::zeros(), Vector3::z());
/// let model = b.build().unwrap();
/// assert_eq!(model.n_bodies(), 1);
/// ```
#[derive(Clone, Debug, Default)]
pub struct ModelBuilder {
    parts: ModelParts,
}

impl ModelBuilder {
    /// An empty model with zero gravity.
    pub fn new(name: impl Into<String>) -> Self {
        Self {
            parts: ModelParts {
                name: name.into(),
                ..ModelParts::default()
            },
        }
    }

    /// Sets the gravitational acceleration vector.
    pub fn gravity(&mut self, g: Vector3<f64>) -> &mut Self {
        self.parts.gravity = g;
        self
    }

    /// Adds a body at rest at the origin; returns its id.
    pub fn body(&mut self, name: impl Into<String>, mass: f64, inertia: Matrix3<f64>) -> BodyId {
        self.add_body(Body::new(name, mass, inertia))
    }

    /// Adds a point mass at rest at the origin ([`Body::point_mass`]: mass only, a
    /// nominal inertia, its rotation irrelevant); returns its id.
    pub fn point_mass(&mut self, name: impl Into<String>, mass: f64) -> BodyId {
        self.add_body(Body::point_mass(name, mass))
    }

    /// Adds a fully specified body; returns its id.
    pub fn add_body(&mut self, body: Body) -> BodyId {
        self.parts.bodies.push(body);
        BodyId(self.parts.bodies.len() - 1)
    }

    /// Sets a body's initial position and orientation.
    pub fn set_initial_pose(
        &mut self,
        body: BodyId,
        position: Vector3<f64>,
        orientation: EulerParams,
    ) -> &mut Self {
        let init = &mut self.parts.bodies[body.0].initial;
        init.position = position;
        init.orientation = orientation;
        self
    }

    /// Sets a body's initial velocity and global angular velocity.
    pub fn set_initial_velocity(
        &mut self,
        body: BodyId,
        velocity: Vector3<f64>,
        omega: Vector3<f64>,
    ) -> &mut Self {
        let init = &mut self.parts.bodies[body.0].initial;
        init.velocity = velocity;
        init.omega = omega;
        self
    }

    /// The initial conditions of a body added earlier.
    pub fn initial(&self, body: BodyId) -> &BodyInitial {
        &self.parts.bodies[body.0].initial
    }

    /// Adds a marker given in body coordinates; returns its id.
    pub fn marker(
        &mut self,
        name: impl Into<String>,
        body: BodyRef,
        position: Vector3<f64>,
        orientation: Matrix3<f64>,
    ) -> MarkerId {
        self.parts.markers.push(Marker {
            name: name.into(),
            body,
            position,
            orientation,
        });
        MarkerId(self.parts.markers.len() - 1)
    }

    /// Adds a marker whose origin is the global point `point` and whose z axis is the
    /// global direction `z` (x axis near `x_hint`), at the body's initial pose.
    /// A zero `z` is kept as a zero axis so that validation reports it.
    pub fn marker_at_global(
        &mut self,
        name: impl Into<String>,
        body: BodyRef,
        point: Vector3<f64>,
        z: Vector3<f64>,
        x_hint: Option<Vector3<f64>>,
    ) -> MarkerId {
        let frame_global = frame_from_z(&z, x_hint.as_ref()).unwrap_or_else(Matrix3::zeros);
        let (position, orientation) = match body {
            BodyRef::Ground => (point, frame_global),
            BodyRef::Body(id) => {
                let init = &self.parts.bodies[id.0].initial;
                let a = rotation(&init.orientation);
                (
                    a.transpose() * (point - init.position),
                    a.transpose() * frame_global,
                )
            }
        };
        self.marker(name, body, position, orientation)
    }

    /// Adds a joint between two existing markers; returns its id.
    pub fn joint(
        &mut self,
        name: impl Into<String>,
        kind: JointKind,
        marker_i: MarkerId,
        marker_j: MarkerId,
    ) -> JointId {
        self.parts.joints.push(Joint {
            name: name.into(),
            kind,
            marker_i,
            marker_j,
        });
        JointId(self.parts.joints.len() - 1)
    }

    /// Adds a joint of `kind` between `body_i` and `body_j` at the global point `point`
    /// with joint axis `axis` (global), creating the markers `<name>.i` and `<name>.j`
    /// so that the joint is satisfied at the initial poses.
    pub fn joint_at(
        &mut self,
        name: impl Into<String>,
        kind: JointKind,
        body_i: BodyRef,
        body_j: BodyRef,
        point: Vector3<f64>,
        axis: Vector3<f64>,
    ) -> JointId {
        let name = name.into();
        let mi = self.marker_at_global(format!("{name}.i"), body_i, point, axis, None);
        let mj = self.marker_at_global(format!("{name}.j"), body_j, point, axis, None);
        self.joint(name, kind, mi, mj)
    }

    /// Adds a force element; returns its id.
    pub fn force(&mut self, force: ForceElement) -> ForceId {
        self.parts.forces.push(force);
        ForceId(self.parts.forces.len() - 1)
    }

    /// Adds a driver; returns its id.
    pub fn driver(
        &mut self,
        name: impl Into<String>,
        kind: DriverKind,
        function: TimeFunction,
    ) -> DriverId {
        self.parts.drivers.push(Driver {
            name: name.into(),
            kind,
            function,
        });
        DriverId(self.parts.drivers.len() - 1)
    }

    /// The parts collected so far.
    pub fn parts(&self) -> &ModelParts {
        &self.parts
    }

    /// Validates and builds the model.
    pub fn build(self) -> Result<Model, ModelError> {
        Model::from_parts(self.parts)
    }
}
