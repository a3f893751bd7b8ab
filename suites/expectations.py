"""Expected failures: the claims an implementation is known not to hold, each with its
reason, kept in a TOML file with one table per implementation::

    [mine]
    "sterge20.insample-nystrom-centred" = "we pseudo-centre (issue 12)"

The one format of ``kpca-suite run --expect FILE``, ``kpca-suite conformance --expect FILE``
and ``parametrize_with_claims(expected_failures=FILE)``, read by :meth:`Expectations.read`.
An expectation is a strict xfail: a listed claim that fails or is inconclusive is expected
(marked ``XFAIL``), one that holds is an unexpected pass (the run fails until it is
removed), one that is ``n/a`` for the implementation, or not run for it, is an error (it
could never be checked). Expectations change how a run is judged, never its verdicts.
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, field
from typing import Optional

#: The implementation name of a claim's own estimators (``--estimator declared``, the
#: conformance matrix's first column), whose runs carry the plain claim id.
DECLARED = "declared"


def run_key(run_id: str) -> tuple:
    """(claim id, implementation name) of a run's id: ``CLAIM[NAME]`` or ``CLAIM`` (its own
    estimators, :data:`DECLARED`)."""
    claim, _, name = run_id.partition("[")
    return claim, name[:-1] or DECLARED


@dataclass
class Judgement:
    """A run judged against the expectations: ``expected`` ``{(claim, name): reason}`` listed
    and failing or inconclusive; ``passes`` ``{(claim, name): reason}`` listed and holding;
    ``failures`` the (claim, name) that fail unlisted; ``errors`` one line per listed claim
    that is ``n/a`` or not run. ``status`` is the exit status: 2 for an error, 1 for an
    unexpected pass or failure, else 0 (inconclusive unlisted is 0, as ``run``'s rule)."""

    path: str
    expected: dict = field(default_factory=dict)
    passes: dict = field(default_factory=dict)
    failures: list = field(default_factory=list)
    errors: list = field(default_factory=list)

    @property
    def status(self) -> int:
        return 2 if self.errors else 1 if self.passes or self.failures else 0

    def note(self, key) -> Optional[str]:
        """What a verdict line of ``key`` (claim, name) adds: ``XFAIL, expected: <reason>`` or
        ``XPASS``, or None."""
        if key in self.expected:
            return f"XFAIL, expected: {self.expected[key]}"
        if key in self.passes:
            return f"XPASS, expected to fail: {self.passes[key]}"
        return None

    def messages(self) -> list:
        """One line per unexpected pass and per error, naming the file, the table and the key."""
        return [f"--expect {self.path}: [{name}] \"{claim}\" was expected to fail ({reason}) but holds: "
                f"remove it from {self.path}" for (claim, name), reason in self.passes.items()] + self.errors


@dataclass(frozen=True)
class Expectations:
    """The expected failures of one file: ``tables`` ``{implementation name: {claim id:
    reason}}``; ``path`` the file (empty: none given, nothing expected)."""

    path: str = ""
    tables: dict = field(default_factory=dict)

    @classmethod
    def read(cls, path, option: str = "--expect") -> "Expectations":
        """The file ``path``: ValueError naming ``option`` and the path for a file that is
        missing, a directory, unreadable or not TOML (with the TOML error's line and column),
        a key that is not a table of implementation, or a value that is not a reason (a
        non-empty string)."""
        where = f"{option} {os.fspath(path)}"
        try:
            with open(path, "rb") as f:
                doc = tomllib.load(f)
        except FileNotFoundError:
            raise ValueError(f"{where}: no such file") from None
        except IsADirectoryError:
            raise ValueError(f"{where}: a directory, not a TOML file") from None
        except OSError as e:
            raise ValueError(f"{where}: cannot read it: {e.strerror or e}") from None
        except tomllib.TOMLDecodeError as e:
            raise ValueError(f"{where}: not TOML: {e}") from None
        for name, table in doc.items():
            if not isinstance(table, dict):
                raise ValueError(f"{where}: \"{name}\" is not a table: give [IMPLEMENTATION] then "
                                 "\"claim.id\" = \"reason\" lines")
            for claim, reason in table.items():
                if isinstance(reason, dict):  # an unquoted dotted key: sterge20.cor42 = "..."
                    raise ValueError(f"{where}: [{name}] {claim}.{next(iter(reason), '')}: quote the claim id "
                                     f"(\"{claim}.{next(iter(reason), '')}\" = \"reason\")")
                if not isinstance(reason, str) or not reason.strip():
                    raise ValueError(f"{where}: [{name}] \"{claim}\": the reason must be a non-empty string, "
                                     f"got {reason!r}")
        return cls(os.fspath(path), doc)

    @classmethod
    def before_run(cls, path, implementations, known, selected, planned: dict) -> "Expectations":
        """The file ``path`` of ``--expect``, read (:meth:`read`) and checked (:meth:`check`)
        before any cell runs: also ValueError for a listed claim of ``selected`` that is n/a
        for its implementation already, in ``planned`` ``{run id: (status, why)}`` (the runs
        to come, with any status but a verdict's, and those n/a or failed before)."""
        expect = cls.read(path)
        expect.check(implementations, known)
        errors = expect.judge(selected, {run_key(r): o for r, o in planned.items()}).errors
        if errors:
            raise ValueError(f"{'; '.join(errors)}; no cell was run")
        return expect

    def check(self, implementations, known) -> None:
        """ValueError naming the file, the table and the key for a table named after none of
        ``implementations`` (the names of the run) or a claim id not in ``known``."""
        for name, table in self.tables.items():
            if name not in implementations:
                raise ValueError(f"--expect {self.path}: [{name}] names no implementation of this run (its "
                                 f"implementations: {', '.join(implementations)})")
            unknown = [c for c in table if c not in known]
            if unknown:
                raise ValueError(f"--expect {self.path}: [{name}] \"{unknown[0]}\": no claim of that id is "
                                 "registered (`kpca-suite list` names them)")

    def judge(self, selected, outcomes: dict) -> Judgement:
        """The run judged: ``outcomes`` ``{(claim id, name): (status, why)}`` of every claim
        and implementation the run judged (or, before it runs, planned: any status but a
        verdict's); ``selected`` the claim ids the run was asked for (a listed claim outside
        them is not judged)."""
        out = Judgement(self.path)
        for key, (status, _) in outcomes.items():
            reason = self.tables.get(key[1], {}).get(key[0])
            if reason is None:
                if status == "fails":
                    out.failures.append(key)
            elif status == "holds":
                out.passes[key] = reason
            elif status in ("fails", "inconclusive"):
                out.expected[key] = reason
        for name, table in self.tables.items():
            for claim in table:
                status, why = outcomes.get((claim, name), ("n/a", "not run for it: the claim declares no role or "
                                                                  "another"))
                if claim in selected and status == "n/a":
                    out.errors.append(f"--expect {self.path}: [{name}] \"{claim}\": the claim is n/a for {name} "
                                      f"({' '.join(str(why).split())}), so it cannot be expected to fail: "
                                      f"remove it from {self.path}")
        return out


def judge_matrix(expect: Expectations, selected, columns, rows) -> Judgement:
    """The conformance matrix (``columns``, ``rows`` of :func:`suites.conformance.matrix`)
    judged by :meth:`Expectations.judge`; the cell of a listed claim starts with its note."""
    judged = expect.judge(selected, {(claim.id, col): (e.status, e.text) for claim, entries in rows
                                     for col, e in zip(columns, entries) if e.status})
    for claim, entries in rows:
        for col, e in zip(columns, entries):
            note = judged.note((claim.id, col))
            if note:
                e.text = f"{note} · {e.text}" if e.text else note
    return judged
