"""Check any implementation against the claims: resolve an estimator given on the
command line or in Python, check it up front, run the claims that declare a role
(:class:`suites.roles.Subject`) with it, and write the conformance matrix.

``resolve("NAME")``                 a built-in adapter (``kpca-suite estimators``);
``resolve("NAME=MODULE:FACTORY")``  a user's factory, imported by name;
``check(factory, claims, profile)`` the verdicts, for a library's own tests;
``conformance(...)``                every applicable claim x every adapter.

A claim says ``n/a``, with the reason, for an implementation it says nothing about
(:func:`not_applicable`): another kind of approximation than the claim is about,
a kernel it cannot express, another estimand (an implementation that centres in
feature space, such as scikit-learn's PCA, KernelPCA and IncrementalPCA or
nystrompca, against an uncentred claim), or an exact method at an n too large. A
user's factory declares the same through :func:`suites.roles.implementation`.
"""

from __future__ import annotations

import html
import importlib
import math
import os
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Optional

from .adapters import ADAPTERS
from .arguments import names, positive_int, results_store, text
from .arguments import profile as check_profile
from .claim import Verdict
from .files import write_text
from .report import STATUS_MARK, _md
from .fingerprint import identity, import_path
from .roles import (NO_KERNEL, Estimator, EstimatorError, FactoryRaised, NoRole, NotOfRole, Unsupported,
                    check_conforms, declaration, factory_role_mismatch)

SPEC = re.compile(r"^(?P<name>[A-Za-z0-9_.-]+)(=(?P<module>[A-Za-z_][\w.]*):(?P<attr>[A-Za-z_][\w.]*))?$")


def resolve(spec: str) -> Estimator:
    """``NAME`` (a built-in adapter) or ``NAME=MODULE:FACTORY``; EstimatorError with
    one line when the adapter is unknown or the factory cannot be imported. MODULE
    is imported as ``python -m`` would, from the current directory too."""
    m = SPEC.match(spec or "")
    if not m:
        raise EstimatorError(f"--estimator {spec!r}: expected NAME (a built-in, see `kpca-suite estimators`) "
                             "or NAME=MODULE:FACTORY")
    name = m["name"]
    if m["module"] is None:
        if name not in ADAPTERS:
            raise EstimatorError(f"--estimator {name!r}: no built-in estimator of that name; "
                                 f"`kpca-suite estimators` lists them, or give NAME=MODULE:FACTORY")
        adapter = ADAPTERS[name]
        if not adapter.available():
            raise EstimatorError(f"--estimator {name!r} needs the optional package {adapter.requires!r} "
                                 f"(pip install {adapter.requires})")
        return adapter.estimator()
    if "" not in sys.path and os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())
    try:
        obj = importlib.import_module(m["module"])
        for part in m["attr"].split("."):
            obj = getattr(obj, part)
    except Exception as e:  # noqa: BLE001 - any import failure is the user's to fix: one line
        raise EstimatorError(f"--estimator {name!r}: cannot import {m['module']}:{m['attr']} "
                             f"({type(e).__name__}: {e})") from None
    if not callable(obj):
        raise EstimatorError(f"--estimator {name!r}: {m['module']}:{m['attr']} is not callable")
    return user_estimator(name, obj, f"{m['module']}:{m['attr']}")


def user_estimator(name: str, factory: Callable, source: str = "") -> Estimator:
    """A user's factory as a resolved implementation: what it declares
    (:func:`suites.roles.implementation`) and the identity of its code
    (:func:`suites.fingerprint.identity`)."""
    declared = declaration(factory, f"estimator {name!r}")
    code = identity(factory)
    return Estimator(name, factory, declared["centred"], declared["kind"], declared["budgeted"], None,
                     code.fingerprint, source or import_path(factory), declared["roles"], hashed=code.hashed)


def probe_kernel(name: str):
    """A kernel of the subject's kind for the up-front check: ``Kernel(name, gamma=1)``,
    for "periodic" the B_2 kernel ``PeriodicKernel("poly", 1)`` (Bach 2013), None for
    ``"none"`` (a matrix sketch takes no kernel)."""
    from kpca_suite.kernels import Kernel, PeriodicKernel
    if name == NO_KERNEL:
        return None
    if name == PeriodicKernel.name:
        return PeriodicKernel("poly", 1)
    return Kernel(name, gamma=1.0)


def check_up_front(estimator: Estimator, claim) -> None:
    """Build the estimator once with the claim's probe settings and check the role's
    methods. A factory of another role (its declared ``roles``, its signature, or the
    methods of what it builds) raises :class:`~suites.roles.NotOfRole`; a refusal
    (:class:`~suites.roles.Unsupported`) passes through; a factory that raises otherwise
    raises :class:`~suites.roles.FactoryRaised` (a crash: the claim fails), one that builds
    an object of no role at all :class:`~suites.roles.NoRole` (one line naming
    estimator and claim)."""
    subject = claim.subject
    if subject is None:
        raise EstimatorError(f"{claim.id} declares no role: only its own estimators run it")
    label = f"{claim.base_id}[{estimator.name}]"
    why = factory_role_mismatch(estimator.factory, subject.role, estimator.roles)
    if why:
        raise NotOfRole(f"{label}: {why}", why)
    settings = dict(subject.probe, kernel=probe_kernel(subject.kernel), random_state=0)
    try:
        est = estimator.factory(**settings)
    except Unsupported:
        raise
    except Exception as e:  # noqa: BLE001 - the factory is the user's code
        raise FactoryRaised(f"{label}: the factory raised {type(e).__name__}: {e} when called with "
                            f"{', '.join(settings)}", f"{type(e).__name__}: {e}") from None
    check_conforms(est, subject.role, label, subject.methods, subject.in_sample)


def variant(claim, estimator: Estimator):
    """The claim with ``estimator`` in place of its own, its cells marked with the
    estimator's fingerprint."""
    return claim.for_estimator(estimator.name, estimator.factory, estimator.fingerprint)


def other_estimand(claim, estimator: Estimator) -> Optional[str]:
    """Why the estimator computes something else than the claim's estimand, or None."""
    if None in (estimator.centred, claim.subject.centred) or estimator.centred == claim.subject.centred:
        return None
    return ("centres in feature space; the claim's estimand is uncentred" if estimator.centred
            else "does not centre; the claim's estimand is centred")


#: What one exact fit holds at size n, counted in n x n float64 matrices: the kernel
#: matrix, its eigenvectors and LAPACK's workspace of a dense eigendecomposition.
EXACT_MATRICES = 5


def default_exact_max_n(memory_bytes: Optional[int] = None) -> int:
    """The largest n for an exact implementation by default: :data:`EXACT_MATRICES`
    n x n float64 matrices in half of the machine's memory,
    n = floor(sqrt(memory / (2 * 8 * EXACT_MATRICES))); 5000 where the memory is unknown."""
    from .machine import machine
    mem = machine()["memory_bytes"] if memory_bytes is None else memory_bytes
    return int(math.sqrt(mem / (2 * 8 * EXACT_MATRICES))) if mem else 5000


#: The CPU seconds one exact cell may take by default at ci and quick (``ci`` is seconds per
#: claim): the exact cap there is the n whose dense n x n eigendecomposition takes that long on
#: this machine (:func:`exact_cap`); at full it is the memory's (:func:`default_exact_max_n`).
EXACT_CELL_SECONDS = {"ci": 2.0, "quick": 20.0}


def exact_cap(profile: str) -> tuple:
    """(the largest n an exact implementation runs a claim at by default, why): at ci and
    quick the n whose dense eigendecomposition takes :data:`EXACT_CELL_SECONDS` here
    (:func:`dense_seconds` at n = DENSE_PROBE_N, scaled as n^3), within the memory's cap; at full the
    memory's cap alone."""
    memory = default_exact_max_n()
    if profile not in EXACT_CELL_SECONDS:
        return memory, "five n x n float64 matrices in half the memory"
    seconds = EXACT_CELL_SECONDS[profile]
    by_time = int(DENSE_PROBE_N * (seconds / dense_seconds()) ** (1 / 3))
    if by_time >= memory:
        return memory, "five n x n float64 matrices in half the memory"
    return by_time, f"a dense eigendecomposition of at most {seconds:g} s a cell here at {profile}"


def not_applicable(claim, estimator: Estimator, profile: str, exact_max_n: Optional[int] = None) -> Optional[str]:
    """Why ``claim`` says nothing about ``estimator`` (``n/a``), or None: another kind
    of approximation than the claim is about, a kernel it cannot express, another
    estimand (centring), or an exact method (``kind="exact"``) at an n above
    ``exact_max_n`` (default :func:`default_exact_max_n`). What an implementation does
    not declare is not held against it."""
    subject = claim.subject
    if subject.kinds and estimator.kind is not None and estimator.kind not in subject.kinds:
        return f"a claim about {' / '.join(subject.kinds)}, not {estimator.kind}"
    if subject.kernel != NO_KERNEL and not estimator.supports(subject.kernel):
        return f"no {subject.kernel} kernel"
    why = other_estimand(claim, estimator)
    if why:
        return f"other estimand: {why}"
    if estimator.kind == "exact":
        cap, why = exact_cap(profile) if exact_max_n is None else (exact_max_n, "")
        largest = max(c.n for c in claim.cells(profile))
        if largest > cap:
            why = f": {why}" if why else ""
            return f"exact: n up to {largest}, above the cap n = {cap}{why} (--exact-max-n, check(exact_max_n=))"
    return None


def applicability(claim, estimator: Estimator, profile: str, exact_max_n: Optional[int] = None) -> Optional[str]:
    """Why ``claim`` is ``n/a`` for ``estimator``, or None when it runs: the claim
    declares no role, the estimator needs a package not installed, :func:`not_applicable`,
    then the up-front build (:func:`check_up_front`): another role
    (:class:`~suites.roles.NotOfRole`) or a refusal (:class:`~suites.roles.Unsupported`).
    The one rule of ``run``, ``check`` and ``conformance``. Whether a factory is of the
    claim's role is read from its signature and declared roles and from the methods of what
    it builds, never from an exception: a factory that raises propagates
    :class:`~suites.roles.FactoryRaised` (a crash, which fails the claim: :func:`crashed`),
    one that builds an object of no role :class:`~suites.roles.NoRole` (bad input)."""
    if claim.subject is None:
        return "declares no role: only its own estimators run it"
    if estimator.roles is not None and claim.subject.role not in estimator.roles:
        return f"not a {claim.subject.role} factory (it fills {', '.join(estimator.roles)})"
    if not estimator.available():
        return f"needs {estimator.requires} (not installed)"
    why = not_applicable(claim, estimator, profile, exact_max_n)
    if why:
        return why
    try:
        check_up_front(estimator, claim)
    except NotOfRole as e:
        return e.reason
    except Unsupported as e:
        return f"unsupported: {e.reason}"
    return None


#: The reference size of the dense-work estimate (:func:`dense_cost`): at 400, scaled as n^3, it
#: overstated a dense KernelPCA's 56 s at n up to 4096 3.1 times (eigh runs faster per flop at
#: larger n); at 800, 2.1 times.
DENSE_PROBE_N = 800
_DENSE_SECONDS: list = []


def dense_seconds() -> float:
    """Seconds of one symmetric eigendecomposition of a DENSE_PROBE_N x DENSE_PROBE_N matrix
    here, best of 3 with one BLAS thread (as cells run); measured once per process."""
    if not _DENSE_SECONDS:
        import time

        import numpy as np

        from .runner import cell_blas_limit
        A = np.random.default_rng(0).standard_normal((DENSE_PROBE_N, DENSE_PROBE_N))
        A = A @ A.T
        best = math.inf
        with cell_blas_limit():
            for _ in range(3):
                t0 = time.perf_counter()
                np.linalg.eigh(A)
                best = min(best, time.perf_counter() - t0)
        _DENSE_SECONDS.append(best)
    return _DENSE_SECONDS[0]


def dense_cost(claim, estimator: Estimator, profile: str) -> Optional[str]:
    """What a claim costs an implementation that does dense n x n work (``kind="exact"``,
    or undeclared and ignoring the budget), said before it runs; None when it is under a
    minute or the implementation is of another kind. An estimate that assumes a dense
    eigensolver (an iterative or randomized one may take far less: the notice says so): one
    symmetric eigendecomposition of an n x n matrix per cell, :func:`dense_seconds` scaled as n^3."""
    if not (estimator.kind == "exact" or (estimator.kind is None and not estimator.budgeted)):
        return None
    cells = claim.cells(profile)
    seconds = sum(dense_seconds() * (c.n / DENSE_PROBE_N) ** 3 for c in cells)
    if seconds < 60:
        return None
    return (f"{claim.id}: {len(cells)} cells of dense n x n work (n up to {max(c.n for c in cells)}): about "
            f"{seconds / 60:.0f} min of CPU here, a dense eigensolver assumed (one n x n eigendecomposition per cell, "
            f"{dense_seconds():.3f} s at n = {DENSE_PROBE_N}, scaled as n^3; an iterative or randomized solver takes "
            "less); --exact-max-n N makes the claims above n = N n/a")


class Verdicts(dict):
    """What :func:`check` returns: ``{claim id: Verdict}`` for the claims that ran,
    and ``skipped``, ``{claim id: reason}`` for those that say nothing about the
    implementation (another role, kind, kernel or estimand, or a setting it refused)."""

    def __init__(self, *args, skipped: Optional[dict] = None, **kw):
        super().__init__(*args, **kw)
        self.skipped = dict(skipped or {})


def check(estimator, claims=None, profile: str = "ci", *, name: Optional[str] = None, store=None,
          jobs: Optional[int] = 1, executor=None, exact_max_n: Optional[int] = None,
          head: Optional[str] = None) -> Verdicts:
    """Run claims with ``estimator`` in place of their own and return their verdicts.

    Parameters
    ----------
    estimator : callable or str
        A role factory ``make(n_components, budget, kernel, random_state)`` (see
        :mod:`suites.roles`; declare its kind with :func:`suites.roles.implementation`),
        or the name of a built-in adapter.
    claims : claim id, paper name, or a list of them, optional
        Default: every claim with a role. A single string is one id (or paper).
    profile : "ci", "quick" or "full"
    name : str, optional
        The name in the verdicts and the store (default: the factory's ``__name__``).
    store, jobs, executor
        As for :func:`suites.pipeline.evaluate` (default: in memory, serial).
    exact_max_n : int, optional
        The largest n an exact implementation is run at (:func:`default_exact_max_n`).
    head : str, optional
        A ledger head kept outside ``store`` (``kpca-suite run`` prints one; ``store.head``
        is the current one): the store is checked against it before anything runs, as
        ``report --verify --head`` does, and a store cut or rewritten since is refused.

    Returns
    -------
    Verdicts
        ``{claim id: Verdict}`` of the claims that ran and were judged, and
        ``.skipped``: ``{claim id: reason}`` of those that are ``n/a`` for the
        estimator (another role, kind, kernel or estimand, an exact method above the
        cap, or a setting the implementation refused by raising
        :class:`~suites.roles.Unsupported`, before or during the run). A factory that
        raises anything else when built with a claim's settings fails that claim, named
        (:func:`crashed`): it is never ``n/a``.

    Raises
    ------
    ValueError
        An unknown claim id, or a claim named by its id that declares no role (a paper's
        claims without a role are left out).
    NothingChecked
        No verdict at all with nothing refused by :class:`~suites.roles.Unsupported`:
        every claim ``n/a`` (its ``.skipped`` says why), so that nothing was checked and a
        test asserting on the verdicts would pass vacuously.
    EstimatorError
        The factory builds an object with the methods of no role
        (:class:`~suites.roles.NoRole`).
    """
    from . import registry
    from .pipeline import evaluate

    positive_int("exact_max_n", exact_max_n)
    positive_int("jobs", jobs)
    claims = names("claims", claims)
    profile = check_profile("profile", profile)
    text("name", name)
    if isinstance(estimator, str):
        est = resolve(estimator)
    elif callable(estimator):
        est = user_estimator(name or getattr(estimator, "__name__", "estimator"), estimator)
    else:
        raise ValueError(f"estimator must be a role factory (a callable) or a built-in adapter's name, "
                         f"got {estimator!r}")
    try:
        chosen = registry.select(list(claims) if claims else None)
    except KeyError as e:
        raise ValueError(e.args[0]) from None
    named = set(claims or ())
    roleless = [c.id for c in chosen if c.subject is None and c.id in named]
    if roleless:
        raise ValueError(f"claim(s) {', '.join(roleless)} declare no role: only their own estimators run them "
                         "(`kpca-suite estimators` lists the claims that take one)")
    runnable, skipped, verdicts = [], {}, {}
    for claim in (c for c in chosen if c.subject is not None):  # a paper's claims without a role: not its
        try:
            why = applicability(claim, est, profile, exact_max_n)
        except FactoryRaised as e:
            verdicts[claim.id] = crashed(variant(claim, est), e)
            continue
        if why is None:
            runnable.append(variant(claim, est))
        else:
            skipped[claim.id] = why
    if head is not None and store is None:
        raise ValueError("head is checked against a store: give store= too")
    opened = results_store("store", store)
    try:
        if head is not None:
            opened.verify(head=head)
        ev = evaluate(runnable, profile, opened, executor, jobs=jobs) if runnable else None
    finally:
        if opened is not store:
            opened.close()
    for cid, v in (ev.verdicts.items() if ev is not None else ()):
        if v.status == "n/a":
            skipped[cid.split("[", 1)[0]] = v.summary
        else:
            verdicts[cid.split("[", 1)[0]] = v
    if not verdicts and not any(why.startswith("unsupported: ") for why in skipped.values()):
        raise NothingChecked(est.name, skipped)
    return Verdicts({c.id: verdicts[c.id] for c in chosen if c.id in verdicts}, skipped=skipped)


class NothingChecked(ValueError):
    """:func:`check` gave no verdict and no claim was refused by the implementation
    (:class:`~suites.roles.Unsupported`): every claim is ``n/a`` by role, kind, kernel,
    estimand or size, so nothing was checked. ``skipped``: ``{claim id: reason}``."""

    def __init__(self, name: str, skipped: dict):
        reasons = sorted(set(skipped.values()))
        more = f" and {len(reasons) - 3} more reasons" if len(reasons) > 3 else ""
        super().__init__(f"check({name}): no claim applies, so nothing was checked: {len(skipped)} claim(s) n/a "
                         f"({'; '.join(reasons[:3])}{more})")
        self.skipped = skipped


def crashed(run, error: FactoryRaised) -> Verdict:
    """The verdict of a claim whose implementation's factory raised when built with the
    claim's settings: ``fails``, naming the exception (as a cell that raised does)."""
    return Verdict("fails", f"DEFECTIVE ESTIMATOR RAISED: the factory raised {error.reason} when built with "
                   f"the claim's settings (a setting it cannot run is refused by raising "
                   f"kpca_suite.suites.roles.Unsupported: the claim is then n/a)", claim=run.id)


def assert_holds(verdicts) -> None:
    """Assert that every verdict of :func:`check` holds, and that there is at least one:
    an AssertionError lists each claim that does not hold with its summary."""
    if not verdicts:
        raise AssertionError("no verdict to assert on: no claim ran")
    bad = [f"{cid}: {v.status}: {v.summary}" for cid, v in verdicts.items() if v.status != "holds"]
    if bad:
        raise AssertionError(f"{len(bad)} of {len(verdicts)} claim(s) do not hold:\n" + "\n".join(bad))


# ---------------------------------------------------------------------- the matrix

@dataclass
class Entry:
    """One cell of the matrix: a verdict, or why the implementation was not run."""

    status: str          # holds / fails / inconclusive / n/a
    text: str            # what the cell shows besides the status
    plot: Optional[str] = None


def plan(claims, estimators, profile: str, exact_max_n: Optional[int] = None) -> tuple:
    """(claims to run, {(claim id, estimator name): Entry for what is not run}) for the
    matrix: each claim's own estimator and every implementation (built-in adapters and
    users' factories, as :class:`~suites.roles.Estimator`) of the claim's role; a
    built-in adapter of another role leaves its cell empty, anything else not run is
    ``n/a`` with the reason (:func:`applicability`; a factory that raises shows its error)."""
    runs, skipped = [], {}
    for claim in claims:
        runs.append(claim)
        for est in estimators:
            if est.source.startswith("built-in") and est.roles is not None and claim.subject.role not in est.roles:
                continue
            try:
                why = applicability(claim, est, profile, exact_max_n)
            except FactoryRaised as e:
                skipped[(claim.id, est.name)] = _entry(crashed(variant(claim, est), e), [])
                continue
            if why is None:
                runs.append(variant(claim, est))
            else:
                skipped[(claim.id, est.name)] = Entry("n/a", why)
    return runs, skipped


#: How much of a verdict's summary a matrix cell shows when it has no judged slope to show.
REASON_CHARS = 120


def _entry(verdict, plots) -> Entry:
    """A verdict as a matrix cell: the judged slope with its CI, or, for a claim that does
    not hold and has none, the start of its summary (the reason, e.g. a defective output)."""
    if verdict.status == "n/a":
        return Entry("n/a", verdict.summary)
    fit = verdict.judged_slope()
    if fit is not None:
        text = f"slope {fit.slope:+.2f} [{fit.ci[0]:+.2f}, {fit.ci[1]:+.2f}]"
    elif verdict.status != "holds":
        summary = " ".join(verdict.summary.split())
        text = summary if len(summary) <= REASON_CHARS else summary[:REASON_CHARS - 1] + "…"
    else:
        text = ""
    return Entry(verdict.status, text, plots[0] if plots else None)


def matrix(claims, adapters, verdicts: dict, skipped: dict, plots: dict) -> tuple:
    """(columns, rows): rows are (claim, [Entry per column]); the first column is the
    claim's own estimator ("declared"), then each adapter that applies to some claim."""
    columns = ["declared"] + [a.name for a in adapters
                              if a.roles is None or any(c.subject.role in a.roles for c in claims)]
    rows = []
    for claim in claims:
        entries = []
        for col in columns:
            cid = claim.id if col == "declared" else f"{claim.id}[{col}]"
            if cid in verdicts:
                entries.append(_entry(verdicts[cid], plots.get(cid, [])))
            else:
                entries.append(skipped.get((claim.id, col), Entry("", "")))
        rows.append((claim, entries))
    return columns, rows


def draw_overlays(claims, columns, verdicts: dict, outdir) -> dict:
    """``{claim id: figure}``: for each rate claim, every column's verdict on one set of axes
    against the prediction (:func:`suites.plots.plot_implementations`), written in
    ``outdir/plots``; a claim no column judged by a slope has none."""
    from .plots import plot_implementations

    out = {}
    for claim in claims:
        got = {col: verdicts[cid] for col in columns
               if (cid := claim.id if col == "declared" else f"{claim.id}[{col}]") in verdicts}
        paths = plot_implementations(claim.id, got, Path(outdir) / "plots")
        if paths:
            out[claim.id] = paths[0]
    return out


def reason_kind(text: str) -> str:
    """The kind of reason an ``n/a`` cell gives, for counting them."""
    if text.startswith("other estimand"):
        return "other estimand (centred against uncentred)"
    if text.startswith("a claim about"):
        return "another kind of approximation"
    if text.startswith("exact: n up to"):
        return "an exact method above the size cap"
    if text.startswith("unsupported: "):
        return "a setting the implementation refused"
    if text.startswith("not a ") and " factory" in text:
        return "another role"
    return text


def twin_id(claim_id: str) -> str:
    """The id of a claim's twin of the other estimand: ``<id>-centred`` and back."""
    return claim_id[:-len("-centred")] if claim_id.endswith("-centred") else claim_id + "-centred"


def na_summary(columns, rows) -> str:
    """The ``n/a`` cells of the matrix counted by :func:`reason_kind`, and how many of
    those for centring have a verdict on the claim's twin of the other estimand."""
    by_id = {claim.id: dict(zip(columns, entries)) for claim, entries in rows}
    counts, centring, twin_ran = {}, 0, 0
    for claim, entries in rows:
        for col, e in zip(columns, entries):
            if e.status != "n/a":
                continue
            kind = reason_kind(e.text)
            counts[kind] = counts.get(kind, 0) + 1
            if kind.startswith("other estimand"):
                centring += 1
                twin = by_id.get(twin_id(claim.id), {}).get(col)
                twin_ran += twin is not None and twin.status in ("holds", "fails", "inconclusive")
    if not counts:
        return "No cell is n/a."
    text = "n/a cells by reason: " + "; ".join(f"{k} {v}" for k, v in sorted(counts.items(), key=lambda kv: -kv[1]))
    if centring:
        text += (f". Of the {centring} n/a for centring, {twin_ran} have a verdict on the claim's twin of the other "
                 "estimand")
    return text + "."


MARK = {**STATUS_MARK, "": "–"}


def implementations(estimators) -> list:
    """One line per column of the matrix: the name, where the code comes from and its
    fingerprint (what the store keys its cells by)."""
    return [f"`{e.name}`: {e.source or 'unknown source'}; code fingerprint {e.fingerprint}" for e in estimators]


def write_matrix(columns, rows, outdir, profile: str, estimators=(), overlays=None) -> tuple:
    """conformance.md and conformance.html in ``outdir``, with a list naming the code
    behind each column (:func:`implementations`); a claim's name links its figure of every
    implementation (``overlays``, :func:`draw_overlays`). Returns their paths."""
    overlays = overlays or {}
    outdir = Path(outdir)
    used = [e for e in estimators if e.name in columns]

    def rel(p):
        return Path(p).relative_to(outdir).as_posix() if p else None

    md = [f"# Conformance matrix ({profile} profile)", "",
          "Each claim that declares a role, run with its own estimator (`declared`) and with every "
          "built-in implementation of that role. A cell gives the verdict and, for a rate, the fitted "
          "slope with its bootstrap 95% CI; `n/a` says why an implementation was not run. A rate claim's "
          "name links the figure of every implementation against the predicted rate. Details: report.md.", "",
          "| claim | role | " + " | ".join(f"`{c}`" for c in columns) + " |",
          "|---|---|" + "---|" * len(columns)]
    for claim, entries in rows:
        cells = []
        for e in entries:
            text = MARK.get(e.status, e.status) + (f" · {_md(e.text)}" if e.text else "")  # a "|" would split the row
            cells.append(f"[{text}]({rel(e.plot)})" if e.plot else text)
        name = f"[`{claim.id}`]({rel(overlays[claim.id])})" if claim.id in overlays else f"`{claim.id}`"
        md.append(f"| {name} | {claim.subject.role} | " + " | ".join(cells) + " |")
    md += ["", na_summary(columns, rows), "", "Implementations:", ""] + [f"- {line}" for line in implementations(used)]
    md_path = outdir / "conformance.md"
    write_text(md_path, "\n".join(md) + "\n")

    head = "".join(f"<th>{html.escape(c)}</th>" for c in columns)
    body = []
    for claim, entries in rows:
        tds = []
        for e in entries:
            text = html.escape(MARK.get(e.status, e.status) + (f" · {e.text}" if e.text else ""))
            tds.append(f'<td class="{html.escape(e.status.replace("/", ""))}">'
                       + (f'<a href="{html.escape(rel(e.plot))}">{text}</a>' if e.plot else text) + "</td>")
        name = html.escape(claim.id)
        if claim.id in overlays:
            name = f'<a href="{html.escape(rel(overlays[claim.id]))}">{name}</a>'
        body.append(f"<tr><th>{name}</th><td>{html.escape(claim.subject.role)}</td>"
                    + "".join(tds) + "</tr>")
    page = ("<!doctype html><meta charset='utf-8'><title>kpca-suite conformance</title>"
            "<style>body{font-family:sans-serif}td,th{border:1px solid #ccc;padding:4px;font-size:90%}"
            "table{border-collapse:collapse}.holds{background:#e6f4ea}.fails{background:#fce8e6}"
            ".inconclusive{background:#fef7e0}.na{color:#777}</style>"
            f"<h1>Conformance matrix ({html.escape(profile)} profile)</h1><table><tr><th>claim</th><th>role</th>"
            f"{head}</tr>{''.join(body)}</table><p>{html.escape(na_summary(columns, rows))}</p><h2>Implementations</h2><ul>"
            + "".join(f"<li>{html.escape(line)}</li>" for line in implementations(used)) + "</ul>")
    html_path = outdir / "conformance.html"
    write_text(html_path, page)
    return md_path, html_path

