//! Random test matrices shared by the integration tests.
#![allow(dead_code)]

use mbs_linalg::SplitMix64;
use nalgebra::DMatrix;

pub fn random_matrix(rng: &mut SplitMix64, r: usize, c: usize) -> DMatrix<f64> {
    DMatrix::from_fn(r, c, |_, _| rng.uniform(-1.0, 1.0))
}

/// Random orthogonal matrix (QR of a random matrix).
pub fn random_orthogonal(rng: &mut SplitMix64, n: usize) -> DMatrix<f64> {
    random_matrix(rng, n, n).qr().q()
}

/// SPD with eigenvalues in [0.1, 10].
pub fn random_spd(rng: &mut SplitMix64, n: usize) -> DMatrix<f64> {
    let q = random_orthogonal(rng, n);
    let d = DMatrix::from_diagonal(&nalgebra::DVector::from_fn(n, |_, _| {
        10f64.powf(rng.uniform(-1.0, 1.0))
    }));
    let a = &q * d * q.transpose();
    (&a + a.transpose()) * 0.5
}

/// Well-conditioned `r × n` matrix of full row rank (singular values in [0.5, 2]).
pub fn full_row_rank(rng: &mut SplitMix64, r: usize, n: usize) -> DMatrix<f64> {
    let q = random_orthogonal(rng, n);
    let u = random_orthogonal(rng, r);
    let s = DMatrix::from_diagonal(&nalgebra::DVector::from_fn(r, |_, _| rng.uniform(0.5, 2.0)));
    u * s * q.rows(0, r)
}

/// `m × n` Jacobian of rank `r < m`: `r` independent rows plus `m − r` random
/// combinations of them, in a random row order.
pub fn rank_deficient(rng: &mut SplitMix64, m: usize, n: usize, r: usize) -> DMatrix<f64> {
    rank_deficient_with_base(rng, m, n, r).0
}

/// As [`rank_deficient`], also returning the `r` independent rows it mixes.
pub fn rank_deficient_with_base(
    rng: &mut SplitMix64,
    m: usize,
    n: usize,
    r: usize,
) -> (DMatrix<f64>, DMatrix<f64>) {
    let base = full_row_rank(rng, r, n);
    let mut c = DMatrix::zeros(m, r);
    for i in 0..r {
        c[(i, i)] = 1.0;
    }
    for i in r..m {
        for k in 0..r {
            c[(i, k)] = rng.uniform(-1.0, 1.0);
        }
    }
    // shuffle rows
    let mut order: Vec<usize> = (0..m).collect();
    for i in (1..m).rev() {
        let j = (rng.next_u64() % (i as u64 + 1)) as usize;
        order.swap(i, j);
    }
    let c = DMatrix::from_fn(m, r, |i, k| c[(order[i], k)]);
    (c * &base, base)
}

pub fn rel_err(x: &DMatrix<f64>, y: &DMatrix<f64>) -> f64 {
    let d = (x - y).norm();
    let s = y.norm().max(1e-300);
    d / s
}

pub fn rel_err_slice(x: &[f64], y: &[f64]) -> f64 {
    let mut d = 0.0;
    let mut s = 0.0;
    for (a, b) in x.iter().zip(y) {
        d += (a - b) * (a - b);
        s += b * b;
    }
    (d / s.max(1e-300)).sqrt()
}
