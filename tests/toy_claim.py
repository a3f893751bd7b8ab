"""Toy claims for the runner, store and CLI tests: fast, deterministic, and
importable by worker processes (their functions are module-level).

``toy.rate``   err = n^-1/2 (1 + 0.05 z), z ~ N(0,1) from the cell's seed and n;
               predicted slope -1/2, band [-0.6, -0.4] -> holds.
``toy.fail``   the same data judged against a predicted slope of -1 -> fails.
``toy.boom``   raises for n = 128 (every seed), else like toy.rate.
``toy.bad``    returns a string metric -> a MetricsError for every cell.
``toy.vague``  the same data, band [-0.5, -0.3] that the CI straddles -> inconclusive.
"""

from __future__ import annotations

import numpy as np

from kpca_suite.suites.registry import Cell, Claim, Fit, Verdict

NS = {"ci": (64, 128, 256, 512, 1024, 2048), "quick": (64, 128, 256, 512, 1024, 2048),
      "full": (64, 128, 256, 512, 1024, 2048, 4096)}
SEEDS = {"ci": 5, "quick": 5, "full": 6}


def toy_cells(claim_id):
    def cells(profile, options):
        return [Cell.make(claim_id, "toy", n, s, m=n // 4, grid=(1, 2.5), profile="any")
                for n in NS[profile] for s in range(SEEDS[profile])]
    return cells


def run_rate(cell: Cell) -> dict:
    z = np.random.default_rng([cell.seed, cell.n]).standard_normal()
    return {"err": float(cell.n ** -0.5 * (1 + 0.05 * z)), "aux": float(cell.n)}


def run_boom(cell: Cell) -> dict:
    if cell.n == 128:
        raise RuntimeError(f"planted failure at n={cell.n}")
    return run_rate(cell)


def run_bad(cell: Cell) -> dict:
    return {"err": "not a number"}


def loglog(x, Y):
    """Least squares of log(mean) on log(x) and a bootstrap-over-seeds CI."""
    x = np.asarray(x, float)
    lx = np.log(x)

    def fit(Ym):
        ly = np.log(np.nanmean(Ym, axis=1))
        A = np.vstack([lx, np.ones_like(lx)]).T
        (slope, icpt), *_ = np.linalg.lstsq(A, ly, rcond=None)
        return slope, icpt

    slope, icpt = fit(Y)
    rng = np.random.default_rng(0)
    boots = [fit(Y[:, rng.integers(0, Y.shape[1], Y.shape[1])])[0] for _ in range(200)]
    return float(slope), float(icpt), (float(np.quantile(boots, 0.025)), float(np.quantile(boots, 0.975)))


def make_judge(claim_id, predicted, band):
    def judge(results, profile):
        xs = sorted({r.cell.n for r in results})
        seeds = sorted({r.cell.seed for r in results})
        Y = np.full((len(xs), len(seeds)), np.nan)
        for r in results:
            Y[xs.index(r.cell.n), seeds.index(r.cell.seed)] = r.metrics["err"]
        slope, icpt, ci = loglog(xs, Y)
        if band[0] <= ci[0] and ci[1] <= band[1]:
            status = "holds"
        elif ci[1] < band[0] or ci[0] > band[1]:
            status = "fails"
        else:
            status = "inconclusive"
        fit = Fit("err", np.asarray(xs, float), Y, slope, ci, icpt, predicted, band,
                  reference=np.asarray(xs, float) ** -0.5, ylabel="err")
        return Verdict(claim_id, status, f"slope {slope:+.3f} [{ci[0]:+.3f}, {ci[1]:+.3f}] vs {predicted}",
                       [fit], {"slope": slope}, {"slope": predicted})
    return judge


def _claim(claim_id, run, predicted, band):
    return Claim(id=claim_id, paper="toy", source="toy paper, Thm 1",
                 statement="err decays like n^-1/2", prediction=f"slope {predicted}",
                 tolerance=f"CI inside {list(band)}", cells=toy_cells(claim_id), run_cell=run,
                 judge=make_judge(claim_id, predicted, band), sizes={"quick": "n = 64..2048, 5 seeds"})


TOY_RATE = _claim("toy.rate", run_rate, -0.5, (-0.6, -0.4))
TOY_FAIL = _claim("toy.fail", run_rate, -1.0, (-1.1, -0.9))
TOY_BOOM = _claim("toy.boom", run_boom, -0.5, (-0.6, -0.4))
TOY_BAD = _claim("toy.bad", run_bad, -0.5, (-0.6, -0.4))
TOY_VAGUE = _claim("toy.vague", run_rate, -0.4, (-0.5, -0.3))

ALL = (TOY_RATE, TOY_FAIL, TOY_BOOM, TOY_BAD, TOY_VAGUE)
