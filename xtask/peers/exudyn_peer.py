"""Exudyn peer: every body a 3D rigid body (`CreateRigidBody`, Euler-parameter nodes,
redundant coordinates as Exudyn models them), tree joints as `ObjectJointRevoluteZ`
(`CreateRevoluteJoint`), and each loop-closing joint as an `ObjectJointGeneric` that
constrains only the two in-plane translations (`constrainedAxes = [1,1,0,0,0,0]`):
Exudyn's documented way to close a planar loop of 3D bodies without redundant
constraints (its fourBarMechanism3D example). Solved by `SolveDynamic` with the
generalized-α integrator at a fixed step; sensors store the poses every t_sample.

Variant keys: name, h (step, default 1e-3), spectral_radius (default Exudyn's 0.9),
sparse (EigenSparse linear solver; default: true above 20 bodies).
"""

import math
import sys

import exudyn as exu
import numpy as np
from exudyn.utilities import RigidBodyInertia  # noqa: F401 - exudyn's helper namespace

from common import main, sample_times


def setup(mech, case, variant):
    sc = exu.SystemContainer()
    mbs = sc.AddSystem()
    ground = mbs.CreateGround()
    objs = []
    for b in mech.bodies:
        inertia = RigidBodyInertia(mass=b.mass, inertiaTensor=b.inertia, com=[0, 0, 0])
        objs.append(
            mbs.CreateRigidBody(
                inertia=inertia,
                referencePosition=list(b.r0),
                referenceRotationMatrix=b.a0,
                gravity=list(mech.gravity),
            )
        )
    item = lambda k: ground if k is None else objs[k]  # noqa: E731
    closures = set(mech.closures)
    for ji, j in enumerate(mech.joints):
        pair = [item(j.bi), item(j.bj)]
        if ji in closures:
            mbs.CreateGenericJoint(
                itemNumbers=pair, position=list(j.point), constrainedAxes=[1, 1, 0, 0, 0, 0],
                useGlobalFrame=True, show=False,
            )
        else:
            mbs.CreateRevoluteJoint(
                itemNumbers=pair, position=list(j.point), axis=[0, 0, 1], useGlobalFrame=True, show=False,
            )
    ov = exu.OutputVariableType
    sensors = []
    for o in objs:
        sensors.append(
            [
                mbs.AddSensor(exu.itemInterface.SensorBody(bodyNumber=o, storeInternal=True, outputVariableType=t))
                for t in (ov.Position, ov.RotationMatrix, ov.Velocity, ov.AngularVelocity)
            ]
        )
    mbs.Assemble()

    h = float(variant.get("h", 1e-3))
    t_end = float(case["t_end"])
    s = exu.SimulationSettings()
    s.timeIntegration.endTime = t_end
    s.timeIntegration.numberOfSteps = int(round(t_end / h))
    s.timeIntegration.verboseMode = 0
    s.timeIntegration.generalizedAlpha.spectralRadius = float(variant.get("spectral_radius", 0.9))
    s.solution.file.write = False
    s.solution.sensors.writePeriod = float(case["t_sample"])
    s.show.computationTime = False
    s.show.statistics = False
    if variant.get("sparse", len(mech.bodies) > 20):
        s.linearSolverType = exu.LinearSolverType.EigenSparse
    return {"mech": mech, "case": case, "mbs": mbs, "settings": s, "sensors": sensors, "stats": {"h": h}}


def simulate(built, rec):
    mbs, s, mech = built["mbs"], built["settings"], built["mech"]
    ok = exu.SolveDynamic(mbs, s, showHints=False, autoAssemble=False)
    if not ok:
        raise RuntimeError("SolveDynamic did not converge")
    data = [[mbs.GetSensorStoredData(x) for x in per_body] for per_body in built["sensors"]]
    ts = sample_times(built["case"])
    times = data[0][0][:, 0]
    for t in ts:
        i = int(np.argmin(np.abs(times - t)))
        if abs(times[i] - t) > 1e-6:
            continue
        pos, theta, vel, omega = [], [], [], []
        for k in range(len(mech.bodies)):
            p, r, v, w = (d[i, 1:] for d in data[k])
            pos.append(p)
            theta.append(math.atan2(r[3], r[0]))
            vel.append(v)
            omega.append(float(w[2]))
        rec.sample(float(times[i]), pos, theta, vel, omega)


if __name__ == "__main__":
    sys.exit(main("exudyn", exu.__version__, setup, simulate))
