"""The mutation campaign (``python -m tests.mutations.run``) stays runnable: each planted bug's
snippet still occurs exactly once in its file and its claims are registered, so a refactor
that moves the code fails here instead of silently dropping a mutant from the campaign."""

from __future__ import annotations

from kpca_suite.suites import registry
from tests.mutations.mutants import MUTANTS, check_snippets


def test_every_mutant_applies_to_the_current_code():
    check_snippets()


def test_every_mutant_names_registered_claims():
    known = {c.id for c in registry.select(None)}
    missing = {m.name: [c for c in m.claims if c not in known] for m in MUTANTS}
    assert not {k: v for k, v in missing.items() if v}
