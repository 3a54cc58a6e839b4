"""The house of `ingestion/`: one package per source, shared modules that import no package, no import loops."""

from __future__ import annotations

import ast
import graphlib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1] / "ingestion"
SHARED = {"config", "cues", "gaps", "http", "pipelines", "text", "world"}
PACKAGES = {"arxiv", "git", "github", "reports", "screening"}


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_of(path: Path, modules: set[str]) -> set[str]:
    """The ingestion modules `path` imports, at the top or inside functions."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
        else:
            continue
        found |= {n for n in names if n in modules}
    return found


def import_graph() -> dict[str, set[str]]:
    paths = {module_name(p): p for p in ROOT.rglob("*.py")}
    return {name: imports_of(path, set(paths)) - {name} for name, path in paths.items()}


def test_each_source_is_one_package_beside_the_shared_modules():
    top = {p.stem for p in ROOT.glob("*.py")} - {"__init__"}
    assert top == SHARED
    assert {p.name for p in ROOT.iterdir() if (p / "__init__.py").exists()} == PACKAGES
    for package in PACKAGES:
        doc = ast.get_docstring(ast.parse((ROOT / package / "__init__.py").read_text(encoding="utf-8")))
        assert doc and len(doc.splitlines()) >= 3, f"ingestion/{package} says what it loads"


def test_shared_modules_import_no_source_package():
    graph = import_graph()
    for name in SHARED:
        leaked = {m for m in graph[f"ingestion.{name}"] if m.partition(".")[2].split(".")[0] in PACKAGES}
        assert not leaked, f"ingestion.{name} imports {sorted(leaked)}"


def test_no_two_modules_import_each_other_in_a_loop():
    graph = {name: {m for m in deps if m != "ingestion"} for name, deps in import_graph().items()}
    graphlib.TopologicalSorter(graph).prepare()  # raises CycleError naming the loop
