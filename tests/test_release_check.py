"""The pieces of ``python -m tests.slowdowns.release_check`` (the whole run builds one asv
virtualenv per scikit-learn release: a script before a release, not a test)."""

import re
import shutil

from asv.util import load_json

from tests.slowdowns import asv_check, early_stop, release_check


def test_the_asv_matrix_holds_three_scikit_learn_releases_and_the_install_keeps_them():
    conf = load_json("asv.conf.json", js_comments=True)
    releases = conf["matrix"]["req"]["scikit-learn"]
    assert len(releases) >= 3 and len(set(releases)) == len(releases)
    assert len(conf["matrix"]["req"]["nystrompca"]) >= 2
    assert not any("--force-reinstall" in c for c in conf["install_command"])  # it would upgrade scikit-learn


def test_the_bench_pattern_selects_the_pairs_asked_for_and_no_other():
    regex = release_check.bench_regex(["hallgren21.every-point"], ["sklearn-kernelpca-randomized"])
    name = "bench_conformance.Conformance.track_{}('hallgren21.every-point', 'sklearn-kernelpca-randomized')"
    assert re.search(regex, name.format("verdict")) and re.search(regex, name.format("judged"))
    assert not re.search(regex, name.replace("randomized", "dense").format("verdict"))
    assert not re.search(regex, name.replace("every-point", "table3-gap").format("verdict"))


def test_the_releases_in_an_environment_name_sort_as_versions():
    names = ["virtualenv-py3.11-nystrompca1.0.2-scikit-learn1.10.0", "virtualenv-py3.11-nystrompca1.0.2-scikit-learn1.5.2",
             "virtualenv-py3.11-nystrompca1.0.0-scikit-learn1.10.0", "virtualenv-py3.11-nystrompca1.0.2-scikit-learn1.9.1"]
    ordered = sorted(names, key=release_check._releases)
    assert ordered[0].endswith("1.5.2") and ordered[-1] == names[0] and ordered[-2] == names[2]
    assert release_check._releases(names[2]) == ((1, 10, 0), (1, 0, 0))


def test_a_timing_check_keeps_only_the_newest_release(tmp_path):
    shutil.copy("asv.conf.json", tmp_path / "asv.conf.json")
    asv_check.newest_only(tmp_path)
    conf = load_json(tmp_path / "asv.conf.json", js_comments=True)
    assert conf["matrix"]["req"] == {"scikit-learn": ["1.9.1"], "nystrompca": ["1.0.2"]} and "exclude" not in conf


def test_the_planted_early_stop_is_kernel_pca_with_no_power_iteration():
    from kpca_suite.suites.adapters import ADAPTERS
    kernel = ADAPTERS["sklearn-kernelpca-randomized"].factory(3, None, _gaussian(), 0).get_params()
    planted = early_stop.kernelpca_randomized_early_stop(3, None, _gaussian(), 0).get_params()
    assert planted["iterated_power"] == 0 and kernel["iterated_power"] == "auto"
    assert {k: v for k, v in planted.items() if k != "iterated_power"} == \
        {k: v for k, v in kernel.items() if k != "iterated_power"}


def _gaussian():
    from kpca_suite.kernels import Kernel
    return Kernel("gaussian", gamma=0.5)
