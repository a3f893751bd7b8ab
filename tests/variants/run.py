"""Run the corpus of correct variants: every variant x every claim its roles reach, under
root seeds, and table the verdict, the check that came closest to deciding otherwise, and
its margin.

Usage, from the repository root::

    python -m tests.variants.run [--only NAME ...] [--family F ...] [--claims ID ...]
                                 [--profile ci] [--roots 0 1 2 3 4] [--jobs N]
                                 [--store DIR] [--out FILE]

A claim a variant cannot run is ``n/a`` with the reason (the rule of ``check``). Under root
r > 0 a claim draws every sample, landmark and feature afresh (id ``<id>~root<r>``, as
:mod:`tests.decisiveness`). Every (variant, claim, root) is one claim of a single
:func:`~kpca_suite.suites.pipeline.evaluate`, so ``--jobs`` cells run at once whatever claim
they belong to. ``--store DIR`` keeps each finished cell in ``DIR/results.sqlite`` (each cell
carries the variant's code fingerprint): an interrupted run, rerun with the same arguments,
runs only the cells it lacks, and a variant whose code changed runs afresh. The whole corpus
at quick under five roots is several CPU-hours, so it is run that way, in pieces. One line
is printed per (variant, claim, root), then a Markdown table; a variant that does not hold
is a defect of the claim (its tolerance, its assumptions), never of the variant.

The margin: for a threshold (``<x>_at_most``), the threshold over the worst value seen
(x 2.0 = half the threshold); for a slope band, the distance in slope units from the CI's
end to the band's nearest end; for a coverage, the level against its floor.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import math
import sys
from pathlib import Path

from kpca_suite.suites import registry
from kpca_suite.suites.conformance import applicability, user_estimator, variant
from kpca_suite.suites.pipeline import evaluate
from kpca_suite.suites.files import write_text
from kpca_suite.suites.store import MemoryStore, ResultStore

from .corpus import BY_NAME, VARIANTS


def margins(verdict) -> list:
    """(check, text, score) for every judged number of ``verdict`` with a limit; the lower
    the score, the closer the check came to the other verdict (score < 0: violated)."""
    out = []
    for key, limit in verdict.predicted.items():
        if key.endswith("_at_most") and isinstance(limit, (int, float)):
            name = key[:-len("_at_most")]
            value = verdict.measured.get(name)
            if not isinstance(value, (int, float)) or not math.isfinite(value):
                continue
            if value <= 0 and limit >= 0:
                out.append((name, f"{value:.2g} <= {limit:g}", math.inf))
            elif value > 0 and limit > 0:
                out.append((name, f"{value:.2g} of {limit:g} (x{limit / value:.3g})", math.log10(limit / value)))
            else:
                out.append((name, f"{value:.2g} vs {limit:g}", limit - value))
        elif key.endswith("_band"):
            name = key[:-len("_band")]
            lo, hi = verdict.measured.get(f"{name}_ci_low"), verdict.measured.get(f"{name}_ci_high")
            if lo is None or hi is None:
                continue
            room = min(lo - limit[0], limit[1] - hi)
            out.append((name, f"CI [{lo:+.3f}, {hi:+.3f}] in [{limit[0]:+.3f}, {limit[1]:+.3f}] (room {room:+.3f})",
                        room * 10))
        elif key.endswith("_at_least"):
            name = key[:-len("_at_least")]
            value = verdict.measured.get(name)
            if isinstance(value, (int, float)):
                out.append((name, f"{value:.3g} >= {limit:g}", (value - limit) * 10))
    return sorted(out, key=lambda m: m[2])


def under_root(claim, root: int):
    """The variant claim ``<id>[name]`` with independent streams: ``<id>~root<r>[name]``."""
    if root == 0:
        return claim
    base, name = claim.id.split("[", 1)
    return dataclasses.replace(claim, id=f"{base}~root{root}[{name}")


def row_of(var, claim, root: int, verdict, results) -> dict:
    """The row of one (variant, claim, root): its verdict, the check that came closest to
    the other verdict (or the summary of a verdict other than holds), and the CPU seconds
    of its cells."""
    closest = margins(verdict)
    check, text = (closest[0][0], closest[0][1]) if closest else ("", "")
    if verdict.status != "holds":
        text = verdict.summary[:300]
    return {"variant": var.name, "family": var.family, "claim": claim.id, "root": root, "status": verdict.status,
            "check": check, "margin": text, "seconds": sum(r.wall_time for r in results if math.isfinite(r.wall_time))}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tests.variants.run", description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", nargs="+", metavar="NAME", help="these variants (default: all)")
    ap.add_argument("--family", nargs="+", help="the variants of these families")
    ap.add_argument("--claims", nargs="+", metavar="ID", help="these claims or papers (default: every claim with a role)")
    ap.add_argument("--profile", default="ci", choices=("ci", "quick", "full"))
    ap.add_argument("--roots", nargs="+", type=int, default=[0])
    ap.add_argument("--jobs", type=int, default=1, help="cells run at once, on a process pool (default 1: serial)")
    ap.add_argument("--store", metavar="DIR", help="keep the cells in DIR/results.sqlite; a rerun resumes "
                    "(default: in memory)")
    ap.add_argument("--out", help="also write the Markdown table to this file")
    args = ap.parse_args(argv)
    unknown = [n for n in args.only or () if n not in BY_NAME]
    if unknown:
        ap.error(f"unknown variant(s) {unknown}; known: {', '.join(BY_NAME)}")
    chosen = [v for v in VARIANTS if (not args.only or v.name in args.only)
              and (not args.family or v.family in args.family)]
    claims = [c for c in registry.select(args.claims or None) if c.subject is not None]
    rows, runs = [], []
    for var in chosen:
        est = user_estimator(var.name, var.factory)
        for claim in (c for c in claims if c.subject.role in var.roles):
            why = applicability(claim, est, args.profile)
            if why is not None:  # the same reason under every root
                rows.append({"variant": var.name, "family": var.family, "claim": claim.id, "root": args.roots[0],
                             "status": "n/a", "check": "", "margin": why})
                continue
            for root in args.roots:
                runs.append((var, claim, root, under_root(variant(claim, est), root)))
                rows.append(runs[-1])
    if args.store:
        Path(args.store).mkdir(parents=True, exist_ok=True)
    with ResultStore(Path(args.store) / "results.sqlite") if args.store else contextlib.nullcontext(MemoryStore()) \
            as store:
        ev = evaluate([run for *_, run in runs], args.profile, store=store, jobs=args.jobs, progress=True)
    rows = [row_of(r[0], r[1], r[2], ev.verdicts[r[3].id], ev.results[r[3].id]) if isinstance(r, tuple) else r
            for r in rows]
    for row in rows:
        secs = f" ({row['seconds']:.0f} s)" if "seconds" in row else ""
        print(f"{row['variant']} {row['claim']} root {row['root']}: {row['status']}{secs} {row['check']} "
              f"{row['margin']}")
    lines = ["| variant | family | claim | root | verdict | closest check | margin |", "|---|---|---|---|---|---|---|"]
    lines += [f"| {r['variant']} | {r['family']} | {r['claim']} | {r['root']} | {r['status']} | {r['check']} | "
              f"{str(r['margin']).replace('|', '/')} |" for r in rows]
    judged = [r for r in rows if r["status"] != "n/a"]
    false = [r for r in judged if r["status"] != "holds"]
    lines += ["", f"{len(judged)} verdicts on correct variants, {len(false)} not holding (false failures); "
              f"{len(rows) - len(judged)} n/a."]
    table = "\n".join(lines) + "\n"
    print("\n" + table, end="")
    if args.out:
        write_text(args.out, table)
    return 1 if false else 0


if __name__ == "__main__":
    sys.exit(main())
