"""Pinocchio peer: the mechanism as a kinematic tree of revolute-z joints (breadth-first
spanning tree from ground); each loop-closing joint as a `RigidConstraintModel` of
type CONTACT_3D between the two bodies (the way Pinocchio's closed-kinematic-chain
example closes a planar four-bar), accelerations from `constraintDynamics` with
proximal settings (or `aba` for trees), integrated by SciPy's `solve_ivp`
(DOP853 by default) at the variant's tolerance.

Variant keys: name, method (a solve_ivp method, default DOP853), rtol, atol, mu
(proximal regularisation, default 1e-12), kp, kd (Baumgarte corrector gains of the
loop closures, default 0).

A variant with `"per_call": true` times one `constraintDynamics` call (`aba` for a
tree) instead of a run, for the per-RHS table: at `states` (default 20) states along
its own trajectory (solve_ivp, the variant's method and rtol, over the case's
horizon), by `common.time_per_call`: raw, the overhead of an empty Python call in the
same loop, and raw minus overhead. The Python-to-C++ argument conversion of the call
is not subtracted: the corrected time is an upper bound of the C++ time.
"""

import math
import sys

import numpy as np
import pinocchio as pin
from scipy.integrate import solve_ivp

from common import main, sample_times, time_per_call


def mem_available():
    """Bytes of memory available (Linux /proc/meminfo), or None."""
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return None


def check_data_memory(nv):
    """Pinocchio's Data holds tensors of second-order derivatives of nv^3 entries
    (measured: its virtual size grows as 4 nv^3 doubles, 4.3 GB at nv = 512): refuse a
    model whose Data would not fit, instead of being killed by the kernel."""
    need = 4 * nv ** 3 * 8
    avail = mem_available()
    if avail is not None and need > 0.8 * avail:
        raise RuntimeError(
            f"pin.Data for nv = {nv} allocates 4 nv^3 doubles of second-order-derivative "
            f"tensors, {need / 1e9:.1f} GB, and {avail / 1e9:.1f} GB are available: not run"
        )


def setup(mech, case, variant):
    model = pin.Model()
    model.gravity.linear = mech.gravity
    jid = {}
    origin = {}
    for k in mech.depth_first():
        ji, parent = mech.parent[k]
        p = mech.joints[ji].point
        base = np.zeros(3) if parent is None else origin[parent]
        placement = pin.SE3(np.eye(3), p - base)
        b = mech.bodies[k]
        jid[k] = model.addJoint(0 if parent is None else jid[parent], pin.JointModelRZ(), placement, f"j{k}")
        origin[k] = p
        inertia = pin.Inertia(b.mass, b.r0 - p, b.a0 @ b.inertia @ b.a0.T)
        model.appendBodyToJoint(jid[k], inertia, pin.SE3.Identity())
    check_data_memory(model.nv)
    data = model.createData()
    constraints = []
    for ji in mech.closures:
        (b1, _), (b2, _) = mech.closure_ends(ji)
        p = mech.joints[ji].point
        pl1 = pin.SE3(np.eye(3), p - origin[b1])
        j2 = 0 if b2 is None else jid[b2]
        pl2 = pin.SE3(np.eye(3), p - (np.zeros(3) if b2 is None else origin[b2]))
        cm = pin.RigidConstraintModel(pin.ContactType.CONTACT_3D, model, jid[b1], pl1, j2, pl2, pin.ReferenceFrame.LOCAL)
        kp, kd = float(variant.get("kp", 0.0)), float(variant.get("kd", 0.0))
        if kp or kd:
            bp = cm.m_baumgarte_parameters
            bp.Kp[:] = kp
            bp.Kd[:] = kd
            cm.setBaumgarteCorrectorParameters(bp)
        constraints.append(cm)
    cmodels = pin.StdVec_RigidConstraintModel()
    cdatas = pin.StdVec_RigidConstraintData()
    for c in constraints:
        cmodels.append(c)
        cdatas.append(c.createData())
    if constraints:
        pin.initConstraintDynamics(model, data, cmodels, cdatas)
    prox = pin.ProximalSettings(1e-14, float(variant.get("mu", 1e-12)), int(variant.get("max_iter", 20)))
    tau = np.zeros(model.nv)
    nv = model.nv

    # the joint index (in q) of body k's joint and the lever r0 - origin in its frame
    levers = {k: mech.bodies[k].r0 - origin[k] for k in mech.order}

    if constraints:
        def accel(q, v):
            return pin.constraintDynamics(model, data, q, v, tau, cmodels, cdatas, prox)
    else:
        def accel(q, v):
            return pin.aba(model, data, q, v, tau)

    def rhs(_t, y):
        q, v = y[:nv], y[nv:]
        return np.concatenate([v, accel(q, v)])

    def poses(y):
        q, v = y[:nv], y[nv:]
        pin.forwardKinematics(model, data, q, v)
        n = len(mech.bodies)
        pos, theta, vel, omega = [None] * n, [0.0] * n, [None] * n, [0.0] * n
        for k in mech.order:
            m = data.oMi[jid[k]]
            r = m.rotation
            lever = levers[k]
            pos[k] = m.translation + r @ lever
            theta[k] = mech.bodies[k].theta0 + math.atan2(r[1, 0], r[0, 0])
            tw = data.v[jid[k]]
            w_local = tw.angular
            vel[k] = r @ (tw.linear + np.cross(w_local, lever))
            omega[k] = float((r @ w_local)[2])
        return pos, theta, vel, omega

    return {"mech": mech, "model": model, "rhs": rhs, "accel": accel, "poses": poses, "nv": nv,
            "variant": variant, "stats": {}}


def simulate(built, rec):
    case = built["case"]
    v = built["variant"]
    ts = sample_times(case)
    y0 = np.zeros(2 * built["nv"])
    sol = solve_ivp(
        built["rhs"], (0.0, float(case["t_end"])), y0,
        method=v.get("method", "DOP853"), rtol=float(v.get("rtol", 1e-10)),
        atol=float(v.get("atol", v.get("rtol", 1e-10))), t_eval=ts,
    )
    built["stats"]["rhs_evals"] = int(sol.nfev)
    if sol.status != 0:
        raise RuntimeError(f"solve_ivp: {sol.message}")
    for k, t in enumerate(sol.t):
        rec.sample(t, *built["poses"](sol.y[:, k]))


def per_call(mech, case, variant):
    """`time_per_call` of the dynamics at states along the case's own trajectory."""
    built = setup(mech, case, variant)
    nv, n = built["nv"], int(variant.get("states", 20))
    t_end = float(case["t_end"])
    rtol = float(variant.get("rtol", 1e-8))
    sol = solve_ivp(built["rhs"], (0.0, t_end), np.zeros(2 * nv), method=variant.get("method", "DOP853"),
                    rtol=rtol, atol=float(variant.get("atol", rtol)), t_eval=np.linspace(0.0, t_end, n))
    if sol.status != 0:
        raise RuntimeError(f"solve_ivp: {sol.message}")
    states = [(np.ascontiguousarray(sol.y[:nv, k]), np.ascontiguousarray(sol.y[nv:, k])) for k in range(sol.y.shape[1])]

    def empty(q, v):
        return None

    out = time_per_call(built["accel"], empty, states)
    out["trajectory_rhs_evals"] = int(sol.nfev)
    return out


def setup_with_case(mech, case, variant):
    built = setup(mech, case, variant)
    built["case"] = case
    return built


if __name__ == "__main__":
    sys.exit(main("pinocchio", pin.__version__, setup_with_case, simulate, per_call))
