"""Simulations release the GIL: two Python threads run at the same time and give the
same results as the same runs one after the other. (No speed is asserted: the test
checks that the two runs' intervals overlap, which cannot happen if one holds the
GIL for its whole run, and that the numbers do not depend on it.)"""

from __future__ import annotations

import threading

import numpy as np

import mbs

RUNS = [
    dict(model="five-bar", method="alf-index1", integrator="rk45:rtol=1e-9:atol=1e-9", t_end=4.0, samples=50),
    dict(model="double-loop", method="alf", integrator="rk45:rtol=1e-8:atol=1e-8", t_end=1.0, samples=50),
]


def run(spec):
    spec = dict(spec)
    return mbs.simulate(spec.pop("model"), **spec)


def test_threads_run_concurrently_with_identical_results():
    sequential = [run(s) for s in RUNS]
    results = [None] * len(RUNS)
    errors = []
    barrier = threading.Barrier(len(RUNS))

    def worker(i):
        try:
            barrier.wait()
            results[i] = run(RUNS[i])
        except BaseException as e:  # reported below
            errors.append(e)

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(len(RUNS))]
    for t in threads:
        t.start()
    # the main thread keeps running Python while the simulations run
    ticks = 0
    while any(t.is_alive() for t in threads):
        ticks += 1
        threads[0].join(0.001)
    for t in threads:
        t.join()
    assert not errors, errors
    for seq, par in zip(sequential, results):
        for key in ("t", "q", "v", "total_energy", "phi_norm", "phi_dot_norm", "multipliers"):
            np.testing.assert_array_equal(getattr(par, key), getattr(seq, key), err_msg=key)
        assert par.stats["rhs_evals"] == seq.stats["rhs_evals"]
    a, b = results
    assert a.started < b.finished and b.started < a.finished, (
        "the two runs did not overlap: the GIL was held during a simulation"
    )
    assert ticks > 0
