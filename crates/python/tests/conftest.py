"""Shared fixtures: the repository root, the `mbs` CLI binary the agreement tests
compare with (``MBS_CLI``, or ``target/release/mbs``, built with cargo if missing),
and one Dask ``LocalCluster`` with 2 worker processes."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="session")
def root() -> Path:
    return ROOT


@pytest.fixture(scope="session")
def cli() -> Path:
    """The `mbs` program (release build, as scripts/test-python.sh builds it)."""
    path = Path(os.environ.get("MBS_CLI", ROOT / "target" / "release" / "mbs"))
    if not path.is_file():
        subprocess.run(
            ["cargo", "build", "--release", "-p", "mbs", "--bin", "mbs"], cwd=ROOT, check=True
        )
    assert path.is_file(), f"no mbs CLI at {path}"
    return path


@pytest.fixture(scope="session")
def dask_client():
    """A LocalCluster with 2 single-threaded worker processes."""
    import logging

    from distributed import Client, LocalCluster

    cluster = LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        dashboard_address=None,
        silence_logs=logging.ERROR,
    )
    client = Client(cluster)
    try:
        yield client
    finally:
        client.close()
        cluster.close()
