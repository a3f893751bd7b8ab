"""``--data`` given to ``kpca-suite run`` for claims none of which reads a data
file is not silently ignored: one warning line names the claims that do."""

from __future__ import annotations

import dataclasses

import pytest

from kpca_suite.suites import cli
from tests import toy_claim as toy

WARNING = "kpca-suite: warning: --data is ignored: none of the selected claims reads a data file"


@pytest.fixture
def reader(toy_registry, monkeypatch):
    """toy.reader: toy.rate's sweep, declared as reading a --data file; no plots drawn."""
    from kpca_suite.suites import plots
    monkeypatch.setattr(plots, "plot_fits", lambda verdict, outdir: [])
    claim = dataclasses.replace(toy.TOY_RATE, id="toy.reader", takes_data=True)
    monkeypatch.setitem(toy_registry, "toy.reader", claim)
    return claim


def _run(argv, tmp_path, capsys):
    data = tmp_path / "d.npz"
    data.write_bytes(b"x")
    code = cli.main(["run", *argv, "--data", str(data), "--out", str(tmp_path / "res"), "-j", "1",
                     "--no-progress", "--profile", "ci"])
    out, err = capsys.readouterr()
    return code, [line for line in err.splitlines() if line.startswith("kpca-suite: warning:")]


def test_data_for_claims_that_read_none_is_one_warning(reader, tmp_path, capsys):
    code, warnings = _run(["toy.rate"], tmp_path, capsys)
    assert code == 0
    assert warnings == [f"{WARNING} (those that do: toy.reader)"]


@pytest.mark.parametrize("names", [["toy.reader"], ["toy.rate", "toy.reader"]])
def test_no_warning_when_a_selected_claim_reads_data(reader, tmp_path, capsys, names):
    code, warnings = _run(names, tmp_path, capsys)
    assert code == 0 and warnings == []


def test_no_claim_reads_data(toy_registry, tmp_path, capsys, monkeypatch):
    from kpca_suite.suites import plots
    monkeypatch.setattr(plots, "plot_fits", lambda verdict, outdir: [])
    code, warnings = _run(["toy.rate"], tmp_path, capsys)
    assert code == 0 and warnings == [f"{WARNING} (those that do: none is registered)"]
