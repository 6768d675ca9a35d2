//! Stiff test problems of the Test Set for IVP Solvers (Mazzia & Magherini,
//! <http://www.dm.uniba.it/~testset/>) with their published reference solutions
//! (transcribed from the test set's `vdpol`, `rober` and `hires` drivers as
//! distributed in the R package deTestSet, `reference()`), and a stiff linear
//! problem with an exact solution.
#![allow(dead_code, unused_imports, clippy::excessive_precision)]

use mbs_integrators::{JacobianPattern, OdeSystem, SystemError};

mod andrews;
pub use andrews::Andrews;
use nalgebra::DMatrix;

/// Van der Pol, IVP Test Set form: `y₁' = y₂`, `y₂' = μ(1 − y₁²) y₂ − y₁`,
/// `μ = 1000`, `y(0) = (2, 0)`, `t ∈ [0, 2000]`.
#[derive(Debug, Default)]
pub struct VanDerPol {
    pub evals: usize,
}

impl VanDerPol {
    pub const MU: f64 = 1000.0;
    pub const Y0: [f64; 2] = [2.0, 0.0];
    pub const T_END: f64 = 2000.0;
    /// Test Set reference at `t = 2000`.
    pub const REFERENCE: [f64; 2] = [0.1706167732170469e1, -0.8928097010248125e-3];
}

impl OdeSystem for VanDerPol {
    fn dim(&self) -> usize {
        2
    }
    fn rhs(&mut self, _t: f64, y: &[f64], d: &mut [f64]) -> Result<(), SystemError> {
        self.evals += 1;
        d[0] = y[1];
        d[1] = Self::MU * (1.0 - y[0] * y[0]) * y[1] - y[0];
        Ok(())
    }
}

/// Robertson's chemical kinetics (Test Set `rober`), `y(0) = (1, 0, 0)`.
#[derive(Debug, Default)]
pub struct Robertson {
    /// Use the analytic Jacobian.
    pub analytic: bool,
}

impl Robertson {
    pub const Y0: [f64; 3] = [1.0, 0.0, 0.0];
    /// Test Set reference at `t = 1e11`.
    pub const REFERENCE_1E11: [f64; 3] = [
        0.2083340149701255e-7,
        0.8333360770334713e-13,
        0.9999999791665050,
    ];
}

impl OdeSystem for Robertson {
    fn dim(&self) -> usize {
        3
    }
    fn rhs(&mut self, _t: f64, y: &[f64], d: &mut [f64]) -> Result<(), SystemError> {
        let (k1, k2, k3) = (0.04, 3e7, 1e4);
        d[0] = -k1 * y[0] + k3 * y[1] * y[2];
        d[2] = k2 * y[1] * y[1];
        d[1] = -d[0] - d[2];
        Ok(())
    }
    fn jacobian(&mut self, _t: f64, y: &[f64], j: &mut DMatrix<f64>) -> Result<bool, SystemError> {
        if !self.analytic {
            return Ok(false);
        }
        let (k1, k2, k3) = (0.04, 3e7, 1e4);
        j[(0, 0)] = -k1;
        j[(0, 1)] = k3 * y[2];
        j[(0, 2)] = k3 * y[1];
        j[(2, 0)] = 0.0;
        j[(2, 1)] = 2.0 * k2 * y[1];
        j[(2, 2)] = 0.0;
        for c in 0..3 {
            j[(1, c)] = -j[(0, c)] - j[(2, c)];
        }
        Ok(true)
    }
}

/// HIRES (Test Set `hires`), `t ∈ [0, 321.8122]`.
#[derive(Debug, Default)]
pub struct Hires;

impl Hires {
    pub const Y0: [f64; 8] = [1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0057];
    pub const T_END: f64 = 321.8122;
    /// Test Set reference at `t = 321.8122` (RADAU5 in quadruple precision).
    pub const REFERENCE: [f64; 8] = [
        0.7371312573325668e-3,
        0.1442485726316185e-3,
        0.5888729740967575e-4,
        0.1175651343283149e-2,
        0.2386356198831331e-2,
        0.6238968252742796e-2,
        0.2849998395185769e-2,
        0.2850001604814231e-2,
    ];
}

impl OdeSystem for Hires {
    fn dim(&self) -> usize {
        8
    }
    fn rhs(&mut self, _t: f64, y: &[f64], f: &mut [f64]) -> Result<(), SystemError> {
        let (k1, k2, k3, k4, k5, k6, k7, k8, k9, oks) = (
            1.71, 0.43, 8.32, 0.69, 0.035, 8.32, 280.0, 0.69, 0.69, 0.0007,
        );
        f[0] = -k1 * y[0] + k2 * y[1] + k6 * y[2] + oks;
        f[1] = k1 * y[0] - (k2 + k3) * y[1];
        f[2] = -(k6 + k1) * y[2] + k2 * y[3] + k5 * y[4];
        f[3] = k3 * y[1] + k1 * y[2] - (k4 + k2) * y[3];
        f[4] = -(k5 + k1) * y[4] + k2 * (y[5] + y[6]);
        f[5] = -k7 * y[5] * y[7] + k8 * y[3] + k1 * y[4] - k2 * y[5] + k8 * y[6];
        f[6] = k7 * y[5] * y[7] - (k2 + k8 + k9) * y[6];
        f[7] = -f[6];
        Ok(())
    }
}

/// A stiff linear chain `y_i' = −λ_i (y_i − cos t) − sin t`… with exact
/// solution: `y_i(t) = cos t + (y_i(0) − 1) e^{−λ_i t}`, eigenvalues `λ_i` from
/// 1 to `λ_max`; tridiagonal coupling is added by [`Banded`].
#[derive(Debug)]
pub struct StiffLinear {
    pub lambda: Vec<f64>,
    pub evals: usize,
}

impl StiffLinear {
    pub fn new(n: usize, lambda_max: f64) -> Self {
        let lambda = (0..n)
            .map(|i| lambda_max.powf(i as f64 / (n - 1).max(1) as f64))
            .collect();
        Self { lambda, evals: 0 }
    }
    pub fn exact(&self, t: f64, y0: &[f64]) -> Vec<f64> {
        self.lambda
            .iter()
            .zip(y0)
            .map(|(l, y)| t.cos() + (y - 1.0) * (-l * t).exp())
            .collect()
    }
}

impl OdeSystem for StiffLinear {
    fn dim(&self) -> usize {
        self.lambda.len()
    }
    fn rhs(&mut self, t: f64, y: &[f64], d: &mut [f64]) -> Result<(), SystemError> {
        self.evals += 1;
        for i in 0..y.len() {
            d[i] = -self.lambda[i] * (y[i] - t.cos()) - t.sin();
        }
        Ok(())
    }
}

/// A nonlinear banded system (discretised reaction–diffusion):
/// `y_i' = κ (y_{i−1} − 2 y_i + y_{i+1}) − y_i³ + sin(t)` with `y_0 = y_{n+1} = 0`,
/// tridiagonal Jacobian, declared when `declare` is set.
#[derive(Debug)]
pub struct Banded {
    pub n: usize,
    pub kappa: f64,
    pub declare: bool,
    pub evals: usize,
}

impl OdeSystem for Banded {
    fn dim(&self) -> usize {
        self.n
    }
    fn rhs(&mut self, t: f64, y: &[f64], d: &mut [f64]) -> Result<(), SystemError> {
        self.evals += 1;
        let n = self.n;
        for i in 0..n {
            let l = if i > 0 { y[i - 1] } else { 0.0 };
            let r = if i + 1 < n { y[i + 1] } else { 0.0 };
            d[i] = self.kappa * (l - 2.0 * y[i] + r) - y[i] * y[i] * y[i] + t.sin();
        }
        Ok(())
    }
    fn jacobian_sparsity(&self) -> Option<JacobianPattern> {
        self.declare.then(|| JacobianPattern::banded(self.n, 1, 1))
    }
}
