"""Shared fixtures: one full sample refresh per test session, in a temporary data folder."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest

REPO_ROOT = Path(__file__).resolve().parents[1]
RLTRACK = [sys.executable, "-m", "orchestration.cli"]


def run_refresh(data_dir: Path, *extra: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith("RLTRACK_")}
    env["DAGSTER_HOME"] = str(data_dir / "dagster_home")
    return subprocess.run(
        [*RLTRACK, "refresh", "--sample", "--data-dir", str(data_dir), *extra],
        cwd=REPO_ROOT, env=env, capture_output=True, text=True, timeout=900,
    )


@pytest.fixture(scope="session")
def sample_refresh(tmp_path_factory) -> tuple[Path, subprocess.CompletedProcess]:
    data_dir = tmp_path_factory.mktemp("sample_data")
    result = run_refresh(data_dir)
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-4000:]
    return data_dir, result


@pytest.fixture()
def published(sample_refresh):
    data_dir, _ = sample_refresh
    con = duckdb.connect(str(data_dir / "published" / "warehouse.duckdb"), read_only=True)
    yield con
    con.close()
