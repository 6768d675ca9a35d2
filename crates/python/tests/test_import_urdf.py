"""URDF import against Pinocchio on robots of example-robot-data.

For each robot, at a nonzero initial state (the same joint positions and velocities,
by joint name, to both codes):

(a) the degrees of freedom of the imported model equal Pinocchio's ``model.nv``
    (``buildModelFromUrdf`` without a root joint: the root link is fixed);
(b) ``mbs.joint_space_dynamics`` equals Pinocchio's ``crba`` (symmetrised) and
    ``nle`` (+ the URDF joint damping D v, which mbs imports as rotational and
    prismatic dampers and Pinocchio's ``nle`` leaves out; on joints where the import
    notes the damping as ignored, D is 0 on both sides) to 1e-10 relative (∞-norm of the difference over
    the ∞-norm of Pinocchio's), after permuting by joint name;
(c) after 1 s of motion under gravity, the centre of mass of every moving body
    (URDF links rigidly attached to a joint's child merged, as Pinocchio merges them
    into the joint's inertia) agrees to 1e-6 m: mbs ``aba`` + DOP853 at
    rtol = atol = 1e-11 against Pinocchio's ``aba`` (τ = −D v) integrated by SciPy's
    DOP853 at rtol = atol = 1e-12.

URDF files and Pinocchio are pinned in ``crates/python/requirements.txt``
(``example-robot-data==6.0.0``, ``pin==4.1.0``).
"""

from __future__ import annotations

import importlib.metadata
import time
import zlib
from pathlib import Path

import numpy as np
import pytest

import mbs

import pinocchio as pin  # pin==4.1.0, crates/python/requirements.txt
import scipy.integrate as scipy_integrate


def _robots_dir() -> Path:
    dist = importlib.metadata.distribution("example-robot-data")
    return Path(dist.locate_file("cmeel.prefix/share/example-robot-data/robots"))


ROBOTS = {
    "ur5": "ur_description/urdf/ur5_robot.urdf",
    "panda": "panda_description/urdf/panda.urdf",
    "kinova": "kinova_description/robots/kinova.urdf",
    "solo12": "solo_description/robots/solo12.urdf",
    "baxter": "baxter_description/urdf/baxter.urdf",
    "talos_reduced": "talos_data/robots/talos_reduced.urdf",
    "z1": "z1_description/urdf/z1.urdf",
    "xarm7": "xarm_description/urdf/xarm7.urdf",
    # <mimic> joints (one naming a joint the file lacks): independent joints in both
    "alex_psyonic_hands": "alex_description/urdf/alex_psyonic_hands.urdf",
}

H_TOL = 1e-10
C_TOL = 1e-10
POSITION_TOL = 1e-6


def _initial_state(model) -> "tuple[dict, dict]":
    """Joint positions and velocities by joint name, deterministic in the robot name:
    positions inside the URDF limits (their middle half; ±0.8 rad without limits),
    velocities ±1 rad/s (±0.05 m/s for prismatic joints)."""
    rng = np.random.default_rng(zlib.crc32(model.name.encode()))
    q0, v0 = {}, {}
    for j in range(1, model.njoints):
        name, jm = model.names[j], model.joints[j]
        lo = model.lowerPositionLimit[jm.idx_q]
        hi = model.upperPositionLimit[jm.idx_q]
        prismatic = jm.shortname().startswith("JointModelP")
        if jm.nq == 1 and np.isfinite(lo) and np.isfinite(hi) and hi > lo:
            q0[name] = float(lo + (hi - lo) * rng.uniform(0.25, 0.75))
        else:
            q0[name] = float(rng.uniform(-0.8, 0.8))
        v0[name] = float(rng.uniform(-1.0, 1.0) * (0.05 if prismatic else 1.0))
    return q0, v0


class PinocchioRobot:
    """Pinocchio's model of a URDF (fixed root) in joint angles θ (one per joint:
    continuous joints' (cos θ, sin θ) built from θ), with the URDF damping."""

    def __init__(self, path: Path) -> None:
        self.model = pin.buildModelFromUrdf(str(path))
        self.data = self.model.createData()
        m = self.model
        for j in range(1, m.njoints):
            assert m.joints[j].nv == 1, f"{m.names[j]}: only 1-DOF joints here"
        self.names = [m.names[j] for j in range(1, m.njoints)]
        self.damping = np.array(m.damping)

    def same_damping_as(self, model: "mbs.Model") -> None:
        """Zero the damping of the joints whose damping the import noted as ignored."""
        for n in model.import_report["notes"]:
            if n["note"].startswith("damping") and "ignored" in n["note"]:
                joint = n["element"].split("`")[1]
                self.damping[self.model.joints[self.model.getJointId(joint)].idx_v] = 0.0

    def q(self, theta: np.ndarray) -> np.ndarray:
        m = self.model
        q = pin.neutral(m)
        for j in range(1, m.njoints):
            jm = m.joints[j]
            a = theta[jm.idx_v]
            if jm.nq == 2:
                q[jm.idx_q : jm.idx_q + 2] = (np.cos(a), np.sin(a))
            else:
                q[jm.idx_q] = a
        return q

    def vectors(self, by_name: dict) -> np.ndarray:
        x = np.zeros(self.model.nv)
        for j in range(1, self.model.njoints):
            x[self.model.joints[j].idx_v] = by_name[self.model.names[j]]
        return x

    def mass_and_bias(self, theta, v):
        q = self.q(theta)
        h = pin.crba(self.model, self.data, q)
        h = np.triu(h) + np.triu(h, 1).T
        c = pin.nle(self.model, self.data, q, v) + self.damping * v
        return h, c

    def rhs(self, _t, x):
        n = self.model.nv
        theta, v = x[:n], x[n:]
        a = pin.aba(self.model, self.data, self.q(theta), v, -self.damping * v)
        return np.concatenate([v, a])

    def centres_of_mass(self, theta) -> dict:
        """Per joint name: the world position of the centre of mass of the joint's
        body (its links merged)."""
        m, d = self.model, self.data
        pin.forwardKinematics(m, d, self.q(theta))
        return {m.names[j]: d.oMi[j].act(m.inertias[j].lever) for j in range(1, m.njoints)}


def _child_bodies(model: "mbs.Model") -> dict:
    """Per joint name: the body of its `marker_j` (the child)."""
    return {
        j["name"]: model.marker(j["marker_j"])["body"] for j in model.data.get("joints", [])
    }


def _load(name: str):
    path = _robots_dir() / ROBOTS[name]
    robot = PinocchioRobot(path)
    q0, v0 = _initial_state(robot.model)
    model = mbs.load(str(path), q0=q0, v0=v0)
    robot.same_damping_as(model)
    return path, robot, q0, v0, model


@pytest.mark.parametrize("name", list(ROBOTS))
def test_urdf_against_pinocchio(name):
    started = time.perf_counter()
    path, robot, q0, v0, model = _load(name)
    m = robot.model

    # (a) degrees of freedom
    report = model.check()
    dof = (report["grubler_mobility"], report["rank_mobility"])
    assert dof == (m.nv, m.nv), f"{name}: mbs DOF (Grübler, rank) {dof} vs Pinocchio nv {m.nv}"

    # (b) H and C at the initial state, permuted by joint name
    js = mbs.joint_space_dynamics(model)
    assert sorted(js.names) == sorted(robot.names), f"{name}: joint names differ"
    perm = [m.joints[m.getJointId(n)].idx_v for n in js.names]
    theta0, v = robot.vectors(q0), robot.vectors(v0)
    np.testing.assert_allclose(js.v, v[perm], rtol=0, atol=1e-12)
    h_pin, c_pin = robot.mass_and_bias(theta0, v)
    h_pin, c_pin = h_pin[np.ix_(perm, perm)], c_pin[perm]
    h_err = np.abs(js.H - h_pin).max() / np.abs(h_pin).max()
    c_err = np.abs(js.C - c_pin).max() / np.abs(c_pin).max()
    assert h_err < H_TOL, f"{name}: H relative difference {h_err:.2e}"
    assert c_err < C_TOL, f"{name}: C relative difference {c_err:.2e}"

    # (c) 1 s of motion
    children = _child_bodies(model)
    traj = mbs.simulate(model, "aba", "dop853:rtol=1e-11:atol=1e-11", t_end=1.0, samples=2)
    assert traj.failure is None, f"{name}: {traj.failure}"
    sol = scipy_integrate.solve_ivp(
        robot.rhs, (0.0, 1.0), np.concatenate([theta0, v]), method="DOP853",
        rtol=1e-12, atol=1e-12,
    )
    assert sol.success, sol.message
    assert traj.t[-1] == 1.0
    bodies = {joint: traj.body_names.index(children[joint]) for joint in robot.names}
    for k, theta in ((0, theta0), (-1, sol.y[: m.nv, -1])):
        coms = robot.centres_of_mass(theta)
        worst = max(float(np.linalg.norm(traj.position[k, bodies[j]] - c)) for j, c in coms.items())
        tol = 1e-12 if k == 0 else POSITION_TOL
        assert worst < tol, f"{name}: centre-of-mass difference {worst:.2e} m at t = {traj.t[k]}"
    # the comparison means something only if the robot moves
    travel = max(
        float(np.linalg.norm(traj.position[-1, b] - traj.position[0, b])) for b in bodies.values()
    )
    assert travel > 0.05, f"{name}: the bodies moved {travel:.2e} m at most"
    elapsed = time.perf_counter() - started
    print(
        f"{name}: dof {m.nv}, H {h_err:.1e}, C {c_err:.1e}, t=1 position {worst:.1e} m "
        f"(largest travel {travel:.2f} m), {elapsed:.1f} s"
    )



def _quat_rate(quat_xyzw: np.ndarray, omega_body: np.ndarray) -> np.ndarray:
    """d/dt of a unit quaternion (x, y, z, w) turning at body angular velocity ω:
    ½ q ⊗ (ω, 0)."""
    x, y, z, w = quat_xyzw
    wx, wy, wz = omega_body
    return 0.5 * np.array(
        [
            w * wx + y * wz - z * wy,
            w * wy + z * wx - x * wz,
            w * wz + x * wy - y * wx,
            -x * wx - y * wy - z * wz,
        ]
    )


@pytest.mark.parametrize("name", ["solo12", "talos_reduced"])
def test_floating_base_against_pinocchio(name):
    """``floating_base=True`` against Pinocchio's free-flyer root: DOF, and every
    body's centre of mass after 1 s of free fall with moving joints (≤ 1e-6 m)."""
    started = time.perf_counter()
    path = _robots_dir() / ROBOTS[name]
    m = pin.buildModelFromUrdf(str(path), pin.JointModelFreeFlyer())
    d = m.createData()
    fixed = PinocchioRobot(path)
    q_joints, v_joints = _initial_state(fixed.model)
    rng = np.random.default_rng(7)
    # the root: position, orientation (unit quaternion), body-frame twist
    quat = pin.Quaternion(pin.utils.rpyToMatrix(*rng.uniform(-0.5, 0.5, 3)))
    r0, v_body, w_body = rng.uniform(-1, 1, 3), rng.uniform(-1, 1, 3), rng.uniform(-1, 1, 3)
    q = pin.neutral(m)
    q[:3], q[3:7] = r0, quat.coeffs()
    v = np.zeros(m.nv)
    v[:6] = np.concatenate([v_body, w_body])
    for j in range(2, m.njoints):
        jm, n = m.joints[j], m.names[j]
        if jm.nq == 2:
            q[jm.idx_q : jm.idx_q + 2] = (np.cos(q_joints[n]), np.sin(q_joints[n]))
        else:
            q[jm.idx_q] = q_joints[n]
        v[jm.idx_v] = v_joints[n]
    rot = quat.toRotationMatrix()
    # mbs: position, quaternion (w, x, y, z); linear velocity in world axes, ω in the
    # child frame (ImportOptions::v0)
    c = quat.coeffs()
    q0 = dict(q_joints, **{"root_joint": [*r0, c[3], c[0], c[1], c[2]]})
    v0 = dict(v_joints, **{"root_joint": [*(rot @ v_body), *w_body]})
    model = mbs.load(str(path), q0=q0, v0=v0, floating_base=True)
    report = model.check()
    assert report["grubler_mobility"] == m.nv, f"{name}: DOF {report['grubler_mobility']} vs {m.nv}"

    # the same damping on both sides (the joints' damping the import keeps; none on
    # the root); Pinocchio's joint j ≥ 2 is the fixed-base model's joint j − 1
    fixed.same_damping_as(model)
    damping = np.zeros(m.nv)
    for j in range(2, m.njoints):
        damping[m.joints[j].idx_v] = fixed.damping[fixed.model.joints[j - 1].idx_v]

    def rhs(_t, x):
        """Pinocchio's aba in (q, v), the free-flyer's q̇ by hand."""
        qq, vv = x[: m.nq].copy(), x[m.nq :]
        qq[3:7] /= np.linalg.norm(qq[3:7])
        qd = np.zeros(m.nq)
        qd[:3] = pin.Quaternion(qq[3:7]).toRotationMatrix() @ vv[:3]
        qd[3:7] = _quat_rate(qq[3:7], vv[3:6])
        for j in range(2, m.njoints):
            jm = m.joints[j]
            if jm.nq == 2:
                cs, sn = qq[jm.idx_q], qq[jm.idx_q + 1]
                qd[jm.idx_q : jm.idx_q + 2] = (-sn * vv[jm.idx_v], cs * vv[jm.idx_v])
            else:
                qd[jm.idx_q] = vv[jm.idx_v]
        return np.concatenate([qd, pin.aba(m, d, qq, vv, -damping * vv)])

    sol = scipy_integrate.solve_ivp(
        rhs, (0.0, 1.0), np.concatenate([q, v]), method="DOP853", rtol=1e-12, atol=1e-12
    )
    assert sol.success, sol.message
    traj = mbs.simulate(model, "aba", "dop853:rtol=1e-11:atol=1e-11", t_end=1.0, samples=2)
    assert traj.failure is None, f"{name}: {traj.failure}"
    children = _child_bodies(model)
    worst, travel = 0.0, 0.0
    for k, x in ((0, np.concatenate([q, v])), (-1, sol.y[:, -1])):
        qq = x[: m.nq].copy()
        qq[3:7] /= np.linalg.norm(qq[3:7])
        pin.forwardKinematics(m, d, qq)
        worst = 0.0
        for j in range(1, m.njoints):
            body = children[m.names[j]] if j > 1 else _root_body(model, children)
            b = traj.body_names.index(body)
            com = d.oMi[j].act(m.inertias[j].lever)
            worst = max(worst, float(np.linalg.norm(traj.position[k, b] - com)))
            travel = max(travel, float(np.linalg.norm(traj.position[-1, b] - traj.position[0, b])))
        tol = 1e-12 if k == 0 else POSITION_TOL
        assert worst < tol, f"{name}: centre-of-mass difference {worst:.2e} m at t = {traj.t[k]}"
    assert travel > 1.0, f"{name}: free fall moved the bodies only {travel:.2e} m"
    print(
        f"{name} floating: dof {m.nv}, t=1 position {worst:.1e} m (largest travel "
        f"{travel:.2f} m), {time.perf_counter() - started:.1f} s"
    )


def _root_body(model: "mbs.Model", children: dict) -> str:
    """The body that is no joint's child (the free-floating root)."""
    child_bodies = set(children.values())
    roots = [b for b in model.body_names if b not in child_bodies]
    assert len(roots) == 1, roots
    return roots[0]

# Robots of example-robot-data 6.0.0 that are not imported, with the reason (each
# refusal names the element and the value; checked so that a change is noticed).
REFUSED = {
    # <texture/> without `filename` inside a <material>: urdf-rs refuses the file
    "icub": ("icub_description/robots/icub.urdf", "missing field `filename`"),
    # an inertia with a negative eigenvalue (−3.5e-8): not a rigid body
    "tiago": ("tiago_description/robots/tiago.urdf", "must be positive semi-definite"),
    # a moving link (finger) without <inertial>: no mass to move
    "romeo": ("romeo_description/urdf/romeo.urdf", "has no mass"),
    # principal moments that violate J1 + J2 >= J3 after merging fixed links
    "romeo_small": ("romeo_description/urdf/romeo_small.urdf", "triangle inequality"),
}


@pytest.mark.parametrize("name", list(REFUSED))
def test_refused_robots_say_why(name):
    path, reason = REFUSED[name]
    with pytest.raises(mbs.ModelError, match=reason):
        mbs.load(str(_robots_dir() / path))


def test_joint_space_dynamics_refuses_closed_loops():
    with pytest.raises(mbs.ModelError, match="closes a loop"):
        mbs.joint_space_dynamics(mbs.Model.builtin("five-bar"))
