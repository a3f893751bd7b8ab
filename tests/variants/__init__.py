"""Correct implementations written differently from ours: the other half of trust.

Every factory in :mod:`tests.variants.corpus` is correct and differs from our estimators
(and from the plainest outside one) in one legitimate way: when it orthonormalises, the
precision it stores, the linear-algebra route, the sketch rule, how it draws its
randomness, how it represents its result. Each must hold every claim its role reaches
(or be ``n/a`` with a reason a user can act on); a variant that fails is a defect of the
claim, never of the variant. ``python -m tests.variants.run`` tables them beside the
mutation campaign of :mod:`tests.mutations`, whose bugs must fail.
"""
