//! The complete elliptic integral of the first kind, for exact pendulum periods
//! T = 4 √(L/g) K(sin(θ₀/2)) (independent of any simulation).

/// K(k) = π / (2 AGM(1, √(1 − k²))). The AGM converges quadratically: 40 rounds reach
/// the last bit for any k < 1 (a test on |a − b| ≤ 1e-16 a can cycle forever between
/// neighbouring floats).
pub fn elliptic_k(k: f64) -> f64 {
    let (mut a, mut b) = (1.0_f64, (1.0 - k * k).sqrt());
    for _ in 0..40 {
        (a, b) = (0.5 * (a + b), (a * b).sqrt());
    }
    std::f64::consts::PI / (2.0 * a)
}
