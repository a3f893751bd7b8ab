"""Declared metrics: a claim names what its experiment returns; a judging recipe that
reads an undeclared name is refused when the claim is declared, and a cell returning
an undeclared name stops the sweep at the first cell. Curves are stored as arrays."""

from __future__ import annotations

import dataclasses
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

from kpca_suite.suites.claim import Cell, Result
from kpca_suite.suites.judging import AllOf, MeanAtMost, SlopeInBand, Where
from kpca_suite.suites.pipeline import evaluate
from kpca_suite.suites.runner import UndeclaredMetric, validate_metrics
from kpca_suite.suites.store import ResultStore
from tests import toy_claim as toy

CALLS = []


def misspelt_experiment(cell, estimators):
    """Returns 'er' where the claim declares and judges 'err'."""
    CALLS.append(cell)
    return {"er": estimators[cell.method](cell)}


def curve_experiment(cell, estimators):
    return {"err": estimators[cell.method](cell), "curve": np.arange(4.0) / cell.n}


def test_a_judge_reading_a_misspelt_metric_is_refused_at_declaration():
    with pytest.raises(ValueError, match=r"toy.rate.*reads metric\(s\) \['er'\]"):
        dataclasses.replace(toy.TOY_RATE, metrics=("err", "aux"), judge=SlopeInBand("er", (-1, 0), label="x"))
    nested = AllOf(MeanAtMost("err", 1.0, "err"), Where("m", 16, SlopeInBand("eror", (-1, 0), label="x")))
    with pytest.raises(ValueError, match="eror"):
        dataclasses.replace(toy.TOY_RATE, metrics=("err", "aux"), judge=nested)
    assert dataclasses.replace(toy.TOY_RATE, metrics=("err", "aux")).metrics == ("err", "aux")


@pytest.mark.parametrize("executor", [None, "threads"])
def test_an_experiment_returning_an_undeclared_metric_stops_at_the_first_cell(tmp_path, executor):
    claim = dataclasses.replace(toy.TOY_RATE, metrics=("err",), experiment=misspelt_experiment)
    CALLS.clear()
    with ResultStore(tmp_path / "r.sqlite") as store, \
            pytest.raises(UndeclaredMetric, match="returned metric\\(s\\) er that"):
        if executor is None:
            evaluate([claim], "ci", store, jobs=1)
        else:
            with ThreadPoolExecutor(1) as pool:
                evaluate([claim], "ci", store, pool)
    with ResultStore(tmp_path / "r.sqlite") as store:
        assert store.done_keys() == set()  # nothing judged or stored from a wrong declaration
    if executor is None:
        assert len(CALLS) == 1, "the serial sweep must stop at the first cell"


def test_an_undeclared_claim_is_not_checked():
    claim = dataclasses.replace(toy.TOY_RATE, experiment=misspelt_experiment, judge=MeanAtMost("er", 1.0, "er"))
    assert claim.metrics is None
    assert evaluate([claim], "ci", jobs=1).verdicts[claim.id].status == "holds"


def test_curves_are_validated_and_stored_as_arrays(tmp_path):
    out = validate_metrics({"a": 1, "c": [0.5, np.nan], "d": np.arange(3)}, "toy.x")
    assert isinstance(out["c"], np.ndarray) and out["c"].dtype == np.float64 and np.isnan(out["c"][1])
    for bad in ({"c": [[1.0]]}, {"c": [1.0, np.inf]}, {"c": ["a"]}, {"c": np.array([1 + 1j])}):
        with pytest.raises(ValueError, match="toy.x"):
            validate_metrics(bad, "toy.x")
    cell = Cell.make("toy.rate", "toy", 64, 0)
    with ResultStore(tmp_path / "r.sqlite") as store:
        store.add(Result(cell, {"err": 0.25, "curve": np.array([1.0, np.nan, 3.0])}))
    with ResultStore(tmp_path / "r.sqlite") as store:
        (r,) = store.results("toy.rate")
    assert r.metrics["err"] == 0.25
    np.testing.assert_array_equal(r.metrics["curve"], [1.0, np.nan, 3.0])


def test_a_claim_with_a_curve_runs_end_to_end():
    claim = dataclasses.replace(toy.TOY_RATE, metrics=("err", "curve"), experiment=curve_experiment)
    ev = evaluate([claim], "ci", jobs=1)
    assert ev.verdicts[claim.id].status == "holds"
    assert all(isinstance(r.metrics["curve"], np.ndarray) for r in ev.results[claim.id])


def test_every_claim_of_ours_declares_its_metrics():
    from kpca_suite.suites import registry
    undeclared = [c.id for c in registry.own_claims() if not c.metrics]
    assert not undeclared, f"claims that do not declare their metrics: {undeclared}"
