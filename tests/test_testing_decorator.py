"""kpca_suite.testing.parametrize_with_claims, as a library's test suite uses it: a scratch
test module written outside the package (pytester), with factories of its own and a
built-in adapter, run by pytest; the outcome of every case is asserted."""

import pytest

pytest_plugins = ["pytester"]

CLAIM = "sterge20.insample-nystrom"

FACTORIES = '''
import numpy as np
from kpca_suite.methods import NystromKPCA
from kpca_suite.suites.roles import implementation


@implementation(centred=False)
def make(n_components, budget, kernel, random_state):
    return NystromKPCA(n_components, kernel, landmarks=budget, random_state=random_state)


class Halved(NystromKPCA):
    """A realistic bug: the scores of a feature map that lost a factor sqrt(2) on the way."""

    def transform(self, X):
        return super().transform(X) / np.sqrt(2.0)


@implementation(centred=False)
def halved(n_components, budget, kernel, random_state):
    return Halved(n_components, kernel, landmarks=budget, random_state=random_state)


def broken(n_components, budget, kernel, random_state):
    raise RuntimeError("the binding failed to load")
'''


@pytest.fixture
def scratch(pytester):
    pytester.makepyfile(factories=FACTORIES)
    pytester.syspathinsert()
    return pytester


def _outcomes(result) -> dict:
    """{test id: outcome} from pytest -v's lines ``file::test[id] OUTCOME``."""
    out = {}
    for line in result.outlines:
        words = line.split()
        if len(words) >= 2 and "::" in words[0] and words[1] in ("PASSED", "FAILED", "XFAIL", "XPASS", "SKIPPED"):
            out[words[0].split("::", 1)[1]] = words[1]
    return out


def test_one_case_per_factory_and_claim_with_its_verdict(scratch):
    scratch.makepyfile(test_lib=f'''
from factories import broken, halved, make
from kpca_suite.testing import parametrize_with_claims


@parametrize_with_claims([make, halved, broken, "ours-nystrom"], claims=["{CLAIM}", "{CLAIM}-centred"],
                         expected_failures=lambda f: {{"{CLAIM}": "scores lose sqrt(2)"}} if f is halved else {{}})
def test_claims(factory, claim):
    claim(factory)
''')
    result = scratch.runpytest("-v", "-rA", "-p", "no:cacheprovider")
    got = _outcomes(result)
    assert got == {
        f"test_claims[make-{CLAIM}]": "PASSED",
        f"test_claims[make-{CLAIM}-centred]": "SKIPPED",
        f"test_claims[halved-{CLAIM}]": "XFAIL",
        f"test_claims[halved-{CLAIM}-centred]": "SKIPPED",
        f"test_claims[broken-{CLAIM}]": "FAILED",
        f"test_claims[broken-{CLAIM}-centred]": "FAILED",
        f"test_claims[ours-nystrom-{CLAIM}]": "PASSED",
        f"test_claims[ours-nystrom-{CLAIM}-centred]": "SKIPPED",
    }, result.stdout.str()
    text = result.stdout.str()
    assert "DEFECTIVE ESTIMATOR RAISED" in text and "RuntimeError: the binding failed to load" in text
    assert "n/a: other estimand" in text


def test_an_expected_failure_that_holds_fails_the_run(scratch, tmp_path):
    expect = tmp_path / "expected.toml"
    expect.write_text(f'[make]\n"{CLAIM}" = "we thought the landmarks too few"\n')
    scratch.makepyfile(test_lib=f'''
from factories import make
from kpca_suite.testing import parametrize_with_claims


@parametrize_with_claims(make, claims="{CLAIM}", expected_failures={str(expect)!r})
def test_claims(factory, claim):
    claim(factory)
''')
    result = scratch.runpytest("-v", "-rA", "-p", "no:cacheprovider")
    assert _outcomes(result) == {f"test_claims[make-{CLAIM}]": "FAILED"}, result.stdout.str()
    assert "XPASS(strict)" in result.stdout.str()


def test_a_factory_no_claim_applies_to_is_a_collection_error(scratch):
    scratch.makepyfile(test_lib='''
from factories import make
from kpca_suite.testing import parametrize_with_claims


@parametrize_with_claims(make, claims=["ghashami16.fd-bound"])
def test_claims(factory, claim):
    claim(factory)
''')
    result = scratch.runpytest("-p", "no:cacheprovider")
    assert result.ret == pytest.ExitCode.INTERRUPTED
    result.stdout.fnmatch_lines(["*NothingChecked: check(make): no claim applies, so nothing was checked*"])


def test_an_unknown_claim_in_the_expectations_is_named(scratch):
    scratch.makepyfile(test_lib='''
from factories import make
from kpca_suite.testing import parametrize_with_claims


@parametrize_with_claims(make, claims="sterge20.insample-nystrom", expected_failures={"sterge20.no-such": "x"})
def test_claims(factory, claim):
    claim(factory)
''')
    result = scratch.runpytest("-p", "no:cacheprovider")
    assert result.ret == pytest.ExitCode.INTERRUPTED
    result.stdout.fnmatch_lines(["*expected_failures for 'make': no claim named 'sterge20.no-such'*"])
