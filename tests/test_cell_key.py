"""The resume key of a cell: every field (claim, method, n, seed, each param, and the
code fingerprint a variant claim adds) changes it, so two cells that differ in one field
only are never taken for each other on a resume."""

from __future__ import annotations

import dataclasses

from hypothesis import given
from hypothesis import strategies as st

from kpca_suite.suites.claim import Cell
from kpca_suite.suites.roles import Subject
from tests import toy_claim as toy

names = st.text("abcdefgh.-[]", min_size=1, max_size=8)
values = st.one_of(st.integers(-5, 5), st.floats(allow_nan=False, allow_infinity=False, width=32), names,
                   st.booleans())


@given(claim=names, method=names, n=st.integers(1, 10**6), seed=st.integers(0, 10**4),
       params=st.dictionaries(names, values, max_size=4), field=st.sampled_from(["claim", "method", "n", "seed"]))
def test_every_field_changes_the_key(claim, method, n, seed, params, field):
    cell = Cell.make(claim, method, n, seed, **params)
    other = dataclasses.replace(cell, **{field: getattr(cell, field) + (1 if isinstance(getattr(cell, field), int)
                                                                        else "x")})
    assert other.key() != cell.key()


@given(params=st.dictionaries(names, values, min_size=1, max_size=4), new=values, data=st.data())
def test_every_param_changes_the_key(params, new, data):
    cell = Cell.make("a.b", "m", 10, 0, **params)
    name = data.draw(st.sampled_from(sorted(params)))
    changed = Cell.make("a.b", "m", 10, 0, **{**params, name: new})
    assert (changed.key() == cell.key()) == (repr(new) == repr(params[name]) and type(new) is type(params[name]))
    assert Cell.make("a.b", "m", 10, 0, **{**params, name + "_": params[name]}).key() != cell.key()


def test_the_code_fingerprint_changes_every_key_of_a_variant():
    claim = dataclasses.replace(toy.TOY_RATE, subject=Subject("kpca-projection", "toy", centred=False,
                                                              kernel="linear", budget="none"))
    mine = claim.for_estimator("mine", toy.rate, "aaaaaaaaaaaa")
    changed = claim.for_estimator("mine", toy.rate, "bbbbbbbbbbbb")
    keys, other = {c.key() for c in mine.cells("ci")}, {c.key() for c in changed.cells("ci")}
    assert len(keys) == len(mine.cells("ci")) and not keys & other
    assert all(c.p["implementation"] == "aaaaaaaaaaaa" for c in mine.cells("ci"))
