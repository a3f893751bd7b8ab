"""Headless Chromium on a report page, as a reader sees it (Debian's ``chromium``; no Python
dependency): :func:`measure` opens a copy of the page with a small script that, once the page
and its images have loaded, writes what it measured into the DOM (an attribute of ``<html>``),
and reads it back from Chromium's ``--dump-dom``; :func:`screenshot` saves what the window shows.

``python -m tests.browser REPORT.html OUT_DIR`` prints the measurements and saves two
screenshots: the first screen and one claim's section (``--claim ID``)."""

from __future__ import annotations

import argparse
import html
import json
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

WIDTH, HEIGHT = 1400, 900

#: The measurements, taken in the page once it has loaded (its images too).
PROBE = """
<script>
window.addEventListener("load", function () {
  var W = document.documentElement.clientWidth;
  var images = Array.prototype.slice.call(document.images);
  var broken = images.filter(function (i) { return !(i.complete && i.naturalWidth > 0); })
                     .map(function (i) { return i.getAttribute("src"); });
  function clipped(el) {  // inside an ancestor that clips what sticks out (a glance cell's ellipsis)
    for (var a = el.parentElement; a && a !== document.body; a = a.parentElement) {
      if (getComputedStyle(a).overflowX !== "visible") return true;
    }
    return false;
  }
  function name(el) {
    return el.tagName.toLowerCase() + (el.id ? "#" + el.id : "") + (el.className ? "." + el.className : "")
           + " " + (el.textContent || "").trim().slice(0, 60);
  }
  var over = Array.prototype.slice.call(document.body.querySelectorAll("*")).filter(function (el) {
    var r = el.getBoundingClientRect();
    return (r.width > 0 && (r.right > W + 0.5 || r.left < -0.5)) && !clipped(el);
  }).map(name);
  var glance = document.getElementById("glance");
  var g = glance ? glance.getBoundingClientRect() : null;
  var out = {
    viewport: [W, window.innerHeight], scroll_width: document.documentElement.scrollWidth,
    page_height: document.documentElement.scrollHeight, images: images.length, broken: broken,
    overflowing: over.slice(0, 20), overflow_count: over.length,
    glance_top: g && g.top + window.scrollY, glance_height: g && g.height,
    glance_bottom: g && g.bottom + window.scrollY,
    glance_rows: glance ? glance.querySelectorAll("tbody tr:not(.paper)").length : 0,
    sections: document.querySelectorAll("section.claim").length
  };
  document.documentElement.setAttribute("data-measured", JSON.stringify(out));
});
</script>
"""


def chromium() -> str | None:
    """The Chromium on PATH, or None."""
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    return None


def _run(args, timeout=120, height=HEIGHT) -> str:
    exe = chromium()
    if exe is None:
        raise RuntimeError("no chromium on PATH (Debian: apt-get install chromium)")
    with tempfile.TemporaryDirectory() as profile:
        p = subprocess.run([exe, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                            "--no-first-run", "--disable-extensions", f"--user-data-dir={profile}",
                            f"--window-size={WIDTH},{height}", "--virtual-time-budget=20000", *args],
                           capture_output=True, text=True, timeout=timeout)
    if p.returncode != 0:
        raise RuntimeError(f"chromium exited {p.returncode}: {p.stderr[-2000:]}")
    return p.stdout


def measure(page: Path) -> dict:
    """What the page measures of itself in a 1400 x 900 window (see :data:`PROBE`). The probe
    goes into a copy beside the page, so that its relative links still resolve."""
    page = Path(page).resolve()
    probe = page.with_name(f".probe-{page.name}")
    text = page.read_text(encoding="utf-8")
    probe.write_text(text.replace("</body>", PROBE + "</body>", 1), encoding="utf-8")
    try:
        dom = _run(["--dump-dom", probe.as_uri()])
    finally:
        probe.unlink()
    found = re.search(r'<html[^>]*\sdata-measured="([^"]*)"', dom)
    if found is None:
        raise RuntimeError("the page did not write its measurements (did it load?)")
    return json.loads(html.unescape(found.group(1)))


def screenshot(page: Path, png: Path, anchor: str = "", height: int = HEIGHT) -> Path:
    """The window's view (1400 x ``height``) of ``page``; with ``anchor`` (an id), of that element
    alone at the top of the page, everything else hidden by a style in a copy beside the page
    (headless Chromium paints a blank window once a script scrolls a page this long)."""
    page = Path(page).resolve()
    shot = page.with_name(f".shot-{page.name}")
    only = (f"<style>body > * {{ display: none !important; }} body > [id={json.dumps(anchor)}] "
            "{ display: block !important; }</style>" if anchor else "")
    shot.write_text(page.read_text(encoding="utf-8").replace("</head>", only + "</head>", 1), encoding="utf-8")
    try:
        _run([f"--screenshot={Path(png).resolve()}", shot.as_uri()], height=height)
    finally:
        shot.unlink()
    return Path(png)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tests.browser", description=__doc__.split("\n\n")[0])
    ap.add_argument("page", type=Path)
    ap.add_argument("out", type=Path)
    ap.add_argument("--claim", default="sterge20.cor43-exp")
    args = ap.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    print(json.dumps(measure(args.page), indent=1))
    for png, anchor in ((args.out / "first-screen.png", ""), (args.out / "section.png", args.claim)):
        print(screenshot(args.page, png, anchor))
    return 0


if __name__ == "__main__":
    sys.exit(main())
