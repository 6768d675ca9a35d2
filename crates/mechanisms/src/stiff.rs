//! Stiff mechanisms for the implicit integrators (issue #31): a chain of rigid links
//! joined by stiff, lightly damped rotational springs (bushing-like), where an
//! explicit integrator's step is held by stability rather than accuracy.
//!
//! The other stiff cases of the `stiff` bench suite are variants of existing models:
//! Andrew's squeezer with rod GE replaced by a 1e8 N/m spring
//! ([`AndrewsParams::stiff_spring`](crate::AndrewsParams::stiff_spring)) and the
//! vehicle with stiff tyres ([`VehicleParams::stiff_tyres`](crate::VehicleParams::stiff_tyres)).
//!
//! # Bushing chain
//!
//! An open chain of `n` uniform links (length l, mass m, slender-rod inertia as
//! [`open_chain`](crate::open_chain), horizontal along +x, from rest, gravity along
//! −y). The first link turns freely about its revolute joint to ground; every joint
//! between two links carries a rotational spring–damper τ = −k θ − c θ̇ (free angle 0,
//! the straight chain), a rubber bushing modelled as a torsional spring
//! (Hairer & Wanner, *Solving ODEs II*, sec IV.1, the stiff "spring with large
//! constant" class). The chain swings as a nearly rigid pendulum (ω ≈ √(3g/2L),
//! L = n l: ≈ 1.4 rad/s for 8 links of 1 m) while gravity and the swing excite the
//! bending modes of the joints.
//!
//! Stiffness (linearized about the straight chain): the relative rotation of two
//! links at a joint has an inertia of the order of the links' inertia about their
//! ends, J ≈ m l²/3 (1/3 kg m² for the defaults), so the highest bending frequency
//! is of the order of √(k·(a few)/J): ≈ 2·10³–10⁴ rad/s for k = 10⁶ N m/rad (an
//! explicit Runge–Kutta method of stability radius ≈ 3–6 is held to h ≲ 10⁻³ s…
//! 10⁻⁴ s). Damping: with c = 10 N m s/rad (default) the bending modes have damping
//! ratios ζ = c ω / (2k) ≈ 1–5 % (light) and decay within ≈ 0.1 s; the pendulum mode
//! is not damped (the first joint has no spring). All values are **choices** (no
//! paper defines this mechanism); independent values: none, the checks are energy
//! conservation (c = 0) and monotone dissipation (c > 0), in the facade's tests.
//! Expected figures: Grübler n, mobility n, none redundant.

use mbs_model::{BodyRef, ForceElement, Model, ModelBuilder, ModelError, TimeFunction};
use nalgebra::Vector3;

use crate::generators::GeneratorParams;
use crate::util::{add_link, body, revolute_z, rod_inertia};

/// Data of the bushing chain (defaults: 8 links, k = 1e6 N m/rad, c = 10 N m s/rad,
/// links of 1 m and 1 kg).
#[derive(Clone, Debug, PartialEq)]
pub struct BushingChainParams {
    /// Links n ≥ 2 (n − 1 bushings).
    pub n: usize,
    /// Torsional stiffness k of each bushing (N m/rad).
    pub stiffness: f64,
    /// Torsional damping c of each bushing (N m s/rad).
    pub damping: f64,
    /// Link length, mass, inertia and gravity (as the chain generator).
    pub links: GeneratorParams,
}

impl Default for BushingChainParams {
    fn default() -> Self {
        Self {
            n: 8,
            stiffness: 1e6,
            damping: 10.0,
            links: GeneratorParams::default(),
        }
    }
}

/// The bushing chain of the module documentation. Errors name the parameter: `n` < 2
/// (no bushing), a negative or non-finite stiffness or damping.
pub fn bushing_chain(p: &BushingChainParams) -> Result<Model, ModelError> {
    if p.n < 2 {
        return Err(ModelError::InvalidParameter {
            element: "bushing_chain".into(),
            parameter: "links n",
            requirement: "at least 2",
            value: p.n as f64,
        });
    }
    for (parameter, v) in [("stiffness k", p.stiffness), ("damping c", p.damping)] {
        if !(v.is_finite() && v >= 0.0) {
            return Err(ModelError::InvalidParameter {
                element: "bushing_chain".into(),
                parameter,
                requirement: "a finite number ≥ 0",
                value: v,
            });
        }
    }
    let l = &p.links;
    let mut b = ModelBuilder::new(format!("bushing-chain-{}", p.n));
    b.gravity(Vector3::new(0.0, -l.gravity, 0.0));
    let inertia = match l.inertia {
        Some(j) => nalgebra::Matrix3::from_diagonal_element(j),
        None => rod_inertia(l.mass, l.length, crate::bayo_ledesma::ROD_AXIAL_FRACTION),
    };
    let mut prev = BodyRef::Ground;
    for k in 0..p.n {
        let (a, c) = (
            Vector3::new(k as f64 * l.length, 0.0, 0.0),
            Vector3::new((k + 1) as f64 * l.length, 0.0, 0.0),
        );
        let id = add_link(&mut b, &format!("link{}", k + 1), a, c, l.mass, inertia);
        let joint = revolute_z(&mut b, &format!("joint{}", k + 1), prev, body(id), a);
        if k > 0 {
            b.force(ForceElement::RotationalSpringDamper {
                name: format!("bushing{}", k + 1),
                joint,
                stiffness: p.stiffness,
                damping: p.damping,
                free_angle: 0.0,
                actuator: TimeFunction::default(),
            });
        }
        prev = body(id);
    }
    b.build()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn n_links_and_n_minus_one_bushings() {
        let m = bushing_chain(&BushingChainParams::default()).unwrap();
        assert_eq!(m.n_bodies(), 8);
        assert_eq!(m.forces().len(), 7);
        assert_eq!(m.topology().grubler_mobility(), 8);
        assert_eq!(m.name(), "bushing-chain-8");
    }

    #[test]
    fn bad_parameters_are_named() {
        let e = bushing_chain(&BushingChainParams {
            n: 1,
            ..Default::default()
        })
        .unwrap_err()
        .to_string();
        assert!(e.contains("links n") && e.contains('1'), "{e}");
        let e = bushing_chain(&BushingChainParams {
            stiffness: -1.0,
            ..Default::default()
        })
        .unwrap_err()
        .to_string();
        assert!(e.contains("stiffness") && e.contains("-1"), "{e}");
        let e = bushing_chain(&BushingChainParams {
            damping: f64::NAN,
            ..Default::default()
        })
        .unwrap_err()
        .to_string();
        assert!(e.contains("damping"), "{e}");
    }
}
