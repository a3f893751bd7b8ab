"""Perf declarations that time commands as a user types them: start-up, the quick profile, asv."""

from __future__ import annotations

import functools
import json
import subprocess
import sys
import tempfile
from pathlib import Path

from ..claim import PROFILES
from .harness import Goal, PerfClaim, PerfRecord, Skip, have

# -- the commands: perf.startup, perf.quick-profile, perf.asv ------------------------------
# Each contender runs one command in a fresh interpreter, as a user types it; the
# goals are on its wall time (seconds), the one place a goal is absolute: it is
# the user's wait.

#: What the ``kpca-suite`` console script runs.
_MAIN = "import sys; from kpca_suite.suites.cli import main; sys.exit(main())"


def _repo_root():
    """The source checkout holding ``asv.conf.json`` (None for an installed wheel): this
    file is ``suites/perf/commands.py`` of it."""
    root = Path(__file__).resolve().parents[2]
    return root if (root / "asv.conf.json").is_file() else None


def _run_command(argv, expect, cwd=None):
    """Run ``argv``; raise (the contender is then reported with the error) unless it
    exits ``expect``. Returns the completed process."""
    proc = subprocess.run(argv, capture_output=True, text=True, cwd=cwd)
    if proc.returncode != expect:
        tail = (proc.stderr or proc.stdout).strip().splitlines()[-1:] or [""]
        raise RuntimeError(f"exit {proc.returncode} (expected {expect}): {tail[0][:160]}")
    return proc


def _cli(*args, expect=0):
    """A contender: ``kpca-suite ARGS`` in a fresh interpreter, expecting exit ``expect``."""
    def make(data, **_):
        return functools.partial(_run_command, [sys.executable, "-c", _MAIN, *args], expect)
    return make


def _python_floor(data, **_):
    """The floor of any command: a fresh interpreter that imports NumPy."""
    return functools.partial(_run_command, [sys.executable, "-c", "import numpy"], 0)


def _seconds_derive(goal_seconds, applies=lambda params: True, what="wall time"):
    """Derived rows: each command's best wall time against an absolute goal (s)."""
    def derive(records):
        out = []
        for r in records:
            if r.seconds is None or r.contender.startswith("floor") or not applies(r.params):
                continue
            goal = Goal(hi=goal_seconds)
            out.append(PerfRecord(r.claim, r.case, r.contender, ratio=r.seconds, goal=str(goal),
                                  met=goal.met(r.seconds), load=r.load, measure=f"{what} (s)", params=r.params))
        return out
    return derive


STARTUP = PerfClaim(
    id="perf.startup",
    goal="the CLI starts at once: `kpca-suite --help`, `kpca-suite list` and a usage error each finish in under "
         "1.5 s wall on 2 cores (lazy imports: no paper's data, no JIT compile before it is needed); the floor "
         "is a fresh interpreter importing NumPy",
    data=lambda **_: None,
    contenders={"kpca-suite --help": _cli("--help"), "kpca-suite list": _cli("list"),
                "usage error (run --profile nope)": _cli("run", "--profile", "nope", expect=2),
                "floor: python -c 'import numpy'": _python_floor},
    reference="floor: python -c 'import numpy'",
    sizes={profile: (dict(command="cli"),) for profile in PROFILES},
    derive=_seconds_derive(1.5),
)


def _profile_run(data, claims, profile, **_):
    """``kpca-suite run CLAIMS --profile P`` into a fresh results directory (so
    nothing is resumed), default workers (every CPU)."""
    import shutil
    import tempfile

    def run():
        out = tempfile.mkdtemp(prefix="kpca-suite-bench-")
        try:
            # exit 1 (a claim fails) is a measured run too: only usage / store errors (2) are errors
            proc = subprocess.run([sys.executable, "-c", _MAIN, "run", *claims.split(), "--profile", profile,
                                   "--out", out], capture_output=True, text=True)
            if proc.returncode not in (0, 1):
                raise RuntimeError(f"exit {proc.returncode}: {proc.stderr.strip().splitlines()[-1:]}")
        finally:
            shutil.rmtree(out, ignore_errors=True)
    return run


QUICK_PROFILE = PerfClaim(
    id="perf.quick-profile",
    goal="`kpca-suite run` (every claim, the default quick profile, every CPU, report and plots included) "
         "finishes in under 3 minutes on 2 cores with Numba's cache warm (the first run after an install "
         "also compiles; the smaller profiles time the ci profile, whose goal is not stated)",
    data=lambda **_: None,
    contenders={"kpca-suite run": _profile_run, "floor: python -c 'import numpy'": _python_floor},
    reference="floor: python -c 'import numpy'",
    sizes={"ci": (dict(claims="sterge20.identities", profile="ci"),),
           "quick": (dict(claims="sterge20.identities bach13.dof-decay", profile="ci"),),
           "full": (dict(claims="", profile="quick"),)},
    warm=dict(claims="sterge20.identities", profile="ci"),
    once=frozenset({"kpca-suite run"}),
    derive=_seconds_derive(180.0, applies=lambda p: p["profile"] == "quick" and not p["claims"]),
)


def _same_python_config(root: Path, where: Path) -> Path:
    """The checkout's asv.conf.json without its dependency matrix, written to ``where``
    (paths made absolute): under ``--python=same`` every row of the matrix is the same
    interpreter, and asv would run each benchmark once per row (four times) for one result."""
    from asv.util import load_json

    conf = load_json(str(root / "asv.conf.json"), js_comments=True)
    for key in ("matrix", "exclude", "include"):
        conf.pop(key, None)
    for key in ("repo", "benchmark_dir", "env_dir", "results_dir", "html_dir"):
        if key in conf:
            conf[key] = str((root / conf[key]).resolve())
    path = where / "asv.conf.json"
    path.write_text(json.dumps(conf, indent=2))
    return path


def _asv_run(data, bench, **_):
    """``asv run --quick --python=same [--bench B]`` in the source checkout, once per
    benchmark (:func:`_same_python_config`); its note counts the benchmarks asv reports
    failed (a skip must raise NotImplementedError in setup, which asv shows as skipped,
    not failed)."""
    root = _repo_root()
    if root is None:
        raise Skip("needs the source checkout (asv.conf.json), not an installed wheel")
    if not have("asv"):
        raise Skip("not installed (asv: pip install -e \".[bench]\")")
    if not (Path.home() / ".asv-machine.json").exists():  # a fresh machine: describe it without a prompt
        _run_command([sys.executable, "-m", "asv", "machine", "--yes"], 0, cwd=root)
    extra = ["--bench", bench] if bench else []

    def run():
        with tempfile.TemporaryDirectory(prefix="kpca-asv-") as where:
            conf = _same_python_config(root, Path(where))
            proc = _run_command([sys.executable, "-m", "asv", "run", "--config", str(conf), "--quick", "--python=same",
                                 "--show-stderr", *extra], 0, cwd=root)
        failed = [ln for ln in proc.stdout.splitlines() if ln.rstrip().endswith("failed")]
        if failed:
            raise RuntimeError(f"{len(failed)} benchmark(s) failed, e.g. {failed[0].strip()[:120]}")
    return run


#: What ``bench --which asv`` runs at ci, and what every profile's warm-up runs: one
#: benchmark (its module's other one doubled the time, 16 s against 8).
CI_BENCHMARK = "bench_kernels.GaussianBlock.time_block"


ASV = PerfClaim(
    id="perf.asv",
    goal="`asv run --quick --python=same` completes in under 5 minutes with no benchmark failed (skips raise "
         "NotImplementedError in setup); quick runs one benchmark module, ci one benchmark of it",
    data=lambda **_: None,
    contenders={"asv run --quick": _asv_run, "floor: python -c 'import numpy'": _python_floor},
    reference="floor: python -c 'import numpy'",
    sizes={"ci": (dict(bench=CI_BENCHMARK),), "quick": (dict(bench="bench_kernels"),), "full": (dict(bench=""),)},
    warm=dict(bench=CI_BENCHMARK),
    once=frozenset({"asv run --quick"}),
    derive=_seconds_derive(300.0, applies=lambda p: not p["bench"]),
)
