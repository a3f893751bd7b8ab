"""The claims as pytest cases, for a library's own test suite (as scikit-learn's
``parametrize_with_checks``)::

    from kpca_suite.testing import parametrize_with_claims

    @parametrize_with_claims([make], claims="sterge20",
                             expected_failures={"sterge20.insample-nystrom-centred": "we pseudo-centre"})
    def test_kpca_claims(factory, claim):
        claim(factory)

One test per (factory, claim) that applies to the factory's role, with the id
``<factory>-<claim id>``. ``claim(factory)`` runs the claim with the factory in place of
the claim's own estimator (:func:`kpca_suite.suites.check`) and

- returns the verdict when it ``holds``;
- raises :class:`ClaimDidNotHold` (an AssertionError), with the verdict's summary as its
  message, when it ``fails`` or is ``inconclusive``;
- skips the test, with the reason, when the claim is ``n/a`` for the factory (another
  kind, kernel, estimand, an exact method above the cap, or a setting the implementation
  refused by raising :class:`~kpca_suite.suites.roles.Unsupported`).

Claims of another role than the factory's are not collected. A factory to which no
claim applies is an error at collection (:class:`~kpca_suite.suites.conformance.NothingChecked`):
nothing would be checked, and a green run would say nothing.

``expected_failures`` maps a claim id to the reason it is expected not to hold, or is a
callable that takes the factory and returns such a map, or the path of a TOML file whose
table named after the factory holds it (``[make]`` then ``"claim.id" = "reason"``: the file
of ``kpca-suite run --expect FILE``, :mod:`kpca_suite.suites.expectations`). Each
expected failure is a strict xfail: the test fails when the claim starts to hold, so the
expectation is removed when the bug is fixed. A claim id that is not registered is a
ValueError naming it.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Callable, Mapping, Optional, Union

import pytest

from .suites import registry
from .suites.arguments import names, positive_int
from .suites.arguments import profile as check_profile
from .suites.conformance import NothingChecked, applicability, check, check_up_front, resolve, user_estimator
from .suites.expectations import Expectations
from .suites.roles import FactoryRaised, NotOfRole, Unsupported

__all__ = ["parametrize_with_claims", "ClaimDidNotHold", "ClaimCase", "expectations_from_toml"]


class ClaimDidNotHold(AssertionError):
    """A claim that was run with a factory and did not hold: the message is its verdict's
    status and summary; ``verdict`` is the verdict."""

    def __init__(self, claim_id: str, verdict):
        super().__init__(f"{claim_id}: {verdict.status.upper()}: {verdict.summary}")
        self.verdict = verdict


@dataclass(frozen=True)
class ClaimCase:
    """One claim as a test case: ``case(factory)`` runs it (see the module docstring)."""

    id: str
    profile: str = "ci"
    exact_max_n: Optional[int] = None

    def __call__(self, factory, name: Optional[str] = None):
        try:
            verdicts = check(factory, claims=[self.id], profile=self.profile, name=name,
                             exact_max_n=self.exact_max_n)
        except NothingChecked as e:   # refused while it ran
            pytest.skip(f"{self.id}: n/a: {e.skipped[self.id]}")
        if self.id in verdicts.skipped:
            pytest.skip(f"{self.id}: n/a: {verdicts.skipped[self.id]}")
        verdict = verdicts[self.id]
        if verdict.status != "holds":
            raise ClaimDidNotHold(self.id, verdict)
        return verdict

    def __repr__(self):
        return self.id


def expectations_from_toml(path: Union[str, os.PathLike], name: str) -> dict:
    """The expected failures of implementation ``name`` in the TOML file ``path``: its
    table ``[name]``, ``{claim id: reason}`` (an empty map when it has no such table). The
    file is read as ``kpca-suite run --expect`` reads it
    (:meth:`kpca_suite.suites.expectations.Expectations.read`): ValueError naming it for a
    file that cannot be read, is not TOML, or holds a reason that is not a string."""
    return dict(Expectations.read(path, "expected_failures").tables.get(name, {}))


def _expected(expected_failures, factory, name: str) -> dict:
    if expected_failures is None:
        return {}
    if isinstance(expected_failures, (str, os.PathLike)):
        found = expectations_from_toml(expected_failures, name)
    elif callable(expected_failures):
        found = expected_failures(factory)
    else:
        found = expected_failures
    if not isinstance(found, Mapping):
        raise ValueError(f"expected_failures for {name!r} must be a map of claim id to reason, "
                         f"got {type(found).__name__}")
    known = registry.load_all()
    unknown = sorted(k for k in found if k not in known)
    if unknown:
        raise ValueError(f"expected_failures for {name!r}: no claim named {', '.join(map(repr, unknown))} "
                         "(`kpca-suite list` names them)")
    for cid, reason in found.items():
        if not isinstance(reason, str) or not reason.strip():
            raise ValueError(f"expected_failures for {name!r}: the reason for {cid!r} must be a non-empty string")
    return dict(found)


def _of_role(est, claim) -> bool:
    """Whether ``est`` is of ``claim``'s role: by its declared roles, its signature and the
    methods of what it builds (a refusal or a crash is of the role: the case runs)."""
    try:
        check_up_front(est, claim)
    except NotOfRole:
        return False
    except (Unsupported, FactoryRaised):
        pass
    return True


def _cases(factory, claims, profile: str, expected: dict, exact_max_n) -> list:
    """The cases of one factory: one per claim of its role, an n/a one marked skip, an
    expected failure marked strict xfail; NothingChecked when none would check anything."""
    est = resolve(factory) if isinstance(factory, str) else \
        user_estimator(getattr(factory, "__name__", "estimator"), factory)
    chosen = [c for c in registry.select(claims) if c.subject is not None]
    params, skipped = [], {}
    for claim in chosen:
        if not _of_role(est, claim):
            skipped[claim.id] = "another role"
            continue
        try:
            why = applicability(claim, est, profile, exact_max_n)
        except FactoryRaised:
            why = None   # the case runs and fails, naming the crash
        marks = []
        if why is not None:
            skipped[claim.id] = why
            marks.append(pytest.mark.skip(reason=f"n/a: {why}"))
        elif claim.id in expected:
            marks.append(pytest.mark.xfail(reason=expected[claim.id], raises=ClaimDidNotHold, strict=True))
        params.append(pytest.param(factory, ClaimCase(claim.id, profile, exact_max_n), id=f"{est.name}-{claim.id}",
                                   marks=marks))
    if len(skipped) == len(chosen) and not any(why.startswith("unsupported: ") for why in skipped.values()):
        raise NothingChecked(est.name, skipped)
    return params


def parametrize_with_claims(factories, claims=None, profile: str = "ci", *,
                            expected_failures: Union[None, Mapping, Callable, str, os.PathLike] = None,
                            exact_max_n: Optional[int] = None):
    """A pytest decorator: the decorated test takes ``(factory, claim)`` and calls
    ``claim(factory)``, once per factory and claim of its role (module docstring).

    Parameters
    ----------
    factories : a factory, a built-in adapter's name, or a list of them
        Role factories ``make(n_components, budget, kernel, random_state)`` (see
        :mod:`kpca_suite.suites.roles`), named in the test ids by ``__name__``.
    claims : claim id, paper name, or a list of them, optional
        Default: every claim with a role.
    profile : "ci" (default), "quick" or "full"
    expected_failures : map, callable or TOML path, optional
        ``{claim id: reason}``, ``factory -> {claim id: reason}``, or a TOML file with a
        table per factory name: strict xfails.
    exact_max_n : int, optional
        As :func:`kpca_suite.suites.check`'s.
    """
    check_profile("profile", profile)
    positive_int("exact_max_n", exact_max_n)
    claims = names("claims", claims)
    try:
        registry.select(list(claims) if claims else None)
    except KeyError as e:
        raise ValueError(e.args[0]) from None
    if callable(factories) or isinstance(factories, str):
        factories = [factories]
    params = []
    for factory in factories:
        name = factory if isinstance(factory, str) else getattr(factory, "__name__", "estimator")
        expected = _expected(expected_failures, factory, name)
        params.extend(_cases(factory, list(claims) if claims else None, profile, expected, exact_max_n))
    return pytest.mark.parametrize(("factory", "claim"), params)
