//! The rolling disc: a uniform thin disc rolling on its rim without slip on a
//! horizontal plane under gravity ([`JointKind::RollingDisc`]), started in one of its
//! classical steady motions (Routh, *Advanced Rigid Dynamics*, art. 244; McDonald &
//! McDonald 2000, *The rolling motion of a disk on a horizontal plane*,
//! arXiv:physics/0008227, sec 2.2, steady motion with the centre on a circle).
//!
//! # Steady circular motion
//! Disc of mass m, radius r, I₁ = m r²/4 about a diameter, I₃ = m r²/2 about its axis;
//! gravity −g e_z; the disc plane tilted by β from the vertical (centre height r cos β),
//! leaning towards the centre O of the horizontal circle of radius R₀ on which its
//! centre G moves at the constant precession rate Ω (the rate at which the vertical
//! plane through the disc axis turns about e_z). In the frame turning with Ω (e₂
//! horizontal from O towards G, G moving along e_z × e₂) the axis is
//! z_d = cos β e₂ + sin β e_z, the contact point C = G + r u with
//! u = sin β e₂ − cos β e_z, and the angular velocity ω = Ω e_z + s z_d. Then
//! - no slip, v_G + ω × (r u) = 0 with v_G = Ω R₀ e_z × e₂: ω·z_d = Ω sin β + s = −Ω R₀/r;
//! - Newton: the contact force F = m g e_z − m Ω² R₀ e₂ (weight and centripetal force);
//! - Euler about G: H_G = −I₁ Ω cos β u + I₃ (ω·z_d) z_d is constant in the turning
//!   frame, so Ḣ_G = Ω e_z × H_G = r u × F, whose component along the motion gives
//!   Ω² cos β (I₁ sin β + (I₃ + m r²) R₀/r) = m g r sin β, i.e. for the uniform disc
//!
//!   **Ω² = 4 g tan β / (6 R₀ + r sin β)**,   s = −Ω (R₀ + r sin β)/r.
//!
//! (R₀ = 0: the centre at rest, the contact point running round a circle of radius
//! r sin β, Ω² = 4g/(r cos β); β → 0 at fixed speed Ω R₀: the upright disc rolling
//! straight.)
//!
//! # Placement
//! O at the origin, G at (R₀, 0, r cos β) at t = 0 (e₂ = e_x, moving along +e_y for
//! Ω > 0); body frame with z along the disc axis (a rotation by π/2 − β about e_y maps it
//! to z_d = (cos β, 0, sin β)); marker `centre` at G with the body axes, marker `plane`
//! at the origin of ground with z = e_z. The straight case puts the upright disc at
//! (0, 0, r) with the same axis e_x, rolling along +e_y at speed v (s = −v/r).
//! Expected figures: Grübler 6 − 1 = 5 (position level), velocity freedom 5 − 2 = 3.

use mbs_kinematics::euler_params::from_axis_angle;
use mbs_model::{BodyRef, JointKind, Model, ModelBuilder, ModelError};
use nalgebra::{Matrix3, Vector3};

/// Which steady motion the disc starts in.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum DiscMotion {
    /// Centre on a horizontal circle of radius `circle_radius` = R₀ ≥ 0, disc plane
    /// tilted by `tilt` = β ∈ (0, π/2) from the vertical towards the circle's centre.
    Circle {
        /// β \[rad\].
        tilt: f64,
        /// R₀ \[m\].
        circle_radius: f64,
    },
    /// Upright (β = 0), rolling straight at `speed` [m/s].
    Straight {
        /// Speed of the centre.
        speed: f64,
    },
}

/// Parameters of the rolling disc (SI units).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RollingDiscParams {
    /// Mass m.
    pub mass: f64,
    /// Radius r.
    pub radius: f64,
    /// g (gravity −g e_z).
    pub gravity: f64,
    /// The steady motion at t = 0.
    pub motion: DiscMotion,
}

impl Default for RollingDiscParams {
    /// **Choices**: m = 1 kg, r = 0.1 m, g = 9.81 m/s², β = 0.3 rad, R₀ = 1 m
    /// (Ω ≈ 1.419 rad/s, a period 2π/Ω ≈ 4.43 s, centre speed ≈ 1.42 m/s).
    fn default() -> Self {
        Self {
            mass: 1.0,
            radius: 0.1,
            gravity: 9.81,
            motion: DiscMotion::Circle {
                tilt: 0.3,
                circle_radius: 1.0,
            },
        }
    }
}

/// The rates of a steady motion.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SteadyMotion {
    /// Tilt β of the disc plane from the vertical.
    pub tilt: f64,
    /// Precession rate Ω (0 when rolling straight).
    pub precession: f64,
    /// Spin s relative to the turning frame (ω = Ω e_z + s z_d).
    pub spin: f64,
    /// Speed of the centre, Ω R₀ (or v).
    pub speed: f64,
    /// Radius R₀ of the centre's circle (infinite when rolling straight).
    pub circle_radius: f64,
}

fn invalid(parameter: &'static str, requirement: &'static str, value: f64) -> ModelError {
    ModelError::InvalidParameter {
        element: "mechanism `rolling-disc`".into(),
        parameter,
        requirement,
        value,
    }
}

impl RollingDiscParams {
    /// The rates of the steady motion (module docs): Ω² = 4 g tan β / (6 R₀ + r sin β),
    /// s = −Ω (R₀ + r sin β)/r; straight: Ω = 0, s = −v/r. Parameters out of range give
    /// an error naming them.
    pub fn steady_motion(&self) -> Result<SteadyMotion, ModelError> {
        let (r, g) = (self.radius, self.gravity);
        if !(r > 0.0 && r.is_finite()) {
            return Err(invalid("radius", "positive and finite", r));
        }
        if !(g >= 0.0 && g.is_finite()) {
            return Err(invalid("gravity", "non-negative and finite", g));
        }
        match self.motion {
            DiscMotion::Circle {
                tilt,
                circle_radius,
            } => {
                if !(tilt > 0.0 && tilt < std::f64::consts::FRAC_PI_2) {
                    return Err(invalid("tilt", "in (0, π/2)", tilt));
                }
                if !(circle_radius >= 0.0 && circle_radius.is_finite()) {
                    return Err(invalid(
                        "circle_radius",
                        "non-negative and finite",
                        circle_radius,
                    ));
                }
                let precession =
                    (4.0 * g * tilt.tan() / (6.0 * circle_radius + r * tilt.sin())).sqrt();
                Ok(SteadyMotion {
                    tilt,
                    precession,
                    spin: -precession * (circle_radius + r * tilt.sin()) / r,
                    speed: precession * circle_radius,
                    circle_radius,
                })
            }
            DiscMotion::Straight { speed } => {
                if !speed.is_finite() {
                    return Err(invalid("speed", "finite", speed));
                }
                Ok(SteadyMotion {
                    tilt: 0.0,
                    precession: 0.0,
                    spin: -speed / r,
                    speed,
                    circle_radius: f64::INFINITY,
                })
            }
        }
    }
}

/// The rolling disc in its steady motion (module docs). Bodies: `disc`; joint `rolling`
/// (rolling disc, radius r) between markers `centre` and `plane`.
pub fn rolling_disc(p: &RollingDiscParams) -> Result<Model, ModelError> {
    let steady = p.steady_motion()?;
    let (m, r, beta) = (p.mass, p.radius, steady.tilt);
    let mut b = ModelBuilder::new("rolling-disc");
    b.gravity(Vector3::new(0.0, 0.0, -p.gravity));
    let diametral = m * r * r / 4.0;
    let disc = b.body(
        "disc",
        m,
        Matrix3::from_diagonal(&Vector3::new(diametral, diametral, m * r * r / 2.0)),
    );
    let x0 = if steady.circle_radius.is_finite() {
        steady.circle_radius
    } else {
        0.0
    };
    let centre = Vector3::new(x0, 0.0, r * beta.cos());
    let axis = Vector3::new(beta.cos(), 0.0, beta.sin());
    b.set_initial_pose(
        disc,
        centre,
        from_axis_angle(&Vector3::y(), std::f64::consts::FRAC_PI_2 - beta),
    );
    let omega = steady.precession * Vector3::z() + steady.spin * axis;
    b.set_initial_velocity(disc, steady.speed * Vector3::y(), omega);
    let mc = b.marker(
        "centre",
        BodyRef::Body(disc),
        Vector3::zeros(),
        Matrix3::identity(),
    );
    let mp = b.marker(
        "plane",
        BodyRef::Ground,
        Vector3::zeros(),
        Matrix3::identity(),
    );
    b.joint("rolling", JointKind::RollingDisc { radius: r }, mc, mp);
    b.build()
}
