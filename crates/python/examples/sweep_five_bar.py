"""Sweep of the five-bar's ground-link length on Dask (64 cases).

The five-bar of Bayo & Ledesma (sec 4.2: four links of side a = 0.2 m hanging from two
ground joints a apart, released from rest) is run with the ground side scaled from
0.80 a to 1.20 a. Each changed model starts off its constraints and is assembled onto
them by the facade (mass-orthogonal projection) before it runs; a case where that is
impossible, or where the run fails, is a row with its error.

    target/py-venv/bin/python crates/python/examples/sweep_five_bar.py [--workers 2]
        [--address tcp://host:8786] [--out sweep.csv] [--parquet DIR]
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import mbs

GROUND = "markers[joint5.j].position[0]"


def lowest_point(traj: mbs.Trajectory) -> dict:
    """An extra column: how far the middle link drops (min y of its centre)."""
    return {"min_y_body2": float(traj.position[:, 1, 1].min())}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cases", type=int, default=64)
    ap.add_argument("--workers", type=int, default=None, help="LocalCluster workers (default: CPUs)")
    ap.add_argument("--address", default=None, help="a Dask scheduler address instead")
    ap.add_argument("--t-end", type=float, default=2.0)
    ap.add_argument("--out", default=None, help="write the table as CSV")
    ap.add_argument("--parquet", default=None, help="directory for the trajectories")
    args = ap.parse_args()

    model = mbs.Model.builtin("five-bar")
    a = model.get(GROUND)  # the ground joints sit at x = 0 and x = a
    cases = [{GROUND: a * s} for s in np.linspace(0.80, 1.20, args.cases)]
    start = time.perf_counter()
    df = mbs.sweep(
        model,
        cases,
        method="alf-index1",
        integrator="rk45:rtol=1e-8:atol=1e-8",
        t_end=args.t_end,
        samples=200,
        metrics=lowest_point,
        trajectories=args.parquet,
        n_workers=args.workers,
        address=args.address,
    )
    wall = time.perf_counter() - start
    df.insert(1, "ground_side", df[GROUND] / a)
    cols = ["ground_side", "status", "energy_drift", "max_phi", "min_y_body2", "rhs_evals", "wall_time"]
    with np.printoptions(precision=4):
        print(df[cols].to_string(index=False, float_format=lambda v: f"{v:.4g}"))
    counts = df["status"].value_counts().to_dict()
    print(f"\n{len(df)} cases in {wall:.1f} s ({len(df) / wall:.1f} simulations/s): {counts}")
    for _, row in df[df.status != "ok"].iterrows():
        print(f"  case {row.case} (ground side {row.ground_side:.3f} a): {row.error}")
    if args.out:
        df.to_csv(args.out, index=False)
        print(f"table: {args.out}")


if __name__ == "__main__":  # Dask starts worker processes that import this file
    main()
