"""A user's factory says what kind of implementation it is (suites.roles.implementation);
claims about another kind or estimand are n/a with the reason, exactly as for the
built-in adapters; and a changed implementation under the same name is never judged on
the cells of the old code."""

from __future__ import annotations

import importlib
import sys

import pytest

from kpca_suite.suites import NothingChecked, check, registry
from kpca_suite.suites.conformance import (Entry, default_exact_max_n, not_applicable, plan, resolve, user_estimator,
                                           variant)
from kpca_suite.suites.pipeline import evaluate
from kpca_suite.suites.roles import EstimatorError, implementation
from kpca_suite.suites.store import ResultStore


@implementation(kind="exact", centred=False, budgeted=False)
def exact_kpca(n_components, budget, kernel, random_state):
    from kpca_suite.methods import ExactKPCA
    return ExactKPCA(n_components, kernel)


def test_a_declared_exact_solver_is_na_on_the_random_feature_claims():
    with pytest.raises(NothingChecked, match="nothing was checked") as raised:
        check(exact_kpca, claims=["ghashami16.rff-rate", "ullah18.rate-erm"], profile="ci")
    assert raised.value.skipped == {"ghashami16.rff-rate": "a claim about random-features, not exact",
                                    "ullah18.rate-erm": "a claim about random-features, not exact"}


def test_the_matrix_gives_a_users_factory_the_reasons_a_built_in_gets():
    claims = [registry.get(c) for c in ("ghashami16.rff-rate", "sterge20.thm41-bound", "ullah18.rate-erm")]
    est = user_estimator("mine", exact_kpca)
    assert (est.kind, est.centred, est.budgeted) == ("exact", False, False)
    runs, skipped = plan(claims, [est], "ci", exact_max_n=5000)
    assert [c.id for c in runs] == [c.id for c in claims]  # only the claims' own estimators run
    assert skipped["ghashami16.rff-rate", "mine"] == Entry("n/a", "a claim about random-features, not exact")
    largest = max(c.n for c in registry.get("sterge20.thm41-bound").cells("ci"))
    assert skipped["sterge20.thm41-bound", "mine"].text == (
        f"exact: n up to {largest}, above the cap n = 5000 (--exact-max-n, check(exact_max_n=))")


def test_at_ci_and_quick_the_exact_cap_follows_the_time_a_dense_cell_takes_here(monkeypatch):
    """An exact implementation ran sterge20.cor43-gaussian-centred at n = 7482 under ci ("at
    least 36 min"): at ci and quick the cap is the n whose eigendecomposition takes 2 s and 20 s
    here (an eigh of 800 x 800 in 80 ms: n = 800 (2 / 0.08)^(1/3) = 2339 and 5039), at full the
    memory's."""
    from kpca_suite.suites import conformance
    monkeypatch.setattr(conformance, "_DENSE_SECONDS", [0.08])
    assert conformance.exact_cap("ci") == (2339, "a dense eigendecomposition of at most 2 s a cell here at ci")
    assert conformance.exact_cap("quick")[0] == 5039
    assert conformance.exact_cap("full") == (default_exact_max_n(), "five n x n float64 matrices in half the memory")
    claim = registry.get("sterge20.cor43-gaussian")
    largest = max(c.n for c in claim.cells("ci"))
    assert largest > 2339 and not_applicable(claim, user_estimator("mine", exact_kpca), "ci") == (
        f"exact: n up to {largest}, above the cap n = 2339: a dense eigendecomposition of at most 2 s a cell here at "
        "ci (--exact-max-n, check(exact_max_n=))")


def test_the_exact_cap_follows_the_machine_and_binds_only_what_is_declared_exact():
    """n = sqrt(memory / (2 * 8 * 5)): 24 GiB give 17,947; budgeted=False alone is not "exact"."""
    assert default_exact_max_n(24 * 2**30) == 17947 and default_exact_max_n(0) == 5000
    claim = registry.get("sterge20.thm41-bound")
    largest = max(c.n for c in claim.cells("ci"))
    assert not_applicable(claim, user_estimator("mine", exact_kpca), "ci", exact_max_n=largest) is None
    assert not_applicable(claim, user_estimator("mine", exact_kpca), "ci", exact_max_n=largest - 1) is not None
    assert not_applicable(claim, user_estimator("mine", own_size_nystrom), "ci", exact_max_n=10) is None


@implementation(kind="nystrom", centred=False, budgeted=False)
def own_size_nystrom(n_components, budget, kernel, random_state):
    """A Nyström that picks its own number of landmarks: it ignores the budget, and is no exact method."""
    from kpca_suite.methods import NystromKPCA
    return NystromKPCA(n_components, kernel, landmarks=50, random_state=random_state)


def test_a_declaration_is_checked():
    for bad, attr in (({"kind": "magic"}, "kind"), ({"centred": "yes"}, "centred"), ({"budgeted": None}, "budgeted")):
        with pytest.raises(EstimatorError, match=f"implementation\\(\\): {attr} must be"):
            implementation(**bad)


def test_resolving_a_factory_by_import_path_reads_its_declaration():
    est = resolve("mine=tests.test_kinds:exact_kpca")
    assert est.kind == "exact" and est.source == "tests.test_kinds:exact_kpca" and len(est.fingerprint) == 12


def test_a_changed_factory_under_the_same_name_recomputes(tmp_path, monkeypatch):
    """Same name, same store: the cells of the old code are kept apart and the new
    code's cells run; the unchanged code resumes."""
    monkeypatch.syspath_prepend(str(tmp_path))
    source = "from tests.external_estimators import {}\n\ndef make(**settings):\n    return {}(**settings)\n"
    (tmp_path / "mine_v.py").write_text(source.format("nystrom", "nystrom"))
    claim = registry.get("sterge20.cor42-poly")
    keep = (lambda c: c.seed < 2 and c.n <= 256)

    def run():
        module = importlib.reload(sys.modules["mine_v"]) if "mine_v" in sys.modules else importlib.import_module("mine_v")
        est = user_estimator("mine", module.make)
        with ResultStore(tmp_path / "r.sqlite") as store:
            ev = evaluate([variant(claim, est)], "ci", store, jobs=1, keep=keep)
        return est.fingerprint, ev

    fp1, first = run()
    assert first.executed > 0 and first.skipped == 0
    fp_same, again = run()
    assert fp_same == fp1 and again.executed == 0 and again.skipped == first.executed
    (tmp_path / "mine_v.py").write_text(source.format("five_landmarks", "five_landmarks"))
    fp2, changed = run()
    assert fp2 != fp1 and changed.executed == first.executed and changed.skipped == 0
    with ResultStore(tmp_path / "r.sqlite") as store:
        codes = sorted(r.cell.p["implementation"] for r in store.results("sterge20.cor42-poly[mine]"))
    assert codes == sorted([fp1] * first.executed + [fp2] * first.executed)  # nothing deleted


@pytest.mark.parametrize("value", [float("nan"), float("inf"), 0, -3, True, 2.5, "5000", [5000]])
def test_check_refuses_an_exact_cap_or_jobs_that_is_not_a_positive_integer(value):
    """A NaN cap was no cap: the exact method ran at every n. The Python API refuses what the
    CLI's --exact-max-n and --jobs refuse, naming the argument."""
    with pytest.raises(ValueError, match=r"^exact_max_n must be a positive integer, got "):
        check(exact_kpca, claims=["sterge20.cor42-poly"], exact_max_n=value)
    with pytest.raises(ValueError, match=r"^jobs must be a positive integer, got "):
        check(exact_kpca, claims=["sterge20.cor42-poly"], jobs=value)
