"""numerics: the suite's own methods at the numerical edges (no paper): kernel blocks for
data far from the origin and at extreme scales, float32 and float64, and Nyström
factorisations from K near rank one to near the identity, with duplicated landmarks and
more landmarks than K's numerical rank, each judged against a stable reference with a
bound that scales with the unit round-off."""

from ...claim import Paper
from . import features, kpca, krr, leverage, nystrom, oja, shift, sketch

PAPER = Paper(
    key="numerics",
    citation="kpca-suite's numerical edges (no paper): each method against a stable reference, with an error "
             "bound in units of the round-off.",
    errata="- None: the claims here are about the suite's numerics.",
)

CLAIMS = [*shift.CLAIMS, *nystrom.CLAIMS, *krr.CLAIMS, *features.CLAIMS, *sketch.CLAIMS, *oja.CLAIMS, *kpca.CLAIMS,
          *leverage.CLAIMS]
