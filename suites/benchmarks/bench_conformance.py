"""asv ``track_`` benchmarks of other people's code: every claim that declares a role, run at
the ``ci`` profile with each built-in implementation of that role (scikit-learn's, nystrompca's
and ours, :mod:`kpca_suite.suites.adapters`), as ``kpca-suite conformance`` runs it.

Two numbers per (claim, implementation), so one graph shows the value and another the
verdict across commits, or across the library versions of asv's environment matrix
(``asv.conf.json``: each environment installs one scikit-learn release, named in the
environment and in the graph's legend):

- ``track_judged``: the judged slope of a rate claim (:meth:`Verdict.judged_slope`), or, for a
  claim judged by thresholds, the measured number closest to its limit (:func:`judged_number`);
- ``track_verdict``: 1 holds, 2 inconclusive, 4 fails (higher is worse, as asv reads every
  number: ``asv continuous --factor 1.5`` flags a verdict that gets worse).

Each pair is judged once per environment and commit, for both tracks (``setup_cache``). A pair the
implementation cannot run (another role, a kernel it refuses, n above the exact
methods' cap: the rule of ``kpca-suite check``) raises NotImplementedError in ``setup``, which
asv shows as skipped, never as a failure.
"""

import json
import math
import os
from pathlib import Path

#: The verdict as a number for asv, higher is worse: holds to inconclusive is a step by 2.
VERDICT_CODE = {"holds": 1.0, "inconclusive": 2.0, "fails": 4.0}


def judged_number(verdict) -> float:
    """The judged slope of ``verdict``; for a claim judged by thresholds, the measured number
    that came closest to its limit (the largest x / limit of ``x_at_most``, the smallest
    x / limit of ``x_at_least``): the one a regression moves across first. NaN when it has
    neither."""
    fit = verdict.judged_slope()
    if fit is not None:
        return float(fit.slope)
    closest, room = math.nan, math.inf
    for key, value in verdict.measured.items():
        if not isinstance(value, (int, float)) or not math.isfinite(value):
            continue
        for suffix, room_of in (("_at_most", lambda x, lim: lim / x if x > 0 else math.inf),
                                ("_at_least", lambda x, lim: x / lim if lim > 0 else math.inf)):
            limit = verdict.predicted.get(key + suffix)
            if isinstance(limit, (int, float)) and room_of(value, limit) < room:
                closest, room = float(value), room_of(value, limit)
    return closest


def _role_claims() -> list:
    from kpca_suite.suites import registry
    return sorted(cid for cid, claim in registry.load_all().items() if claim.subject is not None)


def _adapters() -> list:
    from kpca_suite.suites.adapters import ADAPTERS
    return list(ADAPTERS)


class Conformance:
    """Judged number and verdict of each claim with a role, per built-in implementation, at ci."""

    param_names = ["claim", "implementation"]
    params = [_role_claims(), _adapters()]
    timeout = 1200

    def setup_cache(self):
        """The folder where a pair's verdict is kept for both tracks: asv runs each track in its own
        process, and the folder it runs ``setup_cache`` in stays theirs (asv removes it after)."""
        return os.getcwd()

    def setup(self, folder, claim, implementation):
        kept = Path(folder) / f"{claim}[{implementation}].json"
        if not kept.exists():
            tmp = kept.with_suffix(f".{os.getpid()}.tmp")
            tmp.write_text(json.dumps(_judge(claim, implementation)))
            os.replace(tmp, kept)
        pair = json.loads(kept.read_text())
        if "skip" in pair:
            raise NotImplementedError(pair["skip"])
        self.judged, self.verdict = pair["judged"], pair["verdict"]

    def track_judged(self, folder, claim, implementation):
        return self.judged

    track_judged.unit = "judged slope or number"

    def track_verdict(self, folder, claim, implementation):
        return self.verdict

    track_verdict.unit = "verdict (1 holds, 2 inconclusive, 4 fails)"


def _judge(claim, implementation) -> dict:
    """The pair run at ci: ``{"judged", "verdict"}``, or ``{"skip": why}`` when the implementation
    cannot run the claim (the rule of ``kpca-suite check``)."""
    from kpca_suite.suites import adapters, pipeline, registry
    from kpca_suite.suites.conformance import applicability, variant
    from kpca_suite.suites.roles import EstimatorError

    found = registry.get(claim)
    adapter = adapters.get(implementation)
    if adapter.roles is not None and found.subject.role not in adapter.roles:
        return {"skip": f"{implementation} is not a {found.subject.role}"}
    est = adapter.estimator()
    try:
        why = applicability(found, est, "ci")
    except EstimatorError as e:
        why = str(e)
    if why is not None:
        return {"skip": why}
    run = variant(found, est)
    verdict = pipeline.evaluate([run], "ci", jobs=1).verdicts[run.id]
    if verdict.status == "n/a":
        return {"skip": verdict.summary}
    return {"judged": judged_number(verdict), "verdict": VERDICT_CODE[verdict.status]}
