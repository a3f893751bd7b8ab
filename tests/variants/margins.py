"""The two margins of every threshold of the claims with a role: the worst value a correct
implementation reads (ours and the corpus's variants) and the best value a planted fault
reads, beside the limit. A threshold belongs between them, with room on both sides.

Usage, from the repository root::

    python -m tests.variants.margins [--claims ID ...] [--out FILE]

Runs each claim at ci (root 0) with its own estimator, with every variant of the corpus
its role reaches (a claim without a role: its own estimator only) and with each of its planted faults (the cells the fault declares), and
for each judged number with an upper limit (``<x>_at_most``) tables the worst correct value,
the best faulty one and the room on each side (limit / worst correct, best faulty / limit);
for each slope band, in slope units, the least room a correct CI leaves inside the band and
how far outside it the nearest failing fault's CI lies; for each coverage floor
(``<x>_at_least``), the lowest correct coverage and the highest faulty one below the floor.
A fault that leaves a number within its limit is caught by another check of the claim; its
value is still shown.
"""

from __future__ import annotations

import argparse
import math
import sys

from kpca_suite.suites import registry
from kpca_suite.suites.conformance import applicability, user_estimator, variant
from kpca_suite.suites.pipeline import evaluate
from kpca_suite.suites.files import write_text

from .corpus import VARIANTS


def limits(verdict) -> dict:
    """``{check: (value, limit)}`` of the verdict's upper limits (a value that is not finite as inf)."""
    out = {}
    for key, limit in verdict.predicted.items():
        if key.endswith("_at_most") and isinstance(limit, (int, float)):
            value = verdict.measured.get(key[:-len("_at_most")])
            if isinstance(value, (int, float)):  # NaN or inf reads as the worst value, never as room
                out[key[:-len("_at_most")]] = (float(value) if math.isfinite(value) else math.inf, float(limit))
    return out


def bands(verdict) -> dict:
    """``{check: (room, band)}`` of the verdict's slope bands: the room, in slope units, from
    the CI's ends to the band's nearest end (negative: the CI reaches out of the band; a CI
    that is not finite has room -inf)."""
    out = {}
    for key, band in verdict.predicted.items():
        if key.endswith("_band"):
            name = key[:-len("_band")]
            lo, hi = verdict.measured.get(f"{name}_ci_low"), verdict.measured.get(f"{name}_ci_high")
            if isinstance(lo, (int, float)) and isinstance(hi, (int, float)):
                room = min(lo - band[0], band[1] - hi)
                out[name] = (room if math.isfinite(room) else -math.inf, tuple(band))
    return out


def coverages(verdict) -> dict:
    """``{check: (value, level)}`` of the verdict's coverage floors (``<x>_at_least``)."""
    out = {}
    for key, level in verdict.predicted.items():
        if key.endswith("_at_least") and isinstance(level, (int, float)):
            value = verdict.measured.get(key[:-len("_at_least")])
            if isinstance(value, (int, float)):
                out[key[:-len("_at_least")]] = (float(value) if math.isfinite(value) else -math.inf, float(level))
    return out


def _threshold_row(claim, check, limit, correct, faulty) -> str:
    # the worst correct value against its own run's limit (a float32 variant's is higher)
    # a correct run whose verdict lacks the check (it failed before it: a NaN, a crash) is the worst, never room
    seen = [(value / lim if lim > 0 else value, value, lim, who) for who, v in correct.items()
            for value, lim in [limits(v).get(check, (math.inf, limit))]]
    _, worst, worst_limit, who = max(seen)
    caught = [(value, which) for which, v in faulty.items()
              for value, lim in [limits(v).get(check, (-math.inf, limit))] if value > lim]
    best, which = min(caught, default=(math.nan, "none: caught by other checks"))
    below = f"x{worst_limit / worst:.3g}" if worst > 0 else "all <= 0"
    above = f"x{best / limit:.3g}" if math.isfinite(best) and limit > 0 else "-"
    shown = f"{limit:g}" + (f" ({worst_limit:g} for {who})" if worst_limit != limit else "")
    return f"| {claim.id} | {check} | {shown} | {worst:.3g} ({who}) | {best:.3g} ({which}) | {below} | {above} |"


def gap(verdict, check) -> float:
    """How far the CI of ``check`` lies outside its band, in slope units: the distance from the
    band to the CI's nearer end (positive only when the whole CI is outside, as a failing
    slope check needs; NaN when the verdict has no such CI)."""
    lo, hi = verdict.measured.get(f"{check}_ci_low"), verdict.measured.get(f"{check}_ci_high")
    band = verdict.predicted.get(f"{check}_band")
    if band is None or not isinstance(lo, (int, float)) or not isinstance(hi, (int, float)):
        return math.nan
    return max(band[0] - hi, lo - band[1])


def _band_row(claim, check, band, correct, faulty) -> str:
    """Slope units: the least room of a correct CI inside the band; how far outside it the
    CI of the nearest fault that the slope check fails lies."""
    room, who = min((bands(v).get(check, (-math.inf,))[0], w) for w, v in correct.items())  # missing: worst
    outside = [(gap(v, check), which) for which, v in faulty.items() if gap(v, check) > 0]
    best, which = min(outside, default=(math.nan, "none: caught by other checks"))
    shown = f"[{band[0]:+.3g}, {band[1]:+.3g}]"
    return (f"| {claim.id} | {check} (slope) | {shown} | room {room:+.3f} ({who}) | {best:+.3f} outside ({which}) "
            f"| {room:+.3f} | {best:+.3f} |")


def _coverage_row(claim, check, level, correct, faulty) -> str:
    value, who = min((coverages(v).get(check, (-math.inf,))[0], w) for w, v in correct.items())  # missing: worst
    low = [(coverages(v)[check][0], which) for which, v in faulty.items()
           if check in coverages(v) and coverages(v)[check][0] < level]
    best, which = max(low, default=(math.nan, "none: caught by other checks"))
    return (f"| {claim.id} | {check} (coverage) | >= {level:g} | {value:.3g} ({who}) | {best:.3g} ({which}) "
            f"| {value - level:+.3g} | {level - best:+.3g} |")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tests.variants.margins", description=__doc__.split("\n\n")[0])
    ap.add_argument("--claims", nargs="+", metavar="ID",
                    help="claims or papers, with a role or not (default: every claim with a role)")
    ap.add_argument("--out", help="also write the Markdown table to this file")
    args = ap.parse_args(argv)
    lines = ["| claim | check | limit | worst correct (who) | best fault (which) | room below | room above |",
             "|---|---|---|---|---|---|---|"]
    for claim in (c for c in registry.select(args.claims or None) if args.claims or c.subject is not None):
        correct = {"ours": evaluate([claim], "ci", jobs=1).verdicts[claim.id]}
        for var in (v for v in VARIANTS if claim.subject is not None and claim.subject.role in v.roles):
            est = user_estimator(var.name, var.factory)
            if applicability(claim, est, "ci") is None:
                run = variant(claim, est)
                correct[var.name] = evaluate([run], "ci", jobs=1).verdicts[run.id]
        faulty = {f.name: evaluate([claim.with_fault(f.name)], "ci", jobs=1, keep=f.keep).verdicts[claim.id]
                  for f in claim.faults}
        ours = correct["ours"]
        rows = [_threshold_row(claim, check, limit, correct, faulty) for check, (_, limit) in limits(ours).items()]
        rows += [_band_row(claim, check, band, correct, faulty) for check, (_, band) in bands(ours).items()]
        rows += [_coverage_row(claim, check, level, correct, faulty)
                 for check, (_, level) in coverages(ours).items()]
        for row in rows:
            lines.append(row)
            print(row, flush=True)
    table = "\n".join(lines) + "\n"
    if args.out:
        write_text(args.out, table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
