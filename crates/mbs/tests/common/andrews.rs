//! Andrew's squeezing mechanism against the IVP test set (Mazzia, Magherini et al.,
//! *Test Set for IVP Solvers*, problem `andrews`; Hairer & Wanner, *Solving Ordinary
//! Differential Equations II*, sec VII.7): the published angles at t = 0.03 and our
//! bodies' angles in Hairer & Wanner's seven coordinates.

use mbs::Trajectory;

/// The IVP test set's reference angles β, Θ, γ, Φ, δ, Ω, ε at t = 0.03, computed there
/// at tight tolerance from Hairer & Wanner's 7-coordinate index-3 formulation.
#[allow(clippy::excessive_precision)]
pub const ANGLES_AT_T_003: [f64; 7] = [
    0.1581077119629904e+02,
    -0.1575637105984298e+02,
    0.4082224013073101e-01,
    -0.5347301163226948e+00,
    0.5244099658805304e+00,
    0.5347301163226948e+00,
    0.1048080741042263e+01,
];

/// Names of the seven coordinates, in the order of [`ANGLES_AT_T_003`].
#[allow(dead_code)]
pub const NAMES: [&str; 7] = ["β", "Θ", "γ", "Φ", "δ", "Ω", "ε"];

/// Hairer & Wanner's coordinates at the last sample from the body angles about z
/// (unwrapped along the samples; the bodies turn about z only, p = [cos φ/2, 0, 0,
/// sin φ/2]): β = φ₁, Θ = φ₂ − φ₁, γ = φ₃, Φ = φ₄ − φ₅, δ = φ₅, Ω = φ₆ − φ₇, ε = φ₇.
pub fn final_angles(traj: &Trajectory) -> [f64; 7] {
    let body = |i: usize| {
        let b = traj.body_index(&format!("body{i}")).unwrap();
        let mut phi: Option<f64> = None;
        for k in 0..traj.len() {
            let p = traj.euler_params(k, b);
            let raw = 2.0 * p[3].atan2(p[0]);
            phi = Some(match phi {
                None => raw,
                Some(prev) => {
                    raw + ((prev - raw) / std::f64::consts::TAU).round() * std::f64::consts::TAU
                }
            });
        }
        phi.unwrap()
    };
    [
        body(1),
        body(2) - body(1),
        body(3),
        body(4) - body(5),
        body(5),
        body(6) - body(7),
        body(7),
    ]
}
