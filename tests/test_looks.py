"""Sequential seeds: a claim judged by recipes spends its seeds in looks and stops at the
first look that settles it; the decision depends on the cells of the look alone."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from kpca_suite.suites.claim import Cell, Fault, Grid, PerProfile, Result
from kpca_suite.suites.judging import (AllOf, AllWithin, MeanAtMost, NoWorseThanBaseline, SlopeInBand, interim_look,
                                       interim_widening, takes_looks)
from kpca_suite.suites.pipeline import evaluate, seed_looks
from kpca_suite.suites.store import MemoryStore, ResultStore

from . import toy_claim

SIZES = (64, 128, 256, 512, 1024, 2048)


def _seeded(claim, seeds: int, **changes):
    grid = Grid(SIZES, seeds)
    return dataclasses.replace(claim, id=f"{claim.id}{seeds}", grid=PerProfile(grid, grid, grid), **changes)


def spike(cell):
    """A planted fault that one cell shows: seed 2 at n = 256 is 100x off."""
    return toy_claim.rate(cell) * (100.0 if (cell.seed, cell.n) == (2, 256) else 1.0)


def late_spike(cell):
    """The same fault in the last seed only: no interim look can see it."""
    return toy_claim.rate(cell) * (100.0 if (cell.seed, cell.n) == (19, 256) else 1.0)


RATE20 = _seeded(toy_claim.TOY_RATE, 20)
WITHIN20 = _seeded(toy_claim.TOY_RATE, 20, judge=AllWithin(1.0, metrics=("err",)),
                   faults=(Fault("spike", "one cell off", {"toy": spike}),
                           Fault("late-spike", "the last seed's cell off", {"toy": late_spike})))


def test_looks_take_a_quarter_and_a_half_of_the_seeds_when_each_has_five_and_recipes_judge():
    def looks(claim, seeds):
        cells = [Cell.make(claim.id, "toy", 64, s) for s in range(seeds)]
        return [len(look) for look in seed_looks(claim, cells)]

    assert looks(RATE20, 20) == [5, 10, 20]
    assert looks(RATE20, 48) == [12, 24, 48]
    assert looks(RATE20, 10) == [5, 10]
    assert looks(RATE20, 9) == [5, 9]
    assert looks(RATE20, 5) == [5]
    own_judge = dataclasses.replace(RATE20, judge=lambda results, profile: None)
    assert looks(own_judge, 20) == [20]
    assert takes_looks(AllOf(SlopeInBand("err", (-1, 0), "err"), AllWithin(1.0))) is True
    assert takes_looks(AllOf(AllWithin(1.0), lambda results, profile: None)) is False


def test_an_interim_ci_is_wider_the_fewer_the_seeds():
    k = [interim_widening(s) for s in (5, 10, 25, 100)]
    assert all(a > b > 1.5 for a, b in zip(k, k[1:]))


def test_the_interim_quantiles_are_scipy_stats_own():
    """interim_t and interim_widening take Student's and the normal quantile from
    scipy.special (stdtrit, ndtri); scipy.stats' t.ppf and norm.ppf give the same numbers."""
    from scipy.stats import norm, t

    from kpca_suite.suites.judging import INTERIM_LEVEL, interim_t
    for seeds in (2, 5, 10, 25, 100):
        q = t.ppf(1 - (1 - INTERIM_LEVEL) / 2, seeds - 1)
        assert interim_t(seeds) == q
        assert interim_widening(seeds) == float(q * np.sqrt(seeds / (seeds - 1)) / norm.ppf(0.975))


def test_a_settled_rate_stops_at_its_first_look_and_the_store_says_so():
    store = MemoryStore()
    ev = evaluate([RATE20], "ci", store, jobs=1)
    v = ev.verdicts[RATE20.id]
    assert (v.status, v.seeds) == ("holds", (5, 20))
    assert v.summary.endswith("[decided after 5 of 20 seeds]")
    assert "interim look: 99.8% over 5 seeds" in v.summary
    assert ev.executed == 5 * len(SIZES)
    assert {r.cell.seed for r in ev.results[RATE20.id]} == set(range(5))
    assert store.get_meta(f"decided {RATE20.id} ci") == "after 5 of 20 seeds"


def test_a_cell_over_its_threshold_stops_the_claim_at_the_look_that_holds_it():
    ev = evaluate([WITHIN20.with_fault("spike")], "ci", jobs=1)
    v = ev.verdicts[WITHIN20.id]
    assert (v.status, v.seeds, ev.executed) == ("fails", (5, 20), 5 * len(SIZES))


def test_a_threshold_every_cell_must_meet_holds_only_on_every_seed_and_misses_no_late_cell():
    ev = evaluate([WITHIN20], "ci", jobs=1)
    assert (ev.verdicts[WITHIN20.id].status, ev.verdicts[WITHIN20.id].seeds) == ("holds", (20, 20))
    assert ev.executed == 20 * len(SIZES)
    late = evaluate([WITHIN20.with_fault("late-spike")], "ci", jobs=1)
    assert (late.verdicts[WITHIN20.id].status, late.verdicts[WITHIN20.id].seeds) == ("fails", (20, 20))


def test_a_mean_far_under_its_level_settles_at_a_look_and_one_near_it_waits_for_every_seed():
    def results(mean, spread, seeds=5):
        rng = np.random.default_rng(0)
        return [Result(Cell.make("t.m", "a", n, s), {"v": mean + spread * rng.standard_normal()})
                for n in SIZES for s in range(seeds)]
    rule = MeanAtMost("v", 1.0, "level")
    with interim_look():
        assert rule(results(0.5, 0.01), "ci").status == "holds"
        assert rule(results(1.5, 0.01), "ci").status == "fails"
        assert rule(results(0.98, 0.05), "ci").status == "inconclusive"
    assert rule(results(0.98, 0.05), "ci").status == "holds"


def test_a_look_reads_its_own_cells_so_a_store_holding_every_seed_decides_alike(tmp_path):
    fresh = evaluate([RATE20], "ci", jobs=1).verdicts[RATE20.id]
    full = ResultStore(tmp_path / "r.sqlite")
    with interim_look(False):  # every seed stored, as by a run before looks were taken
        for cell in RATE20.cells("ci"):
            full.add(Result(cell, RATE20.run_cell(cell)))
    again = evaluate([RATE20], "ci", full, jobs=1)
    assert again.executed == 0 and again.skipped == 5 * len(SIZES)
    v = again.verdicts[RATE20.id]
    assert (v.status, v.summary, v.seeds) == (fresh.status, fresh.summary, fresh.seeds)
    pooled = evaluate([RATE20], "ci", jobs=2).verdicts[RATE20.id]
    assert (pooled.summary, pooled.seeds) == (fresh.summary, fresh.seeds)
    full.close()


@pytest.mark.parametrize("claim", [toy_claim.TOY_VAGUE], ids=["vague"])
def test_a_claim_in_doubt_gets_every_seed_and_the_verdict_of_a_run_without_looks(claim):
    vague = _seeded(claim, 20)
    ev = evaluate([vague], "ci", jobs=1)
    v = ev.verdicts[vague.id]
    assert (v.status, v.seeds) == ("inconclusive", (20, 20))
    assert v.summary == vague.verdict(ev.results[vague.id], "ci").summary


def _against_uniform(steps, ratio=1.0, seeds=5, noise=0.02):
    """R of a baseline ``uniform`` and of ``other`` (``ratio`` times it) at m = 8, 16, 32, each
    step of m multiplying R by the matching entry of ``steps``; lognormal noise per value."""
    rng = np.random.default_rng(3)
    out = []
    for s in range(seeds):
        level = 1.0
        for m, step in zip((8, 16, 32), (1.0, *steps)):
            level *= step
            for method, r in (("uniform", 1.0), ("other", ratio)):
                out.append(Result(Cell.make("toy", method, 1, s, m=m),
                                  {"R": r * level * np.exp(noise * rng.standard_normal())}))
    return out


@pytest.mark.parametrize("steps, ratio, interim, final", [
    ((0.7, 0.7), 0.9, "holds", "holds"),           # falling, clearly no worse: settled early
    ((0.7, 0.7), 1.1, "inconclusive", "holds"),    # on the margin: only every seed decides (and ties hold)
    ((0.7, 1.03), 0.9, "inconclusive", "fails"),   # a step up by 3%: its t interval straddles 0, it waits
    ((0.7, 1.3), 0.9, "fails", "fails"),           # a step that rises beyond doubt fails early
    ((0.7, 0.7), 1.5, "fails", "fails"),           # worse than the margin beyond doubt
])
def test_no_worse_than_baseline_settles_at_a_look_only_beyond_doubt(steps, ratio, interim, final):
    rule = NoWorseThanBaseline("uniform", "R", 0.1, methods=("uniform", "other"))
    results = _against_uniform(steps, ratio)
    with interim_look():
        assert rule(results, "ci").status == interim
    assert rule(results, "ci").status == final


def test_a_ratio_to_a_zero_baseline_is_no_pass():
    """A baseline whose seed mean is 0 gives no finite ratio: inconclusive, never holds."""
    results = [Result(Cell.make("toy", method, 1, s, m=m), {"R": 0.0 if method == "uniform" else 1.0 / m})
               for s in range(5) for m in (8, 16) for method in ("uniform", "other")]
    rule = NoWorseThanBaseline("uniform", "R", 0.1, methods=("uniform", "other"), falls=False)
    assert rule(results, "ci").status == "inconclusive"
