//! Marker i's origin on the curve y = A sin(k x) of marker j's x–y plane (thesis
//! eq 7.4.9, the bowling ball's track, generalised to any placement and amplitude).
//!
//! With ξ = xⱼ·(Pᵢ − Pⱼ) = −xⱼ·d and η = −yⱼ·d (two dot-2-like expressions on the
//! axes of marker j): Φ = η − A sin(k ξ).
//! Chain rule: Φ_q = η_q − A k cos(kξ) ξ_q;
//! Φ̈ (v̇ = 0) = η̈ − A k cos(kξ) ξ̈ + A k² sin(kξ) ξ̇², γ = −Φ̈.

use super::MarkerPair;
use crate::block::ConstraintBlock;

/// Evaluates the one row.
pub fn evaluate(m: &MarkerPair<'_>, amplitude: f64, wavenumber: f64, block: &mut ConstraintBlock) {
    let d = m.d();
    let xi = m.axis_j(0).dot(&d).scale(-1.0);
    let eta = m.axis_j(1).dot(&d).scale(-1.0);
    let (s, c) = (wavenumber * xi.v()).sin_cos();
    let k = wavenumber;
    let curve = xi.chain([amplitude * s, amplitude * k * c, -amplitude * k * k * s]);
    block.set_rows(0, &eta.sub(&curve));
}
