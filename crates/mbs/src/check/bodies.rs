//! The mass properties of each body for `mbs check`: mass, centre of mass and
//! centroidal inertia, computed from shapes with densities or given.

use std::fmt;

use mbs_model::{Body, Model};
use serde::Serialize;

/// Where a body's mass and inertia come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MassSource {
    /// Computed from the body's shapes and their densities.
    ComputedFromShapes,
    /// Given as numbers (mass and inertia).
    Given,
    /// A point mass: the mass is given, the inertia is nominal.
    PointMass,
}

impl fmt::Display for MassSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            MassSource::ComputedFromShapes => "computed from shapes",
            MassSource::Given => "given",
            MassSource::PointMass => "point mass (nominal inertia)",
        })
    }
}

/// The mass properties of one body.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BodyMass {
    /// Body name.
    pub name: String,
    /// Mass (kg).
    pub mass: f64,
    /// Centre of mass in the body frame (m): the body frame's origin is the centre of
    /// mass (a file's `origin = "reference"` frame is moved there on reading), so
    /// this is zero.
    pub centre_of_mass: [f64; 3],
    /// Centre of mass at the initial state, global frame (m).
    pub centre_of_mass_global: [f64; 3],
    /// Centroidal inertia J' in the body frame (kg·m²), rows.
    pub inertia: [[f64; 3]; 3],
    /// Where mass and inertia come from.
    pub source: MassSource,
}

impl BodyMass {
    fn of(b: &Body) -> Self {
        let source = if b.point_mass {
            MassSource::PointMass
        } else if mbs_model::from_densities(b) {
            MassSource::ComputedFromShapes
        } else {
            MassSource::Given
        };
        let j = &b.inertia;
        let r = &b.initial.position;
        Self {
            name: b.name.clone(),
            mass: b.mass,
            centre_of_mass: [0.0; 3],
            centre_of_mass_global: [r.x, r.y, r.z],
            inertia: std::array::from_fn(|i| std::array::from_fn(|k| j[(i, k)])),
            source,
        }
    }
}

/// The mass properties of every body of `model`, in body order.
pub fn body_masses(model: &Model) -> Vec<BodyMass> {
    model.bodies().iter().map(BodyMass::of).collect()
}

impl fmt::Display for BodyMass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let j = &self.inertia;
        let diagonal = (0..3).all(|r| (0..3).all(|c| r == c || j[r][c] == 0.0));
        let inertia = if diagonal {
            format!("diag({:.4e}, {:.4e}, {:.4e})", j[0][0], j[1][1], j[2][2])
        } else {
            let row = |r: &[f64; 3]| format!("[{:.4e}, {:.4e}, {:.4e}]", r[0], r[1], r[2]);
            format!("[{}, {}, {}]", row(&j[0]), row(&j[1]), row(&j[2]))
        };
        let c = &self.centre_of_mass_global;
        write!(
            f,
            "{:<16} m = {:.6e} kg, c₀ = ({:.4}, {:.4}, {:.4}) m, J' = {inertia} kg·m² ({})",
            self.name,
            self.mass,
            c[0] + 0.0,
            c[1] + 0.0,
            c[2] + 0.0,
            self.source
        )
    }
}
