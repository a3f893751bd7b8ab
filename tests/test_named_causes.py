"""Inputs that used to end in a misleading line now name their cause: an empty, device or
directory --data path, an empty --verify name, and a file-size limit (which SQLite reports as
a disk I/O error, and read as a corrupt store)."""

import os
import resource
import subprocess
import sys

import pytest

from kpca_suite.suites.cli import main


@pytest.mark.parametrize("path,message", [
    ("", "--data: the path is empty"),
    ("/dev/null", "is not a regular file (a device or a pipe), not a .npz or .csv file"),
    (".", "is a directory, not a .npz or .csv file"),
])
def test_a_data_path_that_is_no_file_says_what_it_is(path, message, tmp_path, capsys):
    assert main(["run", "sterge20.digits", "--data", path, "--profile", "ci", "--out", str(tmp_path)]) == 2
    assert message in capsys.readouterr().err


def test_an_empty_verify_name_is_refused(tmp_path, capsys):
    assert main(["run", "sterge20.identities", "--profile", "ci", "--jobs", "1", "--no-progress",
                 "--out", str(tmp_path)]) == 0
    capsys.readouterr()
    assert main(["report", "--out", str(tmp_path), "--verify", "sterge20.identities", ""]) == 2
    assert "--verify: an empty claim or paper name was given" in capsys.readouterr().err


def _limited(limit):
    return lambda: resource.setrlimit(resource.RLIMIT_FSIZE, (limit, resource.RLIM_INFINITY))


def test_a_file_size_limit_is_named_not_read_as_a_corrupt_store(tmp_path):
    out = str(tmp_path / "r")
    assert main(["run", "sterge20.identities", "--profile", "ci", "--jobs", "1", "--no-progress", "--out", out]) == 0
    before = (tmp_path / "r" / "results.sqlite").read_bytes()
    cmd = [sys.executable, "-m", "kpca_suite.suites.cli", "report", "--out", out]
    env = dict(os.environ, PYTHONWARNINGS="ignore")
    done = subprocess.run(cmd, capture_output=True, text=True, preexec_fn=_limited(16384), env=env, timeout=300)
    assert done.returncode == 2, done.stderr
    assert "file too large: the file-size limit (ulimit -f) is 16384 bytes" in done.stderr
    assert "corrupt" not in done.stderr
    assert (tmp_path / "r" / "results.sqlite").read_bytes() == before
