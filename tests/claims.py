"""Running one registered claim in-process, the way every paper's tests do:
its cells at a profile (optionally given or filtered), each run serially, then judged."""

from suites.registry import Result, get


def run_claim(claim_id, cells=None, profile="ci", options=None, keep=None):
    """The claim's Verdict from its ``profile`` cells (or ``cells``), keeping
    those for which ``keep(cell)`` is true when ``keep`` is given."""
    claim = get(claim_id)
    cells = claim.cells(profile, options or {}) if cells is None else cells
    if keep is not None:
        cells = [c for c in cells if keep(c)]
    return claim.judge([Result(c, claim.run_cell(c)) for c in cells], profile)
