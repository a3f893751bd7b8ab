"""The layout the design fixes: the dependency direction between the four folders
(kernels <- methods, kernels <- theory, suites imports all three, nothing imports
suites), no import cycle among the modules (lazy imports inside functions count),
every paper a package of the same shape, and no paper module over 450 lines."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = ("kernels", "methods", "theory", "suites")
#: folder -> the folders it may import
ALLOWED = {"kernels": {"kernels"}, "methods": {"kernels", "methods"}, "theory": {"kernels", "theory"},
           "suites": set(FOLDERS)}
PAPERS = ROOT / "suites" / "papers"
MAX_PAPER_MODULE_LINES = 450
#: A paper's inventory is data, one entry per statement of the paper (60 for the longest)
MAX_INVENTORY_LINES = 600


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def _modules() -> dict:
    return {_module_name(p): p for folder in FOLDERS for p in (ROOT / folder).rglob("*.py")
            if "benchmarks" not in p.parts}


def _imports(name: str, path: Path, known: set) -> set:
    """The project modules ``name`` imports, anywhere in its body."""
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    out = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - node.level + 1]
                mod = ".".join(base + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            targets = [mod] + [f"{mod}.{a.name}" for a in node.names]
        else:
            continue
        for t in targets:
            t = t.removeprefix("kpca_suite.")
            if t in known:
                out.add(t)
    out.discard(name)
    return out


def _graph() -> dict:
    mods = _modules()
    known = set(mods)
    return {name: _imports(name, path, known) for name, path in mods.items()}


def test_dependency_direction():
    bad = [(a, b) for a, deps in _graph().items() for b in deps
           if b.split(".")[0] not in ALLOWED[a.split(".")[0]]]
    assert not bad, f"imports against the design's direction: {bad}"


def test_no_import_cycle():
    graph = _graph()
    # a package importing its own submodules (a paper's __init__ gathering CLAIMS) is not a cycle
    edges = {a: {b for b in deps if not b.startswith(a + ".") and not a.startswith(b + ".")}
             for a, deps in graph.items()}
    state, stack, cycles = {}, [], []

    def visit(v):
        state[v] = 1
        stack.append(v)
        for w in sorted(edges[v]):
            if state.get(w) == 1:
                cycles.append(stack[stack.index(w):] + [w])
            elif w not in state:
                visit(w)
        stack.pop()
        state[v] = 2

    for v in sorted(edges):
        if v not in state:
            visit(v)
    assert not cycles, "import cycles: " + "; ".join(" -> ".join(c) for c in cycles)


def _paper_packages():
    return sorted(p for p in PAPERS.iterdir() if p.is_dir() and (p / "__init__.py").exists())


def test_every_paper_is_a_package_of_the_same_shape():
    loose = sorted(p.name for p in PAPERS.glob("*.py") if p.name != "__init__.py")
    assert not loose, f"paper modules outside a package: {loose}"
    for pkg in _paper_packages():
        init = ast.parse((pkg / "__init__.py").read_text())
        assigned = {t.id for node in init.body if isinstance(node, ast.Assign) for t in node.targets
                    if isinstance(t, ast.Name)}
        assert assigned == {"PAPER", "CLAIMS"}, f"{pkg.name}/__init__.py must assign PAPER and CLAIMS only"
        for module in pkg.glob("*.py"):
            if module.name.startswith("_"):
                continue
            tree = ast.parse(module.read_text())
            last = tree.body[-1]
            ends = "RESULTS" if module.name == "inventory.py" else "CLAIMS"
            assert isinstance(last, ast.Assign) and last.targets[0].id == ends, \
                f"{module.relative_to(ROOT)} must end with its declarations ({ends} = ...)"


@pytest.mark.parametrize("module", sorted(str(p.relative_to(ROOT)) for p in PAPERS.rglob("*.py")))
def test_paper_modules_stay_small(module):
    lines = len((ROOT / module).read_text().splitlines())
    cap = MAX_INVENTORY_LINES if module.endswith("inventory.py") else MAX_PAPER_MODULE_LINES
    assert lines <= cap, f"{module} has {lines} lines (at most {cap})"
