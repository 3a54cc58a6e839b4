"""Paths, study window and the framework registry, all from the environment."""

from __future__ import annotations

import csv
import os
from dataclasses import dataclass
from datetime import date, datetime, timezone
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
FRAMEWORKS_SEED = REPO_ROOT / "dbt_project" / "seeds" / "frameworks.csv"


def data_dir() -> Path:
    return Path(os.environ.get("RLTRACK_DATA_DIR", REPO_ROOT / "data")).resolve()


def warehouse_path() -> Path:
    """The DuckDB file refreshes write to (analysts read the published copy, see `warehouse.py`)."""
    return Path(os.environ.get("RLTRACK_WAREHOUSE", data_dir() / "warehouse.duckdb")).resolve()


def now() -> datetime:
    """The refresh's clock: `RLTRACK_NOW` (ISO timestamp; replaying a past refresh, benchmarks) or now."""
    fixed = os.environ.get("RLTRACK_NOW", "").strip()
    if not fixed:
        return datetime.now(timezone.utc)
    try:
        value = datetime.fromisoformat(fixed)
    except ValueError:
        raise ValueError(f"RLTRACK_NOW must be an ISO timestamp, got {fixed!r}") from None
    return value if value.tzinfo else value.replace(tzinfo=timezone.utc)


def freshness_hours() -> float:
    """How old a source's last complete load may be before it counts as stale (RLTRACK_FRESHNESS_HOURS)."""
    return float(os.environ.get("RLTRACK_FRESHNESS_HOURS", "48"))


def dbt_project_dir() -> Path:
    """The dbt project a refresh builds: `RLTRACK_DBT_PROJECT_DIR` (a copy with other seeds) or ours."""
    return Path(os.environ.get("RLTRACK_DBT_PROJECT_DIR") or REPO_ROOT / "dbt_project").resolve()


def study_window() -> tuple[date, date]:
    start = os.environ.get("RLTRACK_WINDOW_START", "2025-01-01")
    end = os.environ.get("RLTRACK_WINDOW_END", "2026-06-30")
    return date.fromisoformat(start), date.fromisoformat(end)


@dataclass(frozen=True)
class Framework:
    framework_id: str
    display_name: str
    repo: str  # current GitHub owner/name
    former_repos: tuple[str, ...]
    default_branch: str
    maintainer_orgs: tuple[str, ...]
    maintainer_domains: tuple[str, ...]
    docs_paths: tuple[str, ...]
    in_sample: bool

    @property
    def all_repos(self) -> tuple[str, ...]:
        return (self.repo, *self.former_repos)


def split_list(value: str) -> tuple[str, ...]:
    return tuple(v.strip() for v in value.split(";") if v.strip())


def user_frameworks_csv() -> Path:
    """The registry the user extends (`rltrack frameworks add`), kept with the data."""
    return data_dir() / "frameworks.csv"


def frameworks_csv() -> Path:
    """The registry file: `RLTRACK_FRAMEWORKS_CSV` (same columns; synthetic worlds), else the
    user's registry in the data dir once `rltrack frameworks add` wrote one, else the default
    (the dbt seed: the nine frameworks)."""
    override = os.environ.get("RLTRACK_FRAMEWORKS_CSV")
    if override:
        return Path(override).resolve()
    user = user_frameworks_csv()
    return user if user.exists() else FRAMEWORKS_SEED


def frameworks(csv_path: Path | None = None) -> list[Framework]:
    """The registry (one CSV line per framework): `csv_path`, or `frameworks_csv()`."""
    with Path(csv_path or frameworks_csv()).open(newline="", encoding="utf-8") as fh:
        return [
            Framework(
                framework_id=r["framework_id"],
                display_name=r["display_name"],
                repo=r["repo"],
                former_repos=split_list(r["former_repos"]),
                default_branch=r["default_branch"] or "main",
                maintainer_orgs=split_list(r["maintainer_orgs"]),
                maintainer_domains=split_list(r["maintainer_domains"]),
                docs_paths=split_list(r["docs_paths"]),
                in_sample=(r.get("in_sample") or "").strip().lower() == "true",
            )
            for r in csv.DictReader(fh)
        ]
