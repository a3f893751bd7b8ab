"""The inventory of each seed paper's statements: every claim checks a listed statement,
every statement is checked, out of reach with its reason, or a counted gap, and
`kpca-suite list --coverage` prints it."""

from __future__ import annotations

import subprocess
import sys

import pytest

from kpca_suite.suites import registry
from kpca_suite.suites.coverage import Stated, counts, problems

#: The five seed papers; the landmark study and the self-checks state nothing of a paper's.
SEEDS = ("sterge20", "ghashami16", "ullah18", "hallgren21", "bach13")


@pytest.mark.parametrize("key", SEEDS)
def test_the_inventory_and_the_claims_name_each_other(key):
    registry.load_all()
    inventory = registry.INVENTORIES[key]
    assert inventory, f"{key} declares no RESULTS"
    assert problems(inventory, [c.id for c in registry.select([key])]) == []


def test_a_statement_is_in_exactly_one_state():
    assert Stated("Thm. 1", "theorem", "x", claims=("a.b",), how="rate: slope -1").state == "checked"
    assert Stated("Lem. 2", "lemma", "x", reason="proof step: used in Thm. 1").state == "out of reach"
    assert Stated("Fig. 3", "figure", "x", gap="the held-out error vs lambda").state == "not yet checked"
    for bad in (dict(), dict(claims=("a.b",), how="rate", reason="vacuous: n > 1e9"),
                dict(claims=("a.b",), how="looks fine"), dict(reason="too hard")):
        with pytest.raises(ValueError, match="Thm. 9"):
            Stated("Thm. 9", "theorem", "x", **bad)


def test_problems_name_an_unknown_claim_an_unlisted_claim_and_a_label_given_twice():
    inventory = (Stated("Thm. 1", "theorem", "x", claims=("p.a", "p.zz"), how="bound: every cell"),
                 Stated("Thm. 1", "theorem", "y", reason="vacuous: below n = 1e12"))
    assert problems(inventory, ["p.a", "p.b"]) == ["Thm. 1: names unknown claim 'p.zz'",
                                                  "claim 'p.b' checks no statement of the inventory",
                                                  "Thm. 1: listed twice"]


def test_list_coverage_prints_each_inventory_and_the_total():
    out = subprocess.run([sys.executable, "-m", "kpca_suite.suites.cli", "list", "--coverage"],
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    registry.load_all()
    total = {k: sum(counts(registry.INVENTORIES[p])[k] for p in SEEDS)
             for k in ("results", "checked", "out of reach", "not yet checked")}
    for key in SEEDS:
        c = counts(registry.INVENTORIES[key])
        assert (f"{key}: {c['results']} results, {c['checked']} checked, {c['out of reach']} out of reach, "
                f"{c['not yet checked']} not yet checked") in out.stdout
    assert (f"total: {total['results']} results, {total['checked']} checked, {total['out of reach']} out of "
            f"reach, {total['not yet checked']} not yet checked") in out.stdout
    one = subprocess.run([sys.executable, "-m", "kpca_suite.suites.cli", "list", "--coverage", "bach13"],
                         capture_output=True, text=True, timeout=300)
    assert one.returncode == 0 and "bach13:" in one.stdout and "sterge20:" not in one.stdout
