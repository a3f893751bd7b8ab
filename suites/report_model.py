"""What the report says of each claim, shared by its two pages (:mod:`suites.report` writes
report.md and calls :mod:`suites.report_html` for report.html): the measured-versus-predicted
numbers, a claim's line at the glance (:class:`Entry`: the paper's result it checks, what was
judged, after how many seeds), the glance's order, a claim's cells and code identities, and the
files of its figures. Every number is written by :func:`suites.plots.number`."""

from __future__ import annotations

import json
import math
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional
from urllib.parse import quote

from .claim import fault_name_of
from .plots import band_text, fit_label, number, owner_of, safe_name

#: Text glyphs every common font has (an emoji check mark drew as an empty box in a browser with no
#: emoji font, e.g. headless Chromium on a server).
STATUS_MARK = {"holds": "✓ holds", "fails": "✗ fails", "inconclusive": "⚠ inconclusive", "n/a": "n/a"}

#: The order of the glance: what needs a reader's eye first.
STATUS_RANK = {"fails": 0, "inconclusive": 1, "n/a": 2, "holds": 3}

#: What each status means, under the glance.
STATUS_TEXT = ("holds: the measurement agrees with the prediction within the tolerance; fails: it contradicts "
               "it; inconclusive: the measurement cannot decide (e.g. the slope CI straddles the tolerance band); "
               "n/a: the claim says nothing about the implementation that ran it (it refused the claim's setting).")

#: suffixes of predicted keys that belong to the measured key before them, and how each reads
PREDICTED_SUFFIXES = {
    "_predicted": lambda v: f"predicted {number(v)}",
    "_band": lambda v: f"band {band_text(v) if isinstance(v, (list, tuple)) and len(v) == 2 else number(v)}",
    "_at_most": lambda v: f"<= {number(v)}",
    "_at_least": lambda v: f">= {number(v)}",
}

#: lines of measured-versus-predicted numbers a section shows before the rest, folded
CELL_LINES = 8

#: What the report's table of planted faults shows, in a sentence.
FAULTS_TEXT = ("Each run with its claim's estimators replaced as a planted fault declares "
               "(its id CLAIM[fault:NAME]), on the fault's cells. A fault must give the verdict it declares, "
               "else its claim cannot catch what it plants.")

#: Kinds of a paper's statement, most specific first: the glance names the first a claim checks.
KIND_ORDER = ("theorem", "corollary", "lemma", "proposition", "equation", "table", "figure", "algorithm",
              "remark", "section", "definition", "assumption", "example", "contribution")

#: characters of a glance cell in report.md (the HTML page cuts them to the column's width)
GLANCE_CHARS = 90


# ---------------------------------------------------------------------- numbers

def pair_rows(measured: dict, predicted: dict) -> list:
    """(quantity, measured, predicted) per quantity, every number through :func:`number`
    (None where a side has none): ``("slope", "-0.237 [-0.239, -0.235]", "predicted -0.226,
    band [-0.276, -0.176]")``. A measured ``k`` gathers ``k_ci_low`` / ``k_ci_high`` as its
    interval and the predicted ``k``, ``k_predicted``, ``k_band``, ``k_at_most`` and
    ``k_at_least``; predicted numbers with no measured partner follow, measured None
    (``("rate", None, "<= 0.1")``)."""
    measured, predicted = dict(measured), dict(predicted)
    low_high = {f"{k}_ci_low" for k in measured} | {f"{k}_ci_high" for k in measured}
    used, out = set(), []
    for k, v in measured.items():
        if k in low_high:
            continue
        text = number(v)
        if f"{k}_ci_low" in measured and f"{k}_ci_high" in measured:
            text += f" [{number(measured[f'{k}_ci_low'])}, {number(measured[f'{k}_ci_high'])}]"
        refs = []
        if k in predicted:
            refs.append(number(predicted[k]))
            used.add(k)
        for suffix, text_of in PREDICTED_SUFFIXES.items():
            if k + suffix in predicted:
                refs.append(text_of(predicted[k + suffix]))
                used.add(k + suffix)
        out.append((k, text, ", ".join(refs) or None))
    for k, v in predicted.items():
        if k in used:
            continue
        for suffix, text_of in PREDICTED_SUFFIXES.items():
            if k.endswith(suffix):
                out.append((k[:-len(suffix)], None, text_of(v)))
                break
        else:
            out.append((k, None, number(v)))
    return out


def _pair_lines(measured: dict, predicted: dict) -> list:
    """(line, judged) per row of :func:`pair_rows`: ``slope: -0.237 [-0.239, -0.235] vs
    predicted -0.226, band [-0.276, -0.176]``, a predicted number alone as ``predicted: k ...``.
    A line is judged when it carries a predicted number."""
    return [(f"{k}: {value}" + (f" vs {refs}" if refs else "") if value is not None else f"predicted: {k} {refs}",
             refs is not None) for k, value, refs in pair_rows(measured, predicted)]


def _pairs(measured: dict, predicted: dict) -> list:
    """Every line of :func:`_pair_lines`, in order."""
    return [line for line, _ in _pair_lines(measured, predicted)]


def shown_rows(lines) -> set:
    """The indices of the ``(line, judged)`` lines a section shows unfolded: all when there are
    at most :data:`CELL_LINES`, else every judged one and the first others up to that many."""
    if len(lines) <= CELL_LINES:
        return set(range(len(lines)))
    room = max(CELL_LINES - sum(judged for _, judged in lines), 0)
    keep = set()
    for i, (_, judged) in enumerate(lines):
        if judged:
            keep.add(i)
        elif room:
            keep.add(i)
            room -= 1
    return keep


def _cell(measured: dict, predicted: dict) -> tuple:
    """(the lines shown, the rest, folded) by :func:`shown_rows`; the order of
    :func:`_pair_lines` is kept on both sides."""
    lines = _pair_lines(measured, predicted)
    keep = shown_rows(lines)
    return ([line for i, (line, _) in enumerate(lines) if i in keep],
            [line for i, (line, _) in enumerate(lines) if i not in keep])


def _fits_text(fits) -> list:
    """The report's line for each fitted slope and each bound (curves drawn
    without a fit are left to the plot)."""
    return [fit_label(f) for f in fits if f.kind != "measured"]


def clauses(summary: str) -> list:
    """A verdict's summary cut at its top-level ``"; "`` (not inside brackets)."""
    out, depth, start = [], 0, 0
    text = " ".join(str(summary).split())
    for i, ch in enumerate(text):
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth = max(depth - 1, 0)
        if depth == 0 and text.startswith("; ", i):
            out.append(text[start:i])
            start = i + 2
    return [c for c in out + [text[start:]] if c]


#: what the glance leaves to the section: the look's tag (its own column), how wide a CI may be
_GLANCE_DROP = re.compile(r" \[decided after \d+ of \d+ seeds\]| \(fails a slope [^()]*\)| \(reference slope [^()]*\)")


def glance_text(verdict) -> str:
    """What was judged against its limit, in one short cell: the first clause of the summary
    (``slope -0.51 [-0.511, -0.509] vs band [-0.6, -0.35]``, ``8 checks <= 1e-08 relative
    (worst 3.7e-13)``), the look's tag and the band a slope would fail at left to the section."""
    first = (clauses(verdict.summary) or ["–"])[0]
    return _GLANCE_DROP.sub("", first).strip() or "–"


def _cut(text: str, chars: int = GLANCE_CHARS) -> str:
    return text if len(text) <= chars else text[:chars - 1] + "…"


# ---------------------------------------------------------------------- what the report says of a claim

@dataclass
class Entry:
    """One claim's line at the glance and its section."""

    verdict: object
    claim: object = None               # its declaration (Claim), when given
    plots: list = field(default_factory=list)
    results: Optional[list] = None      # its cells (Result), when given
    count: Optional[int] = None         # its number of cells, when only that is given
    ran: Optional[bool] = None          # run now (None: the report follows no run)
    expect: Optional[str] = None        # a planted fault's run: the verdict its fault declares
    refs: list = field(default_factory=list)  # the statements (coverage.Stated) it checks
    code_text: Optional[str] = None     # another implementation's code: its fingerprint and what it covers

    @property
    def id(self) -> str:
        return self.verdict.claim

    @property
    def base(self) -> str:
        return self.id.split("[", 1)[0]

    @property
    def paper(self) -> str:
        return self.base.split(".", 1)[0]

    @property
    def anchor(self) -> str:
        return safe_name(self.id)

    @property
    def fault(self) -> Optional[str]:
        return fault_name_of(self.id)

    @property
    def implementation(self) -> Optional[str]:
        return self.id[len(self.base) + 1:-1] if "[" in self.id and self.fault is None else None

    @property
    def label(self) -> str:
        """The short label of the paper's result it checks, the most specific first, and how many
        more (``Cor. 4.3(iii) +2``); the claim's source for a paper that declares no inventory."""
        if not self.refs:
            return getattr(self.claim, "source", None) or "–"
        first = self.refs[0].ref.split(", ", 1)[0]
        return first + (f" +{len(self.refs) - 1}" if len(self.refs) > 1 else "")

    @property
    def decided(self) -> str:
        """``decided after N of M seeds`` (judged in looks; ``undecided after`` when inconclusive),
        ``M seeds, one look`` (judged once), or ``–`` (no cell)."""
        seeds = getattr(self.verdict, "seeds", ()) or ()
        if len(seeds) == 2:
            word = "undecided" if self.verdict.status == "inconclusive" else "decided"
            return f"{word} after {seeds[0]} of {seeds[1]} seeds"
        if self.results:
            k = len({r.cell.seed for r in self.results})
            return f"{k} seed{'s' if k != 1 else ''}, one look"
        return "–"

    @property
    def cells(self) -> Optional[int]:
        return len(self.results) if self.results is not None else self.count


def _specific(stated) -> int:
    return KIND_ORDER.index(stated.kind) if stated.kind in KIND_ORDER else len(KIND_ORDER)


def _rel(p: Path, outdir: Path) -> str:
    try:
        return Path(os.path.relpath(Path(p).resolve(), Path(outdir).resolve())).as_posix()
    except ValueError:
        return Path(p).resolve().as_posix()


def link(p: Path, outdir: Path) -> str:
    """A file's address from the report (relative, brackets and spaces escaped)."""
    return quote(_rel(p, outdir), safe="/._-")


def _hms(s) -> str:
    if s is None or not math.isfinite(s):
        return "unknown"
    s = float(s)
    if s < 60:
        return f"{s:.1f} s"
    s = int(round(s))
    return f"{s // 3600}h {s // 60 % 60:02d}m {s % 60:02d}s"


def _counts(verdicts) -> str:
    c = {s: sum(v.status == s for v in verdicts) for s in STATUS_MARK}
    return ", ".join(f"{n} {s}" for s, n in c.items() if n) or "no claims"


def _faults_line(faults, expected: dict) -> str:
    """How many planted faults' runs give the verdict their fault declares, for the report's head."""
    given = sum(v.status == expected[v.claim] for v in faults)
    return f" Planted faults: {given} of {len(faults)} give the verdict they declare." if faults else ""


def _span(values) -> str:
    values = sorted(set(values))
    if not values:
        return "–"
    if len(values) <= 6:
        return ", ".join(str(v) for v in values)
    return f"{values[0]}..{values[-1]} ({len(values)} values)"


def cells_text(entry: Entry) -> str:
    """Its cells in one line: count, methods, sizes, seeds, the wall time they took, peak memory."""
    rs = entry.results
    if not rs:
        return f"{entry.count} cells" if entry.count is not None else "no cells"
    walls = [r.wall_time for r in rs if r.wall_time is not None and math.isfinite(r.wall_time)]
    peaks = [r.peak_mem for r in rs if r.peak_mem]
    methods = sorted({r.cell.method for r in rs})
    text = (f"{len(rs)} cells; method{'s' if len(methods) > 1 else ''} {', '.join(methods)}; "
            f"n = {_span(r.cell.n for r in rs)}; seeds {_span(r.cell.seed for r in rs)}; "
            f"{_hms(sum(walls)) if walls else 'unknown'} of wall time in all"
            + (f" (largest cell {_hms(max(walls))})" if walls else ""))
    return text + (f"; peak traced memory {number(max(peaks) / 2 ** 20)} MiB" if peaks else "; memory not traced")


def codes(entry: Entry, identities: dict) -> list:
    """``[(fingerprint, cells, what it hashed or None, [modules])]``: the code identities of its cells."""
    counted: dict = {}
    for r in entry.results or []:
        code = r.cell.p.get("code")
        counted[code] = counted.get(code, 0) + 1
    out = []
    for code, n in counted.items():
        record = identities.get(code) if code else None
        modules = []
        if record:
            try:
                data = json.loads(record)
                modules = [m[0] for m in data.get("modules", [])]
                what = f"{len(modules)} module(s) hashed, {len(data.get('distributions', []))} distribution(s)"
            except (ValueError, TypeError, IndexError):
                what = None
        else:
            what = None
        out.append((code or "unknown", n, what, modules))
    return out


def implementation_of(entry: Entry) -> Optional[str]:
    """The fingerprint of another implementation's code that made its cells, if any."""
    found = {r.cell.p.get("implementation") for r in entry.results or []} - {None}
    return ", ".join(sorted(found)) or None


def order(entries) -> list:
    """``[(paper, [entry])]``: grouped by paper, failing and inconclusive first (a paper with
    a failing claim first too, else the registry's order); another implementation's run right
    under its claim; planted faults' runs left out (they have a table of their own)."""
    shown = [e for e in entries if e.fault is None]
    first_seen = {}
    for i, e in enumerate(shown):
        first_seen.setdefault(e.paper, i)
        first_seen.setdefault(e.base, i)
    blocks: dict = {}
    for e in shown:
        blocks.setdefault((e.paper, e.base), []).append(e)
    for block in blocks.values():
        block.sort(key=lambda e: (e.implementation is not None, e.implementation or ""))

    def rank(block):  # its worst line first, then its first line (the claim's own run)
        return (min(STATUS_RANK.get(e.verdict.status, 1) for e in block), STATUS_RANK.get(block[0].verdict.status, 1))
    papers: dict = {}
    for (paper, base), block in sorted(blocks.items(), key=lambda kv: (*rank(kv[1]), first_seen[kv[0][1]])):
        papers.setdefault(paper, []).extend(block)
    return sorted(papers.items(), key=lambda kv: (min(STATUS_RANK.get(e.verdict.status, 1) for e in kv[1]),
                                                 first_seen[kv[0]]))


def paper_counts(groups) -> list:
    """``[(paper, {status: n})]`` and a last row ``("all", ...)``."""
    rows = [(paper, {s: sum(e.verdict.status == s for e in es) for s in STATUS_MARK}) for paper, es in groups]
    total = {s: sum(r[s] for _, r in rows) for s in STATUS_MARK}
    return rows + [("all", total)]


def _plots_by_claim(ids, plot_paths) -> dict:
    """``{claim id: [paths]}`` from a dict, or from a flat list by the files' names
    (:func:`suites.plots.owner_of`)."""
    if isinstance(plot_paths, dict):
        return {k: [Path(p) for p in v] for k, v in plot_paths.items()}
    out = {cid: [] for cid in ids}
    for p in plot_paths or []:
        p = Path(p)
        owner = owner_of(p.name, ids)
        if owner is not None:
            out[owner].append(p)
    return out


def section_order(groups, entries: dict) -> list:
    """The sections in the glance's order, each claim's planted faults' runs after it (and after
    its runs by other implementations)."""
    out = []
    for _, es in groups:
        for i, e in enumerate(es):
            out.append(e)
            if i + 1 == len(es) or es[i + 1].base != e.base:  # after the claim and its other implementations
                out += [f for f in entries.values() if f.fault is not None and f.base == e.base]
    out += [f for f in entries.values() if f.fault is not None and f not in out]
    return out


def variants_of(entry: Entry, entries: dict) -> list:
    """The runs of ``entry``'s claim by other implementations (for a claim's own run)."""
    if entry.implementation is not None or entry.fault is not None:
        return []
    return [e for e in entries.values() if e.base == entry.id and e.implementation is not None]
