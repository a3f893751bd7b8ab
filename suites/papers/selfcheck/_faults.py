"""The planted faults of selfcheck.recipes: a broken recipe, store key, resume, interim
look or role boundary each, which the claim must fail."""

from __future__ import annotations

import json

import numpy as np

from kpca_suite.theory import verdict_from_ci

from ...judging import MeanAtMost, NoWorseThanBaseline, SlopeInBand, UnderBound, interim_look
from ...roles import Checked
from ...runner import run_sweep
from ...store import MemoryStore, StoreError



class PointSlope(SlopeInBand):
    """A broken SlopeInBand: judges the point estimate and ignores its CI."""

    def __call__(self, results, profile):
        out = super().__call__(results, profile)
        band = out.predicted.get(f"{self.name}_band")
        if out.status == "inconclusive" and band is not None:
            slope = out.measured[self.name]
            out.status = "holds" if band[0] <= slope <= band[1] else "fails"
        return out


class NarrowSlopeCI(SlopeInBand):
    """A broken SlopeInBand: a CI of +- 0.01 around the point estimate (a standard error
    taken for the interval's half-width over many seeds, say), judged as if it were 95%."""

    def __call__(self, results, profile):
        out = super().__call__(results, profile)
        if self.name not in out.measured:  # no slope was fitted (a non-finite cell)
            return out
        slope, band = out.measured[self.name], out.predicted[f"{self.name}_band"]
        ci = (slope - 0.01, slope + 0.01)
        out.measured.update({f"{self.name}_ci_low": ci[0], f"{self.name}_ci_high": ci[1]})
        out.status = verdict_from_ci(ci, tuple(band))
        return out


class PeekingSlope(SlopeInBand):
    """A broken interim look: a prefix of the seeds judged at the final look's 95%, as if
    it were every seed (peeking at the data until it looks decided)."""

    def __call__(self, results, profile):
        with interim_look(False):
            return super().__call__(results, profile)


class PeekingRatio(NoWorseThanBaseline):
    """A broken interim look of NoWorseThanBaseline: a prefix judged at the final look's 95%."""

    def __call__(self, results, profile):
        with interim_look(False):
            return super().__call__(results, profile)


class LevelAtLeast(MeanAtMost):
    """A broken MeanAtMost: compares on the wrong side."""

    def __call__(self, results, profile):
        out = super().__call__(results, profile)
        out.status = {"holds": "fails", "fails": "holds"}.get(out.status, out.status)
        return out


class BoundNanPasses(UnderBound):
    """A broken UnderBound: drops the cells whose value is not finite before judging."""

    def __call__(self, results, profile):
        return super().__call__([r for r in results if np.isfinite(r.metrics[self.metric])], profile)

class SeedlessStore(MemoryStore):
    """A broken store: its key leaves out the seed, so a second seed of a cell is taken
    for one already stored (and a resume would skip it)."""

    def __init__(self, path=None):
        super().__init__()

    def add(self, result, versions=None, commit="unknown"):
        c = result.cell
        key = json.dumps([c.claim, c.method, c.n, [list(kv) for kv in c.params]])
        if key in self._results:
            raise StoreError(f"cell {key} is already in the results store")
        self._results[key] = result


def lossy_resume(claims, profile, store, **kw):
    """A broken resume: a cell counts as done when a stored cell has its claim, method, n
    and seed, whatever its params (a resume key that forgets a field)."""
    class Lossy:
        def __getattr__(self, name):
            return getattr(store, name)

        def done_keys(self, claim=None):
            done = {tuple(json.loads(k)[:4]) for k in store.done_keys(claim)}
            return {c.key() for cl in claims for c in cl.cells(profile) if (c.claim, c.method, c.n, c.seed) in done}
    return run_sweep(claims, profile, Lossy(), **kw)


class InfPasses(Checked):
    """A broken role boundary: it looks for NaN only, so an infinite output gets through."""

    def checked(self, out, rows, method):
        Z = np.asarray(out)
        if Z.dtype.kind == "f" and Z.ndim == 2 and np.isinf(Z).any() and not np.isnan(Z).any():
            return Z.astype(np.float64)
        return super().checked(out, rows, method)
