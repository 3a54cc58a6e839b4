"""The dbt project as Dagster sees it: paths, the dbt executable, and a parsed manifest."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from dagster_dbt import DbtCliResource, DbtProject

from ingestion import config

DBT_PROJECT_DIR = config.REPO_ROOT / "dbt_project"
MANIFEST_PATH = DBT_PROJECT_DIR / "target" / "manifest.json"
# What a warehouse refresh runs: seeds, models and data tests. dbt unit tests check model code,
# not data, so they run with the test suite (tests/test_marts_handmade.py, test_postgres_marts.py).
REFRESH_BUILD_ARGS = ("build", "--exclude-resource-type", "unit_test")


def dbt_executable() -> str:
    """The `dbt` next to this interpreter (the venv's), else the one on PATH."""
    local = Path(sys.executable).parent / "dbt"
    if local.exists():
        return str(local)
    found = shutil.which("dbt")
    if not found:
        raise RuntimeError("dbt executable not found; install the project (pip install -e .)")
    return found


def dbt_env() -> dict[str, str]:
    """Environment for dbt: the warehouse path resolved to an absolute path."""
    return {**os.environ, "RLTRACK_WAREHOUSE": str(config.warehouse_path())}


def parse_manifest(force: bool = False) -> Path:
    """Run `dbt parse` so Dagster can build dbt assets from target/manifest.json."""
    if force or not MANIFEST_PATH.exists():
        subprocess.run(
            [dbt_executable(), "parse", "--quiet", "--project-dir", str(DBT_PROJECT_DIR),
             "--profiles-dir", str(DBT_PROJECT_DIR)],
            check=True, env=dbt_env(), cwd=DBT_PROJECT_DIR,
        )
    return MANIFEST_PATH


dbt_project = DbtProject(project_dir=DBT_PROJECT_DIR, profiles_dir=DBT_PROJECT_DIR)


def dbt_resource() -> DbtCliResource:
    return DbtCliResource(project_dir=dbt_project, dbt_executable=dbt_executable())
