//! Pseudo-inverse of the small symmetric positive semi-definite systems of the
//! assembly (eqs 26–27: [Dᵀ(ξ₁₁ᴮ + ξ₂₂ᴬ)D]⁻¹) and of the base-body connection
//! (eqs 43, 45). Redundant constraints (planar loops in 3-D: 3 per loop) make these
//! matrices singular; the paper assumes them regular (sec 2.2.1, remark after eq 45).
//! We first try a Cholesky factorization; if a pivot falls below
//! `tol · max diag`, a cyclic Jacobi eigen-decomposition gives the minimum-norm
//! pseudo-inverse, dropping eigenvalues below `tol · λ_max`. Both paths are
//! deterministic and allocation-free (all buffers are the caller's).

/// Replaces the n×n column-major symmetric PSD `k` by its (pseudo-)inverse.
/// `scratch` needs n² + 2n entries. Returns the number of dropped directions.
///
/// The matrix is first equilibrated, K̃ = S K S with S = diag(K_ii^{-1/2}), so that
/// the redundancy test does not depend on units or on lever arms (a long chain mixes
/// compliances of very different size); K⁺ is then S K̃⁺ S (the inverse when K is
/// regular, a weighted pseudo-inverse that solves every consistent system otherwise).
pub(crate) fn pinv_psd(k: &mut [f64], n: usize, tol: f64, scratch: &mut [f64]) -> usize {
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
    if maxd <= 0.0 || !maxd.is_finite() {
        return false;
    }
    // L in the lower triangle (column-major: a[i + j n]).
    for j in 0..n {
        let mut d = a[j + j * n];
        for k in 0..j {
            d -= a[j + k * n] * a[j + k * n];
        }
        if d <= tol * maxd {
            return false;
        }
        let d = d.sqrt();
        a[j + j * n] = d;
        for i in j + 1..n {
            let mut s = a[i + j * n];
            for k in 0..j {
                s -= a[i + k * n] * a[j + k * n];
            }
            a[i + j * n] = s / d;
        }
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

/// Cyclic Jacobi: k = Q Λ Qᵀ, replaced by Q Λ⁺ Qᵀ.
fn jacobi_pinv(k: &mut [f64], n: usize, tol: f64, scratch: &mut [f64]) -> usize {
    let (q, lam) = scratch.split_at_mut(n * n);
    let a = k;
    q[..n * n].fill(0.0);
    for i in 0..n {
        q[i + i * n] = 1.0;
    }
    let norm: f64 = a[..n * n].iter().map(|x| x * x).sum::<f64>().sqrt();
    for _sweep in 0..60 {
        let mut off = 0.0;
        for j in 0..n {
            for i in 0..j {
                off += a[i + j * n] * a[i + j * n];
            }
        }
        if off.sqrt() <= 1e-17 * norm {
            break;
        }
        for p in 0..n {
            for r in p + 1..n {
                let apr = a[p + r * n];
                if apr.abs() <= 1e-300 {
                    continue;
                }
                let app = a[p + p * n];
                let arr = a[r + r * n];
                let theta = (arr - app) / (2.0 * apr);
                let t = theta.signum() / (theta.abs() + (theta * theta + 1.0).sqrt());
                let t = if theta == 0.0 { 1.0 } else { t };
                let c = 1.0 / (t * t + 1.0).sqrt();
                let s = t * c;
                for m in 0..n {
                    let amp = a[m + p * n];
                    let amr = a[m + r * n];
                    a[m + p * n] = c * amp - s * amr;
                    a[m + r * n] = s * amp + c * amr;
                }
                for m in 0..n {
                    let apm = a[p + m * n];
                    let arm = a[r + m * n];
                    a[p + m * n] = c * apm - s * arm;
                    a[r + m * n] = s * apm + c * arm;
                }
                for m in 0..n {
                    let qmp = q[m + p * n];
                    let qmr = q[m + r * n];
                    q[m + p * n] = c * qmp - s * qmr;
                    q[m + r * n] = s * qmp + c * qmr;
                }
            }
        }
    }
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
