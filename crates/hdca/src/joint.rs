//! Joints in HDCA form: joint coordinates, motion subspace H and constrained subspace
//! D (paper eq 10–11, Hᵀ H = I, Dᵀ D = I, Dᵀ H = 0) at the joint point, and their
//! images at the global origin.
//!
//! The joint catalog is `mbs-constraints`': a joint kind is described there by the
//! relative motions it leaves free ([`Freedoms`]: a translational part times a
//! rotational part, the complement of the joint's rows). H collects the free
//! directions of both parts (translations first), D the constrained ones; the joint
//! coordinates are those of the translational part followed by those of the
//! rotational part. Kinds without such a description (rolling, curved paths) are
//! refused with the reason (`check_kind`).
//!
//! # Joint coordinates (measured from the model's initial configuration)
//! For a tree joint with parent body p (or ground) and child body c:
//!
//! ```text
//! A_c = A_p R(q) B₀,     B₀ = A_p(0)ᵀ A_c(0)
//! P   = r_p + A_p (ρ_p + δ₀ + a s),   δ₀ = A_p(0)ᵀ (P(0) − P_p(0))
//! r_c = P − A_c ρ_c
//! ```
//!
//! with P the child marker origin (the handle point, fixed in c), ρ_p, ρ_c the marker
//! origins in their body frames, a = the parent marker's z axis in the parent frame:
//!
//! | part | q | quasi-velocity u | H at P | D at P |
//! |---|---|---|---|---|
//! | translation `Locked` | — | — | — | [I; 0] |
//! | translation `AlongZ` | s | ṡ | [z; 0] | [x; 0], [y; 0] |
//! | translation `Sphere` | e_L (4) | Δv_P·t₁, Δv_P·t₂ | [t₁; 0], [t₂; 0] | [n; 0] |
//! | translation `Free` | Δr (3) | ṙ | [I; 0] | — |
//! | rotation `Locked` | — | — | — | [0; I] |
//! | rotation `AboutZ` | θ | θ̇ | [0; z] | [0; x], [0; y] |
//! | rotation `Pins` | θ₁ about z, θ₂ about the child pin z_c | θ̇₁, θ̇₂ | [0; z], [0; z_c] | [0; z × z_c] |
//! | rotation `Free` | Euler parameters e of R (4) | ω_rel, global (3) | [0; I] | — |
//!
//! so that, kind by kind:
//!
//! | kind | q | quasi-velocity u | H at P | D at P |
//! |---|---|---|---|---|
//! | revolute | θ | θ̇ | [0; z] | [I; 0], [0; x], [0; y] |
//! | prismatic | s | ṡ | [z; 0] | [x; 0], [y; 0], [0; I] |
//! | cylindrical | s, θ | ṡ, θ̇ | [z; 0], [0; z] | [x; 0], [y; 0], [0; x], [0; y] |
//! | spherical | Euler parameters e of R (4) | ω_rel, global (3) | [0; I] | [I; 0] |
//! | universal | θ₁ about z, θ₂ about the child pin z_c | θ̇₁, θ̇₂ | [0; z], [0; z_c] | [I; 0], [0; z × z_c] |
//! | rigid | — | — | — | I₆ |
//! | distance | e_L, e (8) | Δv_P·t₁, Δv_P·t₂, ω_rel (5) | [t₁; 0], [t₂; 0], [0; I] | [n; 0] |
//! | free (virtual, ground → root of a free-floating component) | Δr, e (7) | ṙ, ω (6) | I₆ | — |
//!
//! x, y, z are the parent marker's axes in the global frame. For the spherical joint,
//! ė = ½ E(e)ᵀ A_pᵀ ω_rel (NOTATION.md), so q has 4 entries and p 3: the momenta are
//! conjugate to the quasi-velocities u. For the universal joint
//! R(q) = Rot(a, θ₁) Rot(b₀, θ₂) with b₀ = B₀ b_c the child pin in the parent frame
//! at q = 0 (so the child pin stays perpendicular to a).
//!
//! The distance joint (|P_j − P_i| = L) keeps its constraint by the tree geometry: the
//! link from the parent marker origin P_i to the handle P turns by a second rotation
//! R(e_L), P = P_i + A_p R(e_L) δ₀ with |δ₀| = L (δ₀ the initial link in the parent
//! frame), and [t₁ t₂ n] = A_p R(e_L) [t₁⁰ t₂⁰ n⁰] with n⁰ = δ₀/L (stored in place of
//! the parent marker axes). Δv_P = v_child(P) − v_parent(P) = ω_L × L n, so the
//! link's angular velocity relative to the parent is ω_L = n × Δv_P / L =
//! (u₁ t₂ − u₂ t₁)/L, with no component along n, and ė_L = ½ G(e_L)ᵀ (u₁ t₂⁰ − u₂ t₁⁰)/L;
//! the frame [t₁ t₂ n] turns with ω_p + ω_L (that is the rate of the H and D
//! columns). Unlike two spherical angles this has no singular direction; the price
//! is a fourth (Euler-parameter) coordinate, renormalized like the spherical one.
//! The child's orientation is the spherical joint's, e. The single constrained
//! direction n is the paper's D (eq 11) of this joint.
//!
//! # Cut joints (sec 2.3)
//! A cut joint keeps only its constrained subspace D, at the origin of its marker j
//! (fixed in body j, the "plus" side), with the directions fixed in body i (the
//! "minus" side). Its impulse D σ acts on body j and −D σ on body i.
//!
//! # At the origin
//! The momentum balance (ṗ, eqs 47–77) is written about the fixed global origin,
//! where Ṡ_O = 0 (eq 53): the handle is moved by the shift matrix of eq 14 (the
//! velocity pass keeps local lever arms, see `assembly`): a force-type column
//! h = [l; r] at P becomes S₀ₚ h = [l; r + P × l], a motion-type column becomes
//! S₀ₚ⁻ᵀ h = [l + P × r; r]. The pairings are invariant: Hᵀ ΔV_P = (S₀ₚH)ᵀ ΔV⁰ and
//! p = Hᵀ P̄_P = (S₀ₚ⁻ᵀH)ᵀ P̄⁰.

use mbs_constraints::joints::{Freedoms, NoFreedoms, Rotation, Translation};
use mbs_kinematics::EulerParams;
use mbs_kinematics::euler_params::{self, e_matrix, from_axis_angle, g_matrix};
use mbs_model::{JointId, Model};
use nalgebra::{Matrix3, Vector3, Vector6};

use crate::error::HdcaError;

/// The joint coordinates of HDCA over the catalog's [`Freedoms`] (module table).
pub(crate) trait JointCoords {
    /// Number of joint coordinates.
    fn n_coords(self) -> usize;
    /// Number of coordinates of the translational part (they come first).
    fn n_translation_coords(self) -> usize;
    /// Offsets, within the joint's coordinates, of its Euler-parameter blocks
    /// (identity at q₀, renormalized by the projection): e_L of a sphere
    /// translation, e of a free rotation.
    fn euler_starts(self) -> [Option<usize>; 2];
}

impl JointCoords for Freedoms {
    fn n_coords(self) -> usize {
        self.n_translation_coords()
            + match self.rotation {
                Rotation::Locked => 0,
                Rotation::AboutZ => 1,
                Rotation::Pins => 2,
                Rotation::Free => 4,
            }
    }
    fn n_translation_coords(self) -> usize {
        match self.translation {
            Translation::Locked => 0,
            Translation::AlongZ => 1,
            Translation::InPlane => 2,
            Translation::Sphere => 4,
            Translation::Free => 3,
        }
    }
    fn euler_starts(self) -> [Option<usize>; 2] {
        [
            (self.translation == Translation::Sphere).then_some(0),
            (self.rotation == Rotation::Free).then_some(self.n_translation_coords()),
        ]
    }
}

/// Static description of one joint.
#[derive(Clone, Debug)]
pub(crate) struct JointInfo {
    pub kind: Freedoms,
    pub tree: bool,
    /// Plus side: the child (tree) or marker j's body (cut); `None` = ground.
    pub plus: Option<usize>,
    /// Minus side: the parent (tree) or marker i's body (cut); `None` = ground.
    pub minus: Option<usize>,
    /// Minus-side marker origin and axes (in its body frame, or global on ground).
    pub rho_minus: Vector3<f64>,
    pub axes_minus: Matrix3<f64>,
    /// Plus-side marker origin and axes (in its body frame, or global on ground).
    pub rho_plus: Vector3<f64>,
    pub axes_plus: Matrix3<f64>,
    /// Columns of H (tree joints only) and of D.
    pub nf: usize,
    pub nc: usize,
    /// Offsets into q, u (= p) and σ.
    pub q_off: usize,
    pub u_off: usize,
    pub s_off: usize,
    /// Tree joints: δ₀ (minus body frame) and B₀.
    pub delta0: Vector3<f64>,
    pub b0: EulerParams,
    /// The child pin at q = 0 in the parent frame, B₀ z₊ (the universal joint's
    /// second axis; computed once).
    pub axis_child0: Vector3<f64>,
}

/// Columns of H and D at the joint point (global components, [linear; angular]) and
/// their rates. `axes_minus`/`axes_plus` are the parent and child marker axes in the
/// global frame, turning with ω₋ and ω₊; x, y, z below are the parent's.
pub(crate) fn local_columns(
    kind: Freedoms,
    axes_minus: &Matrix3<f64>,
    axes_plus: &Matrix3<f64>,
    w_minus: &Vector3<f64>,
    w_plus: &Vector3<f64>,
    h: &mut [Vector6<f64>; 6],
    h_rate: &mut [Vector6<f64>; 6],
    d: &mut [Vector6<f64>; 6],
    d_rate: &mut [Vector6<f64>; 6],
) -> (usize, usize) {
    let x: Vector3<f64> = axes_minus.column(0).into_owned();
    let y: Vector3<f64> = axes_minus.column(1).into_owned();
    let z: Vector3<f64> = axes_minus.column(2).into_owned();
    let zc: Vector3<f64> = axes_plus.column(2).into_owned();
    let o = Vector3::zeros();
    let e = [Vector3::x(), Vector3::y(), Vector3::z()];
    let lin = |v: &Vector3<f64>| sv(v, &o);
    let ang = |v: &Vector3<f64>| sv(&o, v);
    // rate of a column fixed in the parent
    let rp = |c: &Vector6<f64>| column_rate(c, w_minus);
    let zero = Vector6::zeros();
    let mut nh = 0;
    let mut nd = 0;
    let mut push_h = |c: Vector6<f64>, r: Vector6<f64>| {
        h[nh] = c;
        h_rate[nh] = r;
        nh += 1;
    };
    let mut push_d = |c: Vector6<f64>, r: Vector6<f64>| {
        d[nd] = c;
        d_rate[nd] = r;
        nd += 1;
    };
    match kind.translation {
        Translation::Locked => {
            for v in &e {
                push_d(lin(v), zero);
            }
        }
        Translation::AlongZ => {
            push_h(lin(&z), rp(&lin(&z)));
            push_d(lin(&x), rp(&lin(&x)));
            push_d(lin(&y), rp(&lin(&y)));
        }
        Translation::InPlane => {
            push_h(lin(&x), rp(&lin(&x)));
            push_h(lin(&y), rp(&lin(&y)));
            push_d(lin(&z), rp(&lin(&z)));
        }
        Translation::Sphere => {
            // axes_minus = [t₁ t₂ n] of the link, turning with w_minus = ω_p + ω_L
            push_h(lin(&x), rp(&lin(&x)));
            push_h(lin(&y), rp(&lin(&y)));
            push_d(lin(&z), rp(&lin(&z)));
        }
        Translation::Free => {
            for v in &e {
                push_h(lin(v), zero);
            }
        }
    }
    match kind.rotation {
        Rotation::Locked => {
            for v in &e {
                push_d(ang(v), zero);
            }
        }
        Rotation::AboutZ => {
            push_h(ang(&z), rp(&ang(&z)));
            push_d(ang(&x), rp(&ang(&x)));
            push_d(ang(&y), rp(&ang(&y)));
        }
        Rotation::Pins => {
            // H = [0 0; z_p z_c] (z_p ⊥ z_c), D = [0; z_p × z_c].
            push_h(ang(&z), rp(&ang(&z)));
            push_h(ang(&zc), ang(&w_plus.cross(&zc)));
            let n = z.cross(&zc);
            let n_rate = w_minus.cross(&z).cross(&zc) + z.cross(&w_plus.cross(&zc));
            push_d(ang(&n), ang(&n_rate));
        }
        Rotation::Free => {
            for v in &e {
                push_h(ang(v), zero);
            }
        }
    }
    (nh, nd)
}

#[inline]
pub(crate) fn sv(l: &Vector3<f64>, a: &Vector3<f64>) -> Vector6<f64> {
    Vector6::new(l.x, l.y, l.z, a.x, a.y, a.z)
}
#[inline]
pub(crate) fn lin3(v: &Vector6<f64>) -> Vector3<f64> {
    Vector3::new(v[0], v[1], v[2])
}
#[inline]
pub(crate) fn ang3(v: &Vector6<f64>) -> Vector3<f64> {
    Vector3::new(v[3], v[4], v[5])
}

/// Force-type column at P moved to the origin: [l; r + P × l].
#[inline]
pub(crate) fn force_at_origin(c: &Vector6<f64>, p: &Vector3<f64>) -> Vector6<f64> {
    let l = lin3(c);
    sv(&l, &(ang3(c) + p.cross(&l)))
}
/// Its rate: [l̇; ṙ + Ṗ × l + P × l̇].
#[inline]
pub(crate) fn force_at_origin_dot(
    c: &Vector6<f64>,
    cdot: &Vector6<f64>,
    p: &Vector3<f64>,
    pdot: &Vector3<f64>,
) -> Vector6<f64> {
    let (l, ld) = (lin3(c), lin3(cdot));
    sv(&ld, &(ang3(cdot) + pdot.cross(&l) + p.cross(&ld)))
}
/// Motion-type column at P moved to the origin: [l + P × r; r].
#[inline]
pub(crate) fn motion_at_origin(c: &Vector6<f64>, p: &Vector3<f64>) -> Vector6<f64> {
    let r = ang3(c);
    sv(&(lin3(c) + p.cross(&r)), &r)
}
/// Its rate: [l̇ + Ṗ × r + P × ṙ; ṙ].
#[inline]
pub(crate) fn motion_at_origin_dot(
    c: &Vector6<f64>,
    cdot: &Vector6<f64>,
    p: &Vector3<f64>,
    pdot: &Vector3<f64>,
) -> Vector6<f64> {
    let (r, rd) = (ang3(c), ang3(cdot));
    sv(&(lin3(cdot) + pdot.cross(&r) + p.cross(&rd)), &rd)
}

/// Rate of a column whose directions are fixed in a body turning at ω.
#[inline]
pub(crate) fn column_rate(c: &Vector6<f64>, omega: &Vector3<f64>) -> Vector6<f64> {
    sv(&omega.cross(&lin3(c)), &omega.cross(&ang3(c)))
}

/// The relative rotation R(q) (Euler parameters, parent body frame) from the
/// coordinates of the rotational part.
pub(crate) fn relative_rotation(
    kind: Freedoms,
    axis_parent: &Vector3<f64>,
    axis_child0: &Vector3<f64>,
    q: &[f64],
) -> EulerParams {
    let q = &q[kind.n_translation_coords()..];
    match kind.rotation {
        Rotation::Pins => euler_params::product(
            &from_axis_angle(axis_parent, q[0]),
            &from_axis_angle(axis_child0, q[1]),
        ),
        Rotation::AboutZ => from_axis_angle(axis_parent, q[0]),
        Rotation::Free => euler_params::normalize(&EulerParams::new(q[0], q[1], q[2], q[3])),
        Rotation::Locked => euler_params::identity(),
    }
}

/// The joint point relative to the parent marker origin, in the parent frame:
/// δ₀ + s a (s along the axis a = zᵢ), δ₀ + s₁ xᵢ + s₂ yᵢ in a plane, δ₀ + Δr for a
/// free translation, R(e_L) δ₀ on a sphere (`link_rotation` = R(e_L)). `axes`: the
/// parent marker's axes in the parent frame.
pub(crate) fn offset(
    kind: Freedoms,
    axes: &Matrix3<f64>,
    delta0: &Vector3<f64>,
    link_rotation: &Matrix3<f64>,
    q: &[f64],
) -> Vector3<f64> {
    match kind.translation {
        Translation::Free => delta0 + Vector3::new(q[0], q[1], q[2]),
        Translation::Sphere => link_rotation * delta0,
        Translation::AlongZ => delta0 + axes.column(2) * q[0],
        Translation::InPlane => delta0 + axes.column(0) * q[0] + axes.column(1) * q[1],
        Translation::Locked => *delta0,
    }
}

/// R(e_L) of a sphere translation (identity for the other parts).
pub(crate) fn link_rotation(kind: Freedoms, q: &[f64]) -> Matrix3<f64> {
    match kind.translation {
        Translation::Sphere => euler_params::rotation(&euler_params::normalize(&EulerParams::new(
            q[0], q[1], q[2], q[3],
        ))),
        _ => Matrix3::identity(),
    }
}

/// q̇ from the quasi-velocities u, part by part: ṡ = u, Δṙ = u; on a sphere
/// ė_L = ½ G(e_L)ᵀ (u₁ t₂⁰ − u₂ t₁⁰)/L; θ̇ = u; for a free rotation
/// ė = ½ E(e)ᵀ A_pᵀ ω_rel.
pub(crate) fn coord_rates(
    j: &JointInfo,
    q: &[f64],
    u: &[f64],
    a_parent: &Matrix3<f64>,
    qd: &mut [f64],
) {
    match j.kind.translation {
        Translation::Locked => {}
        Translation::AlongZ => qd[0] = u[0],
        Translation::InPlane => qd[..2].copy_from_slice(&u[..2]),
        Translation::Free => qd[..3].copy_from_slice(&u[..3]),
        Translation::Sphere => {
            let el = EulerParams::new(q[0], q[1], q[2], q[3]);
            let length = j.delta0.norm();
            let t1 = j.axes_minus.column(0);
            let t2 = j.axes_minus.column(1);
            let w_link = (u[0] * t2 - u[1] * t1) / length;
            let ed = 0.5 * g_matrix(&el).transpose() * w_link;
            qd[..4].copy_from_slice(ed.as_slice());
        }
    }
    let nt = j.kind.n_translation_coords();
    let (q, u, qd) = (&q[nt..], &u[j.kind.translation.n_free()..], &mut qd[nt..]);
    match j.kind.rotation {
        Rotation::Locked => {}
        Rotation::AboutZ => qd[0] = u[0],
        Rotation::Pins => qd[..2].copy_from_slice(&u[..2]),
        Rotation::Free => {
            let e = EulerParams::new(q[0], q[1], q[2], q[3]);
            let w = a_parent.transpose() * Vector3::new(u[0], u[1], u[2]);
            let ed = 0.5 * e_matrix(&e).transpose() * w;
            qd[..4].copy_from_slice(ed.as_slice());
        }
    }
}

/// The catalog's [`Freedoms`] of a joint of `model`, or why HDCA cannot take it.
pub(crate) fn check_kind(model: &Model, j: JointId, tree: bool) -> Result<Freedoms, HdcaError> {
    let jt = model.joint(j);
    Freedoms::of(&jt.kind).map_err(|reason| HdcaError::UnsupportedJoint {
        joint: jt.name.clone(),
        kind: jt.kind.label(),
        why: match (reason, tree) {
            (NoFreedoms::Nonholonomic, true) => {
                "its no-slip rows are nonholonomic: a tree joint needs joint coordinates q whose rates are the quasi-velocities Hᵀ ΔV (eq 10), and rolling has none"
            }
            (NoFreedoms::Nonholonomic, false) => {
                "its contact point moves over both bodies: the cut-joint closure Dᵀ ΔV = 0 (eq 24) needs constrained directions D at a point fixed in the plus body"
            }
            (NoFreedoms::CurvedPath, true) => {
                "the path's tangent turns with the position along it: a tree joint needs a motion subspace H with joint coordinates (eq 10), not implemented for a curved path"
            }
            (NoFreedoms::CurvedPath, false) => {
                "the path's normal turns with the position along it: the cut-joint row and the rate Ḋ of its direction (eqs 62–69) are not implemented for a curved path"
            }
        },
    })
}

/// Columns of D of a cut joint chosen so that the velocity rows Dᵀ ΔV are the exact
/// time derivatives of the joint's position equations in `mbs-constraints` (so the
/// velocity-level closure holds to round-off even when the positions have drifted):
///
/// | rows | column (plus side at P_j; minus side at P_i or P_j) |
/// |---|---|
/// | d = P_j − P_i = 0 (revolute, spherical, rigid) | [e_k; 0], minus side at P_i |
/// | x_i·d = y_i·d = 0 (cylindrical, prismatic) | [x_i; 0], [y_i; 0], both at P_j |
/// | z_i·d = 0 (planar) | [z_i; 0], at P_j |
/// | z_j·x_i = 0 | [0; z_j × x_i] |
/// | z_j·y_i = 0 | [0; z_j × y_i] |
/// | y_j·x_i = 0 (prismatic, rigid) | [0; y_j × x_i] |
/// | z_j·z_i = 0 (universal) | [0; z_j × z_i] |
///
/// | dᵀd − L² = 0 (distance) | [n; 0], n = d/|d|, minus side at P_i |
///
/// (d/dt (a_j·b_i) = (a_j × b_i)·(ω_j − ω_i); the distance row is the derivative
/// 2 dᵀḋ divided by 2|d|, with ṅ = (ḋ − n (n·ḋ))/|d|.) `d`, `d_dot`: P_j − P_i and
/// its rate. Returns (n_c, two_point).
pub(crate) fn cut_columns(
    kind: Freedoms,
    axes_minus: &Matrix3<f64>,
    axes_plus: &Matrix3<f64>,
    w_minus: &Vector3<f64>,
    w_plus: &Vector3<f64>,
    d: &Vector3<f64>,
    d_dot: &Vector3<f64>,
    cols: &mut [Vector6<f64>; 6],
    rates: &mut [Vector6<f64>; 6],
) -> (usize, bool) {
    let xi: Vector3<f64> = axes_minus.column(0).into_owned();
    let yi: Vector3<f64> = axes_minus.column(1).into_owned();
    let zi: Vector3<f64> = axes_minus.column(2).into_owned();
    let yj: Vector3<f64> = axes_plus.column(1).into_owned();
    let zj: Vector3<f64> = axes_plus.column(2).into_owned();
    let o = Vector3::zeros();
    let mut n = 0;
    let mut push = |c: Vector6<f64>, r: Vector6<f64>| {
        cols[n] = c;
        rates[n] = r;
        n += 1;
    };
    // a (turning with the plus body) × b (turning with the minus body)
    let cross = |a: &Vector3<f64>, b: &Vector3<f64>| {
        let c = a.cross(b);
        let r = w_plus.cross(a).cross(b) + a.cross(&w_minus.cross(b));
        (sv(&o, &c), sv(&o, &r))
    };
    let two_point = match kind.translation {
        Translation::Locked => {
            for e in [Vector3::x(), Vector3::y(), Vector3::z()] {
                push(sv(&e, &o), Vector6::zeros());
            }
            true
        }
        Translation::AlongZ => {
            push(sv(&xi, &o), sv(&w_minus.cross(&xi), &o));
            push(sv(&yi, &o), sv(&w_minus.cross(&yi), &o));
            false
        }
        Translation::InPlane => {
            push(sv(&zi, &o), sv(&w_minus.cross(&zi), &o));
            false
        }
        Translation::Sphere => {
            let len = d.norm();
            let nd = d / len;
            push(sv(&nd, &o), sv(&((d_dot - nd * nd.dot(d_dot)) / len), &o));
            true
        }
        Translation::Free => false,
    };
    match kind.rotation {
        Rotation::Free => {}
        Rotation::Pins => {
            let (c, r) = cross(&zj, &zi);
            push(c, r);
        }
        Rotation::AboutZ | Rotation::Locked => {
            let (c, r) = cross(&zj, &xi);
            push(c, r);
            let (c, r) = cross(&zj, &yi);
            push(c, r);
            if kind.rotation == Rotation::Locked {
                let (c, r) = cross(&yj, &xi);
                push(c, r);
            }
        }
    }
    (n, two_point)
}

/// Joint coordinates of a tree joint from its relative pose (the inverse of the
/// position map of the module documentation): `rel` = R = A_pᵀ A_c B₀ᵀ, `offset` =
/// A_pᵀ (P − r_p) − ρ_p the joint point from the parent marker origin in the parent
/// frame, `axis_child0` = b₀ (universal joint). Angles: θ = 2 atan2(e·a, e₀) about a;
/// universal: θ₁ turns b₀ to R b₀ about a, then θ₂ turns a to Rot(a, −θ₁) R a about
/// b₀. Distance: e_L is the shortest rotation from δ₀ to `offset`.
pub(crate) fn coords_from_pose(
    j: &JointInfo,
    rel: &EulerParams,
    offset: &Vector3<f64>,
    axis_child0: &Vector3<f64>,
    q: &mut [f64],
) {
    let a: Vector3<f64> = j.axes_minus.column(2).into_owned();
    let angle_about = |e: &EulerParams, axis: &Vector3<f64>| {
        2.0 * Vector3::new(e[1], e[2], e[3]).dot(axis).atan2(e[0])
    };
    match j.kind.translation {
        Translation::Locked => {}
        Translation::AlongZ => q[0] = a.dot(&(offset - j.delta0)),
        Translation::InPlane => {
            let s = offset - j.delta0;
            q[0] = j.axes_minus.column(0).dot(&s);
            q[1] = j.axes_minus.column(1).dot(&s);
        }
        Translation::Free => q[..3].copy_from_slice((offset - j.delta0).as_slice()),
        Translation::Sphere => {
            let el = rotation_between(&j.delta0.normalize(), &offset.normalize());
            q[..4].copy_from_slice(el.as_slice());
        }
    }
    let q = &mut q[j.kind.n_translation_coords()..];
    match j.kind.rotation {
        Rotation::Locked => {}
        Rotation::AboutZ => q[0] = angle_about(rel, &a),
        Rotation::Free => q[..4].copy_from_slice(rel.as_slice()),
        Rotation::Pins => {
            let r = euler_params::rotation(rel);
            let b = axis_child0;
            let rb = r * b;
            let t1 = a.cross(b).dot(&rb).atan2(b.dot(&rb));
            let x = euler_params::rotation(&from_axis_angle(&a, -t1)) * r;
            let xa = x * a;
            q[0] = t1;
            q[1] = b.cross(&a).dot(&xa).atan2(a.dot(&xa));
        }
    }
}

/// The rotation taking the unit vector `u` to the unit vector `v` about u × v (about
/// a perpendicular axis when they are opposite).
fn rotation_between(u: &Vector3<f64>, v: &Vector3<f64>) -> EulerParams {
    let c = u.dot(v);
    if c < -1.0 + 1e-12 {
        let helper = if u.x.abs() < 0.9 {
            Vector3::x()
        } else {
            Vector3::y()
        };
        let axis = u.cross(&helper).normalize();
        return EulerParams::new(0.0, axis.x, axis.y, axis.z);
    }
    let w = u.cross(v);
    euler_params::normalize(&EulerParams::new(1.0 + c, w.x, w.y, w.z))
}
