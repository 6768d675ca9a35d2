"""Throughput of `mbs.sweep` on a Dask LocalCluster: simulations per second with 1 and
2 worker processes (and in-process, without Dask), printed as a Markdown table.

    target/py-venv/bin/python crates/python/bench/sweep_throughput.py [--cases 32] [--json OUT]

`cargo xtask bench` runs it (suite `sweep`) with `--json` and puts the table in the
report.

Each case is the five-bar (alf-index1, RK45 at 1e-6, t_end = 1 s, 100 intervals) with
its ground side scaled in [0.95, 1.05]. The cluster is started and warmed up (one case
per worker) before the clock starts; the time is that of the whole sweep call as a
user sees it (scheduling, transfer and the table included).
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import time

import numpy as np

import mbs

GROUND = "markers[joint5.j].position[0]"


def study(n: int):
    model = mbs.Model.builtin("five-bar")
    a = model.get(GROUND)
    return model, [{GROUND: a * s} for s in np.linspace(0.95, 1.05, n)]


def timed(model, cases, client) -> tuple:
    kw = dict(method="alf-index1", integrator="rk45", t_end=1.0, samples=100)
    start = time.perf_counter()
    df = mbs.sweep(model, cases, client=client, **kw)
    wall = time.perf_counter() - start
    assert (df["status"] == "ok").all(), df[df.status != "ok"][["case", "error"]]
    return wall, float(df["wall_time"].mean())


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--cases", type=int, default=32)
    ap.add_argument("--workers", default="1,2")
    ap.add_argument("--json", help="also write the rows to this file")
    args = ap.parse_args()
    from distributed import Client, LocalCluster

    model, cases = study(args.cases)
    rows = []
    wall, per = timed(model, cases, "sync")
    rows.append(("in-process (no Dask)", wall, per))
    for w in (int(x) for x in args.workers.split(",")):
        with LocalCluster(n_workers=w, threads_per_worker=1, processes=True,
                          dashboard_address=None, silence_logs=logging.ERROR) as cluster, \
                Client(cluster) as client:
            timed(model, cases[:w], client)  # warm-up: every worker imports mbs once
            wall, per = timed(model, cases, client)
            rows.append((f"Dask LocalCluster, {w} worker{'s' if w > 1 else ''}", wall, per))
    load = os.getloadavg()[0]
    print(f"Five-bar sweep, {args.cases} simulations (alf-index1, rk45 1e-6, t_end 1 s), "
          f"{os.cpu_count()} CPUs, load average {load:.1f} at the end:\n")
    print("| scheduler | wall time [s] | simulations/s | mean integration time per simulation [s] |")
    print("|---|---:|---:|---:|")
    for name, wall, per in rows:
        print(f"| {name} | {wall:.2f} | {args.cases / wall:.1f} | {per:.4f} |")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"cases": args.cases, "cpus": os.cpu_count(), "load_average": load,
                       "rows": [{"scheduler": n, "wall_s": w, "per_simulation_s": p}
                                for n, w, p in rows]}, f, indent=1)


if __name__ == "__main__":
    main()
