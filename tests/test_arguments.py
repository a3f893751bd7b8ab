"""One validation for the CLI and the Python API (suites/arguments.py): every argument of
check, evaluate, implementation and parametrize_with_claims is refused with an error naming
it, by the rule of the CLI option it mirrors."""

import pytest

from kpca_suite.suites import check, registry
from kpca_suite.suites.cli import main
from kpca_suite.suites.pipeline import evaluate
from kpca_suite.suites.roles import EstimatorError, implementation
from kpca_suite.suites.store import ResultStore
from kpca_suite.testing import parametrize_with_claims

CLAIM = "sterge20.insample-nystrom"


def make(n_components, budget, kernel, random_state):
    from kpca_suite.methods import NystromKPCA
    return NystromKPCA(n_components, kernel, landmarks=budget, random_state=random_state)


BAD_CHECK = [
    ({"claims": 5}, r"^claims must be a claim id, a paper name or a list of them, got 5$"),
    ({"claims": b"sterge20"}, r"^claims must be a claim id, a paper name or a list of them, got b'sterge20'$"),
    ({"claims": [CLAIM, ""]}, r"^claims must hold claim ids or paper names \(non-empty strings\), got ''$"),
    ({"profile": "fast"}, r"^profile must be one of ci, quick, full, got 'fast'$"),
    ({"name": 5}, r"^name must be a non-empty string, got 5$"),
    ({"store": 42}, r"^store must be None, a results folder's path \(as --out\) or a ResultStore, got 42$"),
    ({"jobs": "2"}, r"^jobs must be a positive integer, got '2'$"),
    ({"jobs": 1.5}, r"^jobs must be a positive integer, got 1.5$"),
    ({"exact_max_n": "abc"}, r"^exact_max_n must be a positive integer, got 'abc'$"),
]


@pytest.mark.parametrize("kw,message", BAD_CHECK, ids=[next(iter(k)) + "=" + repr(next(iter(k.values())))
                                                      for k, _ in BAD_CHECK])
def test_check_names_each_bad_argument(kw, message):
    with pytest.raises(ValueError, match=message):
        check(make, **{"claims": CLAIM, **kw})


def test_check_refuses_what_is_no_factory():
    with pytest.raises(ValueError, match=r"^estimator must be a role factory \(a callable\) or a built-in"):
        check(42, claims=CLAIM)


def _cells(folder) -> int:
    with ResultStore(folder / "results.sqlite", create=False) as store:
        return len(store.done_keys())


def test_a_store_given_as_a_folder_is_opened_as_out_and_resumed(tmp_path):
    first = check(make, claims=CLAIM, store=str(tmp_path / "r"))
    assert first[CLAIM].status == "holds"
    stored = _cells(tmp_path / "r")
    assert stored > 0
    again = check(make, claims=CLAIM, store=tmp_path / "r")
    assert again[CLAIM].status == "holds" and _cells(tmp_path / "r") == stored
    (tmp_path / "file").write_text("x")
    with pytest.raises(ValueError, match=r"^store must be a results folder \(as --out\), and .*file is a file$"):
        check(make, claims=CLAIM, store=tmp_path / "file")


@pytest.mark.parametrize("kw,message", [
    ({"profile": "fast"}, r"^profile must be one of ci, quick, full, got 'fast'$"),
    ({"jobs": 0}, r"^jobs must be a positive integer, got 0$"),
    ({"store": "results"}, r"^store must be None or a results store"),
])
def test_evaluate_names_each_bad_argument(kw, message):
    with pytest.raises(ValueError, match=message):
        evaluate(registry.select([CLAIM]), **{"profile": "ci", **kw})
    with pytest.raises(ValueError, match=r"^claims must be Claim objects"):
        evaluate([CLAIM], "ci")


def test_implementation_refuses_roles_that_are_not_names():
    with pytest.raises(EstimatorError, match=r"roles must be role names \(strings\) or None, got \(\['krr'\],\)"):
        implementation(roles=[["krr"]])


def test_the_decorator_names_each_bad_argument():
    with pytest.raises(ValueError, match=r"^profile must be one of ci, quick, full"):
        parametrize_with_claims(make, claims=CLAIM, profile="fast")
    with pytest.raises(ValueError, match=r"^exact_max_n must be a positive integer, got nan$"):
        parametrize_with_claims(make, claims=CLAIM, exact_max_n=float("nan"))
    with pytest.raises(ValueError, match=r"^claims must be a claim id"):
        parametrize_with_claims(make, claims=5)


@pytest.mark.parametrize("argv,message", [
    (["run", CLAIM, "--jobs", "0"], "--jobs must be a positive integer, got 0"),
    (["run", CLAIM, "--exact-max-n", "0"], "--exact-max-n must be a positive integer, got 0"),
])
def test_the_cli_refuses_by_the_same_rule(argv, message, tmp_path, capsys):
    assert main([*argv, "--out", str(tmp_path)]) == 2
    assert message in capsys.readouterr().err


def test_check_verifies_a_store_against_a_head_kept_elsewhere(tmp_path):
    from kpca_suite.suites.store import StoreError
    check(make, claims=CLAIM, store=tmp_path / "r")
    with ResultStore(tmp_path / "r" / "results.sqlite", create=False) as st:
        head = st.head
    assert check(make, claims=CLAIM, store=tmp_path / "r", head=head)[CLAIM].status == "holds"
    with pytest.raises(StoreError, match="does not hold the ledger head kept elsewhere"):
        check(make, claims=CLAIM, store=tmp_path / "r", head="f" * 32)
    with pytest.raises(ValueError, match="^head is checked against a store: give store= too$"):
        check(make, claims=CLAIM, head=head)
