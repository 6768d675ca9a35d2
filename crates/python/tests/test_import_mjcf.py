"""MJCF import against MuJoCo (the peer): the same file loaded by ``mbs.load`` and by
``mujoco.MjModel.from_xml_path``.

Models: two from the gymnasium wheel (``inverted_pendulum.xml``,
``inverted_double_pendulum.xml``, MIT, installed by requirements.txt, read where pip
put them), ``ant.xml`` and ``humanoid.xml`` from the same wheel (free-floating trees,
the humanoid's hinge groups as universal and spherical joints), ``hopper.xml`` and
``half_cheetah.xml`` (planar slide-slide-hinge roots, the hopper's ``rootz`` with a
``ref``; their planar joint's velocities are not MuJoCo's, so no H/C check), and the project's
own ``pendulum.xml`` (spatial double pendulum, hinges with ``ref``), ``fourbar.xml`` and
``spatial_rusr.xml`` (closed loops by ``<equality connect>``), ``fourbar_weld.xml``
(the four-bar closed by ``<equality weld>``) from
crates/import/tests/data/mjcf.

On MuJoCo's side what mbs does not model is switched off: contacts, joint limits and
friction loss (``opt.disableflags``), armature (``dof_armature = 0``); joint damping is
honoured on both sides. Checks:

(a) degrees of freedom: mbs's rank-based mobility equals MuJoCo's ``nv`` (a loop:
    ``nv`` minus the rank of the equality constraints' Jacobian);
(b) trees of hinges and slides: H and C of ``mbs.joint_space_dynamics`` equal
    ``mj_fullM`` and ``qfrc_bias − qfrc_passive`` at a nonzero state, to 1e-10
    relative, rows matched by joint name;
(c) 1 s of motion: mbs (DOP853, rtol = atol = 1e-11) against MuJoCo's RK4 at a small
    step: every body's centre of mass at t = 1 within 1e-6 m. MuJoCo's equality
    constraints are soft; with solref = (2 h, 1) and solimp 0.9999 its loops stay
    closed to ~1e-11 m at h = 1e-5 (measured), so the loops meet the same bound.
"""

from __future__ import annotations

import time
from pathlib import Path

import gymnasium
import mujoco
import numpy as np
import pytest

import mbs

# MuJoCo's warnings (e.g. half_cheetah's deprecated `settotalmass`) to the test output,
# not to a MUJOCO_LOG.TXT in the working directory
mujoco.set_mju_user_warning(lambda message: print(f"MuJoCo warning: {message}"))

ASSETS = Path(gymnasium.__file__).resolve().parent / "envs" / "mujoco" / "assets"
DATA = Path(__file__).resolve().parents[2] / "import" / "tests" / "data" / "mjcf"

# a nonzero state per model: MuJoCo qpos/qvel values by joint name
STATES = {
    "inverted_pendulum.xml": ({"slider": 0.2, "hinge": 0.4}, {"slider": -0.3, "hinge": 1.1}),
    "inverted_double_pendulum.xml": (
        {"slider": 0.1, "hinge": 0.3, "hinge2": -0.4},
        {"slider": 0.2, "hinge": -0.5, "hinge2": 0.7},
    ),
    "pendulum.xml": ({"shoulder": 0.5, "elbow": 0.9}, {"shoulder": 1.0, "elbow": -2.0}),
    "hopper.xml": (
        {"rootx": 0.1, "rootz": 1.3, "rooty": 0.2, "thigh_joint": -0.3, "leg_joint": -0.5, "foot_joint": 0.4},
        {"rootx": 0.5, "rootz": -0.2, "rooty": 0.7, "thigh_joint": 1.0, "foot_joint": -0.6},
    ),
    "half_cheetah.xml": (
        {"rootx": 0.1, "rootz": 0.3, "rooty": 0.2, "bthigh": 0.3, "fshin": -0.5, "ffoot": 0.2},
        {"rootx": 0.5, "rootz": -0.2, "rooty": 0.7, "bshin": 1.0, "fthigh": -0.8},
    ),
    "humanoid.xml": (
        {
            "root": [0.0, 0.1, 1.4, 0.95, 0.05, 0.2, -0.1],
            "abdomen_z": 0.2,
            "abdomen_y": -0.3,
            "abdomen_x": 0.1,
            "right_hip_x": 0.2,
            "right_hip_z": -0.4,
            "right_hip_y": 0.5,
            "right_knee": -0.8,
            "left_shoulder1": 0.4,
            "left_shoulder2": -0.3,
            "left_elbow": 0.6,
        },
        {"root": [0.2, 0.0, 0.1, 0.3, 0.2, -0.4], "abdomen_y": 0.5, "right_knee": -1.0, "left_elbow": 0.8},
    ),
    "ant.xml": (
        {
            "root": [0.1, -0.2, 0.75, 0.9, 0.1, -0.3, 0.2],
            "hip_1": 0.3,
            "ankle_1": 0.6,
            "hip_2": -0.2,
            "ankle_2": -0.7,
            "hip_3": 0.1,
            "ankle_3": -0.5,
            "hip_4": -0.3,
            "ankle_4": 0.8,
        },
        {
            "root": [0.1, 0.2, 0.3, 0.5, -0.3, 0.2],
            "hip_1": 1.0,
            "ankle_1": -0.5,
            "hip_3": 0.7,
            "ankle_4": 0.4,
        },
    ),
}


def path_of(name: str) -> Path:
    path = ASSETS / name if (ASSETS / name).is_file() else DATA / name
    assert path.is_file(), f"{name}: neither in {ASSETS} nor in {DATA}"
    return path


def mujoco_model(path: Path, model: mbs.Model, h: float | None = None) -> mujoco.MjModel:
    """The MuJoCo model without what mbs does not model: contacts, limits, friction
    loss, armature, and the damping and stiffness of the joints whose import notes
    say so (mbs applies them to single hinges only)."""
    m = mujoco.MjModel.from_xml_path(str(path))
    for note in model.import_report["notes"]:
        if note["element"].startswith("joint `") and "damping" in note["note"] and "ignored" in note["note"]:
            j = joint_id(m, note["element"][len("joint `") : -1])
            m.jnt_stiffness[j] = 0.0
            m.dof_damping[m.jnt_dofadr[j] : m.jnt_dofadr[j] + (6 if m.jnt_type[j] == 0 else 3 if m.jnt_type[j] == 1 else 1)] = 0.0
    m.opt.disableflags |= (
        mujoco.mjtDisableBit.mjDSBL_CONTACT
        | mujoco.mjtDisableBit.mjDSBL_LIMIT
        | mujoco.mjtDisableBit.mjDSBL_FRICTIONLOSS
    )
    m.dof_armature[:] = 0.0
    if h is not None:
        m.opt.timestep = h
        m.opt.integrator = mujoco.mjtIntegrator.mjINT_RK4
        # as stiff as MuJoCo allows: time constant 2 h (its stability limit), impedance
        # 0.9999
        m.eq_solref[:] = [2.0 * h, 1.0]
        m.eq_solimp[:, :3] = [0.9999, 0.9999, 0.001]
    return m


def joint_id(m: mujoco.MjModel, name: str) -> int:
    j = mujoco.mj_name2id(m, mujoco.mjtObj.mjOBJ_JOINT, name)
    assert j >= 0, f"MuJoCo has no joint `{name}`"
    return j


def mujoco_data(m: mujoco.MjModel, q: dict, v: dict) -> mujoco.MjData:
    """MjData at qpos0 with the joint values `q`, velocities `v` (by name)."""
    d = mujoco.MjData(m)
    for name, value in q.items():
        j = joint_id(m, name)
        value = np.atleast_1d(value)
        d.qpos[m.jnt_qposadr[j] : m.jnt_qposadr[j] + len(value)] = value
    for name, value in v.items():
        j = joint_id(m, name)
        value = np.atleast_1d(value)
        d.qvel[m.jnt_dofadr[j] : m.jnt_dofadr[j] + len(value)] = value
    mujoco.mj_forward(m, d)
    return d


def body_names(m: mujoco.MjModel) -> list[str]:
    """MuJoCo's body names, unnamed bodies as the import names them (`body7`)."""
    return [mujoco.mj_id2name(m, mujoco.mjtObj.mjOBJ_BODY, b) or f"body{b}" for b in range(m.nbody)]


def mujoco_centres(m: mujoco.MjModel, d: mujoco.MjData, model: mbs.Model) -> dict[str, np.ndarray]:
    """Centre of mass of every mbs body, from MuJoCo's bodies merged into it."""
    names = body_names(m)
    parts: dict[str, list[int]] = {}
    for link, body in model.import_report["links"]:
        if body is not None:
            parts.setdefault(body, []).append(names.index(link))
    out = {}
    for body, ids in parts.items():
        mass = m.body_mass[ids]
        out[body] = (mass[:, None] * d.xipos[ids]).sum(axis=0) / mass.sum()
    return out


def load(name: str, state: bool = True) -> mbs.Model:
    q, v = STATES.get(name, ({}, {})) if state else ({}, {})
    return mbs.load(str(path_of(name)), q0=q or None, v0=v or None)


# (a) degrees of freedom ---------------------------------------------------------------


@pytest.mark.parametrize(
    "name",
    [
        "inverted_pendulum.xml",
        "inverted_double_pendulum.xml",
        "ant.xml",
        "humanoid.xml",
        "hopper.xml",
        "half_cheetah.xml",
        "pendulum.xml",
        "fourbar.xml",
        "fourbar_weld.xml",
        "spatial_rusr.xml",
    ],
)
def test_degrees_of_freedom_are_mujocos(name):
    model = load(name, state=False)
    m = mujoco_model(path_of(name), model)
    d = mujoco.MjData(m)
    mujoco.mj_forward(m, d)
    rows = d.efc_J.reshape(d.nefc, m.nv) if d.nefc else np.zeros((0, m.nv))
    rows_of = {int(mujoco.mjtEq.mjEQ_CONNECT): 3, int(mujoco.mjtEq.mjEQ_WELD): 6}
    equality_rows = sum(rows_of[int(t)] for t in m.eq_type)
    assert d.nefc == equality_rows, f"{name}: MuJoCo has {d.nefc} constraint rows, not only its equalities"
    dof = m.nv - (np.linalg.matrix_rank(rows, tol=1e-9) if d.nefc else 0)
    report = model.check()
    print(f"{name}: MuJoCo nv = {m.nv}, equality rank {m.nv - dof}, mbs rank mobility {report['rank_mobility']}")
    assert report["rank_mobility"] == dof
    if m.neq:
        assert dof < m.nv  # the loop takes freedom


# (b) H and C ----------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["inverted_pendulum.xml", "inverted_double_pendulum.xml", "pendulum.xml"])
def test_mass_matrix_and_bias_are_mujocos(name):
    q, v = STATES[name]
    model = load(name)
    m = mujoco_model(path_of(name), model)
    d = mujoco_data(m, q, v)
    M = np.zeros((m.nv, m.nv))
    mujoco.mj_fullM(m, d, M)  # MuJoCo 4: (model, data, dst)
    bias = d.qfrc_bias - d.qfrc_passive

    jsd = mbs.joint_space_dynamics(model)
    order = [m.jnt_dofadr[joint_id(m, n)] for n in jsd.names]
    assert sorted(order) == list(range(m.nv)), f"{name}: mbs joints {jsd.names}"
    H_mj = M[np.ix_(order, order)]
    C_mj = bias[order]
    np.testing.assert_allclose(jsd.v, d.qvel[order], rtol=0, atol=1e-12)
    dH = np.abs(jsd.H - H_mj).max() / np.abs(H_mj).max()
    dC = np.abs(jsd.C - C_mj).max() / np.abs(C_mj).max()
    print(f"{name}: joints {jsd.names}, |ΔH|/|H| = {dH:.1e}, |ΔC|/|C| = {dC:.1e}")
    assert dH <= 1e-10, f"{name}: H\n{jsd.H}\nMuJoCo\n{H_mj}"
    assert dC <= 1e-10, f"{name}: C {jsd.C}, MuJoCo {C_mj}"


# (c) 1 s of motion ------------------------------------------------------------------------

MOTION = [
    # model, mbs method, MuJoCo RK4 step
    ("inverted_pendulum.xml", "hdca", 1e-5),
    ("inverted_double_pendulum.xml", "hdca", 1e-5),
    ("pendulum.xml", "hdca", 1e-5),
    ("ant.xml", "hdca", 1e-5),
    ("humanoid.xml", "hdca", 1e-5),
    ("hopper.xml", "hdca", 1e-5),
    ("half_cheetah.xml", "hdca", 1e-5),
    ("fourbar.xml", "alf-joint", 1e-5),
    ("fourbar_weld.xml", "alf-joint", 1e-5),
    ("spatial_rusr.xml", "alf-joint", 1e-5),
]


@pytest.mark.parametrize("name,method,h", MOTION)
def test_one_second_of_motion_is_mujocos(name, method, h):
    model = load(name)
    start = time.perf_counter()
    traj = mbs.simulate(model, method, "dop853", rtol=1e-11, atol=1e-11, t_end=1.0, samples=4)
    t_mbs = time.perf_counter() - start
    assert traj.t[-1] == pytest.approx(1.0)

    q, v = STATES.get(name, ({}, {}))
    m = mujoco_model(path_of(name), model, h)
    d = mujoco_data(m, q, v)
    start_mj = {b: c.copy() for b, c in mujoco_centres(m, d, model).items()}
    start = time.perf_counter()
    for _ in range(int(round(1.0 / h))):
        mujoco.mj_step(m, d)
    t_mj = time.perf_counter() - start
    assert d.time == pytest.approx(1.0, abs=1e-9)

    worst, moved = 0.0, 0.0
    for body, c in mujoco_centres(m, d, model).items():
        ours = np.array([traj.coordinate(body, k)[-1] for k in "xyz"])
        first = np.array([traj.coordinate(body, k)[0] for k in "xyz"])
        assert np.abs(first - start_mj[body]).max() < 1e-12, f"{name}: {body} starts elsewhere"
        worst = max(worst, np.abs(ours - c).max())
        moved = max(moved, np.abs(c - start_mj[body]).max())
    print(
        f"{name}: max |Δx| at t = 1: {worst:.2e} m (bodies moved up to {moved:.3f} m); "
        f"mbs {method} {t_mbs:.2f} s, MuJoCo RK4 h = {h:g} {t_mj:.2f} s, max |Φ| {traj.max_phi:.1e}"
    )
    assert moved > 1e-2, f"{name}: the motion must be real"
    assert worst <= 1e-6, f"{name}: mbs and MuJoCo end {worst:.2e} m apart"
