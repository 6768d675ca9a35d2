//! The Newton iteration of one attempted step (the policy of
//! [`super::DescriptorNewton`]), over the system's corrections.

use super::params::DescriptorNewton;
use super::rule::Kinematics;
use super::system::{DescriptorSystem, Iterate, Point};
use crate::common::all_finite;
use crate::error::{AtTime, Error};
use crate::system::Info;

/// The work vectors of an attempt: the iterate and the corrections.
#[derive(Debug, Clone, Default)]
pub(crate) struct Work {
    /// The position increment Δqₙ (velocity space).
    pub dq: Vec<f64>,
    pub delta: Vec<f64>,
    /// qₙ₊₁, q̇ₙ₊₁, q̈ (where the dynamics hold), aₙ₊₁ of the iterate.
    pub q: Vec<f64>,
    pub v: Vec<f64>,
    pub qdd: Vec<f64>,
    pub a: Vec<f64>,
    /// The midpoint (midpoint rule).
    pub dq_half: Vec<f64>,
    pub qm: Vec<f64>,
    pub vm: Vec<f64>,
}

/// How an attempt ended.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Outcome {
    /// Converged in `iterations`.
    Converged { iterations: usize },
    /// Not converged: the iterations done and the last scaled correction.
    Failed { iterations: usize, change: f64 },
}

/// The last accepted state an attempt starts from.
pub(crate) struct Start<'a> {
    pub t: f64,
    pub q: &'a [f64],
    pub v: &'a [f64],
    pub qdd: &'a [f64],
    pub a: &'a [f64],
}

impl Work {
    pub fn new(nq: usize, nv: usize) -> Self {
        let z = |n| vec![0.0; n];
        Self {
            dq: z(nv),
            delta: z(nv),
            q: z(nq),
            v: z(nv),
            qdd: z(nv),
            a: z(nv),
            dq_half: z(nv),
            qm: z(nq),
            vm: z(nv),
        }
    }

    /// Adds the correction `delta` to the iterate: q ← q + δ, Δq = q − qₙ for
    /// vector positions, else Δq ← Δq + δ, q = qₙ ⊕ Δq; then the rule's q̇ₙ₊₁, q̈,
    /// aₙ₊₁.
    fn correct<S: DescriptorSystem + ?Sized>(
        &mut self,
        sys: &mut S,
        kin: &Kinematics,
        s: &Start<'_>,
        t1: f64,
    ) -> Result<(), Error> {
        if sys.vector_positions() {
            for i in 0..self.q.len() {
                self.q[i] += self.delta[i];
                self.dq[i] = self.q[i] - s.q[i];
            }
        } else {
            for (d, c) in self.dq.iter_mut().zip(&self.delta) {
                *d += c;
            }
            sys.advance_positions(s.q, &self.dq, &mut self.q).at(t1)?;
        }
        self.kinematics(kin, s);
        Ok(())
    }

    /// The predictor qₙ₊₁ = qₙ + h q̇ₙ + ½h² aₙ (constant algorithmic acceleration;
    /// for Bayo–Ledesma's rules aₙ = q̈ₙ) and the rule's q̇ₙ₊₁, q̈, aₙ₊₁ there.
    fn predict<S: DescriptorSystem + ?Sized>(
        &mut self,
        sys: &mut S,
        kin: &Kinematics,
        s: &Start<'_>,
        h: f64,
    ) -> Result<(), Error> {
        if sys.vector_positions() {
            for i in 0..self.q.len() {
                self.q[i] = s.q[i] + h * s.v[i] + 0.5 * h * h * s.a[i];
                self.dq[i] = self.q[i] - s.q[i];
            }
        } else {
            Kinematics::predictor(h, s.v, s.a, &mut self.dq);
            sys.advance_positions(s.q, &self.dq, &mut self.q)
                .at(s.t + h)?;
        }
        self.kinematics(kin, s);
        Ok(())
    }

    /// The midpoint (qₙ + qₙ₊₁)/2 = qₙ ⊕ Δq/2 and (q̇ₙ + q̇ₙ₊₁)/2.
    fn midpoint<S: DescriptorSystem + ?Sized>(
        &mut self,
        sys: &mut S,
        s: &Start<'_>,
        t1: f64,
    ) -> Result<(), Error> {
        for i in 0..self.dq.len() {
            self.vm[i] = 0.5 * (self.v[i] + s.v[i]);
        }
        if sys.vector_positions() {
            for i in 0..self.q.len() {
                self.qm[i] = 0.5 * (self.q[i] + s.q[i]);
            }
        } else {
            for i in 0..self.dq.len() {
                self.dq_half[i] = 0.5 * self.dq[i];
            }
            sys.advance_positions(s.q, &self.dq_half, &mut self.qm)
                .at(t1)?;
        }
        Ok(())
    }

    fn kinematics(&mut self, kin: &Kinematics, s: &Start<'_>) {
        kin.end(
            &self.dq,
            (s.v, s.qdd, s.a),
            &mut self.v,
            &mut self.qdd,
            &mut self.a,
        );
    }

    /// One attempted step of size `h` from `s`: Newton on Δq from the predictor,
    /// with tolerance `tol`; `adaptive` stops a diverging iteration early (a step
    /// can be retried); `refresh` asks the system to
    /// rebuild its Jacobians at the first iterate.
    #[allow(clippy::too_many_arguments)]
    pub fn attempt<S: DescriptorSystem + ?Sized>(
        &mut self,
        sys: &mut S,
        kin: &Kinematics,
        s: &Start<'_>,
        h: f64,
        newton: &DescriptorNewton,
        tol: f64,
        adaptive: bool,
        refresh: bool,
        info: &mut Info,
    ) -> Result<Outcome, Error> {
        let t1 = s.t + h;
        self.predict(sys, kin, s, h)?;
        let max_it = newton.max_iterations;
        let (mut change, mut last) = (f64::INFINITY, f64::INFINITY);
        let mut iterations = 0;
        let mut converged = false;
        for k in 0..max_it {
            if kin.at_midpoint() {
                self.midpoint(sys, s, t1)?;
            }
            let end = Point {
                t: t1,
                q: &self.q,
                v: &self.v,
            };
            let dynamics = if kin.at_midpoint() {
                Point {
                    t: s.t + 0.5 * h,
                    q: &self.qm,
                    v: &self.vm,
                }
            } else {
                end
            };
            let it = Iterate {
                h,
                dynamics,
                end,
                qdd: &self.qdd,
                c_qdd: kin.c_qdd(),
                c_v: kin.c_v(),
                force_tangent: kin.force_tangent(),
                refresh: refresh && k == 0,
            };
            sys.newton_correction(&it, &mut self.delta).at(t1)?;
            iterations += 1;
            info.newton_iterations += 1;
            info.rhs_evals += 1;
            if !all_finite(&self.delta) {
                change = f64::INFINITY;
                break;
            }
            self.correct(sys, kin, s, t1)?;
            let end = Point {
                t: t1,
                q: &self.q,
                v: &self.v,
            };
            let violation = sys.constraint_residual(end).at(t1)?;
            let scale = 1.0 + self.q.iter().fold(0.0f64, |m, x| m.max(x.abs()));
            change = self.delta.iter().fold(0.0f64, |m, x| m.max(x.abs())) / scale;
            let phi_ok = violation <= tol * scale;
            let stalled = change <= newton.stall && change >= 0.5 * last;
            if phi_ok && (change <= tol || stalled) {
                converged = true;
                break;
            }
            if stalled {
                break;
            }
            if adaptive && !(change.is_finite() && (k < 2 || change <= 2.0 * last)) {
                break; // diverging: a smaller step is cheaper than more iterations
            }
            last = change;
        }
        if !converged && change <= newton.stall {
            let end = Point {
                t: t1,
                q: &self.q,
                v: &self.v,
            };
            if sys.stalled_correction(end, &mut self.delta).at(t1)? {
                self.correct(sys, kin, s, t1)?;
                converged = true;
            }
        }
        Ok(if converged {
            Outcome::Converged { iterations }
        } else {
            Outcome::Failed { iterations, change }
        })
    }
}
