"""Shared part of the peer scripts: reads a case file written by `cargo xtask bench
--suite peers`, turns the mbs model it holds into a planar revolute mechanism, and
measures what every engine reports (energy, loop-closure violation, positions).

A case file is JSON:

    {
      "case": "five-bar",            # id of the row in the report
      "model": { ... },              # the mbs model file (crates/model/SCHEMA.md), JSON
      "t_end": 10.0,                 # horizon [s]
      "t_sample": 0.1,               # energy / violation sampled every t_sample
      "t_positions": 1.0,            # positions reported at this time
      "repeats": 5,                  # timed repeats (median, min, max)
      "budget_s": 60.0,              # stop repeating once the runs took this long
      "variants": {"pinocchio": [{...}], "mujoco": [...], "exudyn": [...]}
    }

mbs itself reads the same "model" object, so both simulate the same mechanism.

Only what the peer cases need is supported: bodies whose frames are rotations about
the global z axis, revolute joints about z (markers' z axes along global z), gravity
in the plane z = 0, no forces and no drivers. Anything else is an error naming the
element. A case file with `"ignore_forces": true` (the per-call timing of the
per-RHS table) drops the force elements instead, listed in `Mechanism.ignored`: the
cost of one dynamics call does not depend on the force values.

A variant with `"per_call": true` is not simulated and timed by `run_variant` but
passed to the script's `per_call(mech, case, variant)`, which returns the
`"per_call"` timing (see `time_per_call`).
"""

import json
import math
import os
import sys
import time
from collections import deque

import numpy as np


class CaseError(Exception):
    """The case cannot be run by this script (the message says why)."""


def rotation_from_ep(p):
    """A(p) of Euler parameters p = (e0, e1, e2, e3), scalar first."""
    e0, e1, e2, e3 = p
    return np.array(
        [
            [e0 * e0 + e1 * e1 - 0.5, e1 * e2 - e0 * e3, e1 * e3 + e0 * e2],
            [e1 * e2 + e0 * e3, e0 * e0 + e2 * e2 - 0.5, e2 * e3 - e0 * e1],
            [e1 * e3 - e0 * e2, e2 * e3 + e0 * e1, e0 * e0 + e3 * e3 - 0.5],
        ]
    ) * 2.0


def _orientation(spec, what):
    if spec is None:
        return np.eye(3)
    if isinstance(spec, dict):
        axis = np.asarray(spec["axis"], float)
        axis = axis / np.linalg.norm(axis)
        a = float(spec["angle"])
        return rotation_from_ep([math.cos(a / 2), *(math.sin(a / 2) * axis)])
    if len(spec) == 4:
        p = np.asarray(spec, float)
        return rotation_from_ep(p / np.linalg.norm(p))
    raise CaseError(f"{what}: unsupported orientation {spec!r}")


def _inertia(spec, what):
    j = np.asarray(spec, float)
    if j.shape == (3,):
        return np.diag(j)
    if j.shape == (3, 3):
        return j
    raise CaseError(f"{what}: inertia must be 3 numbers or 3x3, got {spec!r}")


class Body:
    def __init__(self, index, spec):
        self.index = index
        self.name = spec["name"]
        self.mass = float(spec["mass"])
        self.inertia = _inertia(spec["inertia"], f"body `{self.name}`")
        self.r0 = np.asarray(spec.get("position", [0, 0, 0]), float)
        self.a0 = _orientation(spec.get("orientation"), f"body `{self.name}`")
        self.v0 = np.asarray(spec.get("velocity", [0, 0, 0]), float)
        self.w0 = np.asarray(spec.get("omega", [0, 0, 0]), float)
        if abs(self.a0[2, 2] - 1.0) > 1e-12 or abs(self.r0[2]) > 1e-12:
            raise CaseError(f"body `{self.name}`: not a planar body (frame not a rotation about z, or z != 0)")
        if np.linalg.norm(self.v0) > 0 or np.linalg.norm(self.w0) > 0:
            raise CaseError(f"body `{self.name}`: the peer scripts start from rest only")
        self.theta0 = math.atan2(self.a0[1, 0], self.a0[0, 0])
        # centroidal inertia about the global z axis
        self.jzz = float((self.a0 @ self.inertia @ self.a0.T)[2, 2])


class Joint:
    """A revolute joint about z: bodies (None = ground) and the joint point in each
    body's frame (global for ground) and globally at t = 0."""

    def __init__(self, name, bi, si, bj, sj, point):
        self.name, self.bi, self.si, self.bj, self.sj, self.point = name, bi, si, bj, sj, point


class Mechanism:
    """A planar revolute mechanism: bodies, joints, a spanning tree from ground
    (breadth first) and the joints that close loops."""

    def __init__(self, model, ignore_forces=False):
        if model.get("drivers"):
            raise CaseError("model: drivers are not supported by the peer scripts")
        self.ignored = [f"{f.get('type', '?')} `{f.get('name', '?')}`" for f in model.get("forces", [])]
        if self.ignored and not ignore_forces:
            raise CaseError("model: forces are not supported by the peer scripts")
        self.name = model.get("name", "")
        self.gravity = np.asarray(model.get("gravity", [0, 0, 0]), float)
        if abs(self.gravity[2]) > 0:
            raise CaseError("model: gravity must lie in the plane z = 0")
        self.bodies = [Body(k, b) for k, b in enumerate(model.get("bodies", []))]
        by_name = {b.name: b for b in self.bodies}
        markers = {}
        for m in model.get("markers", []):
            body = m["body"]
            if body != "ground" and body not in by_name:
                raise CaseError(f"marker `{m['name']}`: unknown body `{body}`")
            rot = np.asarray(m["orientation"], float) if "orientation" in m else None
            z_local = rot[:, 2] if rot is not None else np.asarray(m.get("z", [0, 0, 1]), float)
            markers[m["name"]] = (None if body == "ground" else by_name[body].index,
                                  np.asarray(m.get("position", [0, 0, 0]), float), z_local)
        self.joints = []
        for j in model.get("joints", []):
            if j["type"] != "revolute":
                raise CaseError(f"joint `{j['name']}`: only revolute joints are supported, not {j['type']}")
            (bi, si, zi), (bj, sj, zj) = markers[j["marker_i"]], markers[j["marker_j"]]
            pi, pj = self.world_point0(bi, si), self.world_point0(bj, sj)
            for b, z in ((bi, zi), (bj, zj)):
                zg = z if b is None else self.bodies[b].a0 @ z
                zg = zg / np.linalg.norm(zg)
                if abs(abs(zg[2]) - 1.0) > 1e-12:
                    raise CaseError(f"joint `{j['name']}`: axis is not the global z axis")
            if np.linalg.norm(pi - pj) > 1e-9:
                raise CaseError(f"joint `{j['name']}`: markers do not coincide at t = 0")
            self.joints.append(Joint(j["name"], bi, si, bj, sj, pi))
        self._spanning_tree()

    def world_point0(self, body, local):
        if body is None:
            return local.copy()
        b = self.bodies[body]
        return b.r0 + b.a0 @ local

    def _spanning_tree(self):
        """parent[k]: (joint index, parent body or None); closures: joint indices."""
        n = len(self.bodies)
        adj = {None: []}
        for k in range(n):
            adj[k] = []
        for ji, j in enumerate(self.joints):
            adj[j.bi].append((ji, j.bj))
            adj[j.bj].append((ji, j.bi))
        self.parent = {}
        self.order = []
        used = set()
        seen = {None}
        queue = deque([None])
        while queue:
            b = queue.popleft()
            for ji, other in adj[b]:
                if other in seen:
                    continue
                seen.add(other)
                used.add(ji)
                self.parent[other] = (ji, b)
                self.order.append(other)
                queue.append(other)
        if len(self.order) != n:
            missing = [self.bodies[k].name for k in range(n) if k not in seen]
            raise CaseError(f"model: bodies not connected to ground: {', '.join(missing)}")
        self.closures = [ji for ji in range(len(self.joints)) if ji not in used]

    def closure_ends(self, ji):
        """The two ends of loop-closing joint `ji` as ((body, local point), (body or
        None for ground, local point)), the first always a body."""
        j = self.joints[ji]
        ends = [(j.bi, j.si), (j.bj, j.sj)]
        if ends[0][0] is None:
            ends.reverse()
        return ends

    def depth_first(self):
        """Bodies of the spanning tree in depth-first order (every subtree contiguous,
        as Pinocchio's algorithms require)."""
        children = {None: []}
        for k in self.order:
            children[k] = []
        for k in self.order:
            children[self.parent[k][1]].append(k)
        out, stack = [], list(reversed(children[None]))
        while stack:
            k = stack.pop()
            out.append(k)
            stack.extend(reversed(children[k]))
        return out

    # -- measurements from planar poses per body: centre of mass (x, y), absolute
    # -- angle theta of the body frame about z (A = Rz(theta)), velocity, omega_z --

    def energy(self, pos, theta, vel, omega):
        """Kinetic plus potential energy, T + V with V = -m g . r."""
        e = 0.0
        for k, b in enumerate(self.bodies):
            e += 0.5 * b.mass * (vel[k][0] ** 2 + vel[k][1] ** 2) + 0.5 * b.jzz * omega[k] ** 2
            e -= b.mass * (self.gravity[0] * pos[k][0] + self.gravity[1] * pos[k][1])
        return e

    def closure_violation(self, pos, theta):
        """Largest distance between the two points of a loop-closing joint."""
        worst = 0.0
        for ji in self.closures:
            j = self.joints[ji]
            pi = self._point(j.bi, j.si, pos, theta)
            pj = self._point(j.bj, j.sj, pos, theta)
            worst = max(worst, float(np.hypot(*(pi - pj))))
        return worst

    def _point(self, body, local, pos, theta):
        """Global point of `local` (body frame; global for ground): r + Rz(theta) s."""
        if body is None:
            return local[:2]
        c, s = math.cos(theta[body]), math.sin(theta[body])
        return np.array([pos[body][0] + c * local[0] - s * local[1],
                         pos[body][1] + s * local[0] + c * local[1]])


def sample_times(case):
    t_end, dt = float(case["t_end"]), float(case["t_sample"])
    n = int(round(t_end / dt))
    ts = [k * dt for k in range(n + 1)]
    if abs(ts[-1] - t_end) > 1e-12:
        ts.append(t_end)
    tp = float(case.get("t_positions", 1.0))
    if tp <= t_end and not any(abs(t - tp) < 1e-12 for t in ts):
        ts.append(tp)
        ts.sort()
    return np.array(ts)


class Recorder:
    """Collects the measurements of one run at the sample times."""

    def __init__(self, mech, case):
        self.mech = mech
        self.t_positions = float(case.get("t_positions", 1.0))
        self.energy = []
        self.violation = []
        self.positions = None
        self.t_last = 0.0

    def sample(self, t, pos, theta, vel, omega):
        self.energy.append(self.mech.energy(pos, theta, vel, omega))
        self.violation.append(self.mech.closure_violation(pos, theta))
        if abs(t - self.t_positions) < 1e-9:
            self.positions = [[float(p[0]), float(p[1])] for p in pos]
        self.t_last = t

    def summary(self):
        e = np.asarray(self.energy)
        finite = np.isfinite(e).all() and len(e) > 0
        return {
            "energy_error": float(np.max(np.abs(e - e[0]))) if finite else None,
            "max_violation": float(np.max(self.violation)) if self.violation else 0.0,
            "positions_at": self.t_positions if self.positions is not None else None,
            "positions": self.positions,
            "t_reached": self.t_last,
            "samples": len(e),
        }


def load_average():
    try:
        return os.getloadavg()[0]
    except OSError:
        return None


def run_variant(name, variant, setup, simulate, case):
    """Times `simulate(built, recorder)` `repeats` times, wall clock and CPU time of
    the process (setup excluded; the last run's measurements are reported). Stops
    repeating when the budget is used up."""
    repeats = int(case.get("repeats", 5))
    budget = float(case.get("budget_s", 60.0))
    out = {"variant": name, "settings": variant, "load_before": load_average()}
    try:
        built = setup(variant)
    except CaseError as e:
        out.update(status="unsupported", reason=str(e))
        return out
    except Exception as e:  # noqa: BLE001 - the report says what went wrong
        out.update(status="failed", reason=f"setup: {type(e).__name__}: {e}")
        return out
    times, cpu = [], []
    rec = None
    spent = 0.0
    for _ in range(repeats):
        rec = Recorder(built["mech"], case)
        t0, c0 = time.perf_counter(), time.process_time()
        try:
            simulate(built, rec)
        except Exception as e:  # noqa: BLE001
            out.update(status="failed", reason=f"{type(e).__name__}: {e}", t_reached=rec.t_last)
            return out
        dt = time.perf_counter() - t0
        cpu.append(time.process_time() - c0)
        times.append(dt)
        spent += dt
        if spent > budget:
            break
    out.update(rec.summary())
    out.update(
        status="ok",
        wall_times_s=times,
        median_s=float(np.median(times)),
        min_s=float(np.min(times)),
        max_s=float(np.max(times)),
        cpu_times_s=cpu,
        cpu_median_s=float(np.median(cpu)),
        repeats=len(times),
        load_after=load_average(),
        stats=built.get("stats", {}),
    )
    return out


def run_per_call(name, variant, per_call, mech, case):
    """A `per_call` variant: the script's `per_call(mech, case, variant)` timing."""
    out = {"variant": name, "settings": variant, "load_before": load_average()}
    if per_call is None:
        out.update(status="unsupported", reason="this script has no per-call timing")
        return out
    try:
        timing = per_call(mech, case, variant)
    except CaseError as e:
        out.update(status="unsupported", reason=str(e))
        return out
    except Exception as e:  # noqa: BLE001 - the report says what went wrong
        out.update(status="failed", reason=f"{type(e).__name__}: {e}")
        return out
    timing["ignored"] = mech.ignored
    out.update(status="ok", per_call=timing, load_after=load_average())
    return out


def time_per_call(call, empty, states, target_batch_s=0.02, batches=15):
    """Median time per call [µs] of `call(q, v)` cycling through `states` [(q, v)],
    over `batches` timed batches of equal size (about `target_batch_s` each), and of
    the same loop calling `empty(q, v)` (the Python loop and call overhead), the two
    interleaved batch by batch so that a busy moment of the machine hits both; the
    garbage collector is off while timing. Returns the `"per_call"` dict: raw,
    overhead, corrected = raw - overhead, fastest and slowest raw batch."""
    import gc

    n = len(states)

    def batch(f, calls):
        t0 = time.perf_counter()
        for k in range(calls):
            q, v = states[k % n]
            f(q, v)
        return (time.perf_counter() - t0) / calls * 1e6

    for q, v in states:  # warm-up (first calls allocate)
        call(q, v)
    one = batch(call, max(n, 20))
    calls = max(n, int(target_batch_s / max(one * 1e-6, 1e-9)))
    raw, over = [], []
    was = gc.isenabled()
    gc.disable()
    try:
        for _ in range(batches):
            raw.append(batch(call, calls))
            over.append(batch(empty, calls))
    finally:
        if was:
            gc.enable()
    r, o = float(np.median(raw)), float(np.median(over))
    return {"raw_us": r, "overhead_us": o, "corrected_us": r - o, "min_us": float(np.min(raw)),
            "max_us": float(np.max(raw)), "batches": batches, "calls_per_batch": calls, "states": n}


def main(engine, version, setup, simulate, per_call=None):
    """Entry point of a peer script: `python ENGINE.py CASE.json OUT.json`."""
    if len(sys.argv) != 3:
        print(f"usage: {sys.argv[0]} CASE.json OUT.json", file=sys.stderr)
        return 2
    with open(sys.argv[1]) as f:
        case = json.load(f)
    result = {"engine": engine, "version": version, "case": case.get("case"), "runs": []}
    try:
        mech = Mechanism(case["model"], ignore_forces=bool(case.get("ignore_forces", False)))
    except CaseError as e:
        result["error"] = str(e)
        mech = None
    if mech is not None:
        for k, variant in enumerate(case.get("variants", {}).get(engine, [])):
            name = variant.get("name", f"{engine}-{k}")
            print(f"  {engine} / {case.get('case')} / {name} ...", file=sys.stderr, flush=True)
            if variant.get("per_call"):
                r = run_per_call(name, variant, per_call, mech, case)
            else:
                r = run_variant(name, variant, lambda v: setup(mech, case, v), simulate, case)
            print(f"  {engine} / {case.get('case')} / {name}: {r.get('status')} "
                  f"{r.get('median_s', '')}{r.get('per_call', '')} {r.get('reason', '')}",
                  file=sys.stderr, flush=True)
            result["runs"].append(r)
    with open(sys.argv[2], "w") as f:
        json.dump(result, f, indent=1)
    return 0
