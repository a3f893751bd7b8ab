"""The one pipeline: run the cells of some claims, judge each claim, then write
the outputs. The CLI, the tests, asv and the benchmarks all call
:func:`evaluate`; ``kpca-suite run`` / ``report`` / ``plot`` then call
:func:`write_outputs`.

evaluate(claims, profile, store, executor) -> Evaluation
    1. the sweep: every cell of every claim not yet in ``store`` runs on the
       executor (:func:`runner.run_sweep`); each result is stored as it ends;
    2. the results of each claim's sweep are read from the store, once;
    3. the verdict: a claim is judged only on complete data. If a cell of its
       sweep is missing (it raised, now or in an earlier run) the verdict is
       ``inconclusive`` and names the missing cells; a judge that raises gives
       ``inconclusive`` and an error.

Sequential seeds. A claim judged by recipes (:func:`judging.takes_looks`) spends its
seeds in looks (:func:`seed_looks`): its cells of the first quarter of its seeds, then
of the first half, then all of them, steps 1 and 3 after each. An interim look judges at
:data:`judging.INTERIM_LEVEL` and the claim stops as soon as a look settles it (a
planted fault stops at its first decisive failure); a claim in doubt gets every seed and
is judged as if no look had been taken. A look reads the cells of its seeds only, so
the decision depends on the cells alone, never on what else the store holds or on the
order the cells ended in. Its verdict says after how many seeds it was decided, and the
store keeps that in its meta (``decided <claim> <profile>``).
"""

from __future__ import annotations

import math
import multiprocessing
import os
import traceback
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

from .arguments import positive_int
from .arguments import profile as check_profile
from .claim import Claim, Verdict
from .identity import recomputed, remember, stale_cells, stale_summary
from .judging import cellwise_rule, interim_look, takes_looks
from .runner import run_sweep
from .store import MemoryStore


@dataclass
class Evaluation:
    """What :func:`evaluate` returns.

    ``verdicts``  claim id -> Verdict, in the order the claims were given;
    ``results``   claim id -> the stored Results of its sweep;
    ``errors``    messages: cells that raised (``runner.CellError``) and judges that raised;
    ``cell_errors`` the CellErrors themselves (with tracebacks);
    ``defects``   cells whose estimator returned an unusable output (they fail their claim);
    ``refusals``  cells whose implementation refused the setting (their claim is n/a);
    ``notes``     ``{claim id: {line: cells}}``: what the cells wrote to stderr or warned;
    ``executed`` / ``skipped`` cells run now / found in the store; ``elapsed`` seconds;
    ``recomputed`` one line per claim of which this run computed cells that the store held
    as computed by other code: the claim, how many, and what changed
    (:func:`suites.identity.recomputed`).
    """

    verdicts: dict = field(default_factory=dict)
    results: dict = field(default_factory=dict)
    errors: list = field(default_factory=list)
    cell_errors: list = field(default_factory=list)
    defects: list = field(default_factory=list)
    refusals: list = field(default_factory=list)
    notes: dict = field(default_factory=dict)
    tracebacks: list = field(default_factory=list)  # (message, traceback) of judges that raised
    executed: int = 0
    skipped: int = 0
    elapsed: float = 0.0
    recomputed: list = field(default_factory=list)

    @property
    def failed(self) -> bool:
        """A claim fails, or something raised."""
        return bool(self.errors) or any(v.status == "fails" for v in self.verdicts.values())


def judge_claim(claim, results: list, wanted: Optional[set], profile: str, defects=(), errors=(), refusals=(),
                stale: Optional[str] = None):
    """The claim's verdict on ``results`` (complete data only), and an error
    message or None. ``refusals`` (cells whose implementation refused the setting)
    make it ``n/a`` with the first reason; ``defects`` (cells whose estimator returned
    an unusable output) fail the claim, naming the first; ``errors`` (cells that raised)
    name the first reason of an incomplete sweep; ``stale`` says that the store holds
    missing cells as computed by other code, and what changed since
    (:func:`suites.identity.stale_summary`)."""
    if refusals:
        first = refusals[0]
        return Verdict("n/a", f"unsupported: {first.error} (refused at {_where(first.cell)})", claim=claim.id), None
    if defects:
        first = defects[0]
        kind = "RAISED" if " raised " in first.error else "OUTPUT"
        hint = (" (a setting it cannot run is refused by raising kpca_suite.suites.roles.Unsupported: the claim is "
                "then n/a)" if kind == "RAISED" else "")
        return Verdict("fails", f"DEFECTIVE ESTIMATOR {kind} in {len(defects)} cell(s), first at "
                       f"{_where(first.cell)}: {first.error.split(': ', 1)[-1]}{hint}", claim=claim.id), None
    if wanted is not None:
        missing = len(wanted - {r.cell.key() for r in results})
        if missing:
            first = f"; first: {errors[0].error}" if errors else ""
            why = (f"they raised{first}" if errors else
                   f"{stale}; a run recomputes them" if stale else
                   "never run or not in the store")
            cellwise = cellwise_rule(claim.judge)
            partial = cellwise(results, profile) if cellwise is not None and results else None
            if partial is not None and partial.status == "fails":  # a violation no missing cell can undo
                return Verdict("fails", f"{partial.summary} (on the {len(results)} cells recorded; {missing} of "
                               f"{len(wanted)} missing: {why})", partial.fits, partial.measured, partial.predicted,
                               claim=claim.id), None
            return Verdict("inconclusive", f"{missing} of {len(wanted)} cells missing ({why}); "
                           "no verdict on incomplete data", claim=claim.id), None
    if not results:
        return Verdict("inconclusive", f"no cells finished for profile {profile!r}; nothing to judge",
                       claim=claim.id), None
    try:
        return claim.verdict(results, profile), None
    except Exception as e:  # noqa: BLE001 - reported, the other claims are still judged
        msg = f"{claim.id}: judge raised {type(e).__name__}: {e}"
        return Verdict("inconclusive", f"judge raised {type(e).__name__}: {e}", claim=claim.id), \
            (msg, traceback.format_exc())


def _where(cell) -> str:
    """Where a cell sits in its sweep, in words: ``n = 400, seed 3``, or ``seed 3`` for a
    cell whose claim sweeps no n (n = 0)."""
    return f"n = {cell.n}, seed {cell.seed}" if cell.n else f"seed {cell.seed}"


#: The interim looks, as fractions of a claim's seeds; the last look takes every seed.
LOOK_FRACTIONS = (0.25, 0.5)
#: The fewest seeds an interim look is taken on: below it the spread of the seeds says
#: too little (the widening of a CI over 4 seeds would be 6x).
MIN_LOOK_SEEDS = 5


def seed_looks(claim, cells) -> list:
    """The looks of ``claim`` over ``cells``: a list of seed sets, the last one every seed
    of the cells. Interim looks take the first ceil(f S) of the S distinct seeds (sorted)
    for f in :data:`LOOK_FRACTIONS`, those with at least :data:`MIN_LOOK_SEEDS` seeds and
    fewer than S; a claim with a judge of its own, or no cells, gets one look."""
    seeds = sorted({c.seed for c in cells})
    if not cells or not takes_looks(claim.judge):
        return [frozenset(seeds)]
    cuts = sorted({math.ceil(f * len(seeds)) for f in LOOK_FRACTIONS} - {len(seeds)})
    return [frozenset(seeds[:k]) for k in cuts if k >= MIN_LOOK_SEEDS] + [frozenset(seeds)]


def _sweep_of(claim, profile, options, keep):
    """The claim's cells at ``profile`` (restricted by ``keep``), or None when they cannot
    be built (e.g. a ``--data`` file gone since the run: judge what is stored)."""
    try:
        return [c for c in claim.cells(profile, dict(options or {})) if keep is None or keep(c)]
    except Exception:  # noqa: BLE001
        return None


def evaluate(claims, profile: str, store=None, executor=None, *, jobs: Optional[int] = None,
             options: Optional[dict] = None, progress: bool = False, run: bool = True,
             keep=None, trace_memory: bool = False) -> Evaluation:
    """Run (unless ``run`` is false) and judge ``claims`` at ``profile``.

    Parameters
    ----------
    claims : list of Claim
    profile : "ci", "quick" or "full"
    store : ResultStore, optional
        Finished cells are skipped and new ones appended; default an in-memory store.
    executor : concurrent.futures.Executor, optional
        Default: serial when ``jobs == 1``, else a local process pool.
    jobs, options, progress, trace_memory
        As for :func:`runner.run_sweep`.
    run : bool
        False judges what the store holds, without running a cell (``report``).
    keep : callable, optional
        Restrict every sweep to the cells for which ``keep(cell)`` is true
        (a planted fault's run on its fault's cells: :func:`suites.faults.keep_faults`).
    """
    claims = list(claims)
    not_claims = [c for c in claims if not isinstance(c, Claim)]
    if not_claims:
        raise ValueError(f"claims must be Claim objects (registry.select gives them by id), got {not_claims[0]!r}")
    check_profile("profile", profile)
    positive_int("jobs", jobs)
    if store is not None and not callable(getattr(store, "done_keys", None)):
        raise ValueError(f"store must be None or a results store (ResultStore, MemoryStore), got {store!r}")
    store = MemoryStore() if store is None else store
    out = Evaluation()
    sweeps = {c.id: _sweep_of(c, profile, options, keep) for c in claims}
    stale = {c.id: stale_cells(store, c, sweeps[c.id] or []) for c in claims}
    if run:
        remember(store, claims)
    looks = {c.id: seed_looks(c, sweeps[c.id] or []) for c in claims}
    before, looked = (store.done_keys(), set()) if run else (set(), set())
    verdicts, pending, k = {}, list(claims), 0
    while pending:
        seeds = {c.id: looks[c.id][k] for c in pending}
        if run:
            def in_look(cell, seeds=seeds):
                return (keep is None or keep(cell)) and cell.seed in seeds[cell.claim]
            sweep = run_sweep(pending, profile, store, options=options, executor=executor, jobs=jobs,
                              progress=progress, keep=in_look, trace_memory=trace_memory)
            out.cell_errors += sweep.errors
            out.defects += sweep.defects
            out.refusals += sweep.refusals
            for cid, lines in sweep.notes.items():
                seen = out.notes.setdefault(cid, {})
                for line, n in lines.items():
                    seen[line] = seen.get(line, 0) + n
            out.errors += [str(e) for e in sweep.errors]
            out.executed += sweep.executed
            out.elapsed += sweep.elapsed
        still = []
        for claim in pending:
            last = k == len(looks[claim.id]) - 1
            cells = sweeps[claim.id]
            wanted = None if cells is None else {c.key() for c in cells if c.seed in seeds[claim.id]}
            looked |= wanted or set()
            results = [r for r in store.results(claim.id) if wanted is None or r.cell.key() in wanted]
            with interim_look(not last):
                verdict, err = judge_claim(claim, results, wanted, profile,
                                           [d for d in out.defects if d.claim == claim.id],
                                           [e for e in out.cell_errors if e.claim == claim.id],
                                           [e for e in out.refusals if e.claim == claim.id],
                                           None if run else stale_summary(store, claim, stale[claim.id]))
            if not last and verdict.status == "inconclusive":
                still.append(claim)
                continue
            if len(looks[claim.id]) > 1:
                verdict.seeds = (len(seeds[claim.id]), len(looks[claim.id][-1]))
                decided = f"after {verdict.seeds[0]} of {verdict.seeds[1]} seeds"
                if not last:
                    verdict.summary += f" [decided {decided}]"
                if run:
                    store.set_meta(f"decided {claim.id} {profile}", decided)
            verdicts[claim.id], out.results[claim.id] = verdict, results
            if err is not None:
                out.errors.append(err[0])
                out.tracebacks.append(err)
        pending, k = still, k + 1
    out.skipped = len(before & looked)
    if run:
        for claim in claims:
            new = [r.cell for r in out.results[claim.id] if r.cell.key() not in before]
            line = recomputed(store, claim, stale[claim.id], new) if stale[claim.id] else None
            if line:
                out.recomputed.append(f"{claim.id}: {line}")
    out.verdicts = {c.id: verdicts[c.id] for c in claims}
    out.results = {c.id: out.results[c.id] for c in claims}
    return out


#: What the plotting workers draw: (claims by id, evaluation, plot directory), set
#: just before they fork and read by :func:`_plot_one`, so nothing is pickled but ids.
_TO_PLOT: Optional[tuple] = None


def _plot_one(cid):
    from .plots import plot_claim

    by_id, evaluation, plotdir = _TO_PLOT
    if evaluation.verdicts[cid].status == "n/a" or not evaluation.results.get(cid):  # nothing was measured
        return [], []
    return plot_claim(by_id[cid], evaluation.verdicts[cid], evaluation.results.get(cid, []), plotdir)


def _draw_all(by_id, evaluation, plotdir, jobs: int) -> dict:
    """{claim id: (paths, errors)}: every claim's figures, drawn by ``jobs`` forked
    processes (matplotlib holds the GIL: threads would not help). The figures are
    written in the same files whatever ``jobs``; drawn serially, they kept one core idle
    for a sizeable share of the quick profile."""
    global _TO_PLOT
    ids = list(evaluation.verdicts)
    jobs = min(jobs, len(ids))
    # the claims with a figure of their own draw twice as much (up to 6 s each): they go first,
    # so that no worker is left with a long one at the end
    order = sorted(ids, key=lambda cid: getattr(by_id[cid], "figure", None) is None)
    _TO_PLOT = (by_id, evaluation, plotdir)
    try:
        if jobs <= 1 or "fork" not in multiprocessing.get_all_start_methods():
            return {cid: _plot_one(cid) for cid in ids}
        with ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context("fork")) as pool:
            drawn = dict(zip(order, pool.map(_plot_one, order)))
        return {cid: drawn[cid] for cid in ids}
    finally:
        _TO_PLOT = None


def _code_text(store, fingerprint: str) -> str:
    """The fingerprint and what it covers (recorded in the store's meta as ``code <fp>``
    when the implementation ran, :func:`record_identities`)."""
    hashed = store.get_meta(f"code {fingerprint}")
    return f"code fingerprint {fingerprint}" + (f" over {hashed}" if hashed else "")


def record_identities(store, estimators) -> None:
    """Keep in the store's meta what each implementation's fingerprint covers, for the report."""
    for est in estimators:
        if est is not None and est.hashed:
            store.set_meta(f"code {est.fingerprint}", f"{est.source}; {est.hashed}")


def merged(first: Evaluation, then: Evaluation) -> Evaluation:
    """One evaluation of both (``first``'s claims first): the verdicts, results and errors of
    each; what ran (cells executed, skipped, elapsed, recomputed, notes) is ``first``'s."""
    out = Evaluation(**{f: getattr(first, f) for f in ("executed", "skipped", "elapsed", "recomputed", "notes")})
    out.verdicts = {**first.verdicts, **then.verdicts}
    out.results = {**first.results, **then.results}
    for name in ("errors", "cell_errors", "defects", "refusals", "tracebacks"):
        setattr(out, name, getattr(first, name) + getattr(then, name))
    return out


def write_outputs(evaluation: Evaluation, claims, outdir, profile: str, store, jobs: Optional[int] = 1,
                  expected: Optional[dict] = None, ran=None, extra_plots: Optional[dict] = None) -> dict:
    """Plots under ``outdir/plots`` (drawn by ``jobs`` processes; None: one per CPU)
    and the report (Markdown and HTML) of every claim of ``evaluation``, where the planted
    faults' runs (``expected``: ``{run id: the verdict its fault declares}``) have a table of
    their own and the claims run now (``ran``, ids; None: the report follows no run) are marked;
    ``extra_plots`` (``{claim id: [paths]}``, e.g. conformance's figure of every implementation)
    are shown in their claim's section too.
    Returns ``{"plots": {claim: [paths]}, "report": (md, html), "errors": [...]}``;
    a drawing that fails is reported, never fatal."""
    from .machine import git_commit, machine, versions
    from .report import write_report

    outdir = Path(outdir)
    by_id = {c.id: c for c in claims}
    plots, errors = {}, []
    drawn = _draw_all(by_id, evaluation, outdir / "plots", jobs or os.cpu_count() or 1)
    for cid, (paths, errs) in drawn.items():
        plots[cid] = paths
        errors += errs
    shown = {cid: list(paths) + [Path(p) for p in (extra_plots or {}).get(cid, [])] for cid, paths in plots.items()}
    commits = store.commits(c.id for c in claims) or [git_commit()]
    wall = sum(r.wall_time for rs in evaluation.results.values() for r in rs if math.isfinite(r.wall_time))
    fingerprints = {r.cell.p.get("code") for rs in evaluation.results.values() for r in rs} - {None}
    report = write_report(list(evaluation.verdicts.values()), shown, outdir, profile, machine(), versions(),
                          commit=commits, wall_time=wall, elapsed=evaluation.elapsed or None,
                          errors=evaluation.errors + errors,
                          cells={k: len(v) for k, v in evaluation.results.items()},
                          implementations={c.id: _code_text(store, c.implementation) for c in claims
                                           if c.implementation},
                          expected=expected, claims={c.id: c for c in claims}, results=evaluation.results,
                          identities={fp: store.get_meta(f"identity {fp}") for fp in sorted(fingerprints)},
                          ran=ran)
    return {"plots": plots, "report": report, "errors": errors}
