//! Where the coordinates of body b sit in the flat vectors of a state (the layouts of
//! [`crate::State`]): 7 positions [r, p] per body (`q[7b..7b+7]`), 6 body
//! velocities [ṙ, ω'] per body (`v[6b..6b+6]`, [`Layout::EulerParamsOmega`], also
//! the accelerations [r̈, ω̇'] and generalized forces [f, n'] of that layout, and the
//! [r, θ] / [ṙ, θ̇] of an [`EulerAngleState`](crate::EulerAngleState)), and their
//! named parts. One place for the strides that the front-ends would otherwise write
//! by hand; [`Layout::v_range`] covers both velocity layouts.
//!
//! A namespace of its own (`body_coords::q_range(b)`), since the names (`position`,
//! `angular`, …) only read well with it.

use std::ops::Range;

use nalgebra::{Vector3, Vector4};

use crate::state::Layout;

/// Position coordinates per body: r (3) and the Euler parameters p (4).
pub const Q_PER_BODY: usize = 7;
/// Coordinates per body of the six-per-body vectors: [ṙ, ω'], [r̈, ω̇'], [f, n'],
/// [r, θ].
pub const SIX: usize = 6;

/// The positions [r, p] of body b: `7b..7b+7`.
#[inline]
pub const fn q_range(b: usize) -> Range<usize> {
    Q_PER_BODY * b..Q_PER_BODY * b + Q_PER_BODY
}

/// The centre-of-mass position r of body b: `7b..7b+3`.
#[inline]
pub const fn position_range(b: usize) -> Range<usize> {
    Q_PER_BODY * b..Q_PER_BODY * b + 3
}

/// The Euler parameters p = [e0, e1, e2, e3] of body b: `7b+3..7b+7`.
#[inline]
pub const fn euler_params_range(b: usize) -> Range<usize> {
    Q_PER_BODY * b + 3..Q_PER_BODY * b + Q_PER_BODY
}

/// The six coordinates of body b in a six-per-body vector ([ṙ, ω'], [r̈, ω̇'],
/// [f, n'], [r, θ]): `6b..6b+6`.
#[inline]
pub const fn v_range(b: usize) -> Range<usize> {
    SIX * b..SIX * b + SIX
}

/// The translational part (ṙ, r̈, f or r) of body b in a six-per-body vector:
/// `6b..6b+3`.
#[inline]
pub const fn linear_range(b: usize) -> Range<usize> {
    SIX * b..SIX * b + 3
}

/// The rotational part (ω', ω̇', n' or θ) of body b in a six-per-body vector:
/// `6b+3..6b+6`.
#[inline]
pub const fn angular_range(b: usize) -> Range<usize> {
    SIX * b + 3..SIX * b + SIX
}

/// The position r of body b from positions `q` (7 per body).
#[inline]
pub fn position(q: &[f64], b: usize) -> Vector3<f64> {
    Vector3::from_column_slice(&q[position_range(b)])
}

/// The Euler parameters p of body b from positions `q` (7 per body), as stored (not
/// normalized).
#[inline]
pub fn euler_params(q: &[f64], b: usize) -> Vector4<f64> {
    Vector4::from_column_slice(&q[euler_params_range(b)])
}

/// The translational part of body b of a six-per-body vector.
#[inline]
pub fn linear(v: &[f64], b: usize) -> Vector3<f64> {
    Vector3::from_column_slice(&v[linear_range(b)])
}

/// The rotational part of body b of a six-per-body vector.
#[inline]
pub fn angular(v: &[f64], b: usize) -> Vector3<f64> {
    Vector3::from_column_slice(&v[angular_range(b)])
}

impl Layout {
    /// The positions [r, p] of body b in this layout (7 per body in both).
    #[inline]
    pub const fn q_range(self, b: usize) -> Range<usize> {
        q_range(b)
    }

    /// The velocities of body b in this layout: [ṙ, ṗ] (7) or [ṙ, ω'] (6).
    #[inline]
    pub const fn v_range(self, b: usize) -> Range<usize> {
        let n = self.v_per_body();
        n * b..n * b + n
    }

    /// The rotational velocities of body b in this layout: ṗ (4) or ω' (3).
    #[inline]
    pub const fn v_angular_range(self, b: usize) -> Range<usize> {
        let n = self.v_per_body();
        n * b + 3..n * b + n
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::State;
    use nalgebra::Vector3;

    /// A state whose every coordinate is distinct, so that a wrong range shows.
    fn numbered(layout: Layout, n: usize) -> State {
        let mut s = State::zeros(layout, n);
        for (k, x) in s.q.iter_mut().enumerate() {
            *x = k as f64;
        }
        for (k, x) in s.v.iter_mut().enumerate() {
            *x = 100.0 + k as f64;
        }
        s
    }

    #[test]
    fn ranges_match_the_state_accessors() {
        let s = numbered(Layout::EulerParamsOmega, 3);
        let (q, v) = (s.q.as_slice(), s.v.as_slice());
        for b in 0..3 {
            assert_eq!(position(q, b), s.position(b));
            assert_eq!(euler_params(q, b), s.euler_params(b));
            assert_eq!(linear(v, b), s.velocity(b));
            assert_eq!(angular(v, b), s.omega_body(b));
            assert_eq!(&q[q_range(b)], s.view().body_q(b));
            assert_eq!(&v[v_range(b)], s.view().body_v(b));
            assert_eq!(&v[Layout::EulerParamsOmega.v_range(b)], s.view().body_v(b));
        }
    }

    #[test]
    fn pdot_layout_ranges_match_the_view() {
        let s = numbered(Layout::EulerParamsPdot, 3);
        let v = s.v.as_slice();
        for b in 0..3 {
            let lay = Layout::EulerParamsPdot;
            assert_eq!(&v[lay.v_range(b)], s.view().body_v(b));
            assert_eq!(lay.v_angular_range(b).len(), 4);
            assert_eq!(
                Vector3::from_column_slice(&v[lay.v_range(b)][..3]),
                s.velocity(b)
            );
            assert_eq!(&v[lay.v_angular_range(b)], &s.view().body_v(b)[3..]);
        }
    }

    #[test]
    fn ranges_tile_the_vectors() {
        for b in 0..4 {
            assert_eq!(position_range(b).end, euler_params_range(b).start);
            assert_eq!(q_range(b).start, position_range(b).start);
            assert_eq!(q_range(b).end, euler_params_range(b).end);
            assert_eq!(q_range(b).end, q_range(b + 1).start);
            assert_eq!(linear_range(b).end, angular_range(b).start);
            assert_eq!(v_range(b).end, v_range(b + 1).start);
            for lay in [Layout::EulerParamsOmega, Layout::EulerParamsPdot] {
                assert_eq!(lay.v_range(b).end, lay.v_range(b + 1).start);
                assert_eq!(lay.v_angular_range(b).end, lay.v_range(b).end);
                assert_eq!(lay.q_range(b), q_range(b));
            }
        }
    }
}
