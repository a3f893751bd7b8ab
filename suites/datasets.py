"""Real data sets: the ones packages ship, and a user's own file. Nothing is
downloaded at run time.

* ``digits``: scikit-learn's bundled 8 x 8 digits (n = 1797, d = 64, pixels 0..16).
* a user file (``--data PATH``) for MNIST-scale runs:
  - ``.npz`` with arrays ``X`` (n, d) and optional ``y`` (n,), or Keras'
    ``mnist.npz`` layout ``x_train`` (n, 28, 28) / ``y_train``; images are
    flattened to rows;
  - ``.csv`` of numbers, one sample per row, the label in the first column (the
    common ``mnist_train.csv`` layout); a non-numeric first line is a header.
* the UCI sets of Hallgren (2021) (its Table 1: magic, yeast,
  cardiotocography, segmentation, drug, dailykos, nips, and airfoil for regression),
  read from the data files that the optional ``nystrompca`` wheel installs, with the
  paper's preprocessing (:func:`load_uci`).
"""

from __future__ import annotations

import functools
import importlib.metadata
import warnings
import zipfile
from pathlib import Path

import numpy as np

from kpca_suite.kernels import check_array, check_positive, check_random_state


def load_digits_data(digit=None):
    """scikit-learn's digits as float64 (raw 0..16 pixels) and labels."""
    from sklearn.datasets import load_digits

    X, y = load_digits(return_X_y=True)
    return _select(np.asarray(X, dtype=np.float64), y, digit, "digits")


def load_user_data(path, digit=None):
    """A user's npz / csv file (layouts in the module docstring) -> (X, y).

    ``digit`` keeps only the rows of that label (e.g. MNIST digit 5, as Sterge et al. (2020) do).
    Errors (``ValueError``) name the file and what is wrong with it: missing or empty,
    not an npz archive, not a numeric csv, no data rows, NaN or inf, squared norms
    beyond float64, a label count that differs from the row count, and fewer than 2
    distinct rows (after the ``digit`` selection), for which kernel PCA and the
    median-heuristic bandwidth are undefined.
    """
    if not str(path).strip():
        raise ValueError("data file: the path is empty")
    path = Path(path)
    if path.is_dir():
        raise ValueError(f"data file {str(path)!r} is a directory, not a .npz or .csv file")
    if not path.exists():
        raise ValueError(f"data file {str(path)!r} does not exist")
    if not path.is_file():
        raise ValueError(f"data file {str(path)!r} is not a regular file (a device or a pipe), not a .npz or .csv file")
    if path.stat().st_size == 0:
        raise ValueError(f"data file {str(path)!r} is empty")
    suffix = path.suffix.lower()
    try:
        if suffix == ".npz":
            X, y = _read_npz(path)
        elif suffix == ".csv":
            X, y = _read_csv(path)
        else:
            raise ValueError(f"data file {str(path)!r}: expected a .npz or .csv file")
    except (OSError, ValueError, KeyError) as exc:
        if str(path) in str(exc):
            raise
        raise ValueError(f"data file {str(path)!r} could not be read: {exc}") from None
    X = check_array(X.reshape(X.shape[0], -1) if X.ndim > 2 else X, f"data file {str(path)!r}")
    if y is not None and len(y) != X.shape[0]:
        raise ValueError(f"data file {str(path)!r}: {X.shape[0]} samples but {len(y)} labels")
    X, y = _select(X, y, digit, str(path))
    if not (X != X[0]).any():
        which = "" if digit is None else f" with label digit = {digit}"
        raise ValueError(f"data file {str(path)!r} has fewer than 2 distinct rows{which}; kernel PCA and "
                         "the median-heuristic bandwidth are undefined")
    return X, y


def _read_npz(path):
    if not zipfile.is_zipfile(path):
        raise ValueError("not a valid .npz archive (no zip signature; np.savez writes a zip of .npy arrays)")
    try:
        with np.load(path, allow_pickle=False) as z:
            keys = sorted(z.files)
            arrays = {k: z[k] for k in ("X", "y", "x_train", "y_train") if k in keys}
    except (OSError, ValueError, EOFError, zipfile.BadZipFile) as exc:
        raise ValueError(f"not a valid .npz archive ({exc})") from None
    for xk, yk in (("X", "y"), ("x_train", "y_train")):
        if xk in arrays:
            if arrays[xk].dtype.kind not in "biuf":
                raise ValueError(f"array {xk!r} must hold real numbers, got dtype {arrays[xk].dtype}")
            return np.asarray(arrays[xk], dtype=np.float64), arrays.get(yk)
    raise ValueError(f"data file {str(path)!r} holds {keys}; expected an array 'X' (or 'x_train')")


def _read_csv(path):
    with open(path) as fh:
        first = fh.readline()
        try:
            [float(v) for v in first.strip().split(",")]
            skip = 0
        except ValueError:
            skip = 1
    try:
        with warnings.catch_warnings():  # no data rows: reported below, not as a warning
            warnings.filterwarnings("ignore", "loadtxt: input contained no data", UserWarning)
            data = np.loadtxt(path, delimiter=",", skiprows=skip, ndmin=2)
    except ValueError as exc:
        raise ValueError(f"not a numeric csv ({exc})") from None
    if data.shape[0] == 0:
        raise ValueError(f"data file {str(path)!r} has no data rows")
    if data.shape[1] < 2:
        raise ValueError(f"data file {str(path)!r}: a csv needs a label column and at least one feature")
    return data[:, 1:], data[:, 0]


def _select(X, y, digit, name):
    if digit is None:
        return X, y
    if y is None:
        raise ValueError(f"digit = {digit} was asked for but {name} has no labels")
    keep = y == digit
    if not keep.any():
        raise ValueError(f"{name} has no sample with label digit = {digit}")
    return X[keep], y[keep]


# -- the UCI sets of Hallgren (2021) ------------------------------------------------------

#: Data set name -> file shipped by the ``nystrompca`` wheel.
UCI_FILES = {
    "magic": "magic_gamma_telescope.dat", "yeast": "yeast.dat", "cardiotocography": "cardiotocography.dat",
    "segmentation": "segmentation.dat", "drug": "drug.dat", "dailykos": "dailykos.dat", "nips": "nips.dat",
    "airfoil": "airfoil.dat",
}
#: The data sets of Table 1 / Table 3 in the paper's order (digits from scikit-learn).
HALLGREN_DATASETS = ("magic", "yeast", "cardiotocography", "segmentation", "drug", "digits", "dailykos", "nips")
ROWS = ("first", "random")


def uci_data_path(name: str) -> Path:
    """The installed data file of ``name``, found through the file list of the
    ``nystrompca`` distribution (its wheel installs them as data files under
    ``<prefix>/data/`` and, in some builds, inside the package)."""
    if name not in UCI_FILES:
        raise ValueError(f"dataset must be one of {tuple(UCI_FILES) + ('digits',)}, got {name!r}")
    try:
        dist = importlib.metadata.distribution("nystrompca")
    except importlib.metadata.PackageNotFoundError:
        raise ValueError(f"the {name} data set ships inside the optional package 'nystrompca', which is not "
                         f"installed: pip install nystrompca (or the project's 'test' extra)") from None
    hits = [f for f in dist.files or () if f.name == UCI_FILES[name]]
    for f in hits:
        path = Path(f.locate()).resolve()
        if path.is_file():
            return path
    raise ValueError(f"nystrompca is installed but its data file {UCI_FILES[name]!r} was not found "
                     f"(looked at {[str(f) for f in hits]}); reinstall nystrompca")


def _one_hot(labels):
    """Indicator columns in sorted category order (pandas.get_dummies' order)."""
    cats = np.unique(labels)
    return (labels[:, None] == cats[None, :]).astype(np.float64)


def _read_uci(name: str):
    """(X, y) as the paper's code (nystrompca/experiments/data.py) reads the file, all
    rows; y is None except for airfoil. Ordinal CL0..CL6 -> 0..6 (drug), the class
    one-hot (yeast), ids, dates and file names dropped; bag-of-words triples
    (docID wordID count) pivoted to dense doc x word counts over the words present."""
    path = uci_data_path(name)
    if name == "magic":
        return np.loadtxt(path, delimiter=",", usecols=range(10)), None
    if name == "yeast":
        rows = [line.split() for line in path.read_text().splitlines() if line.strip()]
        num = np.array([r[1:-1] for r in rows], dtype=np.float64)
        return np.hstack([num, _one_hot(np.array([r[-1] for r in rows]))]), None
    if name == "cardiotocography":
        rows = [line.split("\t")[3:] for line in path.read_text().splitlines() if line.strip()]
        return np.array(rows, dtype=np.float64), None
    if name == "segmentation":
        return np.loadtxt(path), None
    if name == "drug":
        rows = [line.split(",")[1:] for line in path.read_text().splitlines() if line.strip()]
        return np.array([[v[2:] if v.startswith("CL") else v for v in r] for r in rows], dtype=np.float64), None
    if name in BAG_OF_WORDS:
        return _bag_rows(path, np.arange(_bag_of_words(path)[3])), None
    data = np.loadtxt(path, delimiter="\t")
    return data[:, :-1], data[:, -1]


#: The bag-of-words sets: files of (docID wordID count) triples.
BAG_OF_WORDS = ("dailykos", "nips")


@functools.lru_cache(maxsize=len(BAG_OF_WORDS))
def _bag_of_words(path: Path):
    """(doc index, word index, count) of every triple, read-only, and the numbers of
    documents and of words present, parsed once per process: parsing the text was most of
    a load (0.26 s of dailykos's, 0.51 s of nips's), and every hallgren21 cell on them loads."""
    trip = np.fromfile(path, sep=" ").reshape(-1, 3).astype(np.int64)
    docs, di = np.unique(trip[:, 0], return_inverse=True)
    words, wi = np.unique(trip[:, 1], return_inverse=True)
    counts = trip[:, 2].astype(np.float64)
    for a in (di, wi, counts):
        a.flags.writeable = False
    return di, wi, counts, docs.size, words.size


def _bag_rows(path: Path, keep) -> np.ndarray:
    """The dense doc x word counts of the documents ``keep`` (sorted doc indices), over
    every word present in the file: only the kept rows are filled (the whole dailykos
    matrix is 3430 x 6906, 190 MB)."""
    di, wi, counts, _, n_words = _bag_of_words(path)
    hit = np.isin(di, keep)
    X = np.zeros((len(keep), n_words))
    X[np.searchsorted(keep, di[hit]), wi[hit]] = counts[hit]
    return X


def load_uci(name: str, n=1000, rows: str = "first", standardize: bool = True, random_state=None):
    """A data set of Hallgren (2021) with the paper's preprocessing -> (X, y).

    Parameters
    ----------
    name : one of ``UCI_FILES`` or ``"digits"`` (scikit-learn's 1797 x 64 digits, as the
        paper's code; the paper's table lists the 5620-point UCI set).
    n : rows to keep (the paper cuts every set to 1000); None keeps all.
    rows : ``"first"`` (the first n rows, as the paper's code does) or ``"random"`` (a
        uniform subset without replacement drawn with ``random_state``).
    standardize : drop constant columns and scale to mean 0, variance 1 with the
        statistics of the kept rows. Pass False to standardise with training statistics
        after a split (the regression and methods experiments).

    Returns
    -------
    X : (n, p) float64; y : (n,) the airfoil target, else None. Constant columns are
    dropped in both cases (they carry nothing; after standardisation they would be 0).
    """
    if rows not in ROWS:
        raise ValueError(f"rows must be one of {ROWS}, got {rows!r}")
    if name == "digits":
        X, y = load_digits_data()
        y = None
    elif name in BAG_OF_WORDS:  # only the kept rows are made dense
        X, y = None, None
    else:
        X, y = _read_uci(name)
    total = _bag_of_words(uci_data_path(name))[3] if X is None else X.shape[0]
    keep = np.arange(total)
    if n is not None:
        n = check_positive(n, "n", integer=True)
        if n > total:
            raise ValueError(f"n = {n} exceeds the {total} rows of the {name} data set")
        keep = np.arange(n) if rows == "first" else np.sort(
            check_random_state(random_state).choice(total, n, replace=False))
    if X is None:
        X = _bag_rows(uci_data_path(name), keep)
    elif n is not None:
        X = X[keep]
        y = None if y is None else y[keep]
    X = X[:, X.std(axis=0) > 0]
    if standardize:
        X = (X - X.mean(axis=0)) / X.std(axis=0)
    return np.ascontiguousarray(X), y
