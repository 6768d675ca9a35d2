"""Planar mechanisms in angle coordinates for the `stiff-peers` suite (issue #31):
Andrew's squeezer with rod GE replaced by a stiff spring, in Hairer & Wanner's angle
coordinates (Solving ODEs II, sec VII.7; IVP Test Set `andrews`), and the bushing
chain in joint coordinates. Both are written as index-1 ODEs for SciPy's solve_ivp.

Every point is p0 + sum_i R(c_i . q) b_i (a sum of rotated vectors, c_i a row of
integers selecting the angles that add up to the rotation), so its Jacobian is
sum_i R(c_i . q) J b_i c_i^T (J the rotation by 90 degrees) and its second time
derivative is J_p q'' - sum_i R(c_i . q) b_i (c_i . q')^2. A body is its centre of
mass (a point), its absolute angle c_phi . q, its mass and inertia about the centre
of mass. The equations (Lagrange, index 1):

    [M  G^T] [q'' ]   [Q - sum_k m_k J_k^T (quadratic terms of k)]
    [G  0  ] [lam ] = [-(quadratic terms of g) - 2 w g' - w^2 g  ]

M = sum_k m_k J_k^T J_k + I_k c_phi,k c_phi,k^T; Q: gravity, point springs
(V = k/2 (l - l0)^2, damping c l'), torques along an angle combination; g: pairs
of points that coincide (loop closures), stabilized by Baumgarte's g'' + 2 w g' +
w^2 g = 0 (Baumgarte 1972; w given per model; the index-1 ODE alone drifts).

Stiff squeezer: the six angles beta, Theta, gamma, Phi, delta, eps of HW (Omega and
body 6, the rod GE, are gone), E reached from body 2 must coincide with E from body 3
(B + ss n(gamma)) and from bodies 5-4 (A + zt u(delta) + e n(Phi + delta)): 4
constraints; the spring k (l - zf) acts between G = A + u n(eps) on body 7 and E on
body 2, as mbs's `andrews-squeezer-stiff-spring` (crates/mechanisms/src/andrews.rs).
Centres of mass as that module (bodies 3, 5, 7: the directions chosen there).
"""

import math

import numpy as np

# Hairer & Wanner's data (SI), as crates/mechanisms/src/andrews.rs
MASSES = [0.04325, 0.00365, 0.02373, 0.00706, 0.07050, 0.00706, 0.05498]
INERTIAS = [2.194e-6, 4.410e-7, 5.255e-6, 5.667e-7, 1.169e-5, 5.667e-7, 1.912e-5]
XA, YA, XB, YB, XC, YC = -0.06934, -0.00227, -0.03635, 0.03273, 0.014, 0.072
D, DA, E, EA = 0.028, 0.0115, 0.02, 0.01421
RR, RA = 0.007, 0.00092
SS, SA, SB, SC, SD = 0.035, 0.01874, 0.01043, 0.018, 0.02
TA, TB = 0.02308, 0.00916
U, UA, UB = 0.04, 0.01228, 0.00449
ZF, ZT, FA = 0.02, 0.04, 0.01421
MOM, C0, L0 = 0.033, 4530.0, 0.07785
ANGLES7 = [
    -0.0617138900142764496358948458001,
    0.0,
    0.455279819163070380255912382449,
    0.222668390165885884674473185609,
    0.487364979543842550225598953530,
    -0.222668390165885884674473185609,
    1.23054744454982119249735015568,
]

# unit vectors of a rotation angle phi, as R(phi) b: u = (cos, sin) = R e_x,
# n = (sin, -cos) = R (0, -1), u_perp = (-sin, cos) = R (0, 1)
UX, NX, PX = np.array([1.0, 0.0]), np.array([0.0, -1.0]), np.array([0.0, 1.0])


class Point:
    """p0 + sum_i R(c_i . q) b_i."""

    def __init__(self, n, p0=(0.0, 0.0), terms=()):
        self.p0 = np.asarray(p0, float)
        self.b = np.array([t[0] * t[1] for t in terms]).reshape(-1, 2)
        self.c = np.array([t[2] for t in terms], float).reshape(-1, n)

    def eval(self, q, qd):
        """Position, Jacobian (2 x n) and the quadratic term -sum R b (c.q')^2."""
        th = self.c @ q
        cs, sn = np.cos(th), np.sin(th)
        rb = np.stack([cs * self.b[:, 0] - sn * self.b[:, 1], sn * self.b[:, 0] + cs * self.b[:, 1]], 1)
        drb = np.stack([-rb[:, 1], rb[:, 0]], 1)
        w = self.c @ qd
        pos = self.p0 + rb.sum(0)
        jac = drb.T @ self.c
        quad = -(rb * (w * w)[:, None]).sum(0)
        return pos, jac, quad


class Planar:
    """A planar mechanism in angle coordinates (module documentation)."""

    def __init__(self, n, q0, bodies, springs=(), torques=(), rot_springs=(), closures=(),
                 gravity=(0.0, 0.0), baumgarte=0.0):
        self.n, self.q0 = n, np.asarray(q0, float)
        self.bodies = bodies  # [(name, Point, c_phi, m, I)]
        self.springs = springs  # [(Point, Point, k, c, l0)]
        self.torques = torques  # [(c, tau)]
        self.rot_springs = rot_springs  # [(c, k, c_d)]
        self.closures = closures  # [(Point, Point)]
        self.g = np.asarray(gravity, float)
        self.w = baumgarte
        self.nfev = 0

    def rhs(self, t, y):
        self.nfev += 1
        n = self.n
        q, qd = y[:n], y[n:]
        M = np.zeros((n, n))
        Q = np.zeros(n)
        for _, p, cphi, m, inertia in self.bodies:
            _, jac, quad = p.eval(q, qd)
            M += m * jac.T @ jac + inertia * np.outer(cphi, cphi)
            Q += m * jac.T @ (self.g - quad)
        for p1, p2, k, c, l0 in self.springs:
            x1, j1, _ = p1.eval(q, qd)
            x2, j2, _ = p2.eval(q, qd)
            d = x2 - x1
            l = math.hypot(d[0], d[1])
            e = d / l
            jd = j2 - j1
            ld = e @ (jd @ qd)
            Q -= (k * (l - l0) + c * ld) * (e @ jd)
        for c, tau in self.torques:
            Q += tau * np.asarray(c, float)
        for c, k, cd in self.rot_springs:
            c = np.asarray(c, float)
            Q -= (k * (c @ q) + cd * (c @ qd)) * c
        m = 2 * len(self.closures)
        if m == 0:
            qdd = np.linalg.solve(M, Q)
        else:
            G = np.zeros((m, n))
            rhs_g = np.zeros(m)
            for i, (pa, pb) in enumerate(self.closures):
                xa, ja, qa = pa.eval(q, qd)
                xb, jb, qb = pb.eval(q, qd)
                G[2 * i:2 * i + 2] = ja - jb
                gv = xa - xb
                gd = (ja - jb) @ qd
                rhs_g[2 * i:2 * i + 2] = -(qa - qb) - 2 * self.w * gd - self.w ** 2 * gv
            K = np.block([[M, G.T], [G, np.zeros((m, m))]])
            qdd = np.linalg.solve(K, np.concatenate([Q, rhs_g]))[:n]
        return np.concatenate([qd, qdd])

    def y0(self):
        return np.concatenate([self.q0, np.zeros(self.n)])

    def positions(self, y):
        """Centres of mass (x, y) of the bodies, in order."""
        q = y[: self.n]
        z = np.zeros(self.n)
        return [[float(v) for v in p.eval(q, z)[0]] for _, p, _, _, _ in self.bodies]

    def body_names(self):
        return [b[0] for b in self.bodies]


def stiff_squeezer(k=1e8, baumgarte=1e3):
    """HW's squeezer without body 6, rod GE a spring k (module documentation).
    q = [beta, Theta, gamma, Phi, delta, eps]."""
    n = 6
    be, th, ga, ph, de, ep = (np.eye(n)[i] for i in range(n))
    P = lambda p0, *terms: Point(n, p0, terms)  # noqa: E731
    a, b = (XA, YA), (XB, YB)
    # points
    e2 = P((0, 0), (RR, UX, be), (-D, UX, be + th))
    e3 = P(b, (SS, NX, ga))
    e5 = P(a, (ZT, UX, de), (E, NX, ph + de))
    g7 = P(a, (U, NX, ep))
    d3 = P(b, (SD, UX, ga), (SC, NX, ga))
    c = P((XC, YC))
    bodies = [
        ("body1", P((0, 0), (RA, UX, be)), be, MASSES[0], INERTIAS[0]),
        ("body2", P((0, 0), (RR, UX, be), (-DA, UX, be + th)), be + th, MASSES[1], INERTIAS[1]),
        ("body3", P(b, (SB, UX, ga), (SA, NX, ga)), ga, MASSES[2], INERTIAS[2]),
        ("body4", P(a, (ZT, UX, de), (E - EA, NX, ph + de)), ph + de, MASSES[3], INERTIAS[3]),
        ("body5", P(a, (TA, UX, de), (TB, PX, de)), de, MASSES[4], INERTIAS[4]),
        ("body7", P(a, (UA, UX, ep), (UB, PX, ep)), ep, MASSES[6], INERTIAS[6]),
    ]
    q0 = [ANGLES7[i] for i in (0, 1, 2, 3, 4, 6)]
    return Planar(
        n, q0, bodies,
        springs=[(g7, e2, k, 0.0, ZF), (d3, c, C0, 0.0, L0)],
        torques=[(be, MOM)],
        closures=[(e2, e3), (e2, e5)],
        baumgarte=baumgarte,
    )


def bushing_chain(n=8, k=1e6, c=10.0, length=1.0, mass=1.0, gravity=9.81):
    """mbs's `bushing-chain` (crates/mechanisms/src/stiff.rs) in joint coordinates:
    q_1 the first link's angle, q_j (j > 1) the bend of joint j; link k's angle is
    q_1 + ... + q_k. Centroidal inertia about z: m l^2/12 (slender rod)."""
    rows = np.tril(np.ones((n, n)))  # row k: angles adding up to link k's rotation
    bodies = []
    for k_ in range(n):
        terms = [(length, UX, rows[j]) for j in range(k_)] + [(0.5 * length, UX, rows[k_])]
        bodies.append((f"link{k_ + 1}", Point(n, (0, 0), terms), rows[k_], mass, mass * length ** 2 / 12))
    rot = [(np.eye(n)[j], k, c) for j in range(1, n)]
    return Planar(n, np.zeros(n), bodies, rot_springs=rot, gravity=(0.0, -gravity))
