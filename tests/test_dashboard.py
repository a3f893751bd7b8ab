"""The cheap pieces of ``python -m tests.slowdowns.dashboard``: asv publishes the conformance
tracks a user graphs, with the verdict where the graph reads it, and the dashboard's page can
be pointed away from its CDNs (the screenshots themselves are looked at by eye)."""

import json
import math
import subprocess
from pathlib import Path

import asv
import pytest

from kpca_suite.suites.benchmarks.bench_conformance import Conformance
from tests.slowdowns import dashboard


def test_asv_publishes_each_pairs_verdict_where_its_graph_reads_it(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path))  # asv's machine file
    pair = ("ghashami16.fd-bound", "ours-fd")
    html = dashboard.publish_here(tmp_path / "asv", pairs=[pair])
    index = json.loads((html / "index.json").read_text())
    commit = subprocess.run(["git", "-C", str(dashboard.ROOT), "rev-parse", "HEAD"], capture_output=True, text=True, check=True).stdout.strip()
    assert list(index["revision_to_hash"].values()) == [commit]
    claims, names = Conformance.params
    meta = index["benchmarks"][dashboard.VERDICT]
    assert meta["unit"] == "verdict (1 holds, 2 inconclusive, 4 fails)"
    assert meta["param_names"] == ["claim", "implementation"]
    assert meta["params"] == [[repr(c) for c in claims], [repr(a) for a in names]]
    at = claims.index(pair[0]) * len(names) + names.index(pair[1])  # asv flattens the params row-major

    def graph(track):
        [path] = [p for p in html.glob(f"graphs/**/bench_conformance.Conformance.{track}.json") if "summary" not in p.parts]
        [(revision, values)] = json.loads(path.read_text())
        assert index["revision_to_hash"][str(revision)] == commit and len(values) == len(claims) * len(names)
        assert all(v is None for i, v in enumerate(values) if i != at)  # only the pair asked for ran
        return values[at]
    assert graph("track_verdict") == 1.0  # our Frequent Directions holds its bound
    judged = graph("track_judged")
    assert math.isfinite(judged) and 0 <= judged < 1  # a fraction of ||A||_F^2 below the bound


def test_the_offline_dashboard_loads_every_script_and_style_from_beside_it():
    page = (Path(asv.__file__).parent / "www" / "index.html").read_text()
    assert "https://" in page
    text, needed = dashboard.rewrite(page)
    assert needed == set(dashboard.VENDOR)
    tags = [t for t in text.split("<") if t.startswith(("script", "link"))]
    assert not [t for t in tags if "https://" in t or "integrity=" in t]
    assert text.count('src="vendor/') + text.count('href="vendor/') == len(dashboard.VENDOR)
    with pytest.raises(KeyError, match="jquery-9.9.9.min.js"):
        dashboard.rewrite('<script src="https://code.jquery.com/jquery-9.9.9.min.js"></script>')
