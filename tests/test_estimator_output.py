"""The role boundary validates what an implementation returns, once per cell, before any
metric reads it: a NaN, an inf, a transposed, short, 1-D or complex output is named as
the estimator's defect, and the claim fails on it (not "inconclusive", not a traceback
from inside a metric)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from kpca_suite.kernels import Kernel
from kpca_suite.suites import check
from kpca_suite.suites.claim import Cell
from kpca_suite.suites.roles import EstimatorDefect, build
from tests import external_estimators as ext
from tests.claims import first_look_cells

ROOT = Path(__file__).resolve().parents[1]
CLAIM = "ghashami16.rff-rate"

DEFECTS = {
    "nan": "returned NaN or inf in 1 of",
    "inf": "returned NaN or inf in 1 of",
    "transposed": "returned 30 rows for 40 input rows (transposed?)",
    "short": "returned 39 rows for 40 input rows",
    "1-D": "returned a 1-D array of shape (40,)",
    "complex": "returned an array of dtype complex128, not of real numbers",
    "empty": "returned an array of shape (40, 0): no columns",
}


@pytest.mark.parametrize("how", DEFECTS)
def test_the_role_boundary_names_each_defect(how):
    est = build(ext.spoilt(how), "kernel-approximation", Cell.make("x.y[mine]", "m", 40, 0), n_components=None,
                budget=30, kernel=Kernel("gaussian", gamma=1.0), random_state=0)
    X = np.random.default_rng(0).standard_normal((40, 2))
    with pytest.raises(EstimatorDefect) as e:
        est.fit(X).transform(X)
    assert str(e.value).startswith("x.y[mine]: the estimator's transform " + DEFECTS[how])


@pytest.mark.parametrize("seed", [2**32, -1, 2**63 - 1, 1.5])
def test_a_random_state_a_library_would_refuse_is_the_claims_defect(seed):
    # scikit-learn takes int seeds in [0, 2^32): a claim handing a factory another would fail
    # correct implementations, so the harness refuses it before the factory is called
    called = []
    with pytest.raises(ValueError, match=r"random_state must be an int in \[0, 2\^32\)"):
        build(lambda **kw: called.append(kw), "kernel-approximation", Cell.make("x.y", "m", 40, 0),
              n_components=None, budget=30, kernel=Kernel("gaussian", gamma=1.0), random_state=seed)
    assert not called


def test_a_good_output_passes_the_boundary_unchanged():
    est = build(ext.rff, "kernel-approximation", Cell.make("x.y", "m", 40, 0), n_components=None, budget=30,
                kernel=Kernel("gaussian", gamma=1.0), random_state=0)
    X = np.random.default_rng(0).standard_normal((40, 2))
    np.testing.assert_array_equal(est.fit(X).transform(X), ext.rff(None, 30, Kernel("gaussian", gamma=1.0), 0)
                                  .fit(X).transform(X))


@pytest.mark.parametrize("how", ["nan", "transposed"])
def test_check_fails_the_claim_and_names_the_defect(how):
    verdict = check(ext.spoilt(how), claims=[CLAIM], profile="ci")[CLAIM]
    assert verdict.status == "fails"
    assert verdict.summary.startswith(f"DEFECTIVE ESTIMATOR OUTPUT in {first_look_cells(CLAIM)} cell(s), "
                                      "first at n = ")
    assert {"nan": "transform returned NaN or inf in 1 of", "transposed": "(transposed?)"}[how] in verdict.summary


def test_the_cli_fails_the_claim_and_names_the_defect(tmp_path):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    r = subprocess.run([sys.executable, "-m", "kpca_suite.suites.cli", "run", CLAIM, "--profile", "ci",
                        "--out", str(tmp_path / "r"), "--no-progress", "--estimator",
                        "bad=tests.external_estimators:spoilt_nan"], cwd=ROOT, env=env, capture_output=True,
                       text=True, timeout=900)
    assert r.returncode == 1, r.stderr
    line = next(x for x in r.stdout.splitlines() if x.startswith("FAILS"))
    assert f"{CLAIM}[bad]: DEFECTIVE ESTIMATOR OUTPUT in {first_look_cells(CLAIM)} cell(s)" in line and "NaN or inf" in line
    assert "Traceback" not in r.stderr


def test_a_cell_that_raises_gives_its_reason_and_assert_holds_refuses_it():
    from kpca_suite.suites import assert_holds
    verdicts = check(ext.raises_in_fit, claims=["sterge20.cor42-poly"], profile="ci")
    verdict = verdicts["sterge20.cor42-poly"]
    assert verdict.status == "fails" and verdict.summary.startswith("DEFECTIVE ESTIMATOR RAISED in 30 cell(s), first at ")
    assert "the estimator's fit raised RuntimeError: this estimator cannot fit" in verdict.summary
    assert "kpca_suite.suites.roles.Unsupported" in verdict.summary  # how to say n/a instead
    with pytest.raises(AssertionError, match="1 of 1 claim"):
        assert_holds(verdicts)
    with pytest.raises(AssertionError, match="no claim ran"):
        assert_holds({})


def test_check_never_passes_vacuously():
    from kpca_suite.suites import NothingChecked, assert_holds
    from kpca_suite.suites.roles import EstimatorError
    with pytest.raises(EstimatorError, match="it has the methods of no role"):
        check(ext.no_transform, profile="ci")
    with pytest.raises(NothingChecked, match="nothing was checked") as nothing:  # a class, not a factory
        check(ext.raises_in_fit.__globals__["_NoTransform"], profile="ci")
    assert all(why.startswith("not a ") for why in nothing.value.skipped.values())
    with pytest.raises(AssertionError, match="no claim ran"):
        assert_holds({})
    with pytest.raises(ValueError, match="declare no role"):
        check(ext.nystrom, claims=["sterge20.identities"], profile="ci")
    with pytest.raises(ValueError, match="no claim or paper named 'no.such-claim'"):
        check(ext.nystrom, claims=["no.such-claim"], profile="ci")


def test_a_collapsed_basis_fails_the_claim_naming_the_rank():
    """Outside code written as a library would: its k scores span one direction. The
    metric used to raise 'Singular matrix' in every cell (inconclusive: cells missing)."""
    verdict = check(ext.collapsed_streaming, claims=["ullah18.rate-oja"], profile="ci")["ullah18.rate-oja"]
    assert verdict.status == "fails", verdict.summary
    assert "functions span 1 < 3 dimensions" in verdict.summary and "collapsed basis" in verdict.summary


def test_a_refusal_or_defect_in_a_cell_without_n_names_its_seed_alone():
    """A claim whose cells sweep no n (n = 0) is not said to be refused "at n = 0"."""
    from kpca_suite.suites import registry
    from kpca_suite.suites.pipeline import judge_claim
    from kpca_suite.suites.runner import CellError
    claim = registry.get(CLAIM)
    refused = CellError(CLAIM, Cell.make(CLAIM, "m", 0, 2), "k > d", "")
    assert judge_claim(claim, [], None, "ci", refusals=[refused])[0].summary == "unsupported: k > d (refused at seed 2)"
    defect = CellError(CLAIM, Cell.make(CLAIM, "m", 400, 1), "EstimatorDefect: NaN", "")
    assert "first at n = 400, seed 1: NaN" in judge_claim(claim, [], None, "ci", defects=[defect])[0].summary


class _ScaledScores:
    """Random-features PCA whose features were left unnormalised: its scores are m/2 times
    too large in variance (sqrt(m/2) in norm), the bug a package's RF-PCA was found with."""

    def __init__(self, n_components, budget, kernel, random_state):
        from kpca_suite.methods import RFERM
        self.inner, self.scale = RFERM(n_components, budget, kernel, random_state=random_state), np.sqrt(budget / 2)

    def fit(self, X):
        self.inner.fit(X)
        return self

    def transform(self, X):
        return self.inner.transform(X) * self.scale


def scaled_scores_rf_pca(n_components, budget, kernel, random_state):
    return _ScaledScores(n_components, budget, kernel, random_state)


def test_scores_that_are_no_coordinates_in_an_orthonormal_basis_fail_a_projection_claim():
    """ullah18.rate-erm-centred reads only the span of the scores, so a scale held it; the role
    boundary now bounds each score's norm by what an orthonormal basis allows."""
    verdict = check(scaled_scores_rf_pca, claims=["ullah18.rate-erm-centred"], profile="ci")["ullah18.rate-erm-centred"]
    assert verdict.status == "fails"
    assert "times what coordinates in an orthonormal basis allow" in verdict.summary
    assert check("ours-rf-erm", claims=["ullah18.rate-erm"], profile="ci")["ullah18.rate-erm"].status == "holds"
