"""Shows that the micro-benchmarks' regression check catches a slowdown and passes
the real code: ``python -m tests.slowdowns.check`` (from the repository root).

1. a baseline of the Frequent Directions group, saved in a temporary storage;
2. the real code compared with it (``--benchmark-compare-fail=min:THRESHOLD``): must pass;
3. the planted slowdown (:mod:`tests.slowdowns.fd_shrink_full_svd`) compared with it:
   must fail.

Exit 0 when both hold. Prints the machine's load before each step: the check times
code, so run it on a quiet machine.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile

THRESHOLD = "min:25%"
BENCH = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/test_microbenchmarks.py",
         "-k", "frequent_directions", "--benchmark-enable", "--benchmark-min-rounds=7"]


def run(args, storage):
    print(f"load {os.getloadavg()[0]:.2f}: {' '.join(args[3:])}", flush=True)
    p = subprocess.run(BENCH + [f"--benchmark-storage={storage}"] + args, capture_output=True, text=True)
    lines = (p.stdout + p.stderr).splitlines()
    print("\n".join(line.strip() for line in lines if "RegressionCheck" in line or " passed" in line))
    return p.returncode


def main() -> int:
    with tempfile.TemporaryDirectory() as storage:
        if run(["--benchmark-save=baseline"], storage) != 0:
            print("the baseline did not run")
            return 2
        real = run(["--benchmark-compare=0001", f"--benchmark-compare-fail={THRESHOLD}"], storage)
        slow = run(["--benchmark-compare=0001", f"--benchmark-compare-fail={THRESHOLD}",
                    "-p", "tests.slowdowns.fd_shrink_full_svd"], storage)
    print(f"real code: {'passes' if real == 0 else 'FLAGGED'}; planted slowdown: "
          f"{'FLAGGED' if slow != 0 else 'passes'}")
    return 0 if real == 0 and slow != 0 else 1


if __name__ == "__main__":
    sys.exit(main())
