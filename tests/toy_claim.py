"""Toy claims for the runner, store and CLI tests: fast, deterministic, and
importable by worker processes (their functions are module-level). Declared
like a paper module (``PAPER``, ``CLAIMS``).

``toy.rate``   err = n^-1/2 (1 + 0.05 z), z ~ N(0,1) from the cell's seed and n;
               band [-0.6, -0.4] on the slope -> holds.
``toy.fail``   the same data against a band around -1 -> fails.
``toy.boom``   raises for n = 128 (every seed), else like toy.rate.
``toy.bad``    returns a string metric -> a MetricsError for every cell.
``toy.vague``  the same data, band [-0.5, -0.3] that the CI straddles -> inconclusive.
``toy.kill``   kills its own worker process (SIGKILL, as the out-of-memory killer
               does) for n = 256, seed 1, else like toy.rate. Run it in a process pool only.
``toy.threads`` like toy.rate after one Laplacian kernel block, a jitted parallel region
               (Numba's threading layer: GNU OpenMP here).
"""

from __future__ import annotations

import os
import signal

import numpy as np

from kpca_suite.suites.claim import Claim, Fault, Grid, Paper, PerProfile, Tolerance
from kpca_suite.suites.judging import SlopeInBand

PAPER = Paper(key="toy", citation="A toy paper, for the tests.")

NS = PerProfile(ci=(64, 128, 256, 512, 1024, 2048), quick=(64, 128, 256, 512, 1024, 2048),
                full=(64, 128, 256, 512, 1024, 2048, 4096))
SEEDS = PerProfile(ci=5, quick=5, full=6)
GRID = PerProfile(*(Grid(NS[p], SEEDS[p], params={"grid": (1, 2.5), "profile": "any"},
                         per_size=lambda n: {"m": n // 4}) for p in ("ci", "quick", "full")))


def rate(cell):
    z = np.random.default_rng([cell.seed, cell.n]).standard_normal()
    return float(cell.n ** -0.5 * (1 + 0.05 * z))


def flat(cell):
    """A planted fault: the error does not fall with n."""
    return 0.1 * (1 + 0.05 * np.random.default_rng([cell.seed, cell.n]).standard_normal())


def boom(cell):
    if cell.n == 128:
        raise RuntimeError(f"planted failure at n={cell.n}")
    return rate(cell)


def kill(cell):
    if cell.n == 256 and cell.seed == 1:
        os.kill(os.getpid(), signal.SIGKILL)
    return rate(cell)


def threads(cell):
    from kpca_suite.kernels import Kernel
    Kernel("laplacian").block(np.random.default_rng(cell.seed).standard_normal((64, 3)))
    return rate(cell)


def experiment(cell, estimators):
    return {"err": estimators[cell.method](cell), "aux": float(cell.n)}


def bad_experiment(cell, estimators):
    return {"err": "not a number"}


def _claim(claim_id, band, toy=rate, run=experiment):
    return Claim(id=claim_id, source="toy paper, Thm 1", statement="err decays like n^-1/2",
                 prediction="slope -1/2", data="none (a formula)", metric="err",
                 estimators={"toy": toy}, experiment=run, grid=GRID,
                 judge=SlopeInBand("err", band, label="err", ylabel="err"),
                 tolerance=Tolerance(f"CI inside {list(band)}", "the formula's noise is 5%"),
                 faults=(Fault("flat", "error constant in n", {"toy": flat}),))


TOY_RATE = _claim("toy.rate", (-0.6, -0.4))
TOY_FAIL = _claim("toy.fail", (-1.1, -0.9))
TOY_BOOM = _claim("toy.boom", (-0.6, -0.4), toy=boom)
TOY_BAD = _claim("toy.bad", (-0.6, -0.4), run=bad_experiment)
TOY_VAGUE = _claim("toy.vague", (-0.5, -0.3))
TOY_KILL = _claim("toy.kill", (-0.6, -0.4), toy=kill)
TOY_THREADS = _claim("toy.threads", (-0.6, -0.4), toy=threads)

ALL = (TOY_RATE, TOY_FAIL, TOY_BOOM, TOY_BAD, TOY_VAGUE)
CLAIMS = ALL
