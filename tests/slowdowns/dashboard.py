"""asv's dashboard, the conformance matrix and the report, looked at in a headless browser:
``python -m tests.slowdowns.dashboard OUT [--html ASV_HTML] [--pages FILE.html ...]``
(from the repository root; Debian's ``chromium`` and the machine's ``npm``).

1. The dashboard: ``--html`` is one ``asv publish`` made elsewhere (``release_check --html``
   publishes every release's graph of the planted early stop); without it the current
   commit's conformance tracks of :data:`PAIRS` are run here in this interpreter and
   published (:func:`publish_here`, a few seconds: no environment is built).
2. Offline: asv's ``index.html`` loads jQuery, flot, Bootstrap and two small plugins from CDNs,
   so with no internet it draws nothing and says "Can not determine continental origin of
   swallow". :func:`offline` copies the same releases from the npm registry (``npm pack``,
   cached in ``~/.cache/kpca-suite/asv-www``) into the dashboard's ``vendor/`` and points the
   page at them (their integrity hashes are the CDN builds', so they are dropped).
3. Chromium's screenshots, into OUT: the dashboard's overview grid and the graph of
   ``Conformance.track_verdict`` for one pair (served on loopback: the page reads its JSON
   with XHR, which a ``file://`` page may not), and each ``--pages`` file (``kpca-suite
   conformance``'s ``conformance.html``, ``kpca-suite report``'s ``report.html``).

The suite's test (``tests/test_dashboard.py``) runs step 1 and reads the JSON the graphs are drawn
from, and checks step 2's rewriting of asv's page; the screenshots are looked at by eye.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import http.server
import json
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import threading
from pathlib import Path

from asv.util import load_json

ROOT = Path(__file__).resolve().parents[2]
#: The pairs :func:`publish_here` runs: one that holds and one that a scikit-learn release reaches.
PAIRS = (("ghashami16.fd-bound", "ours-fd"), ("hallgren21.every-point", "sklearn-kernelpca-randomized"))
#: Each address asv's index.html loads from a CDN, by its file name -> (npm package, file in it).
VENDOR = {
    "jquery-3.3.1.min.js": ("jquery@3.3.1", "dist/jquery.min.js"),
    "jquery.flot.min.js": ("flot@0.8.3", "jquery.flot.js"),
    "jquery.flot.time.min.js": ("flot@0.8.3", "jquery.flot.time.js"),
    "jquery.flot.selection.min.js": ("flot@0.8.3", "jquery.flot.selection.js"),
    "jquery.flot.categories.min.js": ("flot@0.8.3", "jquery.flot.categories.js"),
    "jquery.flot.orderBars.js": ("flot-orderbars@1.0.0", "js/jquery.flot.orderBars.js"),
    "stupidtable.min.js": ("stupid-table-plugin@1.1.3", "stupidtable.min.js"),  # cdnjs's 1.0.1 is not on npm
    "md5.min.js": ("blueimp-md5@2.19.0", "js/md5.min.js"),
    "bootstrap.min.js": ("bootstrap@3.1.1", "dist/js/bootstrap.min.js"),
    "bootstrap.min.css": ("bootstrap@3.1.1", "dist/css/bootstrap.min.css"),
}
CDN = re.compile(r'(src|href)="https://[^"]*/([^"/]+)"(\s+integrity="[^"]*")?')
CACHE = Path.home() / ".cache" / "kpca-suite" / "asv-www"
VERDICT = "bench_conformance.Conformance.track_verdict"


def scratch_config(folder: Path, root: Path = ROOT) -> Path:
    """An asv.conf.json in ``folder`` that benchmarks the checkout at ``root`` in the current
    interpreter and writes its results and dashboard under ``folder`` (nothing in ``root`` is
    touched). Its branch is ``HEAD``, so a detached checkout publishes too."""
    conf = load_json(root / "asv.conf.json", js_comments=True)
    for key in ("matrix", "exclude"):
        conf.pop(key, None)
    conf.update(repo=str(root), branches=["HEAD"], benchmark_dir=str(root / conf["benchmark_dir"]),
                results_dir=str(folder / "results"), html_dir=str(folder / "html"), env_dir=str(folder / "env"))
    path = folder / "asv.conf.json"
    folder.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(conf, indent=1))
    return path


def _asv(config: Path, *args) -> str:
    command, *rest = args
    p = subprocess.run([sys.executable, "-m", "asv", command, "--config", str(config), *rest], capture_output=True,
                       text=True)
    if p.returncode != 0:
        raise RuntimeError(f"asv {' '.join(args)} exited {p.returncode}:\n{p.stdout[-3000:]}\n{p.stderr[-3000:]}")
    return p.stdout


def publish_here(folder: Path, pairs=PAIRS, root: Path = ROOT) -> Path:
    """``asv run --python=same --quick --set-commit-hash HEAD`` of the conformance tracks of
    ``pairs`` ((claim, implementation)), then ``asv publish``: the dashboard of the current
    commit, in ``folder/html``. asv's machine file is written where ``$HOME`` says."""
    config = scratch_config(folder, root)
    commit = subprocess.run(["git", "-C", str(root), "rev-parse", "HEAD"], capture_output=True, text=True,
                            check=True).stdout.strip()
    claims = "|".join(re.escape(c) for c, _ in pairs)
    names = "|".join(re.escape(a) for _, a in pairs)
    _asv(config, "machine", "--yes")
    _asv(config, "run", "--python=same", "--quick", "--set-commit-hash", commit, "--show-stderr",
         "--bench", rf"Conformance\.track_\w+\('({claims})', '({names})'\)")
    _asv(config, "publish")
    return folder / "html"


def rewrite(index_html: str) -> tuple[str, set]:
    """asv's page with every CDN address replaced by ``vendor/<file>`` and its integrity hash
    dropped; returns the page and the file names it now needs. An address :data:`VENDOR`
    does not know (a newer asv) is an error that names it."""
    needed = set()

    def local(m):
        name = m.group(2)
        if name not in VENDOR:
            raise KeyError(f"asv's index.html loads {m.group(0)!r}, which VENDOR does not copy")
        needed.add(name)
        return f'{m.group(1)}="vendor/{name}"'
    return CDN.sub(local, index_html), needed


def _npm_file(package: str, member: str) -> bytes:
    CACHE.mkdir(parents=True, exist_ok=True)
    tgz = CACHE / (package.replace("@", "-") + ".tgz")
    if not tgz.exists():
        with tempfile.TemporaryDirectory() as tmp:
            name = subprocess.run(["npm", "pack", package, "--pack-destination", tmp], capture_output=True,
                                  text=True, check=True).stdout.strip().splitlines()[-1]
            shutil.move(Path(tmp) / name, tgz)
    with tarfile.open(tgz) as t:
        return t.extractfile("package/" + member).read()


def offline(html_dir: Path) -> None:
    """Make a published dashboard draw with no internet (see the module's docstring)."""
    index = html_dir / "index.html"
    text, needed = rewrite(index.read_text())
    (html_dir / "vendor").mkdir(exist_ok=True)
    for name in sorted(needed):
        (html_dir / "vendor" / name).write_bytes(_npm_file(*VENDOR[name]))
    index.write_text(text)


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@contextlib.contextmanager
def served(folder: Path):
    """``folder`` over HTTP on a free loopback port, for the duration; yields its address."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(folder)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()


def screenshot(url: str, png: Path, size=(1400, 1000)) -> None:
    """Chromium's headless screenshot of ``url`` after its scripts ran (15 s of virtual time)."""
    with tempfile.TemporaryDirectory() as profile:
        subprocess.run(["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                        f"--user-data-dir={profile}", f"--window-size={size[0]},{size[1]}",
                        "--virtual-time-budget=15000", f"--screenshot={png}", url],
                       capture_output=True, check=True, timeout=180)
    print(f"{png}: {url}", flush=True)


def graph_url(base: str, claim: str, implementation: str) -> str:
    return f"{base}#{VERDICT}?p-claim=%27{claim}%27&p-implementation=%27{implementation}%27"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tests.slowdowns.dashboard", description=__doc__.split("\n\n")[0])
    ap.add_argument("out", type=Path, help="folder for the screenshots")
    ap.add_argument("--html", type=Path, help="a published asv dashboard (default: publish this commit's)")
    ap.add_argument("--pair", nargs=2, default=PAIRS[1], metavar=("CLAIM", "IMPLEMENTATION"),
                    help="the pair whose verdict graph is shot")
    ap.add_argument("--pages", nargs="*", type=Path, default=[], help="HTML files to shoot as well")
    args = ap.parse_args(argv)
    missing = [f"{tool} ({how})" for tool, how in (("chromium", "Debian: apt-get install chromium"),
                                                   ("npm", "Node.js's package manager")) if shutil.which(tool) is None]
    if missing:
        ap.error("needs " + " and ".join(missing) + " on PATH")
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as scratch:
        html = Path(scratch) / "html"
        if args.html:
            shutil.copytree(args.html, html)
        else:
            shutil.copytree(publish_here(Path(scratch) / "asv"), html)
        offline(html)
        with served(html) as base:
            screenshot(base, args.out / "dashboard-overview.png")
            screenshot(graph_url(base, *args.pair), args.out / "dashboard-verdict.png")
    for page in args.pages:
        screenshot(page.resolve().as_uri(), args.out / (page.stem + ".png"), size=(1400, 2000))
    return 0


if __name__ == "__main__":
    sys.exit(main())
