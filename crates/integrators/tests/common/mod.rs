//! Test problems with exact solutions.
#![allow(dead_code)]

use mbs_integrators::{OdeSystem, PartitionedSystem, SystemError};

/// Kepler problem, μ = 1, a = 1 (period 2π), started at pericenter.
#[derive(Debug, Default)]
pub struct Kepler {
    pub evals: usize,
}

impl Kepler {
    pub fn initial(e: f64) -> [f64; 4] {
        [1.0 - e, 0.0, 0.0, ((1.0 + e) / (1.0 - e)).sqrt()]
    }
    /// Exact state at time t from Kepler's equation E − e sin E = t.
    pub fn exact(e: f64, t: f64) -> [f64; 4] {
        let mut ea = t;
        for _ in 0..100 {
            let d = (ea - e * ea.sin() - t) / (1.0 - e * ea.cos());
            ea -= d;
            if d.abs() < 1e-16 {
                break;
            }
        }
        let s = (1.0 - e * e).sqrt();
        let den = 1.0 - e * ea.cos();
        [
            ea.cos() - e,
            s * ea.sin(),
            -ea.sin() / den,
            s * ea.cos() / den,
        ]
    }
}

impl OdeSystem for Kepler {
    fn dim(&self) -> usize {
        4
    }
    fn rhs(&mut self, _t: f64, y: &[f64], dydt: &mut [f64]) -> Result<(), SystemError> {
        self.evals += 1;
        let r2 = y[0] * y[0] + y[1] * y[1];
        let r3 = r2 * r2.sqrt();
        dydt[0] = y[2];
        dydt[1] = y[3];
        dydt[2] = -y[0] / r3;
        dydt[3] = -y[1] / r3;
        Ok(())
    }
}

/// Kepler problem as a partitioned system (x = position, v = velocity).
#[derive(Debug, Default)]
pub struct KeplerPartitioned;

impl PartitionedSystem for KeplerPartitioned {
    fn dim_positions(&self) -> usize {
        2
    }
    fn dim_velocities(&self) -> usize {
        2
    }
    fn accelerations(
        &mut self,
        _t: f64,
        x: &[f64],
        _v: &[f64],
        a: &mut [f64],
    ) -> Result<(), SystemError> {
        let r2 = x[0] * x[0] + x[1] * x[1];
        let r3 = r2 * r2.sqrt();
        a[0] = -x[0] / r3;
        a[1] = -x[1] / r3;
        Ok(())
    }
}

/// Damped oscillator x'' = −x − c x' (velocity-dependent accelerations).
#[derive(Debug)]
pub struct Damped {
    pub c: f64,
}

impl Damped {
    /// Exact (x, v) for x(0) = 1, v(0) = 0.
    pub fn exact(&self, t: f64) -> [f64; 2] {
        let c = self.c;
        let w = (1.0 - c * c / 4.0).sqrt();
        let k = c / (2.0 * w);
        let e = (-c * t / 2.0).exp();
        let x = e * ((w * t).cos() + k * (w * t).sin());
        // v = x' = e(−c/2 (cos + k sin) + (−w sin + k w cos))
        let v = e
            * (-c / 2.0 * ((w * t).cos() + k * (w * t).sin()) - w * (w * t).sin()
                + k * w * (w * t).cos());
        [x, v]
    }
}

impl PartitionedSystem for Damped {
    fn dim_positions(&self) -> usize {
        1
    }
    fn dim_velocities(&self) -> usize {
        1
    }
    fn accelerations(
        &mut self,
        _t: f64,
        x: &[f64],
        v: &[f64],
        a: &mut [f64],
    ) -> Result<(), SystemError> {
        a[0] = -x[0] - self.c * v[0];
        Ok(())
    }
}

/// Scalar non-autonomous nonlinear problem y' = −2 t y², y(0) = 1, y = 1/(1+t²).
#[derive(Debug, Default)]
pub struct Riccati;

impl OdeSystem for Riccati {
    fn dim(&self) -> usize {
        1
    }
    fn rhs(&mut self, t: f64, y: &[f64], dydt: &mut [f64]) -> Result<(), SystemError> {
        dydt[0] = -2.0 * t * y[0] * y[0];
        Ok(())
    }
}

/// Harmonic oscillator y1' = y2, y2' = −y1 (quadratic invariant y1² + y2²).
#[derive(Debug, Default)]
pub struct Oscillator;

impl OdeSystem for Oscillator {
    fn dim(&self) -> usize {
        2
    }
    fn rhs(&mut self, _t: f64, y: &[f64], dydt: &mut [f64]) -> Result<(), SystemError> {
        dydt[0] = y[1];
        dydt[1] = -y[0];
        Ok(())
    }
}

pub fn max_err(a: &[f64], b: &[f64]) -> f64 {
    a.iter()
        .zip(b)
        .map(|(x, y)| (x - y).abs())
        .fold(0.0, f64::max)
}

/// Observed orders log2(e_i / e_{i+1}) for step halving.
pub fn orders(errs: &[f64]) -> Vec<f64> {
    errs.windows(2).map(|w| (w[0] / w[1]).log2()).collect()
}
