"""template.rate: the sample mean's squared error falls like 1/n.

A family module declares its claims with everything they need beside them. Each
claim names its data, the estimators it runs (``{name: factory}``, the parts a
planted fault or another implementation may replace), the experiment of one cell,
the metrics the experiment returns, the sweep per profile, a judging recipe, the
tolerance with the evidence for it, and at least one planted fault that must make
it fail.
"""

from kpca_suite.suites.claim import Claim, Fault, Grid, PerProfile, Tolerance
from kpca_suite.suites.judging import SlopeInBand

# ---------------------------------------------------------------- parameters

GRID = PerProfile(ci=Grid(sizes=(16, 64, 256, 1024, 4096), seeds=20),
                  quick=Grid(sizes=(16, 64, 256, 1024, 4096, 16384), seeds=50),
                  full=Grid(sizes=tuple(4 ** k for k in range(2, 10)), seeds=200))

# ---------------------------------------------------------------- estimators


def sample_mean(rng, n):
    """The estimator under test: the mean of n draws (an estimator factory)."""
    return rng.standard_normal(n).mean()

# ---------------------------------------------------------------- experiment


def experiment(cell, estimators):
    """One cell: the squared error of the estimator named by ``cell.method``.
    Module-level, and depends on the cell alone (``cell.rng()`` is seeded by it)."""
    estimate = estimators[cell.method](cell.rng(), cell.n)
    return {"sq_error": float(estimate ** 2)}

# ---------------------------------------------------------------- planted faults


def stuck_mean(rng, n):
    """A planted fault: ignores all but 10 draws, so its error stops falling."""
    return rng.standard_normal(min(n, 10)).mean()

# ---------------------------------------------------------------- declarations


CLAIMS = [
    Claim(
        id="template.rate",
        source="Author 2024, Theorem 1",
        statement="The sample mean's squared error falls like 1/n",
        prediction="slope of E|mean|^2 vs n = -1",
        data="standard normal draws",
        metric="squared error of the mean",
        metrics=("sq_error",),
        estimators={"mean": sample_mean},
        experiment=experiment,
        grid=GRID,
        judge=SlopeInBand("sq_error", band=(-1.3, -0.7), label="sample mean", ylabel="squared error"),
        tolerance=Tolerance(rule="slope CI inside [-1.3, -0.7]",
                            evidence="say here which run, seeds and spread gave these numbers"),
        faults=(Fault("stuck", "uses 10 draws whatever n", {"mean": stuck_mean}),),
    ),
]
