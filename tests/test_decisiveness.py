"""A cheap sample of the decisiveness check (``python -m tests.decisiveness``, run over root
seeds 0-9 before a release): claims whose verdict once changed with the draw, each under a
root seed outside 0-9 (independent samples, landmarks and features), must decide as they do
under their own draw."""

from __future__ import annotations

import pytest

from kpca_suite.suites import registry
from tests.decisiveness import under_root, verdict

#: (claim, root): each claim was inconclusive or failed under some root seed before it got the
#: seeds or the check it needed; these roots were not used to choose them.
SAMPLE = (("hallgren21.cor61", 11), ("ullah18.fixed-m-plateau", 12), ("ghashami16.rff-rate", 13),
          ("bach13.fig1", 14), ("ullah18.objective-vs-subspace", 15))


@pytest.mark.parametrize("claim_id,root", SAMPLE, ids=[f"{c}~root{r}" for c, r in SAMPLE])
def test_decides_alike_under_another_root(claim_id, root):
    status, summary = verdict(registry.get(claim_id), root)
    assert status == "holds", summary


def test_a_root_draws_afresh_and_keeps_the_experiment():
    claim = registry.get("hallgren21.cor61")
    other = under_root(claim, 3)
    assert other.id == "hallgren21.cor61~root3" and other.faults == ()
    assert (other.grid, other.judge, other.experiment) == (claim.grid, claim.judge, claim.experiment)
    assert under_root(claim, 0) is claim
