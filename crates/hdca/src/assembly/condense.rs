//! Assembly of two sub-assemblies at an internal node (eqs 26–36) and the node's
//! share of the disassembly (eq 29), with K = R^A_JJ + R^B_JJ factored rather than
//! inverted.
//!
//! K is equilibrated, K̃ = S K S with S = diag(K_ii^{-1/2}), exactly as in
//! [`mbs_linalg::small::pinv_psd`], and factored K̃ = L Lᵀ when every pivot stays
//! above `tol · max diag` (the same test, so the same nodes take the same path).
//! Then, with Z = L⁻¹ S R_JE and z = L⁻¹ S r_J,
//!
//! ```text
//! R^C = R_EE − Zᵀ Z,  r^C = r_E − Zᵀ z                     (eqs 34–36)
//! σ_J = −S L⁻ᵀ L⁻¹ S (R_JE σ_E + r_J)                       (eq 29)
//! ```
//!
//! which is half the work of forming K⁻¹ and Y = K⁻¹ R_JE, and R^C comes out exactly
//! symmetric. When a pivot is small (redundant constraints, singular
//! configurations) the node falls back to the pseudo-inverse K⁺ of `pinv_psd` and
//! the explicit Y = K⁺ R_JE, y = K⁺ r_J.

use mbs_linalg::small::{cholesky_in_place, cholesky_solve, pinv_psd};

use super::Node;

/// Gathers K, R_JE, R_EE, r_J (into `yvec`) and r_E from the two children
/// through the node's precomputed [`super::Scatter`].
fn gather(node: &mut Node, a: &Node, b: &Node) {
    node.k.fill(0.0);
    node.rje.fill(0.0);
    node.rmat.fill(0.0);
    node.rvec.fill(0.0);
    node.yvec.fill(0.0);
    for (sc, child) in node.scatter.iter().zip([a, b]) {
        let (r, v) = (&child.rmat[..], &child.rvec[..]);
        for &(s, d) in &sc.k {
            node.k[d as usize] += r[s as usize];
        }
        for &(s, d) in &sc.rje {
            node.rje[d as usize] += r[s as usize];
        }
        for &(s, d) in &sc.ree {
            node.rmat[d as usize] += r[s as usize];
        }
        for &(s, d) in &sc.rj {
            node.yvec[d as usize] += v[s as usize];
        }
        for &(s, d) in &sc.re {
            node.rvec[d as usize] += v[s as usize];
        }
    }
}

/// Equilibrates `node.k` in place (S K S, S in `node.kscale`) and tries
/// K̃ = L Lᵀ with the pivot test of `pinv_psd`; true on success (L in `node.k`).
/// On failure `node.k` holds K again.
fn factor(node: &mut Node, tol: f64) -> bool {
    let mj = node.mj;
    let k = &mut node.k;
    let maxd = (0..mj).map(|i| k[i + i * mj]).fold(0.0_f64, f64::max);
    let mut regular = true;
    for i in 0..mj {
        let d = k[i + i * mj];
        node.kscale[i] = if d > 1e-300 && d > maxd * 1e-300 {
            1.0 / d.sqrt()
        } else {
            regular = false;
            0.0
        };
    }
    if !regular {
        return false;
    }
    node.kcopy.copy_from_slice(k);
    for j in 0..mj {
        for i in 0..mj {
            k[i + j * mj] *= node.kscale[i] * node.kscale[j];
        }
    }
    let maxs = (0..mj).map(|i| k[i + i * mj]).fold(0.0_f64, f64::max);
    if maxs > 0.0 && maxs.is_finite() && cholesky_in_place(k, mj, mj, tol * maxs).is_ok() {
        return true;
    }
    k.copy_from_slice(&node.kcopy);
    false
}

/// The internal-node assembly (eqs 26–36) of children `a` and `b` into `node`.
pub(super) fn internal_up(node: &mut Node, a: &Node, b: &Node, tol: f64) {
    gather(node, a, b);
    let (me, mj) = (node.me, node.mj);
    node.chol = factor(node, tol);
    if node.chol {
        node.dropped = 0;
        // Zᵀ = (L⁻¹ S R_JE)ᵀ row by row in ymat (row j: entries e = 0..me) and
        // z = L⁻¹ S r_J in scratch (yvec keeps r_J): forward substitution on all
        // right-hand sides at once, contiguous in e.
        let (l, zt, zr) = (&node.k, &mut node.ymat, &mut node.scratch[..mj]);
        for j in 0..mj {
            let s = node.kscale[j];
            let (done, rest) = zt.split_at_mut(j * me);
            let row = &mut rest[..me];
            for (e, x) in row.iter_mut().enumerate() {
                *x = node.rje[j + e * mj] * s;
            }
            let mut rj = node.yvec[j] * s;
            for p in 0..j {
                let lp = l[j + p * mj];
                for (x, y) in row.iter_mut().zip(&done[p * me..(p + 1) * me]) {
                    *x -= lp * y;
                }
                rj -= lp * zr[p];
            }
            let inv = 1.0 / l[j + j * mj];
            row.iter_mut().for_each(|x| *x *= inv);
            zr[j] = rj * inv;
        }
        // R^C = R_EE − Zᵀ Z, r^C = r_E − Zᵀ z (rank-one updates, j in order: R^C
        // stays exactly symmetric)
        if me > 0 {
            for (j, row) in zt.chunks_exact(me).enumerate() {
                for (f, &a) in row.iter().enumerate() {
                    let col = &mut node.rmat[f * me..(f + 1) * me];
                    for (c, x) in col.iter_mut().zip(row) {
                        *c -= a * x;
                    }
                    node.rvec[f] -= a * zr[j];
                }
            }
        }
        return;
    }
    node.dropped = pinv_psd(&mut node.k, mj, tol, &mut node.scratch);
    // y = K⁺ r_J (yvec holds r_J), Y = K⁺ R_JE.
    let rj = &mut node.scratch[..mj];
    rj.copy_from_slice(&node.yvec);
    for i in 0..mj {
        node.yvec[i] = (0..mj).map(|j| node.k[i + j * mj] * rj[j]).sum();
    }
    for e in 0..me {
        for i in 0..mj {
            let mut s = 0.0;
            for j in 0..mj {
                s += node.k[i + j * mj] * node.rje[j + e * mj];
            }
            node.ymat[i + e * mj] = s;
        }
    }
    // R^C = R_EE − R_JEᵀ Y, r^C = r_E − R_JEᵀ y.
    for f in 0..me {
        for e in 0..me {
            let mut s = 0.0;
            for i in 0..mj {
                s += node.rje[i + e * mj] * node.ymat[i + f * mj];
            }
            node.rmat[e + f * me] -= s;
        }
    }
    for e in 0..me {
        let s: f64 = (0..mj).map(|i| node.rje[i + e * mj] * node.yvec[i]).sum();
        node.rvec[e] -= s;
    }
}

/// σ_J of an internal node from its boundary σ_E (eq 29).
pub(super) fn sigma_joint(node: &mut Node) {
    let (me, mj) = (node.me, node.mj);
    if node.chol {
        // b = R_JE σ_E + r_J, σ_J = −S (L Lᵀ)⁻¹ S b
        let b = &mut node.sigma_j;
        b.copy_from_slice(&node.yvec);
        for (e, &se) in node.sigma_e.iter().enumerate() {
            for (bi, r) in b.iter_mut().zip(&node.rje[e * mj..(e + 1) * mj]) {
                *bi += r * se;
            }
        }
        for (bi, s) in b.iter_mut().zip(&node.kscale) {
            *bi *= s;
        }
        cholesky_solve(&node.k, mj, mj, b);
        for (bi, s) in b.iter_mut().zip(&node.kscale) {
            *bi *= -s;
        }
        return;
    }
    for i in 0..mj {
        let mut s = node.yvec[i];
        for e in 0..me {
            s += node.ymat[i + e * mj] * node.sigma_e[e];
        }
        node.sigma_j[i] = -s;
    }
}

#[cfg(test)]
mod tests {
    use nalgebra::{DMatrix, DVector};

    use super::super::{Handle, Node, Slot};
    use super::{internal_up, sigma_joint};

    fn handle(joint: usize, off: usize, m: usize) -> Handle {
        Handle {
            joint,
            sign: 1.0,
            off,
            m,
        }
    }

    /// A child with boundary size 4 and R = Gᵀ G (PSD), r given.
    fn child(g: &DMatrix<f64>, r: &[f64]) -> Node {
        let mut c = Node::new(
            1,
            0,
            None,
            vec![handle(0, 0, 4)],
            Vec::new(),
            Default::default(),
        );
        let rr = g.transpose() * g;
        c.rmat.copy_from_slice(rr.as_slice());
        c.rvec.copy_from_slice(r);
        c
    }

    /// Parent with E = [e0, e1] and J = [j0, j1, j2]; child a sees [E0, J0, J1, J2],
    /// child b [J0, J1, J2, E1].
    fn parent() -> Node {
        let map_a = vec![Slot::E(0), Slot::J(0), Slot::J(1), Slot::J(2)];
        let map_b = vec![Slot::J(0), Slot::J(1), Slot::J(2), Slot::E(1)];
        Node::new(
            2,
            1,
            None,
            vec![handle(0, 0, 2)],
            vec![handle(1, 0, 3)],
            [map_a, map_b],
        )
    }

    fn pseudo_random(n: usize, seed: f64) -> Vec<f64> {
        (0..n).map(|k| (seed * (k as f64 + 1.0)).sin()).collect()
    }

    /// The parent's full matrix [K R_JE; R_EJ R_EE] and [r_J; r_E] from the children.
    fn full(a: &Node, b: &Node) -> (DMatrix<f64>, DVector<f64>) {
        // global index: J0..J2 → 0..3, E0 → 3, E1 → 4
        let ia = [3, 0, 1, 2];
        let ib = [0, 1, 2, 4];
        let mut m = DMatrix::zeros(5, 5);
        let mut v = DVector::zeros(5);
        for (c, idx) in [(a, ia), (b, ib)] {
            for j in 0..4 {
                for i in 0..4 {
                    m[(idx[i], idx[j])] += c.rmat[i + 4 * j];
                }
                v[idx[j]] += c.rvec[j];
            }
        }
        (m, v)
    }

    #[test]
    fn factored_condensation_matches_the_explicit_schur_complement() {
        let ga = DMatrix::from_vec(4, 4, pseudo_random(16, 0.7));
        let gb = DMatrix::from_vec(4, 4, pseudo_random(16, 1.3));
        let (a, b) = (
            child(&ga, &[0.3, -0.2, 0.5, 0.1]),
            child(&gb, &[-0.4, 0.6, 0.2, 0.9]),
        );
        let mut node = parent();
        internal_up(&mut node, &a, &b, 1e-8);
        assert!(node.chol, "a regular K is factored");
        assert_eq!(node.dropped, 0);
        let (m, v) = full(&a, &b);
        let k = m.view((0, 0), (3, 3)).into_owned();
        let rje = m.view((0, 3), (3, 2)).into_owned();
        let ree = m.view((3, 3), (2, 2)).into_owned();
        let kinv = k.clone().try_inverse().expect("regular");
        let rc = &ree - rje.transpose() * &kinv * &rje;
        let rj = v.rows(0, 3).into_owned();
        let rcv = v.rows(3, 2) - rje.transpose() * &kinv * &rj;
        for f in 0..2 {
            for e in 0..2 {
                assert!((node.rmat[e + 2 * f] - rc[(e, f)]).abs() < 1e-12 * rc.norm());
            }
            assert!((node.rvec[f] - rcv[f]).abs() < 1e-12 * (1.0 + rcv.norm()));
        }
        node.sigma_e.copy_from_slice(&[0.8, -1.1]);
        sigma_joint(&mut node);
        let se = DVector::from_column_slice(&node.sigma_e);
        let sj = -(&kinv * (&rje * se + rj));
        for i in 0..3 {
            assert!((node.sigma_j[i] - sj[i]).abs() < 1e-12 * (1.0 + sj.norm()));
        }
    }

    #[test]
    fn a_singular_k_falls_back_to_the_pseudo_inverse() {
        // both children's J columns 1 and 2 equal: K has a null direction
        let mut ga = DMatrix::from_vec(4, 4, pseudo_random(16, 0.7));
        let mut gb = DMatrix::from_vec(4, 4, pseudo_random(16, 1.3));
        let c = ga.column(1).into_owned();
        ga.set_column(2, &c);
        ga.set_column(3, &(c * 0.0));
        let c = gb.column(0).into_owned();
        gb.set_column(1, &c);
        gb.set_column(2, &(c * 0.0));
        let (a, b) = (child(&ga, &[0.0; 4]), child(&gb, &[0.0; 4]));
        let mut node = parent();
        internal_up(&mut node, &a, &b, 1e-8);
        assert!(!node.chol, "a singular K is not factored");
        assert!(node.dropped >= 1, "dropped {}", node.dropped);
        node.sigma_e.copy_from_slice(&[0.8, -1.1]);
        sigma_joint(&mut node);
        assert!(node.sigma_j.iter().all(|s| s.is_finite()));
    }
}
