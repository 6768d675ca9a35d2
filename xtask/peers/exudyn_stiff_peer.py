"""Exudyn peer of the `stiff-peers` suite (issue #31): the bushing chain as 3D rigid
bodies (`CreateRigidBody`), revolute joints about z (`CreateRevoluteJoint`) and
torsional spring-dampers at the joints between links (`CreateTorsionalSpringDamper`),
solved by Exudyn's implicit generalized-alpha integrator (Arnold & Bruls 2007;
`SolveDynamic`, spectral radius rho_inf) at a fixed step (Exudyn's step control
reacts to Newton failures only, not to an error estimate).

    python exudyn_stiff_peer.py CASE.json OUT.json

Case file as scipy_stiff_peer.py; variants under "exudyn_stiff": {"name", "h",
"spectral_radius"}. Reports the centres of mass at t_end and Exudyn's step count.
"""

import json
import sys
import time

import exudyn as exu
import numpy as np
from exudyn.utilities import RigidBodyInertia  # noqa: F401

ENGINE = "exudyn_stiff"


def setup(case, variant):
    if case["model"] != "bushing-chain":
        raise ValueError(f"model {case['model']!r}: only the bushing chain is modelled for Exudyn")
    p = {"n": 8, "k": 1e6, "c": 10.0, "length": 1.0, "mass": 1.0, "gravity": 9.81}
    p.update(case.get("params", {}))
    n, l, m = int(p["n"]), float(p["length"]), float(p["mass"])
    sc = exu.SystemContainer()
    mbs = sc.AddSystem()
    ground = mbs.CreateGround()
    t = m * l * l / 12
    objs = []
    for k in range(n):
        inertia = RigidBodyInertia(mass=m, inertiaTensor=np.diag([0.01 * t, t, t]), com=[0, 0, 0])
        objs.append(mbs.CreateRigidBody(inertia=inertia, referencePosition=[(k + 0.5) * l, 0, 0],
                                        gravity=[0, -float(p["gravity"]), 0]))
    prev = ground
    for k in range(n):
        pos = [k * l, 0, 0]
        mbs.CreateRevoluteJoint(itemNumbers=[prev, objs[k]], position=pos, axis=[0, 0, 1],
                                useGlobalFrame=True, show=False)
        if k > 0:
            mbs.CreateTorsionalSpringDamper(itemNumbers=[prev, objs[k]], position=pos, axis=[0, 0, 1],
                                            stiffness=float(p["k"]), damping=float(p["c"]),
                                            useGlobalFrame=True, show=False)
        prev = objs[k]
    mbs.Assemble()
    h, t_end = float(variant["h"]), float(case["t_end"])
    s = exu.SimulationSettings()
    s.timeIntegration.endTime = t_end
    s.timeIntegration.numberOfSteps = int(round(t_end / h))
    s.timeIntegration.verboseMode = 0
    s.timeIntegration.generalizedAlpha.spectralRadius = float(variant.get("spectral_radius", 0.8))
    s.solution.file.write = False  # as exudyn_peer.py (Exudyn 1.13)
    s.show.computationTime = False
    s.show.statistics = False
    return mbs, s, objs


def run(case, variant):
    out = {"variant": variant["name"], "settings": variant}
    repeats, budget = int(case.get("repeats", 3)), float(case.get("budget_s", 60.0))
    times = []
    for _ in range(repeats):
        mbs, s, objs = setup(case, variant)
        t0 = time.perf_counter()
        ok = exu.SolveDynamic(mbs, s, showHints=False, autoAssemble=False)
        times.append(time.perf_counter() - t0)
        if not ok:
            out.update(status="failed", reason="SolveDynamic did not converge")
            return out
        if sum(times) > budget:
            break
    pos = [[float(v) for v in mbs.GetObjectOutputBody(o, exu.OutputVariableType.Position)[:2]] for o in objs]
    out.update(status="ok", median_s=float(np.median(times)), min_s=float(np.min(times)),
               max_s=float(np.max(times)), repeats=len(times), positions=pos,
               bodies=[f"link{k + 1}" for k in range(len(objs))],
               stats={"steps": s.timeIntegration.numberOfSteps})
    return out


def main():
    with open(sys.argv[1]) as f:
        case = json.load(f)
    result = {"engine": ENGINE, "version": exu.__version__, "case": case.get("case"), "runs": []}
    for v in case.get("variants", {}).get(ENGINE, []):
        print(f"  exudyn / {case.get('case')} / {v['name']} ...", file=sys.stderr, flush=True)
        try:
            r = run(case, v)
        except Exception as e:  # noqa: BLE001 - the report says what went wrong
            r = {"variant": v["name"], "status": "failed", "reason": f"{type(e).__name__}: {e}"}
        print(f"  exudyn / {case.get('case')} / {v['name']}: {r.get('status')} {r.get('median_s', '')} {r.get('reason', '')}",
              file=sys.stderr, flush=True)
        result["runs"].append(r)
    with open(sys.argv[2], "w") as f:
        json.dump(result, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
