"""report.html (:mod:`suites.report`): the glance table first, one line per claim cut to the
page's width (the whole text in its tooltip and in the claim's section), then a section per
claim with its figures beside its text (a figure of two or three panels under them, full
width), then errors and provenance. One page, no script, no dependency; nothing in it is wider
than the window (long words wrap, the glance's cells end in an ellipsis)."""

from __future__ import annotations

import html
import struct
from pathlib import Path

from .plots import safe_name
from .report_model import (FAULTS_TEXT, STATUS_MARK, STATUS_TEXT, _fits_text, _pair_lines, cells_text, codes, glance_text,
                     implementation_of, link, pair_rows, paper_counts, section_order, shown_rows, variants_of)

e = html.escape

#: A figure wider than this (px, as drawn: two or three panels side by side) goes under the section's
#: text, full width; a narrower one sits beside the text.
WIDE = 900

CSS = """
* { box-sizing: border-box; }
body { font: 14px/1.4 system-ui, -apple-system, "Segoe UI", sans-serif; color: #1f2328; margin: 0 auto;
       max-width: 1360px; padding: 6px 16px 40px; overflow-wrap: anywhere; }
h1 { font-size: 20px; margin: 4px 0 2px; } h2 { font-size: 17px; margin: 18px 0 6px; }
h3 { font-size: 15px; margin: 0 0 6px; }
p { margin: 4px 0; }
code { font: 12.5px/1.3 ui-monospace, "DejaVu Sans Mono", monospace; }
table { border-collapse: collapse; max-width: 100%; }
th, td { border: 1px solid #d0d7de; padding: 1px 6px; text-align: left; vertical-align: top; }
th { background: #f6f8fa; font-weight: 600; }
.holds { color: #1a7f37; } .fails { color: #cf222e; } .inconclusive { color: #9a6700; } .na { color: #57606a; }
td.holds { background: #dafbe1; } td.fails { background: #ffebe9; } td.inconclusive { background: #fff8c5; }
td.na { background: #f6f8fa; }
.meta { margin: 0 0 6px; }
table.counts { font-size: 13px; line-height: 17px; margin: 0 0 8px; }
table.counts td { text-align: right; min-width: 4.5em; }
table.glance { width: 100%; table-layout: fixed; font-size: 12px; line-height: 13px; margin: 0; }
table.glance th, table.glance td { white-space: nowrap; overflow: hidden; text-overflow: ellipsis; padding: 0 6px; }
table.glance code { font-size: 11px; }
table.glance col.status { width: 9.4em; } table.glance col.claim { width: 20em; }
table.glance col.checks { width: 11.5em; } table.glance col.decided { width: 15.6em; }
table.glance tr.paper th { background: #eaeef2; }
table.glance tr.paper th span { font-weight: normal; color: #57606a; }
table.glance td.impl { padding-left: 1.6em; }
.now { font-size: 11px; font-weight: 600; color: #0969da; border: 1px solid #0969da; border-radius: 3px;
       padding: 0 3px; margin-left: 4px; }
.legend { font-size: 12.5px; color: #57606a; }
section.claim { border-top: 2px solid #d0d7de; margin-top: 16px; padding-top: 6px; }
section.fault { border-top-style: dashed; }
.badge { font-weight: 600; }
.refs { font-weight: normal; color: #57606a; font-size: 13px; }
a.up { font-weight: normal; font-size: 12px; margin-left: 6px; }
.body { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); gap: 14px; align-items: start; }
figure { margin: 0 0 6px; } figcaption { font-size: 12px; color: #57606a; }
img { max-width: 100%; height: auto; border: 1px solid #eaeef2; display: block; }
.wide figure { margin-top: 6px; }
.said { font-size: 13px; }
table.mp { font-size: 13px; margin: 6px 0; }
ul { margin: 4px 0; padding-left: 1.4em; }
.small { font-size: 12.5px; color: #3d444d; }
details summary { cursor: pointer; }
table.prov { font-size: 12.5px; }
"""


def _cls(status: str) -> str:
    return status.replace("/", "")


def png_size(path) -> tuple:
    """(width, height) of a PNG from its header, or (0, 0) when it cannot be read."""
    try:
        with open(path, "rb") as fh:
            head = fh.read(24)
        if head[:8] == b"\x89PNG\r\n\x1a\n" and head[12:16] == b"IHDR":
            return struct.unpack(">II", head[16:24])
    except OSError:
        pass
    return 0, 0


def _figure(p: Path, outdir, alt: str) -> str:
    href = e(link(p, outdir))
    w, h = png_size(p)
    size = f' width="{w}" height="{h}"' if w and h else ""
    return (f'<figure><a href="{href}"><img src="{href}" alt="{e(alt)}"{size}></a>'
            f'<figcaption>{e(p.name)}</figcaption></figure>')


def _files(paths, outdir) -> str:
    return ", ".join(f'<a href="{e(link(p, outdir))}">{e(p.name)}</a>' for p in paths)


def _glance(groups, papers: dict) -> str:
    rows = []
    for paper, es in groups:
        counts = ", ".join(f"{n} {s}" for s, n in
                           ((s, sum(x.verdict.status == s for x in es)) for s in STATUS_MARK) if n)
        citation = getattr(papers.get(paper), "citation", "")
        rows.append(f'<tr class="paper"><th colspan="5">{e(paper)}: {e(counts)} '
                    f'<span>{e(citation)}</span></th></tr>')
        for x in es:
            st = x.verdict.status
            now = '<span class="now">run now</span>' if x.ran else ""
            refs = "; ".join(f"{r.ref}: {r.says}" for r in x.refs) or "no statement of the paper's inventory"
            impl = ' class="impl"' if x.implementation else ""
            rows.append(f'<tr><td class="{_cls(st)}">{e(STATUS_MARK.get(st, st))}</td>'
                        f'<td{impl} title="{e(x.id)}">'
                        f'<a href="#{e(x.anchor)}"><code>{e(x.id)}</code></a>{now}</td>'
                        f'<td title="{e(refs)}">{e(x.label)}</td>'
                        f'<td title="{e(x.verdict.summary)}">{e(glance_text(x.verdict))}</td>'
                        f'<td>{e(x.decided)}</td></tr>')
    return ('<table class="glance" id="glance"><colgroup><col class="status"><col class="claim"><col class="checks">'
            '<col class="judged"><col class="decided"></colgroup><thead><tr><th>status</th><th>claim</th>'
            '<th>checks</th><th>judged against its limit</th><th>decided</th></tr></thead><tbody>'
            + "".join(rows) + "</tbody></table>")


def _counts(groups) -> str:
    rows = paper_counts(groups)
    head = "".join(f"<th>{e(p)}</th>" for p, _ in rows)
    body = "".join(f'<tr><th class="{_cls(s)}">{e(STATUS_MARK[s])}</th>'
                   + "".join(f"<td>{r[s] or ''}</td>" for _, r in rows) + "</tr>"
                   for s in STATUS_MARK if any(r[s] for _, r in rows))
    return f'<table class="counts"><tr><th>verdict</th>{head}</tr>{body}</table>'


def _section(x, entries: dict, outdir, identities) -> str:
    v, c = x.verdict, x.claim
    st = v.status
    now = ' <span class="now">run now</span>' if x.ran else ""
    refs = " · ".join(r.ref for r in x.refs)
    head = (f'<h3><span class="badge {_cls(st)}">{e(STATUS_MARK.get(st, st))}</span> <code>{e(x.id)}</code>'
            f'{" <span class=refs>checks " + e(refs) + "</span>" if refs else ""}{now}'
            f'<a class="up" href="#glance">↑ glance</a></h3>')
    text = []
    if x.expect is not None:
        text.append(f'<p>A planted fault\'s run of <a href="#{e(safe_name(x.base))}"><code>{e(x.base)}</code></a>: '
                    f"its fault declares <b>{e(x.expect)}</b>, it gives <b>{e(st)}</b>"
                    f"{'' if st == x.expect else ' — the claim cannot catch it'}.</p>")
    text.append(f'<p><b>Verdict:</b> {e(v.summary)}</p>')
    if x.refs:
        text.append('<div class="said">' + "".join(
            f"<p><b>{e(r.ref)}</b> ({e(r.kind)}): {e(r.says)}</p>" for r in x.refs) + "</div>")
    if c is not None:
        text.append(f'<p class="said"><b>In our words:</b> {e(c.statement)}</p>'
                    f'<p class="said"><b>Predicted:</b> {e(c.prediction)}</p>'
                    f'<p class="small">Source: {e(c.source)}. Data: {e(c.data)}. Metric: {e(c.metric)}.</p>')
    numbers = []  # what was measured against what was predicted, and the tolerance
    rows = pair_rows(v.measured, v.predicted)
    if rows:
        keep = shown_rows(_pair_lines(v.measured, v.predicted))

        def table(part):
            return ('<table class="mp"><tr><th>quantity</th><th>measured</th><th>predicted / limit</th></tr>'
                    + "".join(f"<tr><td>{e(k)}</td><td>{e(m if m is not None else '–')}</td><td>{e(p or '–')}</td></tr>"
                              for k, m, p in part) + "</table>")
        numbers.append(table([r for i, r in enumerate(rows) if i in keep]))
        folded = [r for i, r in enumerate(rows) if i not in keep]
        if folded:
            numbers.append(f"<details><summary>{len(folded)} more measured numbers</summary>{table(folded)}</details>")
    fits = _fits_text(v.fits)
    if fits:
        numbers.append('<p><b>Slopes [95% CI] and bounds:</b></p><ul class="small">'
                       + "".join(f"<li>{e(t)}</li>" for t in fits) + "</ul>")
    if c is not None:
        numbers.append(f"<p><b>Tolerance:</b> {e(c.tolerance.rule)}</p>"
                       f'<p class="small"><b>Evidence for it:</b> {e(c.tolerance.evidence)}</p>')
    pngs = [p for p in x.plots if p.suffix.lower() == ".png"]
    wide = [p for p in pngs if png_size(p)[0] > WIDE]
    side = [p for p in pngs if p not in wide]
    if side:  # the text and the numbers beside the figure(s); wide ones under both
        body = (f'<div class="body"><div>{"".join(text + numbers)}</div>'
                f'<div>{"".join(_figure(p, outdir, x.id) for p in side)}</div></div>')
        if wide:
            body += '<div class="wide">' + "".join(_figure(p, outdir, x.id) for p in wide) + "</div>"
    else:  # the text, the wide figure(s) under it, then the numbers
        body = ("".join(text) + ('<div class="wide">' + "".join(_figure(p, outdir, x.id) for p in wide) + "</div>"
                                 if wide else "") + "".join(numbers))
    others = [p for p in x.plots if p.suffix.lower() != ".png"]
    more = [f'<p class="small">Files: {_files(others, outdir)}</p>' if others else
            "" if x.plots else '<p class="small">(no figure)</p>']
    if c is not None and c.faults:
        items = []
        for f in c.faults:
            run = entries.get(f"{x.base}[fault:{f.name}]")
            got = (f' — stored run: <a href="#{e(run.anchor)}" class="{_cls(run.verdict.status)}">'
                   f"{e(run.verdict.status)}</a>" if run is not None else "")
            items.append(f"<li><code>{e(f.name)}</code> must give <b>{e(f.expect)}</b>: {e(f.description)}{got}</li>")
        more.append('<p><b>Planted faults that must fail it:</b></p><ul class="small">' + "".join(items) + "</ul>")
    var = variants_of(x, entries)
    if var:
        overlay = [p for p in x.plots if p.name.endswith(".implementations.png")]
        more.append("<p><b>Other implementations:</b> " + ", ".join(
            f'<a href="#{e(y.anchor)}"><code>{e(y.id)}</code></a> <span class="{_cls(y.verdict.status)}">'
            f"{e(y.verdict.status)}</span>" for y in var)
            + (f'; every implementation against the prediction: {_files(overlay, outdir)}' if overlay else "")
            + "</p>")
    if x.implementation is not None:
        more.append(f'<p class="small">Run with the implementation <code>{e(x.implementation)}</code> in place of '
                    f'the claim\'s own: <a href="#{e(safe_name(x.base))}"><code>{e(x.base)}</code></a>.</p>')
    more.append(f'<p class="small"><b>Cells:</b> {e(cells_text(x))}; {e(x.decided)}.</p>')
    for code, n, what, modules in codes(x, identities):
        listed = ("<details><summary>modules hashed</summary><ul>" + "".join(f"<li><code>{e(m)}</code></li>"
                                                                           for m in modules) + "</ul></details>"
                  if modules else "")
        more.append(f'<div class="small"><b>Code identity</b> <code>{e(code)}</code> ({n} cells)'
                    f'{": " + e(what) if what else " (no record in the store)"}.{listed}</div>')
    impl = implementation_of(x)
    if impl:
        more.append(f'<p class="small"><b>Implementation fingerprint</b> <code>{e(impl)}</code>'
                    + (f": {e(x.code_text)}." if x.code_text else ".") + "</p>")
    kind = " fault" if x.fault is not None else ""
    return f'<section class="claim{kind}" id="{e(x.anchor)}">{head}{body}{"".join(more)}</section>'


def page(head: dict, groups, entries: dict, faults, expected, outdir, errors, prov, identities) -> str:
    """The whole of report.html."""
    from . import registry

    outdir = Path(outdir)
    fault_html = ""
    if faults:
        fault_html = ("<h2>Planted faults</h2><p>" + e(FAULTS_TEXT) + '</p><table class="faults"><tr><th>fault</th>'
                      "<th>status</th><th>declared</th><th>as declared</th><th>summary</th></tr>"
                      + "".join(f'<tr><td><a href="#{e(safe_name(v.claim))}"><code>{e(v.claim)}</code></a></td>'
                                f'<td class="{_cls(v.status)}">{e(v.status)}</td><td>{e(expected[v.claim])}</td>'
                                f"<td>{'yes' if v.status == expected[v.claim] else '<b>no</b>'}</td>"
                                f"<td>{e(v.summary)}</td></tr>" for v in faults) + "</table>")
    err_html = ("<h2>Errors</h2><ul>" + "".join(f"<li><code>{e(x)}</code></li>" for x in errors) + "</ul>"
                if errors else "")
    sections = "\n".join(_section(x, entries, outdir, identities) for x in section_order(groups, entries))
    prov_html = "".join(f"<tr><th>{e(k)}</th><td>{e(val)}</td></tr>" for k, val in prov)
    now = head["now"].replace("*run now*", "run now")
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>kpca-suite report ({e(head['profile'])})</title>
<style>{CSS}</style></head><body>
<h1>kpca-suite report</h1>
<p class="meta">Profile <b>{e(head['profile'])}</b>, {e(head['created'])}, commit <code>{e(head['commits'])}</code>.
Verdicts: {e(head['counts'])}.{e(head['faults'])}{e(now)}</p>
{_counts(groups)}
{_glance(groups, registry.PAPERS)}
<p class="legend">{e(STATUS_TEXT)} Each claim links its section: the paper's statement, the figures, the numbers,
the tolerance and its evidence, the planted faults, the cells and their code.</p>
{fault_html}
{err_html}
<h2 id="claims">Claims</h2>
{sections}
<h2>Provenance</h2>
<table class="prov">{prov_html}</table>
</body></html>
"""
