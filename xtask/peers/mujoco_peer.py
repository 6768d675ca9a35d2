"""MuJoCo peer: the mechanism as nested MJCF bodies (the spanning tree) with hinge
joints about z; each loop-closing joint as an equality constraint `connect` (MuJoCo's
way to close kinematic loops), made stiff through its `solref` time constant;
`mj_step` with the variant's integrator and time step (nstep steps per call, so the
loop over steps runs in C). Contacts are disabled (there is no geometry).

Variant keys: name, integrator (RK4, Euler, implicit, implicitfast; default RK4),
h (time step, default 1e-4), solref ([time constant, damping ratio]; default
[2 h, 1], the stiffest MuJoCo accepts without disabling its safety clamp; "default"
keeps MuJoCo's [0.02, 1]), solimp (default MuJoCo's).
"""

import math
import sys

import mujoco
import numpy as np

from common import main, sample_times


def _fmt(v):
    return " ".join(repr(float(x)) for x in v)


def _quat_z(angle):
    return [math.cos(angle / 2), 0.0, 0.0, math.sin(angle / 2)]


def mjcf(mech, variant):
    h = float(variant.get("h", 1e-4))
    children = {None: []}
    for k in mech.order:
        children[k] = []
    for k in mech.order:
        children[mech.parent[k][1]].append(k)

    lines = []

    def body(k, parent, indent):
        b = mech.bodies[k]
        if parent is None:
            pos, ang = b.r0, b.theta0
        else:
            p = mech.bodies[parent]
            pos = p.a0.T @ (b.r0 - p.r0)
            ang = b.theta0 - p.theta0
        ji = mech.parent[k][0]
        j = mech.joints[ji]
        local = j.sj if j.bj == k else j.si
        jz = b.inertia
        pad = " " * indent
        lines.append(f'{pad}<body name="b{k}" pos="{_fmt(pos)}" quat="{_fmt(_quat_z(ang))}">')
        lines.append(f'{pad}  <joint name="j{ji}" type="hinge" axis="0 0 1" pos="{_fmt(local)}"/>')
        lines.append(
            f'{pad}  <inertial pos="0 0 0" mass="{b.mass!r}" fullinertia="'
            f'{_fmt([jz[0, 0], jz[1, 1], jz[2, 2], jz[0, 1], jz[0, 2], jz[1, 2]])}"/>'
        )
        for c in children[k]:
            body(c, k, indent + 2)
        lines.append(f"{pad}</body>")

    for k in children[None]:
        body(k, None, 4)
    solref = variant.get("solref", [2 * h, 1.0])
    eq = []
    for ji in mech.closures:
        (b1, s1), (b2, _) = mech.closure_ends(ji)
        attrs = f'body1="b{b1}" body2="{"world" if b2 is None else f"b{b2}"}" anchor="{_fmt(s1)}"'
        if solref != "default":
            attrs += f' solref="{_fmt(solref)}"'
        if "solimp" in variant:
            attrs += f' solimp="{_fmt(variant["solimp"])}"'
        eq.append(f"    <connect {attrs}/>")
    return "\n".join(
        [
            f'<mujoco model="{mech.name}">',
            f'  <option timestep="{h!r}" integrator="{variant.get("integrator", "RK4")}" '
            f'gravity="{_fmt(mech.gravity)}">',
            '    <flag contact="disable"/>',
            "  </option>",
            "  <worldbody>",
            *lines,
            "  </worldbody>",
            *(["  <equality>", *eq, "  </equality>"] if eq else []),
            "</mujoco>",
        ]
    )


def setup(mech, case, variant):
    xml = mjcf(mech, variant)
    m = mujoco.MjModel.from_xml_string(xml)
    d = mujoco.MjData(m)
    ids = [mujoco.mj_name2id(m, mujoco.mjtObj.mjOBJ_BODY, f"b{k}") for k in range(len(mech.bodies))]
    res = np.zeros(6)

    def poses():
        mujoco.mj_forward(m, d)
        pos, theta, vel, omega = [], [], [], []
        for k, i in enumerate(ids):
            pos.append(d.xpos[i].copy())
            theta.append(math.atan2(d.xmat[i][3], d.xmat[i][0]))
            mujoco.mj_objectVelocity(m, d, mujoco.mjtObj.mjOBJ_BODY, i, res, 0)
            vel.append(res[3:6].copy())
            omega.append(float(res[2]))
        return pos, theta, vel, omega

    return {"mech": mech, "case": case, "m": m, "d": d, "poses": poses, "h": float(variant.get("h", 1e-4)),
            "stats": {"nv": int(m.nv), "neq": int(m.neq)}}


def simulate(built, rec):
    m, d, h = built["m"], built["d"], built["h"]
    mujoco.mj_resetData(m, d)
    ts = sample_times(built["case"])
    steps = 0
    rec.sample(0.0, *built["poses"]())
    for t in ts[1:]:
        n = int(round(t / h)) - steps
        if n > 0:
            mujoco.mj_step(m, d, nstep=n)
            steps += n
        if not np.isfinite(d.qpos).all():
            raise RuntimeError(f"diverged before t = {t}")
        rec.sample(t, *built["poses"]())
    built["stats"]["steps"] = steps


if __name__ == "__main__":
    sys.exit(main("mujoco", mujoco.__version__, setup, simulate))
