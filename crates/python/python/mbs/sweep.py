"""Parameter studies on Dask: one simulation per case, one table of results.

:func:`sweep` runs the cases of a grid (:func:`grid`) or of sampled parameters
(:func:`sample`) as Dask tasks — on a ``distributed.LocalCluster`` it starts (and
stops) itself by default, or on any Dask cluster by its scheduler address — and
returns one :class:`pandas.DataFrame`: the parameters, the status, the error message
and summary metrics of every case. A case that fails (bad edit, invalid model, failed
simulation, even a lost worker) is a row with its error; the study goes on.
"""

from __future__ import annotations

import contextlib
import itertools
import logging
import math
import os
import socket
import sys
import time
import uuid
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple, Union

import numpy as np

from ._errors import MethodError, ModelError, SimulationError
from .model import Model, ModelLike, as_model
from .simulate import simulate
from .trajectory import Trajectory

__all__ = ["grid", "sample", "sweep", "run_case", "RUN_OPTIONS", "METRICS"]

#: Case parameters with these names set the run, not the model.
RUN_OPTIONS = ("method", "integrator", "rtol", "atol", "h", "t_end", "samples", "max_steps", "guard")

#: The metric columns of every row (NaN/None where a case has none).
METRICS = (
    "failure_time",
    "failure_location",
    "samples",
    "t_final",
    "energy_drift",
    "max_phi",
    "max_phi_dot",
    "max_phi_ddot",
    "wall_time",
    "rhs_evals",
    "accepted_steps",
    "rejected_steps",
    "newton_iterations",
    "projections",
    "final_q_norm",
    "final_v_norm",
    "singular_passes",
    "run_seconds",
    "worker",
    "trajectory_file",
)

#: ``status`` values.
STATUSES = ("ok", "simulation_error", "model_error", "method_error", "error")

Case = Dict[str, Any]
Edit = Callable[..., Optional[Model]]


def grid(axes: Optional[Mapping[str, Sequence[Any]]] = None, **kwargs: Sequence[Any]) -> List[Case]:
    """All combinations of the given values (a Cartesian product), one dict per case.

    Keys are edit paths (``"forces[spring].stiffness"``), run options
    (:data:`RUN_OPTIONS`) or names an ``edit`` function of :func:`sweep` takes;
    paths are not Python names, so pass them in a dict:

    >>> grid({"bodies[body1].mass": [1.0, 2.0]}, method=["alf", "alf-index1"])
    [{'bodies[body1].mass': 1.0, 'method': 'alf'}, ...]
    """
    axes = dict(axes or {}, **kwargs)
    keys = list(axes)
    return [dict(zip(keys, combo)) for combo in itertools.product(*(list(axes[k]) for k in keys))]


def sample(
    n: int,
    ranges: Mapping[str, Union[Tuple[float, float], Sequence[Any]]],
    *,
    seed: int = 0,
    log: Sequence[str] = (),
    latin: bool = True,
) -> List[Case]:
    """`n` sampled cases (Monte-Carlo / design studies), reproducible from `seed`.

    Args:
        ranges: per key, a ``(low, high)`` tuple (a uniform number; log-uniform if the
            key is in `log`) or a list of values to choose from uniformly.
        latin: Latin-hypercube sampling of the ranges (each of `n` equal strata hit
            once) instead of independent uniform draws.
    """
    if n < 1:
        raise ValueError(f"sample: n must be at least 1, got {n}")
    rng = np.random.default_rng(seed)
    cases: List[Case] = [{} for _ in range(n)]
    for key, spec in ranges.items():
        if isinstance(spec, tuple) and len(spec) == 2 and all(isinstance(v, (int, float)) for v in spec):
            lo, hi = float(spec[0]), float(spec[1])
            u = (rng.permutation(n) + rng.random(n)) / n if latin else rng.random(n)
            if key in log:
                if lo <= 0 or hi <= 0:
                    raise ValueError(f"sample: `{key}` is log-uniform, its range must be positive, got {spec}")
                values = np.exp(math.log(lo) + u * (math.log(hi) - math.log(lo)))
            else:
                values = lo + u * (hi - lo)
            for c, v in zip(cases, values):
                c[key] = float(v)
        else:
            choices = list(spec)
            if not choices:
                raise ValueError(f"sample: `{key}` has no values to choose from")
            for c, k in zip(cases, rng.integers(0, len(choices), n)):
                c[key] = choices[int(k)]
    return cases


def run_case(
    index: int,
    params: Case,
    model: Mapping[str, Any],
    *,
    edit: Optional[Edit] = None,
    run: Optional[Mapping[str, Any]] = None,
    metrics: Optional[Callable[[Trajectory], Mapping[str, Any]]] = None,
    trajectories: Optional[str] = None,
) -> Dict[str, Any]:
    """One case of a sweep, in-process: edits a copy of `model` (a model dict) with
    `params`, simulates it with `run` updated by the run options among `params`, and
    returns its row. Never raises for a failing case: the row has its status and
    error. (This is what each Dask task runs.)"""
    start = time.perf_counter()
    row: Dict[str, Any] = {"case": index, **params, "status": "ok", "error": None}
    row.update({k: None for k in METRICS})
    row["worker"] = f"{socket.gethostname()}:{os.getpid()}"
    opts = dict(run or {})
    model_params = {k: v for k, v in params.items() if k not in RUN_OPTIONS}
    opts.update({k: v for k, v in params.items() if k in RUN_OPTIONS})
    traj: Optional[Trajectory] = None
    try:
        m = Model(model)
        if edit is not None:
            edited = edit(m, **model_params)
            m = edited if isinstance(edited, Model) else m
        else:
            m.update(model_params)
        traj = simulate(m, **opts)
    except SimulationError as e:
        row.update(status="simulation_error", error=str(e), failure_time=e.t, failure_location=e.location)
        traj = e.trajectory
    except ModelError as e:
        row.update(status="model_error", error=str(e))
    except MethodError as e:
        row.update(status="method_error", error=str(e))
    except Exception as e:  # an edit function's own error: still a row
        row.update(status="error", error=f"{type(e).__name__}: {e}")
    if traj is not None:
        row.update(_summary(traj))
        try:
            if metrics is not None:
                row.update(metrics(traj))
            if trajectories is not None and len(traj):
                path = os.path.join(trajectories, f"case-{index:05d}.parquet")
                traj.to_pandas().to_parquet(path)
                row["trajectory_file"] = path
        except Exception as e:
            row.update(status="error", error=f"{type(e).__name__}: {e}")
    row["run_seconds"] = time.perf_counter() - start
    return row


def _summary(traj: Trajectory) -> Dict[str, Any]:
    """The metric columns of a (possibly partial) trajectory."""
    n = len(traj)
    return {
        "samples": n,
        "t_final": float(traj.t[-1]) if n else math.nan,
        "energy_drift": traj.energy_drift,
        "max_phi": traj.max_phi,
        "max_phi_dot": traj.max_phi_dot,
        "max_phi_ddot": traj.max_phi_ddot,
        "wall_time": traj.wall_time,
        "rhs_evals": traj.stats["rhs_evals"],
        "accepted_steps": traj.stats["accepted_steps"],
        "rejected_steps": traj.stats["rejected_steps"],
        "newton_iterations": traj.stats["newton_iterations"],
        "projections": traj.stats["projections"],
        "final_q_norm": float(np.linalg.norm(traj.q[-1])) if n else math.nan,
        "final_v_norm": float(np.linalg.norm(traj.v[-1])) if n else math.nan,
        "singular_passes": len(traj.singular_passes),
    }


def sweep(
    model: ModelLike,
    cases: Union[Sequence[Case], Mapping[str, Sequence[Any]], Any],
    *,
    edit: Optional[Edit] = None,
    method: Optional[str] = None,
    integrator: Optional[str] = None,
    rtol: Optional[float] = None,
    atol: Optional[float] = None,
    h: Optional[float] = None,
    t_end: float = 1.0,
    samples: int = 200,
    max_steps: Optional[int] = None,
    guard: bool = True,
    metrics: Optional[Callable[[Trajectory], Mapping[str, Any]]] = None,
    trajectories: Optional[Union[str, "os.PathLike[str]"]] = None,
    client: Any = None,
    address: Optional[str] = None,
    n_workers: Optional[int] = None,
    threads_per_worker: int = 1,
    progress: Optional[Callable[[int, int], None]] = None,
):
    """Runs a parameter study on Dask and returns one :class:`pandas.DataFrame`.

    Args:
        model: the base model (a :class:`~mbs.Model`, built-in name, file or dict).
        cases: a list of parameter dicts (e.g. :func:`grid`, :func:`sample`), a
            DataFrame with one row per case, or a dict of value lists (its
            :func:`grid`). Keys in :data:`RUN_OPTIONS`
            (``method``, ``integrator``, ``t_end``…) set the run of that case; the
            others edit the model: paths for :meth:`Model.set` such as
            ``"forces[spring].stiffness"`` or ``"markers[joint5.ground].position[0]"``,
            or the keyword arguments of `edit`.
        edit: optional ``edit(model, **params)`` changing a copy of the model in place
            (or returning a new :class:`~mbs.Model`) from the case's parameters; it
            runs on the workers, so it must be picklable (lambdas and closures are).
        method, integrator, rtol, atol, h, t_end, samples, max_steps, guard: the run
            (see :func:`mbs.simulate`), unless a case sets them.
        metrics: optional ``metrics(trajectory) -> dict`` adding columns per case.
        trajectories: a directory (created; shared by all workers) to write each
            case's trajectory to as ``case-00012.parquet`` (the columns of
            :meth:`Trajectory.to_pandas`); the row's ``trajectory_file`` names it.
        client: a ``distributed.Client`` to use (left open), or ``"sync"`` to run the
            cases one after the other in this process (no Dask; for debugging).
        address: a Dask scheduler address (``"tcp://host:8786"``) to connect to,
            when `client` is not given: many machines, each with ``mbs`` installed.
        n_workers, threads_per_worker: the ``LocalCluster`` started otherwise (one
            process per worker; default as many workers as CPUs, at most one per case).
        progress: optional ``progress(done, total)`` called as cases complete.

    Returns:
        One row per case, in case order: ``case``, the parameters, ``status``
        (``"ok"``, ``"simulation_error"``, ``"model_error"``, ``"method_error"``,
        ``"error"``), ``error`` (the message, as the CLI prints it), then
        :data:`METRICS` — ``failure_time``, ``energy_drift``, ``max_phi``,
        ``wall_time``, ``rhs_evals``, final state norms …, of the partial trajectory
        for a failed simulation — and the columns of `metrics`.
    """
    import pandas as pd

    if isinstance(cases, Mapping):
        case_list = grid(cases)
    elif hasattr(cases, "to_dict") and hasattr(cases, "columns"):  # a DataFrame of cases
        case_list = cases.to_dict("records")
    else:
        case_list = [dict(c) for c in cases]
    base = as_model(model).to_dict()
    run = dict(method=method, integrator=integrator, rtol=rtol, atol=atol, h=h, t_end=t_end,
               samples=samples, max_steps=max_steps, guard=guard)
    traj_dir = None
    if trajectories is not None:
        traj_dir = os.path.abspath(os.fspath(trajectories))
        os.makedirs(traj_dir, exist_ok=True)
    kwargs = dict(edit=edit, run=run, metrics=metrics, trajectories=traj_dir)
    if isinstance(client, str) and client == "sync":
        rows = []
        for i, c in enumerate(case_list):
            rows.append(run_case(i, c, base, **kwargs))
            if progress is not None:
                progress(i + 1, len(case_list))
    else:
        rows = _on_dask(case_list, base, kwargs, client, address, n_workers, threads_per_worker, progress)
    params: List[str] = []
    for c in case_list:
        params.extend(k for k in c if k not in params)
    extra = [k for r in rows for k in r if k not in params and k not in ("case", "status", "error") and k not in METRICS]
    columns = ["case", *params, "status", "error", *METRICS, *dict.fromkeys(extra)]
    return pd.DataFrame(rows, columns=columns)


def _on_dask(
    cases: List[Case],
    base: Dict[str, Any],
    kwargs: Dict[str, Any],
    client: Any,
    address: Optional[str],
    n_workers: Optional[int],
    threads_per_worker: int,
    progress: Optional[Callable[[int, int], None]],
) -> List[Dict[str, Any]]:
    """The rows of all cases, computed by Dask tasks (a lost task is a row with its
    error)."""
    from distributed import Client, LocalCluster, as_completed

    owned: List[Any] = []
    if client is None:
        if address is not None:
            client = Client(address)
        else:
            n = n_workers or min(os.cpu_count() or 1, max(len(cases), 1))
            with _main_without_pseudo_file():
                cluster = LocalCluster(
                    n_workers=n,
                    threads_per_worker=threads_per_worker,
                    processes=True,
                    dashboard_address=None,
                    silence_logs=logging.ERROR,
                )
            owned.append(cluster)
            client = Client(cluster)
        owned.insert(0, client)
    try:
        # a list of one: scattering a dict would scatter its values under its keys
        (model_future,) = client.scatter([base], broadcast=True, hash=False)
        token = uuid.uuid4().hex[:8]
        keys = [f"mbs-case-{token}-{i}" for i in range(len(cases))]
        futures = client.map(
            run_case, range(len(cases)), cases, [model_future] * len(cases),
            key=keys, pure=False, **kwargs,
        )
        index = {f.key: i for i, f in enumerate(futures)}
        rows: List[Optional[Dict[str, Any]]] = [None] * len(cases)
        for done, fut in enumerate(as_completed(futures), start=1):
            i = index[fut.key]
            try:
                rows[i] = fut.result()
            except Exception as e:  # the task itself was lost (worker died, pickling)
                rows[i] = _lost(i, cases[i], e)
            if progress is not None:
                progress(done, len(cases))
        return [r for r in rows if r is not None]
    finally:
        for o in owned:
            o.close()


@contextlib.contextmanager
def _main_without_pseudo_file():
    """Worker processes start by running the main script again (multiprocessing's
    spawn); a script read from stdin (``python - < script.py``) names a file
    ``<stdin>`` that does not exist, and the workers would fail to start. While the
    cluster starts, such a name is hidden, so the workers start without the main
    script (cloudpickle sends the functions they need by value)."""
    main = sys.modules.get("__main__")
    name = getattr(main, "__file__", None)
    pseudo = name is not None and getattr(main, "__spec__", None) is None and not os.path.isfile(name)
    if pseudo:
        del main.__file__
    try:
        yield
    finally:
        if pseudo:
            main.__file__ = name


def _lost(index: int, params: Case, error: BaseException) -> Dict[str, Any]:
    """The row of a case whose task did not return."""
    row: Dict[str, Any] = {"case": index, **params, "status": "error", "error": f"{type(error).__name__}: {error}"}
    row.update({k: None for k in METRICS})
    return row
