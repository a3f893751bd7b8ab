"""Does every claim decide the same way whatever the draw? ``python -m tests.decisiveness
--roots 1 2 3 [--profile ci] [--claims ID ...] [--out FILE]`` (from the repository root).

A claim's random streams follow its id (:meth:`suites.claim.Cell.rng`), so the claim with
the id ``<id>~root<r>`` draws every sample, landmark and feature afresh: an independent
root seed, with the same sizes, seeds per size, experiment and judge. Each claim runs at
the profile given (default ci) under each root given, serially and in memory (no store is touched), and
the script prints one line per (claim, root) and then a table of the verdicts, flagging
every claim that does not decide as it does under its own id (root 0). A verdict that
changes with the root says the claim needs more seeds or a sharper check.

Run it before a release; at ci it takes a few minutes per root on 2 cores, at quick about
ten (start two processes on disjoint roots to use both).
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
import time

from kpca_suite.suites import registry
from kpca_suite.suites.claim import PROFILES
from kpca_suite.suites.pipeline import evaluate
from kpca_suite.suites.files import write_text


def under_root(claim, root: int):
    """The claim with independent random streams: id ``<id>~root<root>`` (root 0: itself)."""
    return claim if root == 0 else dataclasses.replace(claim, id=f"{claim.id}~root{root}", faults=())


def verdict(claim, root: int, profile: str = "ci") -> tuple:
    """(status, summary) of ``claim`` under ``root`` at ``profile``; "raised" when a cell raised."""
    variant = under_root(claim, root)
    ev = evaluate([variant], profile, jobs=1)
    v = ev.verdicts[variant.id]
    if ev.errors:
        return "raised", f"{v.summary} | {'; '.join(ev.errors)[:200]}"
    return v.status, v.summary


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tests.decisiveness", description=__doc__.split("\n\n")[0])
    ap.add_argument("--roots", nargs="+", type=int, required=True, help="root seeds (0: the claim's own draw)")
    ap.add_argument("--profile", default="ci", choices=PROFILES)
    ap.add_argument("--claims", nargs="+", metavar="ID", help="claim ids or papers (default: every claim)")
    ap.add_argument("--out", help="write the table (Markdown) to this file")
    args = ap.parse_args(argv)
    claims = registry.select(args.claims or None)
    rows = {}
    for claim in claims:
        for root in args.roots:
            t0 = time.perf_counter()
            status, summary = verdict(claim, root, args.profile)
            rows.setdefault(claim.id, {})[root] = status
            print(f"{claim.id} root {root}: {status} ({time.perf_counter() - t0:.0f} s) {summary}", flush=True)
    lines = ["| claim | " + " | ".join(f"root {r}" for r in args.roots) + " | decides alike |",
             "|---|" + "---|" * (len(args.roots) + 1)]
    for cid, by_root in rows.items():
        alike = len(set(by_root.values())) == 1
        lines.append(f"| {cid} | " + " | ".join(by_root[r] for r in args.roots) + f" | {'yes' if alike else 'NO'} |")
    table = "\n".join(lines) + "\n"
    print("\n" + table, end="")
    if args.out:
        write_text(args.out, table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
