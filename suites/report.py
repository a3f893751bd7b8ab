"""The report: one Markdown page and one HTML page (hand-written template, no
dependency) with the verdict table, the measured-versus-predicted numbers and
slopes and bounds, the plots, and where the numbers came from (machine,
versions, commit, profile, time, total wall time of the cells). Every number
is written by :func:`suites.plots.number` (three significant digits, intervals
as [a, b], ±∞, "–" for NaN), as in the plots' legends."""

from __future__ import annotations

import html
import math
import os
from datetime import datetime, timezone
from pathlib import Path
from typing import Optional

from .files import write_text
from .plots import band_text, fit_label, number, safe_name

#: Text glyphs every common font has (an emoji check mark drew as an empty box in a browser with no
#: emoji font, e.g. headless Chromium on a server).
STATUS_MARK = {"holds": "✓ holds", "fails": "✗ fails", "inconclusive": "⚠ inconclusive", "n/a": "n/a"}


#: suffixes of predicted keys that belong to the measured key before them, and how each reads
PREDICTED_SUFFIXES = {
    "_predicted": lambda v: f"predicted {number(v)}",
    "_band": lambda v: f"band {band_text(v) if isinstance(v, (list, tuple)) and len(v) == 2 else number(v)}",
    "_at_most": lambda v: f"<= {number(v)}",
    "_at_least": lambda v: f">= {number(v)}",
}


#: lines of the verdict table's "measured vs predicted" cell; a claim with more numbers shows its
#: judged ones there and the rest in its own section
CELL_LINES = 8


def _pair_lines(measured: dict, predicted: dict) -> list:
    """(line, judged) per measured quantity, every number through :func:`number`:
    ``slope: -0.237 [-0.239, -0.235] vs predicted -0.226, band [-0.276, -0.176]``.
    A measured ``k`` gathers ``k_ci_low`` / ``k_ci_high`` as its interval and the
    predicted ``k``, ``k_predicted``, ``k_band``, ``k_at_most`` and ``k_at_least``;
    predicted numbers with no measured partner follow as ``predicted: k ...``.
    A line is judged when it carries a predicted number."""
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
        out.append((f"{k}: {text}" + (f" vs {', '.join(refs)}" if refs else ""), bool(refs)))
    for k, v in predicted.items():
        if k in used:
            continue
        for suffix, text_of in PREDICTED_SUFFIXES.items():
            if k.endswith(suffix):
                out.append((f"predicted: {k[:-len(suffix)]} {text_of(v)}", True))
                break
        else:
            out.append((f"predicted: {k} {number(v)}", True))
    return out


def _pairs(measured: dict, predicted: dict) -> list:
    """Every line of :func:`_pair_lines`, in order."""
    return [line for line, _ in _pair_lines(measured, predicted)]


def _cell(measured: dict, predicted: dict) -> tuple:
    """(the table cell's lines, the rest): up to :data:`CELL_LINES` lines stay in the table,
    the judged ones first to be kept; the order of :func:`_pair_lines` is kept on both sides."""
    lines = _pair_lines(measured, predicted)
    if len(lines) <= CELL_LINES:
        return [line for line, _ in lines], []
    room = max(CELL_LINES - sum(judged for _, judged in lines), 0)
    keep = set()
    for i, (_, judged) in enumerate(lines):
        if judged:
            keep.add(i)
        elif room:
            keep.add(i)
            room -= 1
    return ([line for i, (line, _) in enumerate(lines) if i in keep],
            [line for i, (line, _) in enumerate(lines) if i not in keep])


def _fits_text(fits) -> list:
    """The report's line for each fitted slope and each bound (curves drawn
    without a fit are left to the plot)."""
    return [fit_label(f) for f in fits if f.kind != "measured"]


def _plots_by_claim(verdicts, plot_paths) -> dict:
    if isinstance(plot_paths, dict):
        return {k: [Path(p) for p in v] for k, v in plot_paths.items()}
    out = {v.claim: [] for v in verdicts}
    for p in plot_paths or []:
        p = Path(p)
        for v in sorted(verdicts, key=lambda v: -len(v.claim)):
            if p.name.startswith(safe_name(v.claim)):
                out[v.claim].append(p)
                break
    return out


def _rel(p: Path, outdir: Path) -> str:
    try:
        return Path(os.path.relpath(Path(p).resolve(), Path(outdir).resolve())).as_posix()
    except ValueError:
        return Path(p).resolve().as_posix()


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


#: What the report's table of planted faults shows, in a sentence.
FAULTS_TEXT = ("Each run with its claim's estimators replaced as a planted fault declares "
               "(its id CLAIM[fault:NAME]), on the fault's cells. A fault must give the verdict it declares, "
               "else its claim cannot catch what it plants.")


def _faults_line(faults, expected: dict) -> str:
    """How many planted faults' runs give the verdict their fault declares, for the report's head."""
    given = sum(v.status == expected[v.claim] for v in faults)
    return f" Planted faults: {given} of {len(faults)} give the verdict they declare." if faults else ""


def write_report(verdicts, plot_paths, outdir, profile: str, machine_info: dict, versions: dict,
                 commit: Optional[str] = None, wall_time: Optional[float] = None,
                 elapsed: Optional[float] = None, errors=None, created: Optional[str] = None,
                 cells: Optional[dict] = None, implementations: Optional[dict] = None,
                 expected: Optional[dict] = None) -> tuple:
    """Write ``outdir/report.md`` and ``outdir/report.html``.

    Parameters
    ----------
    verdicts : list of Verdict
    plot_paths : dict claim id -> list of paths, or a flat list of paths
        (matched to claims by file name); PNGs are shown, other files linked.
    outdir : directory of the report (paths in it are relative to it)
    profile : the sweep profile
    machine_info, versions : from :mod:`suites.machine`
    commit : git commit(s) of the code (str, or list when the stored cells
        came from several)
    wall_time : total wall time of the judged cells (s)
    elapsed : wall-clock time of the run (s), when the report follows a run
    errors : list of strings (cells or plots that failed)
    cells : claim id -> number of finished cells
    implementations : claim id ``<id>[<name>]`` -> the fingerprint of the code that
        produced its judged cells and what it covers, in words (:mod:`suites.fingerprint`)
    expected : planted fault's run ``<id>[fault:<name>]`` -> the verdict its fault declares;
        these runs are listed in a table of their own, with whether they give it, and
        left out of the claims' counts (a fault that fails its claim is no failure of the run)

    Returns
    -------
    (Path, Path) : the Markdown and HTML files.
    """
    outdir = Path(outdir)
    outdir.mkdir(parents=True, exist_ok=True)
    verdicts = list(verdicts)
    created = created or datetime.now(timezone.utc).isoformat(timespec="seconds")
    plots = _plots_by_claim(verdicts, plot_paths)
    commits = [commit] if isinstance(commit, str) or commit is None else list(commit)
    commits = [c for c in commits if c] or ["unknown"]
    errors = list(errors or [])
    cells = cells or {}
    expected = expected or {}
    faults = [v for v in verdicts if v.claim in expected]
    own = [v for v in verdicts if v.claim not in expected]

    prov = [
        ("profile", profile),
        ("created (UTC)", created),
        ("commit", ", ".join(commits)),
        ("total wall time of the cells", _hms(wall_time)),
    ]
    if elapsed is not None:
        prov.append(("elapsed (this run)", _hms(elapsed)))
    prov += [(f"machine: {k}", str(v)) for k, v in machine_info.items() if k != "memory_bytes"]
    prov += [(f"version: {k}", str(v)) for k, v in versions.items()]
    prov += [(f"implementation: {cid}", code) for cid, code in sorted((implementations or {}).items())]

    # ---------------- Markdown ----------------
    md = ["# kpca-suite report", "",
          f"Profile **{profile}**, {created}, commit `{', '.join(commits)}`. "
          f"Verdicts: {_counts(own)}.{_faults_line(faults, expected)}", "",
          "| claim | status | summary | measured vs predicted | slopes [95% CI] and bounds |",
          "|---|---|---|---|---|"]

    def cell_md(text):
        return str(text).replace("|", "\\|").replace("\n", " ")

    for v in own:
        fits = "<br>".join(cell_md(t) for t in _fits_text(v.fits)) or "–"
        shown, rest = _cell(v.measured, v.predicted)
        mp = "<br>".join(cell_md(s) for s in shown) or "–"
        if rest:
            mp += f"<br>(+{len(rest)} more numbers in its section below)"
        md.append(f"| `{v.claim}` | {STATUS_MARK.get(v.status, v.status)} | {cell_md(v.summary)} | {mp} | {fits} |")
    md += ["", "Statuses: **holds** — the measurement agrees with the prediction within the "
           "tolerance; **fails** — it contradicts it; **inconclusive** — the measurement "
           "cannot decide (e.g. the slope CI straddles the tolerance band); **n/a** — the claim says nothing "
           "about the implementation that ran it (it refused the claim's setting).", ""]
    if faults:
        md += ["## Planted faults", "", FAULTS_TEXT, "", "| fault | status | declared | as declared | summary |",
               "|---|---|---|---|---|"]
        md += [f"| `{v.claim}` | {STATUS_MARK.get(v.status, v.status)} | {expected[v.claim]} | "
               f"{'yes' if v.status == expected[v.claim] else '**no**'} | {cell_md(v.summary)} |" for v in faults]
        md.append("")
    if errors:
        md += ["## Errors", ""] + [f"- {cell_md(e)}" for e in errors] + [""]
    md += ["## Plots", ""]
    for v in verdicts:
        ps = plots.get(v.claim, [])
        md.append(f"### `{v.claim}` — {v.status}")
        md.append("")
        md.append(f"{v.summary}" + (f" ({cells[v.claim]} cells)" if v.claim in cells else ""))
        md.append("")
        rest = _cell(v.measured, v.predicted)[1]
        if rest:
            md += [f"<details><summary>{len(rest)} more measured numbers</summary>", "",
                   "<br>".join(cell_md(s) for s in rest), "", "</details>", ""]
        for p in ps:
            rel = _rel(p, outdir)
            if p.suffix.lower() == ".png":
                md.append(f"![{v.claim}]({rel})")
            else:
                md.append(f"[{p.name}]({rel})")
            md.append("")
        if not ps:
            md += ["(no plot)", ""]
    md += ["## Provenance", "", "| | |", "|---|---|"]
    md += [f"| {cell_md(k)} | {cell_md(val)} |" for k, val in prov]
    md_path = outdir / "report.md"
    write_text(md_path, "\n".join(md) + "\n")

    # ---------------- HTML ----------------
    e = html.escape
    rows = []
    for v in own:
        fits = "<br>".join(e(t) for t in _fits_text(v.fits)) or "–"
        shown, rest = _cell(v.measured, v.predicted)
        mp = "<br>".join(e(s) for s in shown) or "–"
        if rest:
            mp += f'<br><a href="#{e(safe_name(v.claim))}">(+{len(rest)} more numbers)</a>'
        rows.append(f'<tr><td><a href="#{e(safe_name(v.claim))}"><code>{e(v.claim)}</code></a></td>'
                    f'<td class="{e(v.status)}">{e(v.status)}</td><td>{e(v.summary)}</td>'
                    f"<td>{mp}</td><td>{fits}</td></tr>")
    sections = []
    for v in verdicts:
        imgs = []
        for p in plots.get(v.claim, []):
            rel = e(_rel(p, outdir))
            if p.suffix.lower() == ".png":
                imgs.append(f'<a href="{rel}"><img src="{rel}" alt="{e(v.claim)}"></a>')
            else:
                imgs.append(f'<a href="{rel}">{e(p.name)}</a>')
        n = f" ({cells[v.claim]} cells)" if v.claim in cells else ""
        rest = _cell(v.measured, v.predicted)[1]
        more = (f"<details><summary>{len(rest)} more measured numbers</summary><p>"
                + "<br>".join(e(s) for s in rest) + "</p></details>" if rest else "")
        sections.append(f'<section id="{e(safe_name(v.claim))}"><h3><code>{e(v.claim)}</code> — '
                        f'<span class="{e(v.status)}">{e(v.status)}</span></h3>'
                        f"<p>{e(v.summary)}{e(n)}</p>{more}{''.join(imgs) or '<p>(no plot)</p>'}</section>")
    fault_html = ("<h2>Planted faults</h2><p>" + e(FAULTS_TEXT) + "</p><table><tr><th>fault</th><th>status</th>"
                  "<th>declared</th><th>as declared</th><th>summary</th></tr>"
                  + "".join(f'<tr><td><a href="#{e(safe_name(v.claim))}"><code>{e(v.claim)}</code></a></td>'
                            f'<td class="{e(v.status)}">{e(v.status)}</td><td>{e(expected[v.claim])}</td>'
                            f"<td>{'yes' if v.status == expected[v.claim] else '<b>no</b>'}</td>"
                            f"<td>{e(v.summary)}</td></tr>" for v in faults) + "</table>" if faults else "")
    err_html = ("<h2>Errors</h2><ul>" + "".join(f"<li><code>{e(x)}</code></li>" for x in errors) + "</ul>"
                if errors else "")
    prov_html = "".join(f"<tr><th>{e(k)}</th><td>{e(val)}</td></tr>" for k, val in prov)
    page = f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>kpca-suite report ({e(profile)})</title>
<style>
body {{ font-family: system-ui, sans-serif; margin: 2em auto; max-width: 75em; padding: 0 1em; }}
table {{ border-collapse: collapse; margin: 1em 0; }}
th, td {{ border: 1px solid #d0d7de; padding: .35em .6em; text-align: left; vertical-align: top; }}
th {{ background: #f6f8fa; }}
td.holds, span.holds {{ color: #1a7f37; font-weight: bold; }}
td.fails, span.fails {{ color: #cf222e; font-weight: bold; }}
td.inconclusive, span.inconclusive {{ color: #9a6700; font-weight: bold; }}
td.holds {{ background: #dafbe1; }} td.fails {{ background: #ffebe9; }} td.inconclusive {{ background: #fff8c5; }}
img {{ max-width: 100%; border: 1px solid #eee; }}
</style></head><body>
<h1>kpca-suite report</h1>
<p>Profile <b>{e(profile)}</b>, {e(created)}, commit <code>{e(', '.join(commits))}</code>.
Verdicts: {e(_counts(own))}.{e(_faults_line(faults, expected))}</p>
<table><tr><th>claim</th><th>status</th><th>summary</th><th>measured vs predicted</th>
<th>slopes [95% CI] and bounds</th></tr>
{chr(10).join(rows)}
</table>
<p><b>holds</b>: the measurement agrees with the prediction within the tolerance;
<b>fails</b>: it contradicts it; <b>inconclusive</b>: the measurement cannot decide
(e.g. the slope CI straddles the tolerance band).</p>
{fault_html}
{err_html}
<h2>Plots</h2>
{chr(10).join(sections)}
<h2>Provenance</h2>
<table>{prov_html}</table>
</body></html>
"""
    html_path = outdir / "report.html"
    write_text(html_path, page)
    return md_path, html_path
