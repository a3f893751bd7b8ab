"""A toy paper for the crash tests (tests/test_crash.py). The tests copy this file
into a temporary package declared under the entry-point group ``kpca_suite.papers``,
so that a ``kpca-suite`` subprocess discovers it like any shipped paper.

``crashtoy.sweep``  methods a, b, c x n in (8, 16) x seeds 0, 1 x ell in (1, 2)
                    x m in (n // 2, n // 4): 48 cells;
``crashtoy.twin``   method a, n = 8, seeds 0, 1, ell = 1, m = 4: 2 cells whose keys
                    differ from ``crashtoy.sweep`` cells by the claim id alone.

Every metric is a deterministic function of the cell's key fields (two runs store
the same bits); each cell sleeps ``CRASHTOY_CELL_SLEEP`` seconds (default 0.1) so
that a kill lands mid-run. The judge says ``holds`` on complete data. The figure
does nothing unless ``CRASHTOY_FIGURE_MARK`` names a file: then it writes its pid
there and sleeps a minute, so that a test can kill ``kpca-suite report`` while the
store is open and the report half written.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import numpy as np

from kpca_suite.suites.claim import Claim, Grid, Outcome, Paper, PerProfile, Tolerance

PAPER = Paper(key="crashtoy", citation="A toy paper for the crash tests.")

METHODS = ("a", "b", "c")


def _grids(methods, sizes, seeds, ells, fracs):
    return tuple(Grid(sizes, seeds, params={"ell": ell}, per_size=lambda n, f=f: {"m": n // f}, methods=methods)
                 for ell in ells for f in fracs)


def metrics_of(cell) -> dict:
    """The metrics of ``cell``: a function of (claim, method, n, seed, m, ell) alone."""
    p = cell.p
    words = [ord(ch) for ch in cell.claim + "/" + cell.method]
    z = np.random.default_rng(words + [cell.n, cell.seed, p["m"], p["ell"]]).standard_normal(3)
    return {"err": float(cell.n ** -0.5 * (1 + 0.05 * z[0])), "aux": float(z[1] * p["ell"] / p["m"]),
            "tag": float(METHODS.index(cell.method))}


def _method(cell):
    time.sleep(float(os.environ.get("CRASHTOY_CELL_SLEEP", "0.1")))
    return metrics_of(cell)


def experiment(cell, estimators):
    return estimators[cell.method](cell)


def judge(results, profile) -> Outcome:
    return Outcome("holds", f"{len(results)} cells, mean err {np.mean([r.metrics['err'] for r in results]):.6g}")


def figure(results, verdict, outdir):
    mark = os.environ.get("CRASHTOY_FIGURE_MARK")
    if mark:
        Path(mark).write_text(str(os.getpid()))
        time.sleep(60)
    return []


def _claim(claim_id, grids):
    return Claim(id=claim_id, source="crash toy, Thm 0", statement="a deterministic table",
                 prediction="the table", data="none (a formula)", metric="err",
                 estimators={m: _method for m in METHODS}, experiment=experiment,
                 grid=PerProfile.same(grids), judge=judge, figure=figure,
                 tolerance=Tolerance("none", "deterministic"))


SWEEP = _claim("crashtoy.sweep", _grids(METHODS, (8, 16), 2, (1, 2), (2, 4)))
TWIN = _claim("crashtoy.twin", _grids(("a",), (8,), 2, (1,), (2,)))

CLAIMS = [SWEEP, TWIN]
