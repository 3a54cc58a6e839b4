"""The dbt project as Dagster sees it: paths, the dbt executable, and a parsed manifest."""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from functools import cached_property
from importlib.metadata import version as installed_version
from pathlib import Path

from dagster_dbt import DbtCliResource, DbtProject
from packaging import version

from ingestion import config

DBT_PROJECT_DIR = config.dbt_project_dir()
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
    """Environment for dbt: the warehouse path resolved to an absolute path, and the registry every
    source reads (stg_registry__frameworks reads the same file)."""
    return {**os.environ, "RLTRACK_WAREHOUSE": str(config.warehouse_path()),
            "RLTRACK_FRAMEWORKS_CSV": str(config.frameworks_csv())}


def project_files(project_dir: Path = DBT_PROJECT_DIR) -> Iterator[Path]:
    """Every file of the dbt project; dbt's own output folders are not walked at all."""
    for top in project_dir.iterdir():
        if top.name in ("target", "logs", "dbt_packages"):
            continue
        for path in (top.rglob("*") if top.is_dir() else [top]):
            if path.is_file():
                yield path


def manifest_is_stale(project_dir: Path = DBT_PROJECT_DIR) -> bool:
    """True when target/manifest.json is missing or older than a file of the project."""
    manifest = project_dir / "target" / "manifest.json"
    if not manifest.exists():
        return True
    built = manifest.stat().st_mtime
    return any(path.stat().st_mtime > built for path in project_files(project_dir))


def parse_manifest(force: bool = False) -> bool:
    """Run `dbt parse` so Dagster can build dbt assets from target/manifest.json (~4 s, so only
    when a project file changed since the last parse, or when forced). True if this call parsed.

    The webserver, the daemon and each run load the definitions, possibly at once: one process
    parses at a time (a file lock; the others then find the manifest current), into a private
    target folder whose manifest is moved into place whole, so no reader sees half a file."""
    if not (force or manifest_is_stale()):
        return False
    target = MANIFEST_PATH.parent
    target.mkdir(parents=True, exist_ok=True)
    with (target / ".parse.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (force or manifest_is_stale()):
            return False
        with tempfile.TemporaryDirectory(dir=target, prefix=".parse-") as private:
            cache = target / "partial_parse.msgpack"  # dbt's parse cache: a re-parse takes ~1 s less
            if cache.exists():
                shutil.copy(cache, private)
            subprocess.run(
                [dbt_executable(), "parse", "--quiet", "--project-dir", str(DBT_PROJECT_DIR),
                 "--profiles-dir", str(DBT_PROJECT_DIR), "--target-path", private],
                check=True, env=dbt_env(), cwd=DBT_PROJECT_DIR,
            )
            os.replace(Path(private) / "partial_parse.msgpack", cache)
            os.replace(Path(private) / "manifest.json", MANIFEST_PATH)
    return True


DBT_ASSETS_NAME = "dbt_warehouse"  # the dbt multi-asset's op; dagster-dbt names its target folders after it
KEEP_BUILD_TARGETS = 5


def prune_build_targets(keep: int = KEEP_BUILD_TARGETS, target: Path | None = None) -> list[Path]:
    """Delete all but the newest `keep` per-invocation target folders dagster-dbt leaves in
    target/ (`<op>-<run id>-<uuid>`: compiled SQL, run_results, logs; ~10 MB each, one per refresh,
    3.6 GB a year of daily refreshes otherwise). Returns the folders deleted."""
    target = target or MANIFEST_PATH.parent
    runs = sorted((p for p in target.glob(f"{DBT_ASSETS_NAME}-*") if p.is_dir()), key=lambda p: p.stat().st_mtime)
    old = runs[:-keep] if keep > 0 else runs
    for folder in old:
        shutil.rmtree(folder, ignore_errors=True)
    return old


dbt_project = DbtProject(project_dir=DBT_PROJECT_DIR, profiles_dir=DBT_PROJECT_DIR)


class RltrackDbtCliResource(DbtCliResource):
    """dagster-dbt's resource without two costs of every `dbt build` that we do not use (~2 s each
    refresh, measured): a `dbt --version` subprocess (our dbt is the venv's dbt-core) and a dbt
    adapter opened inside Dagster (only for dagster-dbt's `fetch_row_counts`/column metadata;
    transform.py reads row counts itself, because the dbt process holds DuckDB's writer lock)."""

    @cached_property
    def _cli_version(self) -> version.Version:
        return version.parse(installed_version("dbt-core"))

    def _initialize_dbt_core_adapter(self, args):
        return None


def dbt_resource() -> DbtCliResource:
    return RltrackDbtCliResource(project_dir=dbt_project, dbt_executable=dbt_executable())
