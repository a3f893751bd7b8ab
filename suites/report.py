"""The report: one Markdown page (here) and one HTML page (:mod:`suites.report_html`, a
hand-written template, no dependency), both from what :mod:`suites.report_model` says of each
claim, of every claim the caller gives (``kpca-suite run`` and ``report`` give every claim of
the store).

The page reads from the top down:

1. **at a glance**: the counts per paper and per verdict, then one line per claim, grouped by
   paper, failing and inconclusive first (a paper with a failing claim first too): the status,
   the claim (a link to its section), the paper's result it checks (the short label of the
   paper's inventory, :mod:`suites.coverage`, "Cor. 4.3(iii)"), what was judged against its
   limit in one short cell (the first clause of the verdict's summary), and after how many of
   its seeds it was decided; the claims run now are marked; another implementation's run
   (``<claim>[<name>]``) has its line under its claim's, a planted fault's run
   (``<claim>[fault:<name>]``) is listed in a table of its own;
2. **a section per claim**: what the paper states (the inventory's words, the claim's
   statement and prediction), the verdict's summary, its figures beside them, the measured
   against the predicted numbers, the slopes and bounds, the tolerance and the evidence for it,
   the planted faults that must fail it (with their stored runs' verdicts), its cells (count,
   methods, sizes, seeds, time, memory) and the code identity of its cells, and for a claim run
   by other implementations a link to each one's section and to the figure of all of them;
3. errors and provenance (machine, versions, commit, profile, time).

Every number is written by :func:`suites.plots.number` (three significant digits, intervals as
[a, b], ±∞, "–" for NaN), as in the plots' legends.
"""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path
from typing import Optional

from .files import write_text
from .plots import safe_name
from .report_model import (CELL_LINES, FAULTS_TEXT, STATUS_MARK, STATUS_TEXT, Entry, _cell, _counts,  # noqa: F401
                           _cut, _faults_line, _fits_text, _hms, _pairs, _plots_by_claim, _specific, cells_text, codes,
                           glance_text, implementation_of, link, order, paper_counts, section_order, variants_of)

# CELL_LINES, STATUS_MARK, _cell and _pairs are read from here by conformance and the tests, _md by conformance


# ---------------------------------------------------------------------- Markdown

def _md(text) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def _markdown(head: dict, groups, entries: dict, faults, expected, outdir, errors, prov, identities) -> str:
    md = ["# kpca-suite report", "", head["line"], ""]
    rows = paper_counts(groups)
    md += ["| | " + " | ".join(f"`{p}`" if p != "all" else "**all**" for p, _ in rows) + " |",
           "|---|" + "---|" * len(rows)]
    for s in STATUS_MARK:
        if any(r[s] for _, r in rows):
            md.append(f"| {STATUS_MARK[s]} | " + " | ".join(str(r[s]) for _, r in rows) + " |")
    md += ["", "## At a glance", "", "| status | claim | checks | judged against its limit | decided |",
           "|---|---|---|---|---|"]
    for paper, es in groups:
        md.append(f"| | **{paper}** | | | |")
        for e in es:
            now = " (run now)" if e.ran else ""
            md.append(f"| {STATUS_MARK.get(e.verdict.status, e.verdict.status)} | [`{e.id}`](#{e.anchor}){now} | "
                      f"{_md(_cut(e.label, 40))} | {_md(_cut(glance_text(e.verdict)))} | {e.decided} |")
    md += ["", STATUS_TEXT, ""]
    if faults:
        md += ["## Planted faults", "", FAULTS_TEXT, "", "| fault | status | declared | as declared | summary |",
               "|---|---|---|---|---|"]
        md += [f"| `{v.claim}` | {STATUS_MARK.get(v.status, v.status)} | {expected[v.claim]} | "
               f"{'yes' if v.status == expected[v.claim] else '**no**'} | {_md(v.summary)} |" for v in faults]
        md.append("")
    if errors:
        md += ["## Errors", ""] + [f"- {_md(x)}" for x in errors] + [""]
    md += ["## Claims", ""]
    for e in section_order(groups, entries):
        md += _md_section(e, entries, outdir, identities)
    md += ["## Provenance", "", "| | |", "|---|---|"]
    md += [f"| {_md(k)} | {_md(val)} |" for k, val in prov]
    return "\n".join(md) + "\n"


def _md_section(e: Entry, entries: dict, outdir, identities) -> list:
    v, c = e.verdict, e.claim
    md = [f'<a id="{e.anchor}"></a>', "", f"### {STATUS_MARK.get(v.status, v.status)} `{e.id}`"
          + (" (run now)" if e.ran else ""), ""]
    if e.expect is not None:
        md += [f"A planted fault's run of [`{e.base}`](#{safe_name(e.base)}): its fault declares **{e.expect}**, "
               f"it gives **{v.status}**.", ""]
    md += [f"**Verdict**: {_md(v.summary)}", ""]
    for r in e.refs:
        md.append(f"- **{_md(r.ref)}** ({r.kind}): {_md(r.says)}")
    if e.refs:
        md.append("")
    if c is not None:
        md += [f"In our words: {_md(c.statement)}. Predicted: {_md(c.prediction)}. Source: {_md(c.source)}.", ""]
    for p in e.plots:
        if p.suffix.lower() == ".png":
            md += [f"![{e.id}]({link(p, outdir)})", ""]
    others = [p for p in e.plots if p.suffix.lower() != ".png"]
    if others:
        md += ["Files: " + ", ".join(f"[{p.name}]({link(p, outdir)})" for p in others), ""]
    if not e.plots:
        md += ["(no figure)", ""]
    shown, rest = _cell(v.measured, v.predicted)
    if shown:
        md += ["Measured vs predicted:", ""] + [f"- {_md(s)}" for s in shown] + [""]
    if rest:
        md += [f"<details><summary>{len(rest)} more measured numbers</summary>", "",
               "<br>".join(_md(s) for s in rest), "", "</details>", ""]
    fits = _fits_text(v.fits)
    if fits:
        md += ["Slopes [95% CI] and bounds:", ""] + [f"- {_md(t)}" for t in fits] + [""]
    if c is not None:
        md += [f"Tolerance: {_md(c.tolerance.rule)}. Evidence: {_md(c.tolerance.evidence)}", ""]
        if c.faults:
            md.append("Planted faults that must fail it:")
            md.append("")
            for f in c.faults:
                run = entries.get(f"{e.base}[fault:{f.name}]")
                got = (f"; stored run: [{run.verdict.status}](#{run.anchor})" if run is not None else "")
                md.append(f"- `{f.name}` (must give {f.expect}): {_md(f.description)}{got}")
            md.append("")
    var = variants_of(e, entries)
    if var:
        overlay = [p for p in e.plots if p.name.endswith(".implementations.png")]
        md += ["Other implementations: " + ", ".join(f"[`{x.id}`](#{x.anchor}) {x.verdict.status}" for x in var)
               + "".join(f"; every implementation against the prediction: [{p.name}]({link(p, outdir)})"
                         for p in overlay), ""]
    md += [f"Cells: {cells_text(e)}; {e.decided}.", ""]
    for code, n, what, _ in codes(e, identities):
        md.append(f"Code identity `{code}` ({n} cells)" + (f": {what}." if what else "."))
    impl = implementation_of(e)
    if impl:
        md.append(f"Implementation fingerprint `{impl}`" + (f": {_md(e.code_text)}." if e.code_text else "."))
    md.append("")
    return md


# ---------------------------------------------------------------------- the two pages

def write_report(verdicts, plot_paths, outdir, profile: str, machine_info: dict, versions: dict,
                 commit: Optional[str] = None, wall_time: Optional[float] = None,
                 elapsed: Optional[float] = None, errors=None, created: Optional[str] = None,
                 cells: Optional[dict] = None, implementations: Optional[dict] = None,
                 expected: Optional[dict] = None, claims: Optional[dict] = None,
                 results: Optional[dict] = None, identities: Optional[dict] = None,
                 ran=None, inventories: Optional[dict] = None) -> tuple:
    """Write ``outdir/report.md`` and ``outdir/report.html``.

    Parameters
    ----------
    verdicts : list of Verdict
    plot_paths : dict claim id -> list of paths, or a flat list of paths
        (matched to claims by file name, :func:`suites.plots.owner_of`); PNGs are shown,
        every other file linked.
    outdir : directory of the report (paths in it are relative to it)
    profile : the sweep profile
    machine_info, versions : from :mod:`suites.machine`
    commit : git commit(s) of the code (str, or list when the stored cells came from several)
    wall_time : total wall time of the judged cells (s)
    elapsed : wall-clock time of the run (s), when the report follows a run
    errors : list of strings (cells or plots that failed)
    cells : claim id -> number of finished cells (when ``results`` is not given)
    implementations : claim id ``<id>[<name>]`` -> the fingerprint of the code that
        produced its judged cells and what it covers, in words (:mod:`suites.fingerprint`)
    expected : planted fault's run ``<id>[fault:<name>]`` -> the verdict its fault declares;
        these runs are listed in a table of their own, with whether they give it, and
        left out of the claims' counts (a fault that fails its claim is no failure of the run)
    claims : claim id -> Claim: statement, prediction, tolerance, planted faults for its section
    results : claim id -> its judged cells (Result): the section's cells and code identities
    identities : code fingerprint -> the store's record of it (meta ``identity <fp>``)
    ran : the claim ids run now (marked so); None when the report follows no run
    inventories : paper -> its statements (default: the registry's)

    Returns
    -------
    (Path, Path) : the Markdown and HTML files.
    """
    from . import registry
    from .coverage import results_of
    from .report_html import page

    outdir = Path(outdir)
    outdir.mkdir(parents=True, exist_ok=True)
    verdicts = list(verdicts)
    created = created or datetime.now(timezone.utc).isoformat(timespec="seconds")
    plots = _plots_by_claim([v.claim for v in verdicts], plot_paths)
    commits = [commit] if isinstance(commit, str) or commit is None else list(commit)
    commits = [c for c in commits if c] or ["unknown"]
    errors = list(errors or [])
    expected, claims, results, cells = expected or {}, claims or {}, results or {}, cells or {}
    inventories = registry.INVENTORIES if inventories is None else inventories
    ran = None if ran is None else set(ran)
    faults = [v for v in verdicts if v.claim in expected]
    own = [v for v in verdicts if v.claim not in expected]
    entries = {v.claim: Entry(v, claims.get(v.claim), plots.get(v.claim, []), results.get(v.claim),
                              cells.get(v.claim), None if ran is None else v.claim in ran, expected.get(v.claim),
                              sorted((r for _, r in results_of(v.claim, inventories)), key=_specific),
                              (implementations or {}).get(v.claim))
               for v in verdicts}
    groups = order(e for e in entries.values() if e.id not in expected)

    prov = [("profile", profile), ("created (UTC)", created), ("commit", ", ".join(commits)),
            ("total wall time of the cells", _hms(wall_time))]
    if elapsed is not None:
        prov.append(("elapsed (this run)", _hms(elapsed)))
    prov += [(f"machine: {k}", str(v)) for k, v in machine_info.items() if k != "memory_bytes"]
    prov += [(f"version: {k}", str(v)) for k, v in versions.items()]
    prov += [(f"implementation: {cid}", code) for cid, code in sorted((implementations or {}).items())]
    now = "" if ran is None else f" This run ran {len(ran & set(entries))} of them (marked *run now*)."
    head = {"profile": profile, "created": created, "commits": ", ".join(commits),
            "counts": _counts(own), "faults": _faults_line(faults, expected), "now": now,
            "line": f"Profile **{profile}**, {created}, commit `{', '.join(commits)}`. "
                    f"Verdicts: {_counts(own)}.{_faults_line(faults, expected)}{now}"}

    md_path = outdir / "report.md"
    write_text(md_path, _markdown(head, groups, entries, faults, expected, outdir, errors, prov, identities or {}))
    html_path = outdir / "report.html"
    write_text(html_path, page(head, groups, entries, faults, expected, outdir, errors, prov, identities or {}))
    return md_path, html_path
