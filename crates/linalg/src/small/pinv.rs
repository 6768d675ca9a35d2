//! (Pseudo-)inverse of a small symmetric positive semi-definite matrix, such as
//! the impulse systems [Dᵀ(ξ₁₁ᴮ + ξ₂₂ᴬ)D] of the Hamiltonian divide-and-conquer
//! assembly (Chadaj, Malczyk & Frączek 2017, eqs 26–27, 43, 45), which redundant
//! constraints make singular.

use super::{cholesky_in_place, jacobi_eigen};

/// Replaces the n×n column-major symmetric PSD `k` by its (pseudo-)inverse.
/// `scratch` needs n² + 2n entries. Returns the number of dropped directions.
///
/// The matrix is first equilibrated, K̃ = S K S with S = diag(K_ii^{-1/2}), so that
/// the redundancy test does not depend on units or on lever arms; K⁺ is then
/// S K̃⁺ S (the inverse when K is regular, a weighted pseudo-inverse that solves
/// every consistent system otherwise). K̃⁻¹ comes from a Cholesky factorization
/// when every pivot stays above `tol · max diag`; otherwise a Jacobi
/// eigen-decomposition gives the minimum-norm pseudo-inverse, dropping
/// eigenvalues below `tol · λ_max`. Both paths are deterministic and
/// allocation-free.
pub fn pinv_psd(k: &mut [f64], n: usize, tol: f64, scratch: &mut [f64]) -> usize {
    if n == 0 {
        return 0;
    }
    let (scale, scratch) = scratch.split_at_mut(n);
    let maxd = (0..n).map(|i| k[i + i * n]).fold(0.0_f64, f64::max);
    for i in 0..n {
        let d = k[i + i * n];
        scale[i] = if d > 1e-300 && d > maxd * 1e-300 {
            1.0 / d.sqrt()
        } else {
            0.0
        };
    }
    for j in 0..n {
        for i in 0..n {
            k[i + j * n] *= scale[i] * scale[j];
        }
    }
    let dropped = pinv_scaled(k, n, tol, scratch);
    for j in 0..n {
        for i in 0..n {
            k[i + j * n] *= scale[i] * scale[j];
        }
    }
    dropped
}

fn pinv_scaled(k: &mut [f64], n: usize, tol: f64, scratch: &mut [f64]) -> usize {
    let l = &mut scratch[..n * n];
    l.copy_from_slice(&k[..n * n]);
    if cholesky_inverse(l, k, n, tol) {
        return 0;
    }
    jacobi_pinv(k, n, tol, scratch)
}

/// `out` = a⁻¹ via Cholesky of `a` (destroyed); false (and `out` untouched) if a
/// pivot is below `tol · max diag`.
fn cholesky_inverse(a: &mut [f64], out: &mut [f64], n: usize, tol: f64) -> bool {
    let maxd = (0..n).map(|i| a[i * n + i]).fold(0.0_f64, f64::max);
    if maxd <= 0.0 || !maxd.is_finite() || cholesky_in_place(a, n, n, tol * maxd).is_err() {
        return false;
    }
    // L⁻¹ in place (lower triangle).
    for j in 0..n {
        a[j + j * n] = 1.0 / a[j + j * n];
        for i in j + 1..n {
            let mut s = 0.0;
            for k in j..i {
                s -= a[i + k * n] * a[k + j * n];
            }
            a[i + j * n] = s / a[i + i * n];
        }
    }
    // K⁻¹ = L⁻ᵀ L⁻¹: (i, j) = Σ_{k ≥ max(i, j)} L⁻¹[k, i] L⁻¹[k, j].
    for j in 0..n {
        for i in 0..=j {
            let mut s = 0.0;
            for k in j..n {
                s += a[k + i * n] * a[k + j * n];
            }
            out[i + j * n] = s;
            out[j + i * n] = s;
        }
    }
    true
}

/// k = Q Λ Qᵀ (Jacobi), replaced by Q Λ⁺ Qᵀ.
fn jacobi_pinv(k: &mut [f64], n: usize, tol: f64, scratch: &mut [f64]) -> usize {
    let (q, lam) = scratch.split_at_mut(n * n);
    let a = k;
    jacobi_eigen(a, n, q);
    let lmax = (0..n).map(|i| a[i + i * n]).fold(0.0_f64, f64::max);
    let mut dropped = 0;
    for i in 0..n {
        let l = a[i + i * n];
        lam[i] = if l > tol * lmax && l > 0.0 {
            1.0 / l
        } else {
            dropped += 1;
            0.0
        };
    }
    for j in 0..n {
        for i in 0..n {
            let mut s = 0.0;
            for m in 0..n {
                s += q[i + m * n] * lam[m] * q[j + m * n];
            }
            a[i + j * n] = s;
        }
    }
    dropped
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::SplitMix64;
    use nalgebra::DMatrix;

    fn random(rng: &mut SplitMix64, r: usize, c: usize) -> DMatrix<f64> {
        DMatrix::from_fn(r, c, |_, _| rng.uniform(-1.0, 1.0))
    }

    #[test]
    fn inverts_a_regular_matrix() {
        let mut rng = SplitMix64::new(5);
        let b = random(&mut rng, 5, 5);
        let k0 = &b * b.transpose() + DMatrix::identity(5, 5);
        let mut k = k0.clone();
        let mut scratch = vec![0.0; 25 + 10];
        assert_eq!(pinv_psd(k.as_mut_slice(), 5, 1e-10, &mut scratch), 0);
        assert!((&k * &k0 - DMatrix::identity(5, 5)).amax() < 1e-12);
    }

    /// Rank 3 of 5 (two redundant directions): the Moore–Penrose conditions
    /// K K⁺ K = K and K⁺ K K⁺ = K⁺ hold for the weighted pseudo-inverse.
    #[test]
    fn pseudo_inverts_a_singular_matrix() {
        let mut rng = SplitMix64::new(6);
        let b = random(&mut rng, 5, 3);
        let k0 = &b * b.transpose();
        let mut k = k0.clone();
        let mut scratch = vec![0.0; 25 + 10];
        assert_eq!(pinv_psd(k.as_mut_slice(), 5, 1e-10, &mut scratch), 2);
        assert!((&k0 * &k * &k0 - &k0).amax() < 1e-10 * k0.amax());
        assert!((&k * &k0 * &k - &k).amax() < 1e-10 * k.amax());
    }
}
