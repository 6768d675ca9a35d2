//! The validated, immutable [`Model`].

use nalgebra::Vector3;

use crate::body::Body;
use crate::driver::Driver;
use crate::error::ModelError;
use crate::force::ForceElement;
use crate::ids::{BodyId, BodyRef, DriverId, ForceId, JointId, MarkerId};
use crate::joint::Joint;
use crate::marker::Marker;
use crate::topology::Topology;

/// A multibody model: what a mechanism *is*. Immutable once built; every reference
/// inside it is a valid typed id (checked by `crate::validate`).
#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    pub(crate) name: String,
    pub(crate) gravity: Vector3<f64>,
    pub(crate) bodies: Vec<Body>,
    pub(crate) markers: Vec<Marker>,
    pub(crate) joints: Vec<Joint>,
    pub(crate) forces: Vec<ForceElement>,
    pub(crate) drivers: Vec<Driver>,
    /// Computed from the elements above in [`Model::from_parts`].
    pub(crate) topology: Topology,
}

/// The parts of a model before validation (what a builder or a file produces).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ModelParts {
    /// Model name.
    pub name: String,
    /// Gravitational acceleration vector (global frame).
    pub gravity: Vector3<f64>,
    /// Moving bodies.
    pub bodies: Vec<Body>,
    /// Markers.
    pub markers: Vec<Marker>,
    /// Joints.
    pub joints: Vec<Joint>,
    /// Force elements.
    pub forces: Vec<ForceElement>,
    /// Drivers.
    pub drivers: Vec<Driver>,
}

impl Model {
    /// Validates `parts`, computes the topology and builds a model.
    pub fn from_parts(parts: ModelParts) -> Result<Self, ModelError> {
        crate::validate::validate(&parts)?;
        let topology = Topology::new(&parts);
        let ModelParts {
            name,
            gravity,
            bodies,
            markers,
            joints,
            forces,
            drivers,
        } = parts;
        Ok(Self {
            name,
            gravity,
            bodies,
            markers,
            joints,
            forces,
            drivers,
            topology,
        })
    }

    /// The parts of this model (for editing and rebuilding).
    pub fn to_parts(&self) -> ModelParts {
        ModelParts {
            name: self.name.clone(),
            gravity: self.gravity,
            bodies: self.bodies.clone(),
            markers: self.markers.clone(),
            joints: self.joints.clone(),
            forces: self.forces.clone(),
            drivers: self.drivers.clone(),
        }
    }

    /// The body–joint graph, spanning tree, cut joints, loops, Grübler count and
    /// binary assembly tree.
    pub fn topology(&self) -> &Topology {
        &self.topology
    }

    /// Model name.
    pub fn name(&self) -> &str {
        &self.name
    }
    /// Gravitational acceleration (global frame).
    pub fn gravity(&self) -> Vector3<f64> {
        self.gravity
    }
    /// Moving bodies, indexed by [`BodyId`].
    pub fn bodies(&self) -> &[Body] {
        &self.bodies
    }
    /// Markers, indexed by [`MarkerId`].
    pub fn markers(&self) -> &[Marker] {
        &self.markers
    }
    /// Joints, indexed by [`JointId`].
    pub fn joints(&self) -> &[Joint] {
        &self.joints
    }
    /// Force elements, indexed by [`ForceId`].
    pub fn forces(&self) -> &[ForceElement] {
        &self.forces
    }
    /// Drivers, indexed by [`DriverId`].
    pub fn drivers(&self) -> &[Driver] {
        &self.drivers
    }
    /// Number of moving bodies.
    pub fn n_bodies(&self) -> usize {
        self.bodies.len()
    }
    /// One body.
    pub fn body(&self, id: BodyId) -> &Body {
        &self.bodies[id.0]
    }
    /// One marker.
    pub fn marker(&self, id: MarkerId) -> &Marker {
        &self.markers[id.0]
    }
    /// One joint.
    pub fn joint(&self, id: JointId) -> &Joint {
        &self.joints[id.0]
    }
    /// One force element.
    pub fn force(&self, id: ForceId) -> &ForceElement {
        &self.forces[id.0]
    }
    /// One driver.
    pub fn driver(&self, id: DriverId) -> &Driver {
        &self.drivers[id.0]
    }
    /// The bodies joined by a joint: (body of marker i, body of marker j).
    pub fn joint_bodies(&self, id: JointId) -> (BodyRef, BodyRef) {
        let j = &self.joints[id.0];
        (
            self.markers[j.marker_i.0].body,
            self.markers[j.marker_j.0].body,
        )
    }
    /// Name of a body reference ("ground" for ground).
    pub fn body_ref_name(&self, b: BodyRef) -> &str {
        match b {
            BodyRef::Ground => "ground",
            BodyRef::Body(id) => &self.bodies[id.0].name,
        }
    }
    /// Looks a body up by name.
    pub fn body_by_name(&self, name: &str) -> Option<BodyId> {
        self.bodies.iter().position(|b| b.name == name).map(BodyId)
    }
    /// Looks a marker up by name.
    pub fn marker_by_name(&self, name: &str) -> Option<MarkerId> {
        self.markers
            .iter()
            .position(|m| m.name == name)
            .map(MarkerId)
    }
    /// Looks a joint up by name.
    pub fn joint_by_name(&self, name: &str) -> Option<JointId> {
        self.joints.iter().position(|j| j.name == name).map(JointId)
    }
}
