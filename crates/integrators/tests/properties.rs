//! Property tests on linear systems with exact solutions.

mod common;
use common::*;
use mbs_integrators::*;
use proptest::prelude::*;

/// y' = A y with A = [[a, b], [−b, a]]: y(t) = e^{at} R(bt) y0.
#[derive(Debug)]
struct Spiral {
    a: f64,
    b: f64,
}

impl Spiral {
    fn exact(&self, y0: [f64; 2], t: f64) -> [f64; 2] {
        let e = (self.a * t).exp();
        let (s, c) = (self.b * t).sin_cos();
        [e * (c * y0[0] + s * y0[1]), e * (-s * y0[0] + c * y0[1])]
    }
}

impl OdeSystem for Spiral {
    fn dim(&self) -> usize {
        2
    }
    fn rhs(&mut self, _t: f64, y: &[f64], d: &mut [f64]) -> Result<(), SystemError> {
        d[0] = self.a * y[0] + self.b * y[1];
        d[1] = -self.b * y[0] + self.a * y[1];
        Ok(())
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// Adaptive methods meet the tolerance within a modest factor, and their
    /// dense output is as accurate as the step end points.
    #[test]
    fn adaptive_methods_track_linear_spirals(
        a in -1.0f64..0.3,
        b in 0.1f64..5.0,
        t_end in 0.5f64..4.0,
        lt in 4i32..10,
        which in 0usize..3,
    ) {
        let tol = 10f64.powi(-lt);
        let mut sys = Spiral { a, b };
        let y0 = [1.0, 0.5];
        let t_out = [0.25 * t_end, 0.5 * t_end, 0.75 * t_end, t_end];
        let mut rec = Recorder::new();
        let p = RkParams::with_tol(tol, tol);
        match which {
            0 => { EmbeddedRk::rk45(2, p).integrate(&mut sys, 0.0, &y0, t_end, &t_out, &mut rec).unwrap(); }
            1 => { EmbeddedRk::rk23(2, p).integrate(&mut sys, 0.0, &y0, t_end, &t_out, &mut rec).unwrap(); }
            _ => { Adams::new(2, AdamsParams::with_tol(tol, tol)).integrate(&mut sys, 0.0, &y0, t_end, &t_out, &mut rec).unwrap(); }
        }
        prop_assert_eq!(rec.t.len(), 4);
        for (i, &t) in t_out.iter().enumerate() {
            let ex = sys.exact(y0, t);
            let scale = ex[0].abs().max(ex[1].abs()).max(1.0);
            let err = max_err(rec.state(i), &ex) / scale;
            prop_assert!(err < 200.0 * tol * (1.0 + b * t_end), "method {} t {} err {:e} tol {:e}", which, t, err, tol);
        }
    }

    /// The midpoint rule maps y to exactly the Cayley transform of hA
    /// (it is the (1,1) Padé approximant of e^{hA}) for any linear system.
    #[test]
    fn midpoint_is_cayley_transform(a in -2.0f64..2.0, b in -3.0f64..3.0, h in 0.01f64..0.5) {
        let mut sys = Spiral { a, b };
        let mut it = ImplicitIntegrator::new(2, ImplicitParams::new(ImplicitRule::Midpoint, h));
        it.integrate(&mut sys, 0.0, &[1.0, 0.0], h, &[], &mut ()).unwrap();
        // (I − h/2 A)⁻¹ (I + h/2 A) e1, A = [[a, b], [−b, a]] ≅ complex a − ib.
        let (zr, zi) = (0.5 * h * a, -0.5 * h * b);
        let (nr, ni) = (1.0 + zr, zi);
        let (dr, di) = (1.0 - zr, -zi);
        let den = dr * dr + di * di;
        let (qr, qi) = ((nr * dr + ni * di) / den, (ni * dr - nr * di) / den);
        // y = Re/Im mapping of the complex multiplier on e1: [qr, qi].
        prop_assert!((it.y()[0] - qr).abs() < 1e-12 && (it.y()[1] - qi).abs() < 1e-12,
            "{:?} vs {:?}", it.y(), (qr, qi));
    }
}
