"""Simulation results as NumPy arrays (and a pandas DataFrame)."""

from __future__ import annotations

from typing import Any, Dict, List, Optional

import numpy as np

__all__ = ["Trajectory", "COMPONENTS"]

#: The per-body columns of ``trajectory.csv`` and :meth:`Trajectory.to_pandas`, in order.
COMPONENTS = ("x", "y", "z", "e0", "e1", "e2", "e3", "vx", "vy", "vz", "wx", "wy", "wz")


def _array(raw: bytes, *shape: int) -> np.ndarray:
    """The raw native-endian f64 buffer as a read-only array of `shape` (no copy, no
    conversion: the bits of the Rust trajectory)."""
    return np.frombuffer(raw, dtype=np.float64).reshape(shape)


class Trajectory:
    """A simulated trajectory: ``n`` samples at times ``t``.

    Every array is a read-only NumPy ``float64`` array holding exactly the numbers of
    the Rust ``mbs::Trajectory`` (the numbers the CLI writes to ``trajectory.csv``
    and ``trajectory.json``); ``np.array(a)`` gives a writable copy. Quantities a
    method cannot provide are NaN.

    Attributes:
        model, method, integrator: what ran (method and integrator in canonical form,
            e.g. ``"alf-index1"``, ``"rk45:rtol=1e-8:atol=1e-8"``).
        body_names: body names, in body order (``nb`` bodies).
        t: sample times, shape ``(n,)``.
        q: absolute coordinates per sample, shape ``(n, 7·nb)``: per body the centre of
            mass ``x, y, z`` and the Euler parameters ``e0…e3``.
        v: their time derivatives, shape ``(n, 7·nb)``: ``ṙ`` and ``ṗ`` per body.
        position, velocity, omega: shape ``(n, nb, 3)`` (ω in the global frame).
        euler_params: shape ``(n, nb, 4)``.
        kinetic_energy, potential_energy, total_energy: shape ``(n,)``.
        phi_norm, phi_dot_norm, phi_ddot_norm: ‖Φ‖, ‖Φ̇‖, ‖Φ̈‖ per sample, ``(n,)``.
        multipliers: λ per sample, shape ``(n, m)`` (``m = 0`` when the method gives
            none; NaN rows for samples without).
        stats: integrator statistics (``accepted_steps``, ``rejected_steps``,
            ``rhs_evals``, ``jacobian_evals``, ``newton_iterations``,
            ``multiplier_iterations``, ``projections``, ``integration_seconds``,
            ``sampling_seconds``: the part of it spent on output samples).
        wall_time: seconds spent integrating.
        failure: why the run stopped early (a partial trajectory), else ``None``.
        initial_assembly: how far an inconsistent initial state was moved, else ``None``.
        singular_passes: passes near singular configurations, dicts with ``t``,
            ``ratio`` (σ_r/σ_max) and ``joints``.
        started, finished: wall-clock time (seconds since the epoch) around the run.
        joints: joint results, a dict ``column → (n,) array``: ``"t"`` (the sample
            times, ``joints.csv``'s ``t [s]``), then per joint its
            coordinates and rates in the joint frame (``"<joint>.angle [rad]"``,
            ``"<joint>.angle_rate [rad/s]"``, ``"<joint>.translation [m]"``, …), the
            reaction force and torque on body j at the joint (``"<joint>.force_x [N]"``,
            ``"<joint>.torque_z [N·m]"`` global; ``"<joint>.force_joint_x [N]"`` … in
            the joint frame), per driver ``"<driver>.effort [N·m]"`` (or ``[N]``), and
            the multipliers solved at every sample ``"lambda.<joint>.<row> [unit]"``;
            the same columns as ``joints.csv`` of the CLI. ``None`` when λ could not be
            solved (e.g. a singular configuration at a sample).
        energy_balance: dict of ``(n,)`` arrays ``t``, ``kinetic``, ``potential``,
            ``work_drivers``, ``work_dampers``, ``work_applied``, ``residual`` [J] and
            the float ``quadrature_error`` [J]; ``summary["energy_drift"]`` is
            max |residual|. ``None`` when it could not be evaluated.
    """

    def __init__(self) -> None:  # use Trajectory._from_raw
        self.model = ""
        self.method = ""
        self.integrator = ""
        self.body_names: List[str] = []
        self.t = np.empty(0)
        self.q = np.empty((0, 0))
        self.v = np.empty((0, 0))
        self.position = np.empty((0, 0, 3))
        self.euler_params = np.empty((0, 0, 4))
        self.velocity = np.empty((0, 0, 3))
        self.omega = np.empty((0, 0, 3))
        self.kinetic_energy = np.empty(0)
        self.potential_energy = np.empty(0)
        self.total_energy = np.empty(0)
        self.phi_norm = np.empty(0)
        self.phi_dot_norm = np.empty(0)
        self.phi_ddot_norm = np.empty(0)
        self.multipliers = np.empty((0, 0))
        self.stats: Dict[str, Any] = {}
        self.summary: Dict[str, float] = {}
        self.wall_time = 0.0
        self.failure: Optional[str] = None
        self.initial_assembly: Optional[str] = None
        self.singular_passes: List[Dict[str, Any]] = []
        self.started = float("nan")
        self.finished = float("nan")
        self.joints: Optional[Dict[str, np.ndarray]] = None
        self.energy_balance: Optional[Dict[str, Any]] = None

    @classmethod
    def _from_raw(cls, raw: Dict[str, Any]) -> "Trajectory":
        """From the dict of the extension module (``src/raw.rs``)."""
        tr = cls()
        n = raw["n"]
        nb = len(raw["body_names"])
        tr.model, tr.method, tr.integrator = raw["model"], raw["method"], raw["integrator"]
        tr.body_names = list(raw["body_names"])
        tr.t = _array(raw["t"], n)
        tr.q = _array(raw["q"], n, raw["nq"])
        tr.v = _array(raw["v"], n, raw["nv"])
        tr.position = _array(raw["position"], n, nb, 3)
        tr.euler_params = _array(raw["euler_params"], n, nb, 4)
        tr.velocity = _array(raw["velocity"], n, nb, 3)
        tr.omega = _array(raw["omega"], n, nb, 3)
        for key in (
            "kinetic_energy",
            "potential_energy",
            "total_energy",
            "phi_norm",
            "phi_dot_norm",
            "phi_ddot_norm",
        ):
            setattr(tr, key, _array(raw[key], n))
        tr.multipliers = _array(raw["multipliers"], n, raw["n_multipliers"])
        tr.stats = dict(raw["stats"])
        tr.summary = dict(raw["summary"])
        tr.wall_time = raw["wall_time"]
        tr.failure = raw["failure"]
        tr.initial_assembly = raw["initial_assembly"]
        tr.singular_passes = list(raw["singular_passes"])
        tr.started = raw.get("started", float("nan"))
        tr.finished = raw.get("finished", float("nan"))
        joints = raw.get("joints")
        if joints is not None:
            tr.joints = {"t": tr.t, **{name: _array(buf, n) for name, buf in joints.items()}}
        balance = raw.get("energy_balance")
        if balance is not None:
            tr.energy_balance = {
                "t": tr.t,
                **{k: (v if k == "quadrature_error" else _array(v, n)) for k, v in balance.items()},
            }
        return tr

    def __len__(self) -> int:
        return len(self.t)

    def __repr__(self) -> str:
        span = f"t = {self.t[0]:g} … {self.t[-1]:g}" if len(self) else "empty"
        return (
            f"<Trajectory {self.model} | {self.method} | {self.integrator}: "
            f"{len(self)} samples, {span}>"
        )

    @property
    def n_bodies(self) -> int:
        """Number of bodies."""
        return len(self.body_names)

    def body_index(self, name: str) -> int:
        """Index of the body called `name` (``KeyError`` naming the bodies otherwise)."""
        try:
            return self.body_names.index(name)
        except ValueError:
            raise KeyError(
                f"no body `{name}` in the trajectory; bodies: {', '.join(self.body_names)}"
            ) from None

    def coordinate(self, body: str, component: str) -> np.ndarray:
        """One column of ``trajectory.csv``: `component` (one of :data:`COMPONENTS`) of
        `body` over time."""
        i = self.body_index(body)
        if component not in COMPONENTS:
            raise KeyError(f"no component `{component}`; components: {', '.join(COMPONENTS)}")
        c = COMPONENTS.index(component)
        blocks = (self.position, self.euler_params, self.velocity, self.omega)
        offsets = (0, 3, 7, 10, 13)
        for block, lo, hi in zip(blocks, offsets, offsets[1:]):
            if lo <= c < hi:
                return block[:, i, c - lo]
        raise AssertionError("unreachable")

    @property
    def energy_error(self) -> np.ndarray:
        """E(t) − E(t₀) per sample."""
        return self.total_energy - self.total_energy[0] if len(self) else self.total_energy

    @property
    def energy_drift(self) -> float:
        """max |E(t) − E(t₀)| over the samples (computed by the facade)."""
        return self.summary["energy_drift"]

    @property
    def max_phi(self) -> float:
        """max ‖Φ‖ over the samples."""
        return self.summary["max_phi"]

    @property
    def max_phi_dot(self) -> float:
        """max ‖Φ̇‖ over the samples."""
        return self.summary["max_phi_dot"]

    @property
    def max_phi_ddot(self) -> float:
        """max ‖Φ̈‖ over the samples (NaN entries skipped)."""
        return self.summary["max_phi_ddot"]

    def to_pandas(self):
        """The samples as a :class:`pandas.DataFrame` with the columns of
        ``trajectory.csv`` (``t``, energies, violation norms, ``<body>.x`` … ``<body>.wz``)
        followed by ``lambda_0`` … (multipliers). Needs pandas."""
        import pandas as pd

        cols: Dict[str, np.ndarray] = {
            "t": self.t,
            "kinetic_energy": self.kinetic_energy,
            "potential_energy": self.potential_energy,
            "total_energy": self.total_energy,
            "phi_norm": self.phi_norm,
            "phi_dot_norm": self.phi_dot_norm,
            "phi_ddot_norm": self.phi_ddot_norm,
        }
        for b in self.body_names:
            for c in COMPONENTS:
                cols[f"{b}.{c}"] = self.coordinate(b, c)
        for i in range(self.multipliers.shape[1]):
            cols[f"lambda_{i}"] = self.multipliers[:, i]
        return pd.DataFrame(cols)
