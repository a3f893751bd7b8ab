"""Check any implementation against the claims: resolve an estimator given on the
command line or in Python, check it up front, run the claims that declare a role
(:class:`suites.roles.Subject`) with it, and write the conformance matrix.

``resolve("NAME")``                 a built-in adapter (``kpca-suite estimators``);
``resolve("NAME=MODULE:FACTORY")``  a user's factory, imported by name;
``check(factory, claims, profile)`` the verdicts, for a library's own tests;
``conformance(...)``                every applicable claim x every adapter.

An implementation that centres in feature space (scikit-learn's PCA, KernelPCA,
IncrementalPCA; nystrompca) computes another estimand than an uncentred claim's:
the matrix says so instead of running and failing it. A factory's ``centred``
attribute, if it has one, declares the same for a user's estimator.
"""

from __future__ import annotations

import html
import importlib
import os
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Optional

from .adapters import ADAPTERS, UnsupportedKernel
from .roles import EstimatorError, check_conforms

SPEC = re.compile(r"^(?P<name>[A-Za-z0-9_.-]+)(=(?P<module>[A-Za-z_][\w.]*):(?P<attr>[A-Za-z_][\w.]*))?$")


@dataclass(frozen=True)
class Estimator:
    """A resolved implementation: its name, factory, and whether it centres (None: not declared)."""

    name: str
    factory: Callable
    centred: Optional[bool] = None


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
        return Estimator(name, adapter.factory, adapter.centred)
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
    return Estimator(name, obj, getattr(obj, "centred", None))


def probe_kernel(name: str):
    """A kernel of the subject's kind for the up-front check: ``Kernel(name, gamma=1)``,
    or for "periodic" the B_2 kernel ``PeriodicKernel("poly", 1)`` (Bach 2013)."""
    from kpca_suite.kernels import Kernel, PeriodicKernel
    if name == PeriodicKernel.name:
        return PeriodicKernel("poly", 1)
    return Kernel(name, gamma=1.0)


def check_up_front(estimator: Estimator, claim) -> None:
    """Build the estimator once with the claim's probe settings and check the role's
    methods: EstimatorError (one line naming estimator and claim) if the factory
    raises or returns an object without them. UnsupportedKernel passes through."""
    subject = claim.subject
    if subject is None:
        raise EstimatorError(f"{claim.id} declares no role: only its own estimators run it")
    settings = dict(subject.probe, kernel=probe_kernel(subject.kernel), random_state=0)
    label = f"{claim.base_id}[{estimator.name}]"
    try:
        est = estimator.factory(**settings)
    except UnsupportedKernel:
        raise
    except Exception as e:  # noqa: BLE001 - the factory is the user's code
        err = EstimatorError(f"{label}: the factory raised {type(e).__name__}: {e} when called with "
                             f"{', '.join(settings)}")
        err.reason = f"{type(e).__name__}: {e}"
        raise err from None
    check_conforms(est, subject.role, label)


def variant(claim, estimator: Estimator):
    """The claim with ``estimator`` in place of its own."""
    return claim.for_estimator(estimator.name, estimator.factory)


def other_estimand(claim, estimator: Estimator) -> Optional[str]:
    """Why the estimator computes something else than the claim's estimand, or None."""
    if estimator.centred is None or estimator.centred == claim.subject.centred:
        return None
    return ("centres in feature space; the claim's estimand is uncentred" if estimator.centred
            else "does not centre; the claim's estimand is centred")


def check(estimator, claims=None, profile: str = "ci", *, name: Optional[str] = None, store=None,
          jobs: Optional[int] = 1, executor=None) -> dict:
    """Run claims with ``estimator`` in place of their own and return
    ``{claim id: Verdict}``.

    Parameters
    ----------
    estimator : callable or str
        A role factory ``make(n_components, budget, kernel, random_state)`` (see
        :mod:`suites.roles`), or the name of a built-in adapter.
    claims : list of claim ids or paper names, optional
        Default: every claim whose role's methods the estimator's objects have.
    profile : "ci", "quick" or "full"
    name : str, optional
        The name in the verdicts and the store (default: the factory's ``__name__``).
    store, jobs, executor
        As for :func:`suites.pipeline.evaluate` (default: in memory, serial).

    A factory that cannot build an object of a claim's role raises
    :class:`suites.roles.EstimatorError`; a claim whose kernel it does not support
    (UnsupportedKernel) is left out; an estimator that centres where the claim does
    not (or the other way round) runs, and its verdict's summary says so first.
    """
    from . import registry
    from .pipeline import evaluate

    est = resolve(estimator) if isinstance(estimator, str) else \
        Estimator(name or getattr(estimator, "__name__", "estimator"), estimator,
                  getattr(estimator, "centred", None))
    chosen = [c for c in registry.select(claims or None) if c.subject is not None]
    runnable = []
    for claim in chosen:
        try:
            check_up_front(est, claim)
        except UnsupportedKernel:
            continue
        except EstimatorError:
            if claims:
                raise
            continue  # not of this role: skipped when the claims were not named
        runnable.append(variant(claim, est))
    ev = evaluate(runnable, profile, store, executor, jobs=jobs)
    verdicts = {cid.split("[", 1)[0]: v for cid, v in ev.verdicts.items()}
    for claim in runnable:
        why = other_estimand(claim, est)
        if why:
            verdicts[claim.base_id].summary = f"({est.name} {why}) " + verdicts[claim.base_id].summary
    return verdicts


# ---------------------------------------------------------------------- the matrix

@dataclass
class Entry:
    """One cell of the matrix: a verdict, or why the implementation was not run."""

    status: str          # holds / fails / inconclusive / n/a
    text: str            # what the cell shows besides the status
    plot: Optional[str] = None


EXACT_MAX_N = 5000  # an exact method holds an n x n kernel matrix: 200 MB at n = 5000


def plan(claims, adapters, profile: str) -> tuple:
    """(claims to run, {(claim id, adapter name): Entry for what is not run}) for the
    matrix: each claim's own estimator and every adapter of its role. An exact
    method (no budget) runs only where every n of the profile is <= EXACT_MAX_N."""
    runs, skipped = [], {}
    for claim in claims:
        runs.append(claim)
        largest = max(c.n for c in claim.cells(profile))
        for a in adapters:
            if claim.subject.role not in a.roles:
                continue
            key = (claim.id, a.name)
            est = Estimator(a.name, a.factory, a.centred)
            why = other_estimand(claim, est)
            if not a.available():
                skipped[key] = Entry("n/a", f"needs {a.requires}")
            elif not a.budgeted and largest > EXACT_MAX_N:
                skipped[key] = Entry("n/a", f"exact: n up to {largest} (an n x n kernel matrix)")
            elif claim.subject.kinds and a.kind not in claim.subject.kinds:
                skipped[key] = Entry("n/a", f"a claim about {' / '.join(claim.subject.kinds)}, not {a.kind}")
            elif not a.supports(claim.subject.kernel):
                skipped[key] = Entry("n/a", f"no {claim.subject.kernel} kernel")
            elif why:
                skipped[key] = Entry("n/a", f"other estimand: {why}")
            else:
                try:
                    check_up_front(est, claim)
                except (EstimatorError, UnsupportedKernel) as e:
                    skipped[key] = Entry("n/a", getattr(e, "reason", str(e).split(": ", 1)[-1]))
                else:
                    runs.append(variant(claim, est))
    return runs, skipped


def _entry(verdict, plots) -> Entry:
    fit = verdict.judged_slope()
    text = f"slope {fit.slope:+.2f} [{fit.ci[0]:+.2f}, {fit.ci[1]:+.2f}]" if fit is not None else ""
    return Entry(verdict.status, text, plots[0] if plots else None)


def matrix(claims, adapters, verdicts: dict, skipped: dict, plots: dict) -> tuple:
    """(columns, rows): rows are (claim, [Entry per column]); the first column is the
    claim's own estimator ("declared"), then each adapter that applies to some claim."""
    columns = ["declared"] + [a.name for a in adapters
                              if any(c.subject.role in a.roles for c in claims)]
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


MARK = {"holds": "✅ holds", "fails": "❌ fails", "inconclusive": "❔ inconclusive", "n/a": "n/a", "": "–"}


def write_matrix(columns, rows, outdir, profile: str) -> tuple:
    """conformance.md and conformance.html in ``outdir``; returns their paths."""
    outdir = Path(outdir)

    def rel(p):
        return Path(p).relative_to(outdir).as_posix() if p else None

    md = [f"# Conformance matrix ({profile} profile)", "",
          "Each claim that declares a role, run with its own estimator (`declared`) and with every "
          "built-in implementation of that role. A cell gives the verdict and, for a rate, the fitted "
          "slope with its bootstrap 95% CI; `n/a` says why an implementation was not run. Details: "
          "report.md.", "",
          "| claim | role | " + " | ".join(f"`{c}`" for c in columns) + " |",
          "|---|---|" + "---|" * len(columns)]
    for claim, entries in rows:
        cells = []
        for e in entries:
            text = MARK.get(e.status, e.status) + (f" · {e.text}" if e.text else "")
            cells.append(f"[{text}]({rel(e.plot)})" if e.plot else text)
        md.append(f"| `{claim.id}` | {claim.subject.role} | " + " | ".join(cells) + " |")
    md_path = outdir / "conformance.md"
    md_path.write_text("\n".join(md) + "\n", encoding="utf-8")

    head = "".join(f"<th>{html.escape(c)}</th>" for c in columns)
    body = []
    for claim, entries in rows:
        tds = []
        for e in entries:
            text = html.escape(MARK.get(e.status, e.status) + (f" · {e.text}" if e.text else ""))
            tds.append(f'<td class="{html.escape(e.status.replace("/", ""))}">'
                       + (f'<a href="{html.escape(rel(e.plot))}">{text}</a>' if e.plot else text) + "</td>")
        body.append(f"<tr><th>{html.escape(claim.id)}</th><td>{html.escape(claim.subject.role)}</td>"
                    + "".join(tds) + "</tr>")
    page = ("<!doctype html><meta charset='utf-8'><title>kpca-suite conformance</title>"
            "<style>body{font-family:sans-serif}td,th{border:1px solid #ccc;padding:4px;font-size:90%}"
            "table{border-collapse:collapse}.holds{background:#e6f4ea}.fails{background:#fce8e6}"
            ".inconclusive{background:#fef7e0}.na{color:#777}</style>"
            f"<h1>Conformance matrix ({html.escape(profile)} profile)</h1><table><tr><th>claim</th><th>role</th>"
            f"{head}</tr>{''.join(body)}</table>")
    html_path = outdir / "conformance.html"
    html_path.write_text(page, encoding="utf-8")
    return md_path, html_path

