"""``kpca-suite``: list the claims, run them, rewrite the report, redraw plots,
plan the cost of a profile, run the performance benchmarks.

Exit status: 0 when every selected claim holds (``inconclusive`` also exits 0,
with a note); 1 when a claim fails, a cell raised or a judge raised; a planted fault
(``run --fault NAME`` / ``--faults``, or its stored run in ``report``) counts as
holding when it gives the verdict it declares, else it is a failure of its claim; a claim
that ``--expect FILE`` lists for an implementation counts as holding when it fails or is
inconclusive, as a failure when it holds (:mod:`suites.expectations`); 2 for
usage errors (a listed claim n/a, unknown claim, bad ``--jobs`` or ``--workers``, missing ``--data``
file, a results store that is corrupt or not ours, Dask not installed, a Dask
scheduler that cannot be reached). Usage errors print one line to stderr, no
traceback, and never touch an existing store.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import json
import os
import sys
import warnings
from datetime import datetime, timezone
from pathlib import Path

from . import registry
from .claim import PROFILES, Verdict, fault_name_of
from .files import write_text
from .pipeline import record_identities
from .runner import UndeclaredMetric
from .arguments import positive_int
from .store import STORE_NAME, StoreError



class UsageError(Exception):
    """A problem with the command line or its inputs: one line, exit 2."""


# ---------------------------------------------------------------------- helpers

def _err(msg: str) -> None:
    print(f"kpca-suite: error: {msg}", file=sys.stderr)


def _warn(msg: str) -> None:
    print(f"kpca-suite: warning: {msg}", file=sys.stderr)


@contextlib.contextmanager
def _plugin_warnings():
    """Inside, a paper plug-in the registry skips (:class:`registry.PluginWarning`) is said
    as one ``kpca-suite: warning:`` line; any other warning is shown as before."""
    with warnings.catch_warnings():
        show = warnings.showwarning

        def say(message, category, *args, **kwargs):
            if issubclass(category, registry.PluginWarning):
                _warn(str(message))
            else:
                show(message, category, *args, **kwargs)

        warnings.showwarning = say
        yield


def _select(names):
    try:
        return registry.select(names or None)
    except KeyError as e:
        raise UsageError(e.args[0] if e.args else str(e)) from None
    except ImportError as e:
        raise UsageError(f"cannot load the claim modules: {type(e).__name__}: {e}") from None


def _open_store(outdir: Path, create: bool, verify: bool = True):
    """The store of ``outdir``, holding the directory's lock (one process at a
    time) until it is closed; a directory in use, not writable, or a store that
    is corrupt, fails its ledger (``verify``) or is missing (``create=False``) is a
    usage error, and nothing is written then."""
    from .store import DirectoryLock, ResultStore, StoreError
    path = Path(outdir) / STORE_NAME
    if not create and not path.exists():
        raise UsageError(f"no results store at {path} (run `kpca-suite run` first)")
    lock = DirectoryLock(outdir)
    try:
        lock.acquire()
        store = ResultStore(path, create=create, lock=lock, verify=verify)
    except StoreError as e:
        lock.release()
        raise UsageError(str(e)) from None
    unverified = store.unverified
    if unverified:
        if create:  # a command that writes
            store.close()
            raise UsageError(f"{path} was written before the ledger: its {unverified} row(s) are unverified, "
                             f"and nothing is added to it until `kpca-suite report --adopt --out {outdir}` takes them "
                             "in as they are now (or give another --out)")
        _warn(f"{path}: {unverified} row(s) were written before the ledger and are UNVERIFIED (nothing shows "
              f"they are what kpca-suite computed); `kpca-suite report --adopt --out {outdir}` takes them in as they are")
    return store


@contextlib.contextmanager
def _writing_outputs(out: Path, svg: bool):
    """Report, plots, matrix and errors.log are written whole or not at all
    (:mod:`suites.files`); a disk that is full or read-only then ends in one line. With
    ``svg``, each figure is also written as SVG (:func:`suites.plots.vector_copies`)."""
    from .plots import vector_copies
    try:
        with vector_copies(svg):
            yield
    except OSError as e:
        raise UsageError(f"cannot write the outputs in {out}: {e.strerror or e}; the results store is unchanged, "
                         f"and `kpca-suite report --out {out}` writes them once there is room") from None


def _positive_jobs(jobs):
    _positive("--jobs", jobs)


def _verdict_line(v: Verdict, note=None) -> str:
    """One line per claim, whatever the summary holds (tables go to files), ending with
    ``(note)``: the verdict a planted fault declares, an expected failure's reason."""
    line = f"{v.status.upper():<13} {v.claim}: {' '.join(str(v.summary).split())}"
    return line if note is None else f"{line} ({note})"


def _report_errors(evaluation, out: Path) -> None:
    """Cells that raised (tracebacks to DIR/errors.log), one line per claim and error
    message with the number of cells it hit; refusals (their claim is n/a) and what the
    cells wrote to stderr or warned, once per claim and in errors.log; and judges that
    raised."""
    log = out / "errors.log"
    refused = {}
    for e in evaluation.refusals:  # the cells in flight when the first refused say it again: once
        refused.setdefault((e.claim, e.error), []).append(e)
    logged = evaluation.cell_errors + evaluation.defects + [es[0] for es in refused.values()]
    if logged or evaluation.notes:
        out.mkdir(parents=True, exist_ok=True)
        text = []
        for e in logged:
            notes = f"-- what the cell wrote to stderr or warned:\n{e.notes}\n" if e.notes else ""
            alike = len(refused.get((e.claim, e.error), ())) - 1
            more = f"-- {alike} more cell(s) in flight refused alike\n" if alike > 0 else ""
            text.append(f"== {e.claim} cell {e.cell.key()}\n{e.traceback}\n{notes}{more}")
        for claim, lines in evaluation.notes.items():
            text.append(f"== {claim}: written to stderr or warned, with the number of cells\n"
                        + "".join(f"{count:>6}  {line}\n" for line, count in lines.items()))
        write_text(log, "".join(text))
    for claim, lines in evaluation.notes.items():
        first = next(iter(lines))
        _warn(f"{claim}: its cells wrote to stderr or warned ({len(lines)} distinct line(s), all in {log}); "
              f"first, in {lines[first]} cell(s): {first}")
    for claim in dict.fromkeys(e.claim for e in evaluation.defects):
        hit = [e for e in evaluation.defects if e.claim == claim]
        print(f"kpca-suite: {claim}: the implementation under test raised or returned an unusable output in "
              f"{len(hit)} cell(s) ({hit[0].error.split(': ', 1)[-1]}); the claim fails (tracebacks in {log})",
              file=sys.stderr)
    for claim in dict.fromkeys(e.claim for e in evaluation.refusals):
        first = next(e for e in evaluation.refusals if e.claim == claim)
        print(f"kpca-suite: {claim}: the implementation refused the setting ({first.error}); the claim is n/a "
              f"and its other cells were not run", file=sys.stderr)
    if evaluation.cell_errors:
        _err(f"{len(evaluation.cell_errors)} cell(s) raised; nothing was recorded for them "
             f"(tracebacks in {log}):")
        groups = {}
        for e in evaluation.cell_errors:
            groups.setdefault((e.claim, e.error), []).append(e.cell)
        for (claim, error), cells in list(groups.items())[:20]:
            where = f"cell {cells[0].key()}" if len(cells) == 1 else f"{len(cells)} cells, first {cells[0].key()}"
            print(f"  {claim}: {error} ({where})", file=sys.stderr)
        if len(groups) > 20:
            print(f"  ... and {len(groups) - 20} more", file=sys.stderr)
    for msg, _ in evaluation.tracebacks:
        _err(msg)


def _finish(verdicts, failed: bool, expected=None, expect=None, selected=()) -> int:
    """Print one line per verdict (n/a included) and the note on inconclusive claims;
    the exit status: 1 when a claim fails (unless ``expect``, the ``--expect`` file's
    :class:`~suites.expectations.Expectations`, lists it), a listed claim holds, a planted
    fault's run (``expected``: ``{run id: the verdict its fault declares}``) gives another
    verdict, or something raised; 2 when a listed claim of ``selected`` is n/a; else 0."""
    from .expectations import Expectations, run_key
    expected = expected or {}
    judged = (expect or Expectations()).judge(selected, {run_key(v.claim): (v.status, v.summary)
                                                         for v in verdicts if v.claim not in expected})
    for v in verdicts:
        print(_verdict_line(v, f"expected: {expected[v.claim]}" if v.claim in expected else
                            judged.note(run_key(v.claim))))
    missed = [v for v in verdicts if v.claim in expected and v.status != expected[v.claim]]
    if missed:
        _err(f"{len(missed)} planted fault(s) did not give the verdict they declare, so their claims cannot catch "
             "them: " + "; ".join(f"{v.claim} {v.status}, expected {expected[v.claim]}" for v in missed))
    for message in judged.messages():
        _err(message)
    verdicts = [v for v in verdicts if v.claim not in expected and run_key(v.claim) not in judged.expected]
    inconclusive = [v.claim for v in verdicts if v.status == "inconclusive"]
    if inconclusive:
        print(f"note: {len(inconclusive)} claim(s) inconclusive ({', '.join(inconclusive)}): the "
              "measurement could not decide (e.g. the slope CI straddles the tolerance band). "
              "This does not fail the run (exit 0 unless something else failed); a larger "
              "profile (--profile full) may decide.")
    if judged.errors:
        return 2
    return 1 if judged.status or missed or failed else 0


def _make_executor(args):
    """(executor or None, close callback) for --scheduler / --cluster."""
    if not (args.scheduler or args.cluster):
        return None, lambda: None
    try:
        import distributed
    except ImportError:
        raise UsageError("--scheduler/--cluster need Dask distributed, which is not installed: "
                         "pip install 'kpca-suite[dask]'") from None
    try:
        if args.scheduler:
            client = distributed.Client(args.scheduler)
            cluster = None
        else:
            from .allocator import fix_malloc_thresholds
            from .runner import CELL_MMAP_THRESHOLD
            # the dashboard on a free port: two local clusters at once (two runs on one machine)
            # would otherwise both ask for 8787, and the second warn
            cluster = distributed.LocalCluster(n_workers=args.jobs or os.cpu_count() or 1,
                                               threads_per_worker=1, processes=True, dashboard_address=":0")
            client = distributed.Client(cluster)
            client.run(fix_malloc_thresholds, CELL_MMAP_THRESHOLD)  # our own workers, as the process pool's (a --scheduler's are left alone)
            print(f"kpca-suite: Dask dashboard at {client.dashboard_link}", file=sys.stderr)
    except Exception as e:  # noqa: BLE001 - connection refused, timeout, ...
        where = args.scheduler or "a local cluster"
        raise UsageError(f"cannot start Dask on {where}: {type(e).__name__}: {e}") from None

    def close():
        client.close()
        if cluster is not None:
            cluster.close()
    return client.get_executor(), close


# ---------------------------------------------------------------------- commands

def cmd_list(args) -> int:
    from .catalogue import coverage_text, markdown, text
    claims = _select(args.names)
    if args.coverage:
        sys.stdout.write(coverage_text(list(dict.fromkeys(c.paper for c in claims))))
        return 0
    sys.stdout.write(markdown(claims) if args.markdown else text(claims))
    return 0


def cmd_run(args) -> int:
    from .pipeline import evaluate, write_outputs
    from .allocator import fix_malloc_thresholds
    from .runner import CELL_MMAP_THRESHOLD
    _positive_jobs(args.jobs)
    options = {}
    if args.data is not None:
        if not args.data.strip():
            raise UsageError("--data: the path is empty")
        data = Path(args.data)
        if not data.exists():
            raise UsageError(f"--data {data}: no such file")
        options["data"] = str(data.resolve())
    if args.digit is not None:
        if args.data is None:
            raise UsageError("--digit selects a class of a --data file; give --data too")
        options["digit"] = args.digit
    claims = _select(args.names)
    if not claims:
        raise UsageError("no claims registered")
    _positive("--exact-max-n", args.exact_max_n)
    keep, expected = None, {}
    if args.fault is not None or args.faults:
        claims, keep, expected = _planted(claims, args)
    if args.expect is not None and not args.estimator:
        raise UsageError("--expect FILE has a table per implementation: give them with --estimator NAME")
    estimators, unjudged, selected = [], [], {c.id for c in claims}
    if args.estimator:
        claims, unjudged, estimators = _with_estimators(claims, args.estimator, args.profile, args.exact_max_n,
                                                        set(args.names))
    declared = ["declared"] if "declared" in (args.estimator or ()) else []
    expect = _expectations(args.expect, [e.name for e in estimators] + declared, selected, [c.id for c in claims],
                           {run.id: (v.status, v.summary) for run, v in unjudged})
    if not claims:  # every selected claim is n/a for the given implementation(s): an answer, not an error
        return _finish([v for _, v in unjudged], False, expect=expect, selected=selected)
    if args.data is not None and not any(c.takes_data for c in claims):
        readers = [c.id for c in _select(None) if c.takes_data]
        _warn("--data is ignored: none of the selected claims reads a data file "
              f"(those that do: {', '.join(readers) or 'none is registered'})")
    for claim in claims:  # bad options (an unreadable --data file) stop here, before the store is touched
        try:
            claim.cells(args.profile, options)
        except ValueError as exc:
            raise UsageError(f"{claim.id}: {exc}") from None
    out = Path(args.out)
    fix_malloc_thresholds(CELL_MMAP_THRESHOLD)  # this process runs the cells under --jobs 1 and forks the plotting workers
    executor, close = _make_executor(args)  # an unreachable scheduler stops here, before the store is touched
    try:
        store = _open_store(out, create=True)
    except BaseException:
        close()
        raise
    try:
        try:
            print(f"kpca-suite: {len(claims)} claim(s), profile {args.profile}, store {store.path}",
                  file=sys.stderr)
            _set_aside(store, claims, args.profile, options, args.fresh)
            try:  # also the probe that the store can be written, before the first cell
                store.set_meta("last_run", datetime.now(timezone.utc).isoformat(timespec="seconds"))
                record_identities(store, estimators)
            except StoreError as e:
                raise UsageError(f"{e}; no cell was run") from None
            try:
                ev = evaluate(claims, args.profile, store, executor, jobs=args.jobs, options=options,
                              progress=not args.no_progress, trace_memory=args.trace_memory, keep=keep)
            except UndeclaredMetric as e:  # a claim's declaration is wrong: no verdict can be given
                raise UsageError(str(e)) from None
            except StoreError as e:  # a read-only file, a full disk: what was stored stays
                raise UsageError(f"{e}; the cells stored before are kept and a rerun resumes") from None
            except KeyboardInterrupt:
                _err(f"interrupted; finished cells are kept in {store.path} and a rerun resumes")
                return 130
        finally:
            close()
        try:
            store.set_meta("profile", args.profile)
            store.set_meta("options", json.dumps(options))
        except StoreError as e:
            raise UsageError(f"{e}; the cells stored before are kept and a rerun resumes") from None
        for line in ev.recomputed:
            print(f"kpca-suite: {line}", file=sys.stderr)
        if ev.skipped:
            print(f"kpca-suite: resumed: {ev.skipped} cell(s) already in the store, "
                  f"{ev.executed} run now", file=sys.stderr)
        for _, v in unjudged:  # n/a before any cell ran: in the report too
            ev.verdicts[v.claim] = v
        whole, every, every_expected = _with_stored(store, ev, claims + [c for c, _ in unjudged], args.profile,
                                                    options, expected)
        with _writing_outputs(out, args.svg):
            _report_errors(ev, out)
            written = write_outputs(whole, every, out, args.profile, store, jobs=args.jobs,
                                    expected=every_expected, ran=set(ev.verdicts))
        for e in written["errors"]:
            _warn(e)
        code = _finish(list(ev.verdicts.values()), bool(ev.errors), expected, expect, selected)
        md, html_ = written["report"]
        print(f"report: {md} and {html_}")
        print(f"ledger head {store.head} (keep it elsewhere: `kpca-suite report --verify --head {store.head[:16]} "
              f"--out {out}` then shows the store was not cut or rewritten since)")
        return code
    finally:
        store.close()


def _positive(option: str, value) -> None:
    """The rule of :func:`suites.arguments.positive_int` (the Python API's), as a usage error."""
    try:
        positive_int(option, value)
    except ValueError as e:
        raise UsageError(str(e)) from None


def _expectations(path, implementations, selected, runs, unjudged):
    """``--expect FILE`` (:class:`suites.expectations.Expectations`; without it none), read
    and checked before any cell runs (:meth:`~suites.expectations.Expectations.before_run`;
    ``runs`` the ids of the runs to come, ``unjudged`` ``{run id: (status, why)}`` of those
    given a verdict before), a usage error naming the file, the table and the key."""
    from .expectations import Expectations
    if path is None:
        return Expectations()
    try:
        return Expectations.before_run(path, implementations, {c.id for c in _select(None)}, selected,
                                       {**{r: ("planned", "") for r in runs}, **unjudged})
    except ValueError as e:
        raise UsageError(str(e)) from None


def _planted(claims, args) -> tuple:
    """``--fault NAME`` / ``--faults``: (the selected claims' planted faults, each as a claim
    of its own, :func:`suites.faults.fault_runs`; the cell filter of their faults' ``keep``;
    ``{run id: the verdict its fault declares}``). A ``--fault`` that a selected claim does
    not declare, or ``--estimator`` besides (the faults are planted in the claims' own
    estimators), is a usage error."""
    from .faults import fault_runs, keep_faults
    if args.estimator:
        option = "--faults" if args.faults else f"--fault {args.fault}"
        raise UsageError(f"{option} plants a fault in the claims' own estimators, --estimator runs another "
                         "implementation: give one of them")
    if args.fault is not None:
        lacking = [c.id for c in claims if args.fault not in {f.name for f in c.faults}]
        if lacking:
            raise UsageError(_no_such_fault(args.fault, claims, lacking))
    runs = fault_runs(claims, args.fault)
    if not runs:
        raise UsageError("--faults: none of the selected claims declares a planted fault")
    return [run for run, _ in runs], keep_faults(runs), {run.id: fault.expect for run, fault in runs}


def _no_such_fault(name: str, claims, lacking) -> str:
    """The usage error of ``--fault NAME`` that the claims ``lacking`` (ids) do not declare:
    the faults of the one claim selected, or which of several selected claims do declare it."""
    if len(claims) == 1:
        return (f"--fault {name}: {claims[0].id} declares no planted fault of that name; its faults: "
                f"{', '.join(f.name for f in claims[0].faults) or 'none'}")
    having = [c.id for c in claims if c.id not in lacking]
    return (f"--fault {name}: {len(lacking)} of the {len(claims)} selected claims do not declare it "
            f"({', '.join(lacking)}); " + (f"those that do: {', '.join(having)}" if having else
                                          "none does (`kpca-suite list CLAIM` names a claim's faults)"))


def _set_aside(store, claims, profile, options, fresh: bool) -> None:
    """With ``--fresh``, set the stored cells of the claims' sweeps aside (kept in the
    store's ``superseded`` table) so that they run again. (Cells of code that changed
    since are recomputed by any run, and said so: :mod:`suites.identity`.)"""
    if fresh:
        keys = {c.key() for claim in claims for c in claim.cells(profile, options)}
        try:
            moved = store.set_aside(keys)
        except StoreError as e:
            raise UsageError(str(e)) from None
        print(f"kpca-suite: --fresh: {moved} stored cell(s) set aside (kept in the store's table "
              "superseded); they run again", file=sys.stderr)


def _with_estimators(claims, specs, profile, exact_max_n=None, named=()):
    """(the claims to run with each ``--estimator`` (``declared``: the claim's own), the
    verdicts given before any cell runs (``n/a`` for the claims an implementation cannot
    run; ``fails`` for those whose factory raised when built: a crash), the resolved
    estimators), after the up-front check that each factory imports and builds an object
    of the role (:func:`suites.conformance.applicability`, the rule of ``check`` and
    ``conformance`` too). What a claim costs an implementation doing dense n x n work
    is said before it runs."""
    from .conformance import applicability, crashed, dense_cost, resolve, variant
    from .roles import EstimatorError, FactoryRaised
    try:
        estimators = [None if spec == "declared" else resolve(spec) for spec in specs]
    except EstimatorError as e:
        raise UsageError(str(e)) from None
    names = [e.name for e in estimators if e is not None]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise UsageError(f"--estimator: the name(s) {', '.join(twice)} given twice; each implementation needs its "
                         "own name (its cells are stored as CLAIM[NAME])")
    out, unjudged = [], []
    for claim in claims:
        for est in estimators:
            if est is None:
                out.append(claim)
                continue
            if claim.subject is None:
                if claim.id in named:
                    raise UsageError(f"{claim.id} declares no role, so --estimator cannot run it; "
                                     "`kpca-suite estimators` lists the claims that do")
                continue  # a claim of a named paper that only its own estimators run
            run = variant(claim, est)
            try:
                why = applicability(claim, est, profile, exact_max_n)
            except FactoryRaised as e:
                unjudged.append((run, crashed(run, e)))
                continue
            except EstimatorError as e:
                raise UsageError(str(e)) from None
            if why:
                unjudged.append((run, Verdict("n/a", why, claim=run.id)))
                continue
            cost = dense_cost(run, est, profile)
            if cost:
                print(f"kpca-suite: {cost}", file=sys.stderr)
            out.append(run)
    return out, unjudged, [e for e in estimators if e is not None]


def _stored_claims(store, names):
    """(the claims to judge, the planted faults' runs among them as ``[(run, fault)]``):
    registered claims with results in the store (restricted to ``names``); a claim run
    with another estimator (``id[name]``) is judged by its claim's rule, a planted fault's
    run (``id[fault:name]``) with its fault substituted again (:meth:`Claim.for_fault`).
    Results of unregistered claims, or of faults their claims no longer declare, are
    skipped with a warning."""
    stored = set(store.claims())
    registered = {c.id: c for c in _select(names)}
    claims = list(registered.values()) if names else [c for c in registered.values() if c.id in stored]
    faults = []
    for cid in sorted(stored):
        base = registered.get(cid.split("[", 1)[0])
        if base is None or cid == base.id:
            continue
        name = fault_name_of(cid)
        if name is None:
            claims.append(_judge_only(cid, store))
        elif name in {f.name for f in base.faults}:
            faults.append((base.for_fault(name), base.fault(name)))
    claims += [run for run, _ in faults]
    skipped = sorted(cid for cid in stored - {c.id for c in claims}
                     if not names or cid.split("[", 1)[0] in registered)
    if skipped:
        _warn(f"the store has results of unregistered claims (or of planted faults their claims no longer declare), "
              f"skipped: {', '.join(skipped)}")
    return claims, faults


def _judge_only(cid, store):
    """The claim ``id[name]`` without its estimator: enough to judge stored results,
    those of the implementation that ran most recently (its fingerprint, param
    ``implementation``)."""
    base, name = cid.split("[", 1)
    return registry.get(base).for_estimator(name[:-1], None, store.latest_params(cid).get("implementation"))


def _with_stored(store, ev, claims, profile, options, expected) -> tuple:
    """The report is the store's: (``ev`` with every other claim of the store judged from its
    stored cells at ``profile``, as ``report`` judges them, the claims of both, the planted
    faults' runs' declared verdicts of both). A run of one claim thus rewrites the report of all."""
    from .faults import keep_faults
    from .pipeline import evaluate, merged
    others, faults = _stored_claims(store, None)
    others = [c for c in others if c.id not in ev.verdicts]
    if not others:
        return ev, list(claims), dict(expected)
    faults = [(run, fault) for run, fault in faults if run.id not in ev.verdicts]
    rest = evaluate(others, profile, store, options=options, run=False, keep=keep_faults(faults))
    return merged(ev, rest), list(claims) + others, {**expected, **{run.id: f.expect for run, f in faults}}


def _stored_profile(store, args):
    profile = args.profile or store.get_meta("profile") or "quick"
    try:
        options = json.loads(store.get_meta("options") or "{}")
    except ValueError:
        options = {}
    return profile, options


def _rejudge(store, args, out):
    """Judge the stored results again (no cell runs; a planted fault's run on its fault's
    cells), redraw the plots and rewrite the report. Returns (the evaluation, the outputs
    written, ``{fault run id: the verdict its fault declares}``)."""
    from .faults import keep_faults
    from .pipeline import evaluate, write_outputs
    claims, faults = _stored_claims(store, args.names)
    if not claims:
        raise UsageError(f"no results of registered claims in {store.path}; run `kpca-suite run` first")
    profile, options = _stored_profile(store, args)
    expected = {run.id: fault.expect for run, fault in faults}
    ev = evaluate(claims, profile, store, options=options, run=False, keep=keep_faults(faults))
    with _writing_outputs(out, args.svg):
        _report_errors(ev, out)
        written = write_outputs(ev, claims, out, profile, store, jobs=None, expected=expected)
    for e in written["errors"]:
        _warn(e)
    return ev, written, expected


def cmd_report(args) -> int:
    out = Path(args.out)
    if args.head is not None and not args.verify:
        raise UsageError("--head is checked by --verify: give both")
    if args.adopt and (args.verify or args.names):
        raise UsageError("--adopt takes the whole store in: give it alone")
    store = _open_store(out, create=False, verify=not args.verify)  # opening verifies every row (module store)
    try:
        if args.adopt:
            return _adopt(store)
        if args.verify:
            return _verify(store, args.names, args.head)
        ev, written, expected = _rejudge(store, args, out)
        code = _finish(list(ev.verdicts.values()), bool(ev.errors), expected)
        md, html_ = written["report"]
        print(f"report: {md} and {html_}")
        return code
    finally:
        store.close()


def _adopt(store) -> int:
    """``report --adopt``: a store written before the ledger gets one, its rows taken in as
    they are now (and named adopted by ``--verify`` ever after)."""
    try:
        adopted = store.adopt()
    except StoreError as e:
        raise UsageError(str(e)) from None
    if not adopted:
        print(f"{store.path} has a ledger already: nothing to adopt; ledger head {store.head}")
        return 0
    print(f"{store.path}: {adopted} row(s) written before the ledger adopted as they are now (they stay named "
          f"adopted); ledger head {store.head}")
    return 0


def _verify(store, names, head=None) -> int:
    """``report --verify [NAME ...] [--head HEAD]``: the ledger and the rows of the named
    claims or papers (all by default) checked, against a head kept elsewhere when given;
    0 when they match, 2 (a usage error naming the problem) when not."""
    claims = None
    if any(not n.strip() for n in names or ()):
        raise UsageError("--verify: an empty claim or paper name was given")
    if names:
        stored = store.claims()

        def of(name):
            return [c for c in stored if name in (c, c.split("[", 1)[0], c.split(".", 1)[0])]
        unknown = [repr(n) for n in names if not of(n)]
        if unknown:
            raise UsageError(f"--verify: the store {store.path} has no rows of {', '.join(unknown)}"
                             + (f" (it has rows of {len(stored)} claim(s); `kpca-suite report` lists them)"
                                if stored else " (it has none)"))
        claims = sorted({c for n in names for c in of(n)})
    try:
        found = store.verify(claims, head=head)
    except StoreError as e:
        raise UsageError(str(e)) from None
    what = f" of {', '.join(names)}" if names else ""
    if found["unverified"]:
        print(f"{store.path}: {found['unverified']} row(s){what} were written before the ledger was kept and are "
              "NOT verified; `kpca-suite report --adopt` takes them in as they are")
        return 0
    adopted = (f", {found['adopted']} of them adopted from before the ledger (unverified until then)"
               if found["adopted"] else "")
    since = "the current one" if not found["since"] else f"{found['since']} entries ago"
    kept = "" if head is None else f"; it holds the head kept elsewhere ({since})"
    print(f"{store.path}: {found['verified']} row(s){what} match the ledger{adopted}; ledger head {found['head']}{kept}")
    return 0


def cmd_plot(args) -> int:
    out = Path(args.out)
    store = _open_store(out, create=False)
    try:
        ev, written, _ = _rejudge(store, args, out)
        for ps in written["plots"].values():
            for p in ps:
                print(p)
        return 1 if ev.errors or written["errors"] else 0
    finally:
        store.close()


def cmd_estimators(args) -> int:
    """The roles, the built-in adapters, and the claims that declare a role."""
    from .adapters import ADAPTERS
    from .roles import ROLES
    print("roles (factory: make(n_components, budget, kernel, random_state)):")
    for r in ROLES.values():
        print(f"  {r.name:<22} {', '.join(r.methods):<24} budget = {r.budget}")
    print("\nbuilt-in estimators (--estimator NAME; yours: --estimator NAME=MODULE:FACTORY):")
    for a in ADAPTERS.values():
        notes = ["centres" if a.centred else "uncentred"]
        if not a.budgeted:
            notes.append("ignores the budget")
        if a.kernels is not None:
            notes.append("kernels: " + "/".join(a.kernels))
        if not a.available():
            notes.append(f"needs {a.requires} (not installed)")
        print(f"  {a.name:<30} {', '.join(a.roles):<40} {a.description}; {'; '.join(notes)}")
    print("\nclaims that take another estimator:")
    for c in _select(None):
        if c.subject is not None:
            print(f"  {c.id:<32} {c.subject.role:<22} {c.subject.kernel} kernel; {c.subject.budget}")
    return 0


def cmd_conformance(args) -> int:
    """Every claim with a role x every built-in implementation of it: the matrix."""
    from .adapters import ADAPTERS
    from .conformance import dense_cost, draw_overlays, matrix, plan, resolve, write_matrix
    from .expectations import judge_matrix, run_key
    from .pipeline import evaluate, write_outputs
    from .roles import EstimatorError
    from .runner import sweep_cells
    _positive_jobs(args.jobs)
    _positive("--exact-max-n", args.exact_max_n)
    selected = _select(args.names)
    claims = [c for c in selected if c.subject is not None]
    if not claims:
        raise UsageError("none of the selected claims declares a role (`kpca-suite estimators` lists those that do)")
    try:
        adapters = [resolve(spec) for spec in args.estimators] if args.estimators else \
            [a.estimator() for a in ADAPTERS.values()]
    except EstimatorError as e:
        raise UsageError(str(e).replace("--estimator ", "--estimators ", 1)) from None
    names = [a.name for a in adapters]
    twice = sorted({n for n in names if names.count(n) > 1 or n == "declared"})
    if twice:
        raise UsageError(f"--estimators: the name(s) {', '.join(twice)} given twice (or `declared`, the claims' own "
                         "column); each implementation needs its own name")
    runs, skipped = plan(claims, adapters, args.profile, args.exact_max_n)
    expect = _expectations(args.expect, ["declared"] + names, {c.id for c in selected}, [r.id for r in runs],
                           {f"{cid}[{name}]": (e.status, e.text) for (cid, name), e in skipped.items()})
    by_name = {a.name: a for a in adapters}
    for run in runs:
        est = by_name.get(run.estimator_name)
        cost = est is not None and dense_cost(run, est, args.profile)
        if cost:
            print(f"kpca-suite: {cost}", file=sys.stderr)
    out = Path(args.out)
    store = _open_store(out, create=True)
    try:
        reuse = Path(args.reuse)
        if (reuse / STORE_NAME).is_file() and reuse.resolve() != out.resolve():
            from .store import ResultStore
            keys = {c.key() for cells in sweep_cells(runs, args.profile).values() for c in cells}
            try:
                with ResultStore(reuse / STORE_NAME, create=False) as source:
                    copied = store.copy_from(source, keys)
            except StoreError as e:
                raise UsageError(f"--reuse {reuse}: {e}") from None
            if copied:
                print(f"kpca-suite: {copied} cell(s) taken from {reuse / STORE_NAME}, where the same code made them",
                      file=sys.stderr)
        print(f"kpca-suite: conformance of {len(claims)} claim(s) x {len(adapters)} estimator(s): "
              f"{len(runs)} runs, profile {args.profile}, store {store.path}", file=sys.stderr)
        try:
            store.set_meta("last_run", datetime.now(timezone.utc).isoformat(timespec="seconds"))
            record_identities(store, adapters)
            ev = evaluate(runs, args.profile, store, jobs=args.jobs, progress=not args.no_progress)
        except UndeclaredMetric as e:
            raise UsageError(str(e)) from None
        except StoreError as e:
            raise UsageError(f"{e}; the cells stored before are kept and a rerun resumes") from None
        except KeyboardInterrupt:
            _err(f"interrupted; finished cells are kept in {store.path} and a rerun resumes")
            return 130
        store.set_meta("profile", args.profile)
        whole, every, expected = _with_stored(store, ev, runs, args.profile, {}, {})
        with _writing_outputs(out, args.svg):
            _report_errors(ev, out)
            columns = matrix(claims, adapters, ev.verdicts, skipped, {})[0]
            overlays = draw_overlays(claims, columns, ev.verdicts, out)
            written = write_outputs(whole, every, out, args.profile, store, jobs=args.jobs, expected=expected,
                                    ran=set(ev.verdicts),
                                    extra_plots={cid: [p] + ([p.with_suffix(".svg")] if args.svg else [])
                                                 for cid, p in overlays.items()})
            columns, rows = matrix(claims, adapters, ev.verdicts, skipped, written["plots"])
            judged = judge_matrix(expect, {c.id for c in selected}, columns, rows)
            md, html_ = write_matrix(columns, rows, out, args.profile, adapters, overlays)
        for e in written["errors"]:
            _warn(e)
        for v in ev.verdicts.values():
            print(_verdict_line(v, judged.note(run_key(v.claim))))
        for message in judged.messages():
            _err(message)
        print(f"conformance matrix: {md} and {html_}")
        return judged.status if args.expect is not None else 0
    finally:
        store.close()


def _plan_timings(dirs, known):
    """Timings of the stores in ``dirs`` (``[(option, DIR)]``, the first holding a
    cell wins, and gets its peak from the first that traced it), stale keys per claim,
    and a line per store; each store is opened through its own validation and only read."""
    from .plan import read_timings
    from .store import ResultStore, StoreError
    timings, stale, sources = {}, {}, []
    for option, d in dirs:
        try:
            with ResultStore(Path(d) / STORE_NAME, create=False) as store:
                found, old = read_timings(store, known)
        except StoreError as e:
            raise UsageError(f"{option} {d}: {e}") from None
        for key, t in found.items():
            have = timings.setdefault(key, t)
            if not have.peak and t.peak:
                timings[key] = dataclasses.replace(have, peak=t.peak)
        for claim, keys in old.items():
            stale.setdefault(claim, set()).update(keys)
        sources.append(f"{d} ({len(found)} cells)")
    return timings, stale, sources


def _plan_run(calibration, what: str, message: str, run) -> bool:
    """``run(store)`` (a sweep) into the calibration store, saying ``message`` on stderr; True
    when interrupted (the finished cells are kept and a rerun resumes)."""
    store = _open_store(calibration, create=True)
    try:
        print(f"kpca-suite: {message} into {store.path}", file=sys.stderr)
        try:
            sweep = run(store)
        except KeyboardInterrupt:
            _err(f"interrupted; the {what} cells finished are kept in {store.path} and a rerun resumes")
            return True
    finally:
        store.close()
    for e in sweep.errors[:5]:
        _warn(f"{what}: {e}")
    return False


def cmd_plan(args) -> int:
    """The cost of a profile per claim and in total (suites/plan.py), from the
    timings of --store directories, calibrating claims that have none."""
    from . import plan
    from .pipeline import seed_looks
    from .runner import sweep_cells
    _positive_jobs(args.jobs)
    workers = (os.cpu_count() or 1) if args.workers is None else args.workers
    if workers < 1:
        raise UsageError(f"--workers must be a positive integer, got {workers}")
    claims = _select(args.names)
    if not claims:
        raise UsageError("no claims registered")
    every = _select(None)  # all claims' timings feed the paper-wide and suite-wide exponents
    known = {c.id: plan.current_keys(c) for c in every}
    calibration = Path(args.calibration)
    stores = [("--store", Path(d)) for d in args.store]
    given = {d.resolve() for _, d in stores}
    extra = [("--calibration", calibration)] if (calibration / STORE_NAME).exists() and \
        calibration.resolve() not in given else []
    if args.probe and args.no_calibrate:
        raise UsageError("--probe runs cells and --no-calibrate runs none: give one of them")
    if calibration.resolve() in given and not args.no_calibrate:
        raise UsageError(f"--calibration {calibration} is also a --store, which plan never writes; "
                         "give another --calibration directory (or --no-calibrate)")
    timings, stale, sources = _plan_timings(stores + extra, known)
    timed = {t.cell.claim for t in timings.values()}  # any finished run's wall times; memory only if traced
    missing = [c for c in claims if c.id not in timed]
    if missing and not args.no_calibrate:
        if _plan_run(calibration, "calibration", f"calibrating {len(missing)} claim(s) without timings "
                     f"({', '.join(c.id for c in missing)}): their ci cells",
                     lambda store: plan.calibrate(missing, store, jobs=args.jobs, progress=not args.no_progress)):
            return 130
        timings, stale, sources = _plan_timings(stores + [("--calibration", calibration)], known)
    cells = sweep_cells(claims, args.profile)
    probes = {c.key(): c for cid in cells for c in plan.probe_cells(cells[cid])} if args.probe else {}
    for key in set(probes) & set(timings):
        del probes[key]
    if probes:
        from .runner import run_sweep
        if _plan_run(calibration, "probe", f"probing {len(probes)} cell(s), per claim and method the largest and "
                     f"the smallest at the largest n, at {args.profile},",
                     lambda store: run_sweep(claims, args.profile, store, jobs=args.jobs,
                                             progress=not args.no_progress, keep=lambda c: c.key() in probes)):
            return 130
        timings, stale, sources = _plan_timings(stores + [("--calibration", calibration)], known)
    looks = {c.id: seed_looks(c, cells[c.id]) for c in claims}
    p = plan.make_plan(cells, args.profile, workers, timings, {c.id: c.paper for c in every},
                       {k: len(v) for k, v in stale.items()}, sources,
                       {cid: ls[0] for cid, ls in looks.items() if len(ls) > 1})
    sys.stdout.write(plan.format_plan(p))
    if args.json:
        try:
            Path(args.json).write_text(json.dumps(p.as_dict(), indent=1) + "\n", encoding="utf-8")
        except OSError as e:
            raise UsageError(f"--json {args.json}: cannot write: {e.strerror or e}") from None
    return 0


def cmd_bench(args) -> int:
    """Measure the selected perf claims and print (and optionally write) the table."""
    import time

    from . import perf
    if args.repeats < 1:
        raise UsageError(f"--repeats must be a positive integer, got {args.repeats}")
    try:
        perf.select(args.which)
    except ValueError as e:
        raise UsageError(f"--which: {e}") from None
    t0 = time.perf_counter()
    progress = (lambda cid: print(f"measuring {cid} ...", file=sys.stderr, flush=True)) if args.progress else None
    records = perf.run(args.which or None, profile=args.profile, repeats=args.repeats, memory=not args.no_memory,
                       progress=progress)
    text = perf.format_table(records)
    text += f"profile {args.profile}, {args.repeats} rounds, {time.perf_counter() - t0:.0f} s in all\n"
    print(text, end="")
    for path, content in ((args.out, text), (args.json, None)):
        if path:
            try:
                with open(path, "w", encoding="utf-8") as fh:
                    fh.write(content if content is not None else json.dumps([r.as_dict() for r in records], indent=1))
            except OSError as e:
                raise UsageError(f"{path}: cannot write: {e.strerror or e}") from None
    return 0


# ---------------------------------------------------------------------- parser

EXACT_MAX_N_HELP = ("the largest n at which an implementation declared exact (kind='exact') runs a claim; a claim "
                    "whose sweep goes further is n/a for it (default: the n whose n x n float64 matrix, five "
                    "times over, fills half of this machine's memory)")
EXPECT_HELP = ("a TOML file of expected failures, a table per implementation: [NAME] then \"CLAIM\" = \"reason\". A "
               "listed claim that fails or is inconclusive is marked XFAIL and does not fail the run; one that holds "
               "does (exit 1: remove it); one n/a for NAME, an unknown table or claim, a file that is not TOML: exit 2")
SVG_HELP = ("also write each figure as SVG beside its PNG (vector, for papers); without it an SVG left by an "
            "earlier drawing is removed")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="kpca-suite",
        description="Benchmark and theory-validation suite for kernel PCA: every claim has an "
                    "experiment, a prediction, a tolerance and a verdict (holds / fails / "
                    "inconclusive).",
        epilog="Exit status: 0 all selected claims hold (inconclusive: 0 with a note), "
               "1 a claim fails or a cell raised, 2 usage error.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True

    p = sub.add_parser("list", help="list the registered claims",
                       description="List the registered claims: id, source, prediction, tolerance, faults, sweep sizes.")
    p.add_argument("names", nargs="*", metavar="CLAIM-or-PAPER", help="restrict to these claims or papers")
    p.add_argument("--markdown", action="store_true",
                   help="print the catalogue as Markdown: every claim with the evidence for its "
                        "tolerance, its planted faults, each paper's errata and inventory")
    p.add_argument("--coverage", action="store_true",
                   help="print each paper's inventory of statements (theorems, lemmas, equations, tables, "
                        "figures): the claims that check each and how, or why none does, with counts")
    p.set_defaults(func=cmd_list)

    p = sub.add_parser("run", help="run claims, judge them, write plots and the report",
                       description="Run the sweeps of the selected claims (all by default), resuming "
                                   "from DIR/results.sqlite, judge each claim, and write DIR/plots/, "
                                   "DIR/report.md and DIR/report.html.")
    p.add_argument("names", nargs="*", metavar="CLAIM-or-PAPER",
                   help="claim ids or paper names (e.g. sterge20); default: every claim")
    p.add_argument("--profile", choices=PROFILES, default="quick",
                   help="sweep sizes: ci (seconds), quick (minutes, default), full (paper scale)")
    p.add_argument("--jobs", "-j", type=int, default=None, metavar="N",
                   help="worker processes (default: all CPUs; 1 runs serially in this process)")
    p.add_argument("--out", default="results", metavar="DIR", help="results directory (default: results)")
    p.add_argument("--data", default=None, metavar="PATH",
                   help="a data file for claims that accept one (e.g. MNIST .npz)")
    p.add_argument("--digit", type=int, default=None, metavar="LABEL",
                   help="keep only this label of the --data file (Sterge et al. 2020 used MNIST digits 2 and 5)")
    p.add_argument("--no-progress", action="store_true", help="no progress line on stderr")
    p.add_argument("--svg", action="store_true", help=SVG_HELP)
    p.add_argument("--estimator", action="append", default=None, metavar="NAME[=MODULE:FACTORY]",
                   help="run the claims with this implementation in place of their own (repeatable): a "
                        "built-in (`kpca-suite estimators`), NAME=MODULE:FACTORY for your factory "
                        "make(n_components, budget, kernel, random_state), or `declared` for the "
                        "claim's own; results are stored as CLAIM[NAME]")
    g = p.add_mutually_exclusive_group()
    g.add_argument("--fault", default=None, metavar="NAME",
                   help="run the selected claim(s) with their planted fault NAME substituted (`kpca-suite list "
                        "CLAIM` names them), on the fault's cells, stored as CLAIM[fault:NAME]; exit 0 when "
                        "each gives the verdict it declares (for a fault: fails), 1 otherwise")
    g.add_argument("--faults", action="store_true",
                   help="run every planted fault of the selected claims, as --fault does")
    p.add_argument("--fresh", action="store_true",
                   help="recompute the selected claims' cells even if stored (the old ones are set aside in "
                        "the store, not deleted)")
    p.add_argument("--exact-max-n", type=int, default=None, metavar="N", help=EXACT_MAX_N_HELP)
    p.add_argument("--expect", default=None, metavar="FILE", help=EXPECT_HELP + "; needs --estimator")
    p.add_argument("--trace-memory", action="store_true",
                   help="record each cell's peak traced memory (tracemalloc) for `kpca-suite plan`; slows "
                        "Python-heavy cells (up to 3.4x measured) and so their recorded wall time")
    g = p.add_mutually_exclusive_group()
    g.add_argument("--scheduler", metavar="ADDRESS", help="run the cells on a Dask distributed scheduler")
    g.add_argument("--cluster", choices=["local"], help="run the cells on a local Dask cluster")
    p.set_defaults(func=cmd_run)

    p = sub.add_parser("estimators", help="list the roles, the built-in estimators and the claims that take one",
                       description="List the roles an implementation can fill, the built-in adapters "
                                   "(ours, scikit-learn's, nystrompca's) and the claims that declare a role.")
    p.set_defaults(func=cmd_estimators)

    p = sub.add_parser("conformance", help="run every claim with a role for every built-in estimator",
                       description="Run each claim that declares a role with its own estimator and with every "
                                   "built-in implementation of the role; write DIR/conformance.md and .html "
                                   "(claims x implementations), the plots and the report.")
    p.add_argument("names", nargs="*", metavar="CLAIM-or-PAPER", help="restrict to these claims or papers")
    p.add_argument("--profile", choices=PROFILES, default="quick", help="sweep sizes (default: quick)")
    p.add_argument("--estimators", nargs="+", metavar="NAME[=MODULE:FACTORY]", default=None,
                   help="the implementations to compare: built-ins (`kpca-suite estimators`) and your own "
                        "factories as NAME=MODULE:FACTORY (default: every built-in)")
    p.add_argument("--jobs", "-j", type=int, default=None, metavar="N", help="worker processes (default: all CPUs)")
    p.add_argument("--out", default="results/conformance", metavar="DIR",
                   help="results directory (default: results/conformance)")
    p.add_argument("--reuse", default="results", metavar="DIR",
                   help="take the cells this matrix needs from the store of DIR when the same code made them "
                        "(the same cell key, which names an implementation's fingerprint, and the same "
                        "kpca-suite code); default: results, the store of `kpca-suite run`")
    p.add_argument("--exact-max-n", type=int, default=None, metavar="N", help=EXACT_MAX_N_HELP)
    p.add_argument("--expect", default=None, metavar="FILE",
                   help=EXPECT_HELP + "; with it, a claim that fails unlisted exits 1 (without it, 0: the matrix is "
                        "a finding)")
    p.add_argument("--no-progress", action="store_true", help="no progress line on stderr")
    p.add_argument("--svg", action="store_true", help=SVG_HELP)
    p.set_defaults(func=cmd_conformance)

    p = sub.add_parser("plan", help="estimate the CPU time, memory and wall time of a profile",
                       description="Estimate per claim and in total the cells, CPU time and peak memory per "
                                   "cell of a profile, and its wall time on W workers: measured cells from "
                                   "the --store directories (only read), the others from a cost model fitted "
                                   "on them in n and the size parameters (suites/plan.py). Any finished run's "
                                   "timings serve; peak memory is estimated where cells were traced (`run "
                                   "--trace-memory`), else said not traced. A claim with no timings at all is "
                                   "calibrated first by running its ci cells with their memory traced "
                                   "(--no-calibrate: it is reported without them).")
    p.add_argument("names", nargs="*", metavar="CLAIM-or-PAPER", help="restrict to these claims or papers")
    p.add_argument("--profile", choices=PROFILES, default="quick", help="the profile to plan (default: quick)")
    p.add_argument("--store", action="append", default=[], metavar="DIR",
                   help="a results directory (`kpca-suite run --out DIR`) whose timings to use; repeatable, "
                        "the first holding a cell wins; never written")
    p.add_argument("--workers", "-w", type=int, default=None, metavar="W",
                   help="workers of the wall-time estimate (default: all CPUs)")
    p.add_argument("--calibration", default="results/calibration", metavar="DIR",
                   help="where calibration cells run and are kept, read by later plans "
                        "(default: results/calibration)")
    p.add_argument("--no-calibrate", action="store_true", help="run nothing: claims without timings are reported so")
    p.add_argument("--probe", action="store_true",
                   help="first time, per claim and method, the largest cell of the planned profile and the smallest "
                        "at its largest n (into --calibration): a law fitted on smaller cells can be far off "
                        "at paper scale")
    p.add_argument("--jobs", "-j", type=int, default=None, metavar="N",
                   help="worker processes of the calibration run (default: all CPUs)")
    p.add_argument("--json", default=None, metavar="FILE", help="also write the plan as JSON to FILE")
    p.add_argument("--no-progress", action="store_true", help="no progress line during calibration")
    p.set_defaults(func=cmd_plan)

    for name, func, helptext in (
            ("report", cmd_report, "re-judge the stored results and rewrite the report (runs nothing)"),
            ("plot", cmd_plot, "redraw the plots from the stored results (runs nothing)")):
        p = sub.add_parser(name, help=helptext, description=helptext[0].upper() + helptext[1:] + ".")
        p.add_argument("names", nargs="*", metavar="CLAIM-or-PAPER",
                       help="restrict to these claims (default: every claim in the store)")
        p.add_argument("--out", default="results", metavar="DIR", help="results directory (default: results)")
        p.add_argument("--profile", choices=PROFILES, default=None,
                       help="judge the cells of this profile (default: the profile of the last run)")
        p.add_argument("--svg", action="store_true", help=SVG_HELP)
        if name == "report":
            p.add_argument("--verify", action="store_true",
                           help="only check the store's ledger and the rows of the named claims (all by default) "
                                "and say how many match; exit 2 naming the first row or entry that does not")
            p.add_argument("--head", metavar="HEAD", default=None,
                           help="with --verify: a ledger head kept outside the store (`run` prints it); exit 2 "
                                "unless the store's ledger still holds it (a cut or rewritten store does not)")
            p.add_argument("--adopt", action="store_true",
                           help="give a store written before the ledger one, its rows taken in as they are now; "
                                "until then its rows are named unverified and nothing is added to it")
        p.set_defaults(func=func)

    p = sub.add_parser(
        "bench", help="measure the performance claims as ratios (benchmarks, not tests)",
        description="Measure every perf.* claim in one process run: each contender (ours, the peers, the "
                    "machine's floor) warmed up, then timed in interleaved rounds (best of the rounds), "
                    "peak memory in a child process, the load average recorded. Prints one Markdown "
                    "table; exits 0 once measured.")
    p.add_argument("--profile", choices=PROFILES, default="full",
                   help="sizes, as for claims: ci (seconds), quick (about a minute), full (the stated sizes; "
                        "default)")
    p.add_argument("--repeats", type=int, default=3, help="timed rounds, best of them; default 3")
    p.add_argument("--which", nargs="+", metavar="CLAIM", default=None,
                   help="measure only these perf claims (ids, 'perf.' optional); default all")
    p.add_argument("--no-memory", action="store_true", help="skip the peak-memory child processes")
    p.add_argument("--out", metavar="FILE", default=None, help="also write the Markdown table to FILE")
    p.add_argument("--json", metavar="FILE", default=None, help="also write the records as JSON to FILE")
    p.add_argument("--progress", action="store_true", help="name each claim on stderr as it starts")
    p.set_defaults(func=cmd_bench)
    return parser


def main(argv=None) -> int:
    """Entry point of the ``kpca-suite`` console script; returns the exit status."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as e:  # argparse: --help (0) or a usage error (2)
        return int(e.code or 0) if not isinstance(e.code, str) else 2
    try:
        with _plugin_warnings():
            return int(args.func(args) or 0)
    except UsageError as e:
        _err(str(e))
        return 2
    except BrokenPipeError:  # e.g. `kpca-suite list | head`
        return 0
    except KeyboardInterrupt:  # outside a sweep (drawing, the report): stored results are complete
        _err("interrupted; the results store is unchanged, `kpca-suite report` rewrites the report")
        return 130


if __name__ == "__main__":
    sys.exit(main())
