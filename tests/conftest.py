"""Shared fixtures. ``toy_registry`` swaps the claim registry for the toy claims
of :mod:`tests.toy_claim` (no paper module is imported) and restores it after.
``serial_blas`` (autouse, whole session) runs BLAS on one thread: the claims make
many small LAPACK calls, and a multithreaded OpenBLAS spins on them
(tests/test_bach13*.py and tests/test_krr.py ran about 25x slower with the
default threads); :func:`kpca_suite.suites.runner.cell_blas_limit` holds
every sweep cell at one thread in any executor. ``shared_verdicts`` (autouse, whole
session) lets the xdist workers of one run share the verdicts of :mod:`tests.claims`.
:func:`pytest_configure` byte-compiles the package and the tests once per run."""

from __future__ import annotations

import compileall
from pathlib import Path

import pytest
from threadpoolctl import threadpool_limits

from kpca_suite.suites import registry
from tests import toy_claim


def pytest_configure(config):
    """Byte-compile the package's folders and the tests once, in the run's first process
    (not in each xdist worker): the tests start about 150 Python processes that
    import the package, and where PYTHONDONTWRITEBYTECODE is set (as on the CI machines)
    none of them writes its bytecode, so each compiled the package's ~200 modules again
    (about 1 CPU-s per process). compileall skips a file whose bytecode is up to date."""
    if hasattr(config, "workerinput"):
        return
    root = Path(__file__).resolve().parent.parent
    for folder in ("kernels", "methods", "theory", "suites", "tests"):
        compileall.compile_dir(root / folder, quiet=2)


@pytest.fixture
def toy_registry(monkeypatch):
    reg = {c.id: c for c in toy_claim.ALL}
    monkeypatch.setattr(registry, "REGISTRY", reg)
    monkeypatch.setattr(registry, "PAPERS", {"toy": toy_claim.PAPER})
    monkeypatch.setattr(registry, "paper_modules", lambda: [])
    return reg


@pytest.fixture(autouse=True, scope="session")
def serial_blas():
    with threadpool_limits(limits=1, user_api="blas"):
        yield


@pytest.fixture(autouse=True, scope="session")
def shared_verdicts(request, tmp_path_factory):
    """In an xdist worker, :data:`tests.claims.SHARED` is a folder named by the run's id in
    the run's temporary root, which its workers share (each has its own basetemp below it)
    and pytest removes with the old runs; elsewhere (no workers, or a pytest that a test
    starts, which inherits the worker's environment but is no worker) the verdicts stay in
    the process."""
    from tests import claims
    worker = getattr(request.config, "workerinput", None)
    if worker is None:
        yield
        return
    claims.SHARED = tmp_path_factory.getbasetemp().parent / f"verdicts-{worker['testrunuid']}"
    claims.SHARED.mkdir(exist_ok=True)
    try:
        yield
    finally:
        claims.SHARED = None


@pytest.fixture
def no_plots(monkeypatch):
    """Skip drawing (the slow part) where the test is about something else."""
    from kpca_suite.suites import plots
    monkeypatch.setattr(plots, "plot_fits", lambda verdict, outdir: [])
    monkeypatch.setattr(plots, "plot_implementations", lambda claim_id, verdicts, outdir: [])
