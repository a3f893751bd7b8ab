"""Run the corpus of correct variants: every variant x every claim its roles reach, under
root seeds, and table the verdict, the check that came closest to deciding otherwise, and
its margin.

Usage, from the repository root::

    python -m tests.variants.run [--only NAME ...] [--family F ...] [--claims ID ...]
                                 [--profile ci] [--roots 0 1 2 3 4] [--out FILE]

A claim a variant cannot run is ``n/a`` with the reason (the rule of ``check``). Under root
r > 0 a claim draws every sample, landmark and feature afresh (id ``<id>~root<r>``, as
:mod:`tests.decisiveness`). Each run is serial and in memory. One line is printed per
(variant, claim, root) as it ends, then a Markdown table; a variant that does not hold is a
defect of the claim (its tolerance, its assumptions), never of the variant.

The margin: for a threshold (``<x>_at_most``), the threshold over the worst value seen
(x 2.0 = half the threshold); for a slope band, the distance in slope units from the CI's
end to the band's nearest end; for a coverage, the level against its floor.
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import sys
import time

from kpca_suite.suites import registry
from kpca_suite.suites.conformance import applicability, user_estimator, variant
from kpca_suite.suites.pipeline import evaluate
from kpca_suite.suites.files import write_text

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


def run_one(var, claim, profile: str, root: int) -> dict:
    """The row of one (variant, claim, root)."""
    est = user_estimator(var.name, var.factory)
    why = applicability(claim, est, profile)
    row = {"variant": var.name, "family": var.family, "claim": claim.id, "root": root}
    if why is not None:
        return {**row, "status": "n/a", "check": "", "margin": why}
    run = under_root(variant(claim, est), root)
    t0 = time.perf_counter()
    ev = evaluate([run], profile, jobs=1)
    v = ev.verdicts[run.id]
    closest = margins(v)
    check, text = (closest[0][0], closest[0][1]) if closest else ("", "")
    if v.status != "holds":
        text = v.summary[:300]
    return {**row, "status": v.status, "check": check, "margin": text, "seconds": time.perf_counter() - t0}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tests.variants.run", description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", nargs="+", metavar="NAME", help="these variants (default: all)")
    ap.add_argument("--family", nargs="+", help="the variants of these families")
    ap.add_argument("--claims", nargs="+", metavar="ID", help="these claims or papers (default: every claim with a role)")
    ap.add_argument("--profile", default="ci", choices=("ci", "quick", "full"))
    ap.add_argument("--roots", nargs="+", type=int, default=[0])
    ap.add_argument("--out", help="also write the Markdown table to this file")
    args = ap.parse_args(argv)
    unknown = [n for n in args.only or () if n not in BY_NAME]
    if unknown:
        ap.error(f"unknown variant(s) {unknown}; known: {', '.join(BY_NAME)}")
    chosen = [v for v in VARIANTS if (not args.only or v.name in args.only)
              and (not args.family or v.family in args.family)]
    claims = [c for c in registry.select(args.claims or None) if c.subject is not None]
    rows = []
    for var in chosen:
        for claim in (c for c in claims if c.subject.role in var.roles):
            for root in args.roots:
                row = run_one(var, claim, args.profile, root)
                rows.append(row)
                secs = f" ({row['seconds']:.0f} s)" if "seconds" in row else ""
                print(f"{var.name} {claim.id} root {root}: {row['status']}{secs} {row['check']} {row['margin']}",
                      flush=True)
                if row["status"] == "n/a":
                    break  # the same reason under every root
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
