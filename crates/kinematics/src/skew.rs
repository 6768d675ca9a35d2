//! Skew-symmetric (cross-product) matrices: `skew(a) * b == a × b` (NOTATION.md).

use nalgebra::{Matrix3, Vector3};

/// The cross-product matrix ã of `a`, so that ã b = a × b (thesis eqs 2.5.8, 2.6.7,
/// 2.7.8).
#[inline]
pub fn skew(a: &Vector3<f64>) -> Matrix3<f64> {
    Matrix3::new(0.0, -a.z, a.y, a.z, 0.0, -a.x, -a.y, a.x, 0.0)
}

/// The vector a of a skew-symmetric matrix ã (the inverse of [`skew`]); uses the
/// skew-symmetric part of `m`, so it is also the "vee" of a nearly skew matrix.
#[inline]
pub fn unskew(m: &Matrix3<f64>) -> Vector3<f64> {
    Vector3::new(
        0.5 * (m[(2, 1)] - m[(1, 2)]),
        0.5 * (m[(0, 2)] - m[(2, 0)]),
        0.5 * (m[(1, 0)] - m[(0, 1)]),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn skew_is_cross_product() {
        let a = Vector3::new(0.3, -1.2, 2.0);
        let b = Vector3::new(-0.7, 0.4, 1.1);
        assert!((skew(&a) * b - a.cross(&b)).norm() < 1e-15);
        assert!((unskew(&skew(&a)) - a).norm() < 1e-15);
    }
}
