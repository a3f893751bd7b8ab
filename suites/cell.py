"""A cell of a sweep and its result: what the store keys and keeps.

The cell is the one part of the declaration types whose code decides a computed number:
:meth:`Cell.rng` and :meth:`Cell.seed_int` derive every random stream of an experiment
from the cell. So this module is part of the identity of every claim's code
(:mod:`suites.identity`), while the rest of the declaration types (:mod:`suites.claim`)
only describe and judge.
"""

from __future__ import annotations

import json
import zlib
from dataclasses import dataclass
from typing import Any, Optional

import numpy as np


@dataclass(frozen=True)
class Cell:
    """One unit of a sweep: a claim evaluated for one method, size and seed.

    ``params`` holds any further settings (m, ell, ...) as a sorted tuple of
    (name, value) pairs so that the cell is hashable and has a stable text key.
    """

    claim: str
    method: str
    n: int
    seed: int
    params: tuple = ()

    @staticmethod
    def make(claim: str, method: str, n: int, seed: int, **params: Any) -> "Cell":
        return Cell(claim, method, int(n), int(seed), tuple(sorted(params.items())))

    @property
    def p(self) -> dict:
        """The params as a dict."""
        return dict(self.params)

    def key(self) -> str:
        """Stable text key, used by the results store to skip finished cells."""
        return json.dumps(
            [self.claim, self.method, self.n, self.seed, [list(kv) for kv in self.params]],
            separators=(",", ":"),
        )

    def rng(self, stream: str = "data") -> np.random.Generator:
        """An independent, reproducible generator for this cell and one purpose.

        Seeded by (claim, seed, n, stream) only, so every method of a cell sees
        the same sample for the same (seed, n): comparisons between methods are
        paired, and a substituted estimator sees the data ours saw.
        """
        return np.random.default_rng(self._seed_sequence(stream))

    def seed_int(self, stream: str) -> int:
        """An int seed in [0, 2^32) from the same (claim, seed, n, stream): the
        ``random_state`` a role factory receives (scikit-learn takes such ints, not
        Generators)."""
        return int(self._seed_sequence(stream).generate_state(1, np.uint32)[0])

    @property
    def base_claim(self) -> str:
        """The claim id without an estimator suffix: ``a.b[name]`` -> ``a.b``. The
        random streams follow it, so every implementation sees the same data."""
        return self.claim.split("[", 1)[0]

    def _seed_sequence(self, stream: str) -> np.random.SeedSequence:
        words = [zlib.crc32(self.base_claim.encode()), self.seed, self.n, zlib.crc32(stream.encode())]
        return np.random.SeedSequence(words)


@dataclass
class Result:
    """A finished cell: its metrics, wall time (s) and peak traced memory (bytes; None
    when the run did not trace memory, :func:`suites.runner.execute_cell`)."""

    cell: Cell
    metrics: dict
    wall_time: float = float("nan")
    peak_mem: Optional[int] = None
