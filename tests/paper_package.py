"""Ship a paper module as someone else's installed package: a package directory plus
the ``*.dist-info`` metadata that declares it under the entry-point group
``kpca_suite.papers``, both under one directory to put on ``sys.path`` (or on
``PYTHONPATH`` for a subprocess)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from kpca_suite.suites.registry import ENTRY_POINT_GROUP

def ship_paper(where: Path, package: str, source: str, name: str = "paper") -> str:
    """Write ``where/package/name.py`` (``source``) and the metadata of a
    distribution ``package`` 0.1 declaring it; returns the module name."""
    pkg = Path(where) / package
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / f"{name}.py").write_text(source)
    info = Path(where) / f"{package}-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {package}\nVersion: 0.1\n")
    module = f"{package}.{name}"
    (info / "entry_points.txt").write_text(f"[{ENTRY_POINT_GROUP}]\n{package} = {module}\n")
    return module


def serial(args) -> list:
    """``kpca-suite`` arguments with ``--jobs 1`` added to a ``run`` or ``conformance`` that gives
    none: a test's subprocess then runs its few cells in its own process, where a pool's workers
    would each load the jitted code again (about 1.2 CPU-s a call). tests/test_executors.py and
    tests/test_runner.py test the pools."""
    args = list(args)
    if args[:1] in (["run"], ["conformance"]) and not any(a in ("--jobs", "-j") or a.startswith("--jobs=")
                                                          for a in args):
        args += ["--jobs", "1"]
    return args


def subprocess_env(where: Path, **extra: str) -> dict:
    """The environment of a ``kpca-suite`` subprocess that sees the papers shipped
    under ``where``: ``where`` first on PYTHONPATH, BLAS on one thread, matplotlib on Agg."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(where)] + [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p])
    for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        env[var] = "1"
    env["MPLBACKEND"] = "Agg"
    env.update(extra)
    return env


CLI = [sys.executable, "-m", "kpca_suite.suites.cli"]


_MEAN_RATE = '''
"""A plug-in's paper: a mean's squared error falls like 1/n (no declared metrics)."""
import numpy as np
from kpca_suite.suites.claim import Claim, Fault, Grid, Paper, PerProfile, Tolerance
from kpca_suite.suites.judging import SlopeInBand

PAPER = Paper(key="{key}", citation="{citation}", errata="- none known")

def mean(rng, n):
    return rng.standard_normal(n).mean()

def stuck(rng, n):
    return rng.standard_normal(min(n, 8)).mean()

def experiment(cell, estimators):
    return {{"sq": float(estimators[cell.method](cell.rng(), cell.n) ** 2)}}

CLAIMS = [Claim(
    id="{key}.mean-rate", source="Oy 2030, Thm 1", statement="the mean's squared error falls like 1/n",
    prediction="slope -1", data="standard normal draws", metric="squared error",
    estimators={{"mean": mean}}, experiment=experiment,
    grid=PerProfile.same(Grid(sizes=(16, 64, 256, 1024, 4096), seeds=20)),
    judge=SlopeInBand("sq", (-1.3, -0.7), label="mean", ylabel="squared error"),
    tolerance=Tolerance("slope CI inside [-1.3, -0.7]", "20 seeds: CI half-width about 0.15"),
    faults=(Fault("stuck", "8 draws whatever n", {{"mean": stuck}}),))]
'''


def mean_rate_paper(key: str, citation: str) -> str:
    """The source of a plug-in paper ``key`` with one claim, ``<key>.mean-rate`` (a mean's
    squared error falls like 1/n; its fault ``stuck`` uses 8 draws whatever n)."""
    return _MEAN_RATE.format(key=key, citation=citation)
