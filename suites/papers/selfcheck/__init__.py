"""selfcheck: the suite's own judging recipes, results store and role boundary, run on
synthetic inputs whose verdict is known by construction, at every run: a recipe, store
key or output check that breaks fails a claim, not only its unit tests."""

from ...claim import Paper
from . import recipes

PAPER = Paper(
    key="selfcheck",
    citation="kpca-suite's judging recipes (no paper): each checked against planted answers.",
    errata="- None: the claims here are about the suite itself.",
)

CLAIMS = [*recipes.CLAIMS]
