"""The dbt models are sqlfluff-clean under the repository's .sqlfluff (dbt templater, DuckDB dialect).

The dbt templater compiles every model with the real project and macros, so a model that does not
compile fails here too. It writes its manifest to dbt_project/target/sqlfluff (set in .sqlfluff),
never over dbt's own target/manifest.json.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


def sqlfluff() -> str:
    local = Path(sys.executable).parent / "sqlfluff"
    found = str(local) if local.exists() else shutil.which("sqlfluff")
    if not found:
        pytest.skip("sqlfluff not installed (pip install -e '.[dev]')")
    return found


def lint(args: list[str], tmp_path: Path, stdin: str | None = None) -> list[dict]:
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}  # target `lint` is DuckDB in memory
    result = subprocess.run([sqlfluff(), "lint", "--format", "json", *args], input=stdin,
                            cwd=REPO, env=env, capture_output=True, text=True, timeout=900)
    assert result.returncode in (0, 1), f"sqlfluff crashed:\n{result.stderr[-4000:]}"
    return json.loads(result.stdout)


def test_models_are_lint_clean(tmp_path):
    files = lint(["--processes", "2", "dbt_project/models"], tmp_path)
    assert len(files) == len(list((REPO / "dbt_project" / "models").rglob("*.sql")))  # every model linted
    problems = [f"{f['filepath']}:{v['start_line_no']}: {v['code']} {v['description']}"
                for f in files for v in f["violations"]]
    assert not problems, "sqlfluff violations:\n" + "\n".join(problems)


def test_lint_rules_are_live(tmp_path):
    """The repository's rules catch an upper-case keyword, an implicit alias and a leading comma
    (SQL on stdin with the raw templater, so no file lands in the dbt project)."""
    files = lint(["--templater", "raw", "-"], tmp_path,
                 stdin="SELECT\n    arxiv_id AS id\n    , title t\nFROM raw_arxiv.papers\n")
    codes = {v["code"] for f in files for v in f["violations"]}
    assert {"CP01", "AL02", "LT04"} <= codes, codes
