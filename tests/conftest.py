"""Shared fixtures. ``toy_registry`` swaps the claim registry for the toy claims
of :mod:`tests.toy_claim` (no paper module is imported) and restores it after."""

from __future__ import annotations

import pytest

from suites import registry
from tests import toy_claim


@pytest.fixture
def toy_registry(monkeypatch):
    reg = {c.id: c for c in toy_claim.ALL}
    monkeypatch.setattr(registry, "REGISTRY", reg)
    monkeypatch.setattr(registry, "PAPER_MODULES", ())
    return reg
