//! User-defined constraints (STYLE.md, after Simbody's custom constraints): a trait
//! object declaring its bodies and row counts and implementing the position, velocity
//! and acceleration levels separately, with time passed in so that rheonomic
//! constraints fit the same interface. The assembly accepts them alongside the model's
//! joints and drivers ([`crate::SystemLayout::with_custom`]).

use std::fmt::Debug;

use mbs_model::BodyRef;
use nalgebra::SMatrix;

use crate::block::MAX_ROWS;
use crate::frame::BodyFrame;

/// A user constraint between (at most) two bodies, with `holonomic_rows()` holonomic
/// rows followed by `nonholonomic_rows()` nonholonomic rows, at most 6 in total.
///
/// All Jacobians are with respect to [ṙ; ω'] of each body (ω' in body components);
/// the crate derives the [ṙ, ṗ] blocks. Sign conventions are NOTATION.md's:
/// velocity equation `Jᵢ vᵢ + Jⱼ vⱼ + Φ_t = 0` (for nonholonomic rows `Φ_t` is b in
/// B v + b = 0), acceleration equation `Jᵢ v̇ᵢ + Jⱼ v̇ⱼ = γ`.
pub trait CustomConstraint: Debug + Send + Sync {
    /// Name used in reports and errors.
    fn name(&self) -> &str;
    /// The two bodies (i, j); either may be ground, not both the same body.
    fn bodies(&self) -> (BodyRef, BodyRef);
    /// Number of holonomic rows.
    fn holonomic_rows(&self) -> usize;
    /// Number of nonholonomic rows (default 0).
    fn nonholonomic_rows(&self) -> usize {
        0
    }
    /// Position level: Φ of the holonomic rows into `phi[..holonomic_rows()]`.
    fn position(&self, t: f64, fi: &BodyFrame, fj: &BodyFrame, phi: &mut [f64]);
    /// Velocity level: Jacobian blocks (first `rows` rows) and Φ_t (or b) of every row.
    fn velocity(
        &self,
        t: f64,
        fi: &BodyFrame,
        fj: &BodyFrame,
        ji: &mut SMatrix<f64, MAX_ROWS, 6>,
        jj: &mut SMatrix<f64, MAX_ROWS, 6>,
        phi_t: &mut [f64],
    );
    /// Acceleration level: γ of every row (Φ_q q̈ = γ, i.e. γ = −Φ̈ at zero accelerations).
    fn acceleration(&self, t: f64, fi: &BodyFrame, fj: &BodyFrame, gamma: &mut [f64]);
}
