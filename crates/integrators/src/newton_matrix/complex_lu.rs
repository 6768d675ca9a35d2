//! Dense complex LU with partial pivoting, real and imaginary parts in separate
//! column-major arrays (as `decc`/`solc` of Hairer's `decsol.f`, used by RADAU5
//! for `(α + iβ)/h · I − J`). No allocation.

/// Factor `A = re + i·im` (`n×n`, column major) in place, `P A = L U`; pivots
/// into `piv`. `false` if a pivot is zero or not finite.
pub(crate) fn factor(re: &mut [f64], im: &mut [f64], n: usize, piv: &mut [usize]) -> bool {
    for k in 0..n {
        let mut p = k;
        let mut max = re[k * n + k].abs() + im[k * n + k].abs();
        for i in k + 1..n {
            let v = re[k * n + i].abs() + im[k * n + i].abs();
            if v > max {
                max = v;
                p = i;
            }
        }
        piv[k] = p;
        if !(max > 0.0 && max.is_finite()) {
            return false;
        }
        if p != k {
            for j in 0..n {
                re.swap(j * n + k, j * n + p);
                im.swap(j * n + k, j * n + p);
            }
        }
        // 1 / pivot
        let (pr, pi) = (re[k * n + k], im[k * n + k]);
        let den = pr * pr + pi * pi;
        let (ir, ii) = (pr / den, -pi / den);
        for i in k + 1..n {
            let (a, b) = (re[k * n + i], im[k * n + i]);
            re[k * n + i] = a * ir - b * ii;
            im[k * n + i] = a * ii + b * ir;
        }
        for j in k + 1..n {
            let (cr, ci) = (re[j * n + k], im[j * n + k]);
            if cr != 0.0 || ci != 0.0 {
                for i in k + 1..n {
                    let (lr, li) = (re[k * n + i], im[k * n + i]);
                    re[j * n + i] -= lr * cr - li * ci;
                    im[j * n + i] -= lr * ci + li * cr;
                }
            }
        }
    }
    true
}

/// Solve `A x = b` in place (`b = br + i·bi`) with the factors of [`factor`].
pub(crate) fn solve(
    re: &[f64],
    im: &[f64],
    n: usize,
    piv: &[usize],
    br: &mut [f64],
    bi: &mut [f64],
) {
    for k in 0..n {
        br.swap(k, piv[k]);
        bi.swap(k, piv[k]);
    }
    for j in 0..n {
        let (xr, xi) = (br[j], bi[j]);
        if xr != 0.0 || xi != 0.0 {
            for i in j + 1..n {
                let (lr, li) = (re[j * n + i], im[j * n + i]);
                br[i] -= lr * xr - li * xi;
                bi[i] -= lr * xi + li * xr;
            }
        }
    }
    for j in (0..n).rev() {
        let (pr, pi) = (re[j * n + j], im[j * n + j]);
        let den = pr * pr + pi * pi;
        let (xr, xi) = (br[j], bi[j]);
        let (yr, yi) = ((xr * pr + xi * pi) / den, (xi * pr - xr * pi) / den);
        br[j] = yr;
        bi[j] = yi;
        if yr != 0.0 || yi != 0.0 {
            for i in 0..j {
                let (ur, ui) = (re[j * n + i], im[j * n + i]);
                br[i] -= ur * yr - ui * yi;
                bi[i] -= ur * yi + ui * yr;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn solves_complex_system() {
        let n = 4;
        let mut s = 7u64;
        let mut rnd = || {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((s >> 11) as f64 / (1u64 << 53) as f64) - 0.5
        };
        let ar: Vec<f64> = (0..n * n).map(|_| rnd()).collect();
        let ai: Vec<f64> = (0..n * n).map(|_| rnd()).collect();
        let (xr, xi): (Vec<f64>, Vec<f64>) =
            (0..n).map(|i| (i as f64 + 1.0, 0.5 - i as f64)).unzip();
        let (mut br, mut bi) = (vec![0.0; n], vec![0.0; n]);
        for j in 0..n {
            for i in 0..n {
                let (a, b) = (ar[j * n + i], ai[j * n + i]);
                br[i] += a * xr[j] - b * xi[j];
                bi[i] += a * xi[j] + b * xr[j];
            }
        }
        let (mut fr, mut fi, mut piv) = (ar.clone(), ai.clone(), vec![0; n]);
        assert!(factor(&mut fr, &mut fi, n, &mut piv));
        solve(&fr, &fi, n, &piv, &mut br, &mut bi);
        for i in 0..n {
            assert!((br[i] - xr[i]).abs() < 1e-12 && (bi[i] - xi[i]).abs() < 1e-12);
        }
    }
}
