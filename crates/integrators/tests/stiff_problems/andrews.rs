//! Andrew's squeezing mechanism in the IVP Test Set's own formulation (problem
//! `andrews`; Hairer & Wanner, *Solving ODEs II*, 2nd ed., sec VII.7, eqs 7.4–7.5
//! and the data there): the index-3 DAE in 27 variables
//!
//! ```text
//! q' = v                           (7)   q = (β, Θ, γ, Φ, δ, Ω, ε)
//! v' = w                           (7)
//! 0  = M(q) w − f(q, v) + G(q)ᵀ λ  (7)   w = q''
//! 0  = g(q)                        (6)   G = ∂g/∂q
//! ```
//!
//! i.e. `M y' = F(y)` with the constant `M = diag(I₁₄, 0₁₃)`; `w` and `λ` are
//! index-3 variables (RADAU5: `NIND1 = 14`, `NIND2 = 0`, `NIND3 = 13`),
//! `t ∈ [0, 0.03]`. `M(q)`, `f(q, v)`, `g(q)` and `G(q)` are written from
//! Hairer & Wanner's sec VII.7 (the matrix `M(q)` of their eq 7.4 and the force
//! vector `f` with the spring `D–C` and the driving torque `mom`).
#![allow(clippy::excessive_precision)]

use mbs_integrators::{DaeIndex, MassMatrix, OdeSystem, SystemError};

const M: [f64; 7] = [
    0.04325, 0.00365, 0.02373, 0.00706, 0.07050, 0.00706, 0.05498,
];
const I: [f64; 7] = [
    2.194e-6, 4.410e-7, 5.255e-6, 5.667e-7, 1.169e-5, 5.667e-7, 1.912e-5,
];
const XA: f64 = -0.06934;
const YA: f64 = -0.00227;
const XB: f64 = -0.03635;
const YB: f64 = 0.03273;
const XC: f64 = 0.014;
const YC: f64 = 0.072;
const C0: f64 = 4530.0;
const D: f64 = 0.028;
const DA: f64 = 0.0115;
const E: f64 = 0.02;
const EA: f64 = 0.01421;
const RR: f64 = 0.007;
const RA: f64 = 0.00092;
const L0: f64 = 0.07785;
const SS: f64 = 0.035;
const SA: f64 = 0.01874;
const SB: f64 = 0.01043;
const SC: f64 = 0.018;
const SD: f64 = 0.02;
const TA: f64 = 0.02308;
const TB: f64 = 0.00916;
const U: f64 = 0.04;
const UA: f64 = 0.01228;
const UB: f64 = 0.00449;
const ZF: f64 = 0.02;
const ZT: f64 = 0.04;
const FA: f64 = 0.01421;
const MOM: f64 = 0.033;

/// The Test Set's `andrews` as `M y' = F(y)` (module documentation).
#[derive(Debug)]
pub struct Andrews {
    mass: MassMatrix,
    /// Right-hand side evaluations.
    pub evals: usize,
}

impl Default for Andrews {
    fn default() -> Self {
        let mut d = vec![1.0; 27];
        d[14..].fill(0.0);
        Self {
            mass: MassMatrix::diagonal(
                d,
                DaeIndex {
                    index1: 14,
                    index2: 0,
                    index3: 13,
                },
            ),
            evals: 0,
        }
    }
}

impl Andrews {
    pub const T_END: f64 = 0.03;

    /// The Test Set's consistent initial values (Hairer & Wanner sec VII.7):
    /// `q(0)`, `v(0) = 0`, `w(0)`, `λ(0)`.
    pub const Y0: [f64; 27] = [
        -0.0617138900142764496358948458001,
        0.0,
        0.455279819163070380255912382449,
        0.222668390165885884674473185609,
        0.487364979543842550225598953530,
        -0.222668390165885884674473185609,
        1.23054744454982119249735015568,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        14222.4439199541138705911625887,
        -10666.8329399655854029433719415,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        98.5668703962410896057654982170,
        -6.12268834425566265503114393122,
        0.0,
        0.0,
        0.0,
        0.0,
    ];

    /// The Test Set's reference solution `q(0.03)` (the seven angles; scd is
    /// computed on these).
    pub const REFERENCE_Q: [f64; 7] = [
        0.1581077119629904e+02,
        -0.1575637105984298e+02,
        0.4082224013073101e-01,
        -0.5347301163226948e+00,
        0.5244099658805304e+00,
        0.5347301163226948e+00,
        0.1048080741042263e+01,
    ];

    /// Hairer & Wanner's `M(q)` (eq 7.4), symmetric 7×7, row major.
    pub fn mass_q(q: &[f64]) -> [[f64; 7]; 7] {
        let (th, ph, om) = (q[1].cos(), q[3].sin(), q[5].sin());
        let mut m = [[0.0; 7]; 7];
        let (e4, f6) = (E - EA, ZF - FA);
        m[0][0] = M[0] * RA * RA + M[1] * (RR * RR - 2.0 * DA * RR * th + DA * DA) + I[0] + I[1];
        m[1][0] = M[1] * (DA * DA - DA * RR * th) + I[1];
        m[1][1] = M[1] * DA * DA + I[1];
        m[2][2] = M[2] * (SA * SA + SB * SB) + I[2];
        m[3][3] = M[3] * e4 * e4 + I[3];
        m[4][3] = M[3] * (e4 * e4 + ZT * e4 * ph) + I[3];
        m[4][4] = M[3] * (ZT * ZT + 2.0 * ZT * e4 * ph + e4 * e4)
            + M[4] * (TA * TA + TB * TB)
            + I[3]
            + I[4];
        m[5][5] = M[5] * f6 * f6 + I[5];
        m[6][5] = M[5] * (f6 * f6 - U * f6 * om) + I[5];
        m[6][6] =
            M[5] * (f6 * f6 - 2.0 * U * f6 * om + U * U) + M[6] * (UA * UA + UB * UB) + I[5] + I[6];
        for (i, j) in [(0, 1), (3, 4), (5, 6)] {
            m[i][j] = m[j][i];
        }
        m
    }

    /// Hairer & Wanner's force vector `f(q, v)`: the driving torque, the spring
    /// `D–C` (stiffness `c₀`, free length `l₀`) and the centrifugal/Coriolis terms.
    pub fn force(q: &[f64], v: &[f64]) -> [f64; 7] {
        let (s3, c3) = q[2].sin_cos();
        let xd = SD * c3 + SC * s3 + XB;
        let yd = SD * s3 - SC * c3 + YB;
        let l = ((xd - XC).powi(2) + (yd - YC).powi(2)).sqrt();
        let fs = -C0 * (l - L0) / l;
        let (fx, fy) = (fs * (xd - XC), fs * (yd - YC));
        let (e4, f6) = (E - EA, ZF - FA);
        [
            MOM - M[1] * DA * RR * v[1] * (v[1] + 2.0 * v[0]) * q[1].sin(),
            M[1] * DA * RR * v[0] * v[0] * q[1].sin(),
            fx * (SC * c3 - SD * s3) + fy * (SD * c3 + SC * s3),
            M[3] * ZT * e4 * v[4] * v[4] * q[3].cos(),
            -M[3] * ZT * e4 * v[3] * (v[3] + 2.0 * v[4]) * q[3].cos(),
            -M[5] * U * f6 * v[6] * v[6] * q[5].cos(),
            M[5] * U * f6 * v[5] * (v[5] + 2.0 * v[6]) * q[5].cos(),
        ]
    }

    /// `(sin, cos)` of the angles the loop closures use: β, β + Θ, γ, Φ + δ, δ,
    /// Ω + ε, ε.
    fn loop_angles(q: &[f64]) -> [(f64, f64); 7] {
        [
            q[0],
            q[0] + q[1],
            q[2],
            q[3] + q[4],
            q[4],
            q[5] + q[6],
            q[6],
        ]
        .map(f64::sin_cos)
    }

    /// The constraints `g(q)`: the point E reached along the three loops
    /// (Hairer & Wanner sec VII.7).
    pub fn constraints(q: &[f64]) -> [f64; 6] {
        let [
            (s1, c1),
            (s12, c12),
            (s3, c3),
            (s45, c45),
            (s5, c5),
            (s67, c67),
            (s7, c7),
        ] = Self::loop_angles(q);
        let (ex, ey) = (RR * c1 - D * c12, RR * s1 - D * s12);
        [
            ex - SS * s3 - XB,
            ey + SS * c3 - YB,
            ex - E * s45 - ZT * c5 - XA,
            ey + E * c45 - ZT * s5 - YA,
            ex - ZF * c67 - U * s7 - XA,
            ey - ZF * s67 + U * c7 - YA,
        ]
    }

    /// `G(q) = ∂g/∂q`, 6×7 row major.
    pub fn constraint_jacobian(q: &[f64]) -> [[f64; 7]; 6] {
        let [
            (s1, c1),
            (s12, c12),
            (s3, c3),
            (s45, c45),
            (s5, c5),
            (s67, c67),
            (s7, c7),
        ] = Self::loop_angles(q);
        let mut g = [[0.0; 7]; 6];
        for r in [0, 2, 4] {
            g[r][0] = -RR * s1 + D * s12;
            g[r][1] = D * s12;
            g[r + 1][0] = RR * c1 - D * c12;
            g[r + 1][1] = -D * c12;
        }
        g[0][2] = -SS * c3;
        g[1][2] = -SS * s3;
        g[2][3] = -E * c45;
        g[2][4] = -E * c45 + ZT * s5;
        g[3][3] = -E * s45;
        g[3][4] = -E * s45 - ZT * c5;
        g[4][5] = ZF * s67;
        g[4][6] = ZF * s67 - U * c7;
        g[5][5] = -ZF * c67;
        g[5][6] = -ZF * c67 - U * s7;
        g
    }

    /// Significant correct digits as the Test Set counts them for `andrews`:
    /// `−log₁₀ max_i |y_i − ref_i| / |ref_i|` over the seven angles (all
    /// nonzero here).
    pub fn scd(y: &[f64]) -> f64 {
        let worst = Self::REFERENCE_Q
            .iter()
            .zip(y)
            .map(|(r, y)| ((y - r) / r).abs())
            .fold(0.0, f64::max);
        -worst.log10()
    }
}

impl OdeSystem for Andrews {
    fn dim(&self) -> usize {
        27
    }
    fn rhs(&mut self, _t: f64, y: &[f64], d: &mut [f64]) -> Result<(), SystemError> {
        self.evals += 1;
        let (q, v, w, lam) = (&y[..7], &y[7..14], &y[14..21], &y[21..27]);
        d[..14].copy_from_slice(&y[7..21]);
        let m = Self::mass_q(q);
        let f = Self::force(q, v);
        let g = Self::constraint_jacobian(q);
        for i in 0..7 {
            let mw: f64 = (0..7).map(|j| m[i][j] * w[j]).sum();
            let gl: f64 = (0..6).map(|k| g[k][i] * lam[k]).sum();
            d[14 + i] = mw - f[i] + gl;
        }
        d[21..].copy_from_slice(&Self::constraints(q));
        Ok(())
    }
    fn mass_matrix(&self) -> Option<&MassMatrix> {
        Some(&self.mass)
    }
}
