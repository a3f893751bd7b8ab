"""Loaders of real data: sklearn's digits and a user's npz / csv file, and the
`--data` / `--digit` path through the CLI."""

import numpy as np
import pytest

from kpca_suite.suites.cli import main
from kpca_suite.suites.datasets import load_digits_data, load_user_data


def images(n=300, seed=0):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 10, n)
    X = rng.integers(0, 256, size=(n, 28, 28)).astype(np.uint8)
    return X, y


def test_digits_are_bundled_raw_pixels():
    X, y = load_digits_data()
    assert X.shape == (1797, 64) and X.dtype == np.float64 and X.max() == 16
    X5, y5 = load_digits_data(digit=5)
    assert (y5 == 5).all() and len(X5) == (y == 5).sum()


def test_keras_mnist_layout_is_flattened_and_filtered(tmp_path):
    X, y = images()
    np.savez(tmp_path / "mnist.npz", x_train=X, y_train=y)
    Xl, yl = load_user_data(tmp_path / "mnist.npz", digit=5)
    assert Xl.shape == ((y == 5).sum(), 784)
    np.testing.assert_array_equal(Xl, X[y == 5].reshape(-1, 784).astype(float))


def test_npz_X_y_and_csv_with_header(tmp_path):
    rng = np.random.default_rng(1)
    X, y = rng.normal(size=(20, 3)), rng.integers(0, 2, 20)
    np.savez(tmp_path / "d.npz", X=X, y=y)
    np.testing.assert_array_equal(load_user_data(tmp_path / "d.npz")[0], X)
    with open(tmp_path / "d.csv", "w") as fh:
        fh.write("label,a,b,c\n")
        for yi, xi in zip(y, X):
            fh.write(",".join([str(yi)] + [repr(float(v)) for v in xi]) + "\n")
    Xc, yc = load_user_data(tmp_path / "d.csv")
    np.testing.assert_allclose(Xc, X)
    np.testing.assert_array_equal(yc, y)


@pytest.mark.parametrize("make,match", [
    (lambda p: p.with_suffix(".npz"), "does not exist"),
    (lambda p: (p.with_suffix(".txt").write_text("1,2"), p.with_suffix(".txt"))[1], "expected a .npz or .csv"),
    (lambda p: (p.with_suffix(".npz").write_bytes(b"not a zip file"), p.with_suffix(".npz"))[1], "could not be read"),
    (lambda p: (np.savez(p.with_suffix(".npz"), Z=np.ones((3, 2))), p.with_suffix(".npz"))[1], "expected an array 'X'"),
    (lambda p: (np.savez(p.with_suffix(".npz"), X=np.array([[1.0, np.nan]])), p.with_suffix(".npz"))[1],
     "contains NaN or inf"),
    (lambda p: (np.savez(p.with_suffix(".npz"), X=np.ones((3, 2)), y=np.ones(2)), p.with_suffix(".npz"))[1],
     "3 samples but 2 labels"),
    (lambda p: (p.with_suffix(".csv").write_text("1\n2\n"), p.with_suffix(".csv"))[1], "label column"),
])
def test_bad_files_are_clear_errors_naming_the_file(tmp_path, make, match):
    path = make(tmp_path / "data")
    with pytest.raises(ValueError, match=match) as err:
        load_user_data(path)
    assert "data" in str(err.value)


def test_missing_label_for_digit(tmp_path):
    np.savez(tmp_path / "d.npz", X=np.ones((3, 2)))
    with pytest.raises(ValueError, match="no labels"):
        load_user_data(tmp_path / "d.npz", digit=5)
    np.savez(tmp_path / "e.npz", X=np.ones((3, 2)), y=np.zeros(3))
    with pytest.raises(ValueError, match="no sample with label digit = 5"):
        load_user_data(tmp_path / "e.npz", digit=5)


def test_cli_runs_the_digits_claim_on_a_user_file(tmp_path, capsys):
    X, y = images(n=400)
    np.savez(tmp_path / "mnist.npz", x_train=X, y_train=y)
    out = tmp_path / "res"
    code = main(["run", "sterge20.digits", "--profile", "ci", "--jobs", "1", "--no-progress",
                 "--data", str(tmp_path / "mnist.npz"), "--out", str(out)])
    printed = capsys.readouterr().out
    assert "sterge20.digits" in printed and code in (0, 1)
    assert (out / "report.md").exists() and (out / "plots" / "sterge20.digits.png").exists()


def test_cli_digit_without_data_and_corrupt_data_are_usage_errors(tmp_path, capsys):
    assert main(["run", "sterge20.digits", "--digit", "5", "--out", str(tmp_path / "r")]) == 2
    bad = tmp_path / "bad.npz"
    bad.write_bytes(b"garbage")
    code = main(["run", "sterge20.digits", "--profile", "ci", "--jobs", "1", "--no-progress",
                 "--data", str(bad), "--out", str(tmp_path / "r2")])
    err = capsys.readouterr().err
    assert code != 0 and "bad.npz" in err and "Traceback" not in err


# -- the UCI sets of Hallgren (2021), shipped by the nystrompca wheel --------------------------

from kpca_suite.suites import datasets as ds  # noqa: E402


@pytest.mark.parametrize("name", ["magic", "yeast", "cardiotocography", "segmentation", "drug", "dailykos",
                                  "airfoil"])
def test_uci_sets_match_the_papers_code(name):
    """Same rows and columns as nystrompca/experiments/data.py (first n rows), after
    dropping constant columns and standardising."""
    from nystrompca.experiments import data

    theirs = getattr(data, f"get_{name}_data")(300)
    theirs = np.asarray(theirs[0] if isinstance(theirs, tuple) else theirs, dtype=float)
    theirs = theirs[:, theirs.std(axis=0) > 0]
    X, y = ds.load_uci(name, n=300)
    np.testing.assert_allclose(X, (theirs - theirs.mean(0)) / theirs.std(0), atol=1e-12)
    assert (y is not None) == (name == "airfoil")


def test_uci_random_rows_and_raw_values():
    X1, _ = ds.load_uci("yeast", n=100, rows="random", random_state=0)
    X2, _ = ds.load_uci("yeast", n=100, rows="random", random_state=0)
    np.testing.assert_array_equal(X1, X2)
    Xf, _ = ds.load_uci("yeast", n=100)
    assert not (X1.shape == Xf.shape and np.allclose(X1, Xf))
    raw, y = ds.load_uci("airfoil", n=None, standardize=False)
    assert raw.shape == (1503, 5) and y.shape == (1503,) and raw[0, 0] == 800
    digits, _ = ds.load_uci("digits", n=1000)
    assert digits.shape[0] == 1000 and np.allclose(digits.std(0), 1)


@pytest.mark.parametrize("name", ds.BAG_OF_WORDS)
def test_bag_of_words_kept_rows_are_the_full_matrix_rows(name):
    """load_uci fills only the kept documents' rows; they equal the rows of the whole
    doc x word matrix, built here from the file without the loader's cache or row
    mapping, for the first and for random rows, with the same columns (every word of the
    file, the constant ones then dropped); _read_uci returns that whole matrix; n > the
    number of documents is the usual error."""
    trip = np.loadtxt(ds.uci_data_path(name), dtype=np.int64).reshape(-1, 3)
    docs, di = np.unique(trip[:, 0], return_inverse=True)
    words, wi = np.unique(trip[:, 1], return_inverse=True)
    full = np.zeros((docs.size, words.size))
    full[di, wi] = trip[:, 2]
    np.testing.assert_array_equal(ds._read_uci(name)[0], full)
    for rows, keep in (("first", np.arange(200)),
                       ("random", np.sort(np.random.default_rng(4).choice(len(full), 200, replace=False)))):
        want = full[keep]
        want = want[:, want.std(axis=0) > 0]
        got, _ = ds.load_uci(name, n=200, rows=rows, random_state=np.random.default_rng(4), standardize=False)
        np.testing.assert_array_equal(got, want)
    with pytest.raises(ValueError, match=f"exceeds the {len(full)} rows"):
        ds.load_uci(name, n=len(full) + 1)


@pytest.mark.parametrize("kw,match", [
    (dict(name="mnist"), "dataset must be one of"),
    (dict(name="yeast", rows="last"), "rows must be one of"),
    (dict(name="yeast", n=5000), "n = 5000 exceeds the 1484 rows"),
])
def test_uci_bad_input(kw, match):
    with pytest.raises(ValueError, match=match):
        ds.load_uci(**kw)


def test_missing_nystrompca_is_a_clear_message(monkeypatch):
    def missing(name):
        raise ds.importlib.metadata.PackageNotFoundError(name)

    monkeypatch.setattr(ds.importlib.metadata, "distribution", missing)
    with pytest.raises(ValueError, match="optional package 'nystrompca'.*pip install nystrompca"):
        ds.load_uci("magic")
