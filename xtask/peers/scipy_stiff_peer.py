"""SciPy peer of the `stiff-peers` suite (issue #31): `solve_ivp` with `Radau`
(Hairer & Wanner's RADAU5 scheme) and `BDF` (variable order 1-5, Shampine & Reichelt
1997) on the planar angle-coordinate models of `stiff_models.py`.

    python scipy_stiff_peer.py CASE.json OUT.json

Case file: {"case", "model": "stiff-squeezer" | "bushing-chain", "params": {...},
"t_end", "repeats", "budget_s", "variants": {"scipy_stiff": [{"name", "method",
"rtol", "atol"}]}}. Each run reports its median wall time over the repeats, SciPy's
counts (nfev, njev, nlu) and the centres of mass at t_end (the model's body order).
"""

import json
import sys
import time

import numpy as np
import scipy
from scipy.integrate import solve_ivp

import stiff_models

ENGINE = "scipy_stiff"


def build(case):
    p = case.get("params", {})
    if case["model"] == "stiff-squeezer":
        return stiff_models.stiff_squeezer(**p)
    if case["model"] == "bushing-chain":
        return stiff_models.bushing_chain(**p)
    raise ValueError(f"unknown model {case['model']!r}")


def run(case, variant):
    out = {"variant": variant["name"], "settings": variant}
    t_end = float(case["t_end"])
    repeats, budget = int(case.get("repeats", 3)), float(case.get("budget_s", 60.0))
    times, sol, model = [], None, None
    for _ in range(repeats):
        model = build(case)
        t0 = time.perf_counter()
        sol = solve_ivp(model.rhs, (0.0, t_end), model.y0(), method=variant["method"],
                        rtol=float(variant["rtol"]), atol=float(variant["atol"]), t_eval=[t_end])
        times.append(time.perf_counter() - t0)
        if not sol.success or sum(times) > budget:
            break
    if not sol.success:
        out.update(status="failed", reason=sol.message)
        return out
    out.update(
        status="ok", median_s=float(np.median(times)), min_s=float(np.min(times)),
        max_s=float(np.max(times)), repeats=len(times),
        positions=model.positions(sol.y[:, -1]), bodies=model.body_names(),
        stats={"nfev": int(sol.nfev), "njev": int(sol.njev), "nlu": int(sol.nlu),
               "rhs_calls": model.nfev},
    )
    return out


def main():
    with open(sys.argv[1]) as f:
        case = json.load(f)
    result = {"engine": ENGINE, "version": scipy.__version__, "case": case.get("case"), "runs": []}
    for v in case.get("variants", {}).get(ENGINE, []):
        print(f"  scipy / {case.get('case')} / {v['name']} ...", file=sys.stderr, flush=True)
        try:
            r = run(case, v)
        except Exception as e:  # noqa: BLE001 - the report says what went wrong
            r = {"variant": v["name"], "status": "failed", "reason": f"{type(e).__name__}: {e}"}
        print(f"  scipy / {case.get('case')} / {v['name']}: {r.get('status')} {r.get('median_s', '')}",
              file=sys.stderr, flush=True)
        result["runs"].append(r)
    with open(sys.argv[2], "w") as f:
        json.dump(result, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
