"""Shows that ``asv continuous`` flags a planted slowdown and passes a harmless
change: ``python -m tests.slowdowns.asv_check`` (from the repository root).

In a scratch clone of the current commit (nothing here is touched):

1. a commit that plants :mod:`tests.slowdowns.fd_shrink_full_svd` in the package
   itself (the Frequent Directions shrink through a full SVD), and one that changes
   only the README, each on its own branch;
2. ``asv machine --yes`` (no prompt), then ``asv continuous`` of the current commit
   against each branch, on Frequent Directions' timing benchmark, asv building and
   installing every commit in its own virtualenv.

Exit 0 when asv reports the slowdown and nothing for the harmless change. asv times
code: run it on a quiet machine (the load is printed before each comparison). The
first run installs the dependencies into asv's virtualenv (a few minutes).
"""

from __future__ import annotations

import inspect
import os
import subprocess
import sys
import tempfile

from tests.slowdowns.fd_shrink_full_svd import _shrink_by_full_svd

# One case of Frequent Directions' timing benchmark (n = 20000, d = 1000, ell = 50, halving):
# with the planted full SVD (its 1000 x 1000 right factor at each of the 800 shrinks) the
# larger cases run for many minutes.
BENCH = r"FrequentDirectionsFit\.time_fit\(20000, 50, 'halving'\)"
FACTOR = "1.25"   # the micro-benchmarks' threshold (README, "Tracking regressions")
FD_MODULE = "kernels/frequent_directions.py"


def git(clone, *args):
    subprocess.run(["git", "-C", clone, *args], check=True, capture_output=True, text=True)


def commit_on_branch(clone, branch, path, text, message):
    """Commit ``text`` appended to ``path`` on a new branch off the current commit."""
    git(clone, "checkout", "-q", "-b", branch, "main-under-test")
    with open(os.path.join(clone, path), "a") as f:
        f.write(text)
    git(clone, "commit", "-q", "-am", message)


def newest_only(clone) -> None:
    """asv.conf.json of the scratch clone with the newest release of each library of its matrix only."""
    path = os.path.join(clone, "asv.conf.json")
    from asv.util import load_json, write_json
    conf = load_json(path, js_comments=True)
    for name, releases in conf["matrix"]["req"].items():
        conf["matrix"]["req"][name] = [max(releases, key=lambda r: tuple(int(x) for x in r.split(".")))]
    conf.pop("exclude", None)
    write_json(path, conf)


def continuous(clone, branch):
    print(f"load {os.getloadavg()[0]:.2f}: asv continuous main-under-test {branch}", flush=True)
    p = subprocess.run([sys.executable, "-m", "asv", "continuous", "--factor", FACTOR,
                        "--bench", BENCH, "main-under-test", branch],
                       cwd=clone, capture_output=True, text=True)
    shown = [line for line in (p.stdout + p.stderr).splitlines()
             if "PERFORMANCE" in line or "time_fit" in line or "BENCHMARKS NOT" in line]
    print("\n".join(shown), flush=True)
    return p.returncode, p.stdout


def main() -> int:
    planted = ("\n\n# planted slowdown (tests.slowdowns.asv_check)\n"
               + inspect.getsource(_shrink_by_full_svd)
               + "\n\nFrequentDirections._shrink = _shrink_by_full_svd\n")
    with tempfile.TemporaryDirectory() as scratch:
        clone = os.path.join(scratch, "repo")
        subprocess.run(["git", "clone", "-q", os.getcwd(), clone], check=True)
        git(clone, "branch", "main-under-test", "HEAD")
        commit_on_branch(clone, "planted-slowdown", FD_MODULE, planted,
                         "FD shrink through a full SVD (planted slowdown)")
        commit_on_branch(clone, "harmless", "README.md", "\n", "README: a blank line")
        git(clone, "checkout", "-q", "main-under-test")
        newest_only(clone)  # a timing of our own code: one scikit-learn release is enough
        subprocess.run([sys.executable, "-m", "asv", "machine", "--yes"], cwd=clone,
                       check=True, capture_output=True)
        slow_rc, slow_out = continuous(clone, "planted-slowdown")
        same_rc, same_out = continuous(clone, "harmless")
    flagged = slow_rc != 0 and "PERFORMANCE DECREASED" in slow_out
    quiet = same_rc == 0 and "PERFORMANCE DECREASED" not in same_out
    print(f"planted slowdown: {'FLAGGED' if flagged else 'passes'}; harmless change: "
          f"{'passes' if quiet else 'FLAGGED'}")
    return 0 if flagged and quiet else 1


if __name__ == "__main__":
    sys.exit(main())
