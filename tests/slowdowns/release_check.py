"""Theory regressions across releases of other people's code, with asv:
``python -m tests.slowdowns.release_check [--claims ID ...] [--adapters NAME ...]``
(from the repository root; nothing here is touched).

In a scratch clone of the current commit:

1. ``asv run`` of some conformance benchmarks (:data:`SIDE_CLAIMS` x :data:`SIDE_ADAPTERS`,
   or with ``--wide`` every claim with a role on every scikit-learn and nystrompca adapter) (``suites/benchmarks/bench_conformance.py``:
   the judged number and the verdict of each claim with each implementation) for the
   current commit over asv.conf.json's matrix, one virtualenv per scikit-learn and nystrompca
   release; then every environment side by side (:func:`compare_environments`: asv's
   ``compare`` takes two commits, so this reads asv's result files of the environments of
   one commit the same way), flagging a spread beyond ``--factor``;
2. a commit on the clone's ``main`` that plants :mod:`tests.slowdowns.early_stop`
   (scikit-learn's randomized KernelPCA with no power iteration, as a release whose solver
   stopped early) in the package's adapter, and ``asv continuous --factor`` of the current
   commit against it,
   on the newest release only: the verdict of the claims that read that adapter steps
   from 1 (holds) to 4 (fails), and asv flags it.

Exit 0 when the planted regression is flagged. ``--html DIR`` also publishes asv's dashboard
of both runs into DIR. Everything asv builds is installed from
the package registry (a few minutes per environment on the first run).
"""

from __future__ import annotations

import argparse
import inspect
import json
import os
import shutil
import subprocess
import sys
import tempfile

from tests.slowdowns import early_stop
from tests.slowdowns.asv_check import git, newest_only

#: The claims and the implementation the planted early stop is seen through (judged at ci).
CLAIMS = ("hallgren21.every-point",)
ADAPTERS = ("sklearn-kernelpca-randomized",)
#: The pairs set side by side across releases by default (``--wide``: every claim with a role on
#: every scikit-learn and nystrompca implementation, about an hour per environment).
SIDE_CLAIMS = ("hallgren21.every-point", "hallgren21.table3-gap")
SIDE_ADAPTERS = ("sklearn-kernelpca-randomized", "sklearn-nystroem-pca", "nystrompca")
WIDE = r"Conformance\.track_\w+\(.*'(sklearn-[\w-]+|nystrompca)'\)"
FACTOR = "1.5"   # a verdict steps by 2 (holds to inconclusive) or 4 (holds to fails)


def bench_regex(claims, adapters) -> str:
    """asv's --bench pattern for the conformance benchmarks of these (claim, implementation)."""
    return (r"Conformance\.track_\w+\('?(" + "|".join(c.replace(".", r"\.") for c in claims) + r")'?, '?("
            + "|".join(adapters) + r")'?\)")


def asv(clone, *args, check=True):
    print(f"load {os.getloadavg()[0]:.2f}: asv {' '.join(args)}", flush=True)
    p = subprocess.run([sys.executable, "-m", "asv", *args], cwd=clone, capture_output=True, text=True)
    if check and p.returncode != 0:
        raise SystemExit(f"asv {args[0]} failed ({p.returncode}):\n{p.stdout[-3000:]}\n{p.stderr[-3000:]}")
    return p


def compare_environments(clone, factor: float) -> list:
    """Rows (benchmark, [value per environment], flag) of the current commit's results, one
    column per environment of the matrix (asv's result files), oldest releases first; a row
    whose largest and smallest value differ by more than ``factor`` is flagged."""
    from asv import config, results

    conf = config.Config.load(os.path.join(clone, "asv.conf.json"))
    commit = subprocess.run(["git", "-C", clone, "rev-parse", "main-under-test"], capture_output=True, text=True,
                            check=True).stdout.strip()
    by_env = {}
    results_dir = os.path.join(clone, conf.results_dir)  # relative to the checkout, not to this process
    for res in results.iter_results_for_machine_and_hash(results_dir, _machine(clone), commit):
        values = {}
        for name in res.get_all_result_keys():
            params = res.get_result_params(name)
            for combo, value in zip(_combos(params), res.get_result_value(name, params)):
                values[f"{name}({', '.join(combo)})"] = value
        by_env[res.env_name] = values
    envs = sorted(by_env, key=_releases)
    if len(envs) < 2:
        raise SystemExit(f"results for {len(envs)} environment(s) only: {envs}")
    rows = []
    for name in sorted(set().union(*by_env.values())):
        row = [_value(by_env[env].get(name)) for env in envs]
        seen = [v for v in row if v is not None]
        if not seen:  # not run anywhere (another role, refused, not selected)
            continue
        low, high = min(seen), max(seen)
        changed = len(seen) < len(row) or (low != high and (low <= 0 or high / low > factor))
        rows.append((name, row, "CHANGED" if changed else ""))
    print("environments: " + "; ".join(f"[{i}] {env}" for i, env in enumerate(envs)))
    for name, row, flag in rows:
        print(f"{name:<100} " + " ".join(f"{_fmt(v):>10}" for v in row) + f" {flag}")
    return rows


def _combos(params):
    import itertools
    return list(itertools.product(*params)) if params else [()]


def _value(v):
    """A result as a float, or None where asv has none (skipped, failed or not selected)."""
    return None if v is None or v != v else float(v)


def _fmt(v) -> str:
    return "skipped" if v is None else f"{v:.4g}"


def _releases(env_name: str) -> tuple:
    """The (scikit-learn, nystrompca) releases in an asv environment's name, sortable."""
    def release(lib):
        tail = env_name.split(lib, 1)[-1] if lib in env_name else ""
        digits = "".join(c if c.isdigit() or c == "." else " " for c in tail).split()
        return tuple(int(x) for x in digits[0].split(".") if x) if digits else ()
    return release("scikit-learn"), release("nystrompca")


def _machine(clone) -> str:
    with open(os.path.expanduser("~/.asv-machine.json")) as f:
        return next(k for k in json.load(f) if k != "version")


def plant(clone) -> None:
    """Commit the early-stopping KernelPCA as the adapter on the clone's ``main`` (the branch
    asv graphs, so the dashboard shows the step), after ``main-under-test``."""
    code = ("\n\n# planted regression (tests.slowdowns.release_check)\n"
            + inspect.getsource(early_stop.kernelpca_randomized_early_stop)
            + '\n\nADAPTERS["sklearn-kernelpca-randomized"] = dataclasses.replace(\n'
            '    ADAPTERS["sklearn-kernelpca-randomized"], factory=kernelpca_randomized_early_stop)\n')
    git(clone, "checkout", "-q", "-B", "main", "main-under-test")
    path = os.path.join(clone, "suites", "adapters.py")
    with open(path) as f:
        text = f.read()
    if "import dataclasses" not in text:
        text = text.replace("from __future__ import annotations\n", "from __future__ import annotations\n\nimport dataclasses\n", 1)
    with open(path, "w") as f:
        f.write(text + code)
    git(clone, "commit", "-q", "-am", "KernelPCA's randomized solver stops early (planted regression)")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--claims", nargs="+", default=list(CLAIMS))
    ap.add_argument("--adapters", nargs="+", default=list(ADAPTERS))
    ap.add_argument("--factor", default=FACTOR)
    ap.add_argument("--wide", action="store_true", help="set every claim with a role side by side across releases")
    ap.add_argument("--html", metavar="DIR", help="also `asv publish` the results and copy the dashboard here")
    args = ap.parse_args(argv)
    regex = bench_regex(args.claims, args.adapters)
    with tempfile.TemporaryDirectory() as scratch:
        clone = os.path.join(scratch, "repo")
        subprocess.run(["git", "clone", "-q", os.getcwd(), clone], check=True)
        git(clone, "branch", "main-under-test", "HEAD")
        plant(clone)
        asv(clone, "machine", "--yes")
        side = WIDE if args.wide else bench_regex(SIDE_CLAIMS, SIDE_ADAPTERS)
        asv(clone, "run", "--bench", side, "main-under-test^!", "--show-stderr")
        compare_environments(clone, float(args.factor))
        newest_only(clone)
        p = asv(clone, "continuous", "--factor", args.factor, "--bench", regex, "main-under-test", "main",
                check=False)
        print(p.stdout[-4000:], flush=True)
        if args.html:
            asv(clone, "publish")
            shutil.copytree(os.path.join(clone, ".asv", "html"), args.html, dirs_exist_ok=True)
            print(f"dashboard: {args.html} (serve it: python -m http.server -d {args.html})", flush=True)
    flagged = p.returncode != 0 and "DECREASED" in p.stdout
    print(f"planted early stop: {'FLAGGED' if flagged else 'passes (not flagged)'}")
    return 0 if flagged else 1


if __name__ == "__main__":
    sys.exit(main())
