"""Template of a paper package: copy this folder to ``suites/papers/<key>/`` (or into
your own package, declared under the entry-point group ``kpca_suite.papers``).

Every paper has the same shape:

``__init__.py``   ``PAPER`` (key, citation, errata in our own words) and ``CLAIMS``,
                  gathered from the family modules in catalogue order; nothing else;
``<family>.py``   one module per family of claims (rates, bounds, identities, ...),
                  holding everything its claims use and no other family does, in
                  the same order everywhere: parameters, estimators, experiment(s),
                  a judge or figure only where no shared recipe fits, planted
                  faults, then ``CLAIMS``, the declarations (each with the
                  ``metrics`` its experiment returns). Two examples here:
                  ``rate.py``, a plain claim (only its own estimators run it), and
                  ``krr.py``, a claim with a role (any implementation of the role
                  runs it: ours, scikit-learn's, a user's factory);
``_common.py``    optionally, what several families of the paper share (a
                  population model's helpers, a data loader, a shared fault); a
                  family's private helper module may also start with ``_``.
                  Modules starting with ``_`` never import a family module.

Nothing runs at import: no data load, no JIT compile.
"""

from kpca_suite.suites.claim import Paper

from . import krr, rate

PAPER = Paper(
    key="template",                                   # the claim-id prefix
    citation="A. Author (2024), 'Title', Journal.",   # what the claims come from
    errata="- Eq. (3) has a sign error; the code uses the corrected form.",  # in our words
)

CLAIMS = [*rate.CLAIMS, *krr.CLAIMS]
