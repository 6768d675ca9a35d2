//! SplitMix64 (Steele, Lea & Flood 2014, "Fast splittable pseudorandom number
//! generators", OOPSLA): a tiny, fast, deterministic generator, good enough for
//! test systems and random mechanisms. The sequences are part of the tests'
//! fixtures (seeded property cases, published tables): never change them.

use nalgebra::{SVector, Vector3, Vector4};

/// The SplitMix64 generator: a 64-bit state advanced by the golden-ratio increment
/// and mixed by two xor-shift-multiply rounds.
#[derive(Clone, Debug)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// A generator seeded with `seed`.
    pub fn new(seed: u64) -> Self {
        Self { state: seed }
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in [0, 1): the top 53 bits times 2⁻⁵³ (exact).
    pub fn next_f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// Uniform in [lo, hi).
    pub fn uniform(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.next_f64()
    }

    /// Uniform integer in 0..n (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// A uniformly distributed unit vector.
    pub fn unit_vector(&mut self) -> Vector3<f64> {
        self.on_sphere()
    }

    /// A uniformly distributed unit quaternion (scalar first), i.e. a uniformly
    /// distributed rotation as Euler parameters.
    pub fn rotation(&mut self) -> Vector4<f64> {
        self.on_sphere()
    }

    /// A point of the unit ball (entries drawn in order, rejected unless
    /// 0.1 < |v| ≤ 1), normalized: uniform on the sphere.
    fn on_sphere<const N: usize>(&mut self) -> SVector<f64, N> {
        loop {
            let v = SVector::<f64, N>::from_fn(|_, _| self.uniform(-1.0, 1.0));
            let n = v.norm();
            if n > 0.1 && n <= 1.0 {
                return v / n;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The published reference values of SplitMix64 seeded with 0 (the first
    /// outputs of the reference implementation), and determinism.
    #[test]
    fn reference_sequence_and_determinism() {
        let mut r = SplitMix64::new(0);
        assert_eq!(r.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(r.next_u64(), 0x6E78_9E6A_A1B9_65F4);
        let (mut a, mut b) = (SplitMix64::new(42), SplitMix64::new(42));
        let xs: Vec<f64> = (0..1000).map(|_| a.next_f64()).collect();
        let ys: Vec<f64> = (0..1000).map(|_| b.next_f64()).collect();
        assert_eq!(xs, ys);
        let mean = xs.iter().sum::<f64>() / 1000.0;
        assert!((mean - 0.5).abs() < 0.05);
        assert!(xs.iter().all(|x| (0.0..1.0).contains(x)));
    }

    /// The draws of `unit_vector` / `rotation` are the components in order
    /// (rejection sampling), as the random mechanisms were first generated.
    #[test]
    fn sphere_draws_are_the_components_in_order() {
        let (mut a, mut b) = (SplitMix64::new(9), SplitMix64::new(9));
        for _ in 0..100 {
            let u = a.unit_vector();
            let v = std::iter::repeat_with(|| {
                Vector3::new(
                    b.uniform(-1.0, 1.0),
                    b.uniform(-1.0, 1.0),
                    b.uniform(-1.0, 1.0),
                )
            })
            .find(|v| v.norm() > 0.1 && v.norm() <= 1.0)
            .unwrap();
            assert_eq!(u, v / v.norm());
            assert!((a.rotation().norm() - 1.0).abs() < 1e-15);
            b.rotation();
        }
    }

    /// `next_f64` scales by 2⁻⁵³ exactly: the same numbers as dividing by 2⁵³ (the
    /// form the synthetic systems were first generated with).
    #[test]
    fn scaling_is_exact() {
        let (mut a, mut b) = (SplitMix64::new(7), SplitMix64::new(7));
        for _ in 0..10_000 {
            let x = a.next_f64();
            let y = (b.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
            assert_eq!(x.to_bits(), y.to_bits());
        }
    }
}
