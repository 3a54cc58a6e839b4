"""The Dagster instance folder ($DAGSTER_HOME) with rltrack's dagster.yaml (run queue and pool limits),
and how its SQLite run history is written.

`python -m orchestration.instance [DIR]` prepares DIR (default: <data dir>/dagster_home) and prints it.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import sys
from pathlib import Path

INSTANCE_YAML = Path(__file__).with_name("dagster.yaml")


def quick_run_history() -> None:
    """Let this process write Dagster's SQLite run history (under $DAGSTER_HOME) without an fsync per
    event: `PRAGMA synchronous=OFF` on each connection SQLAlchemy opens to a file there.

    Dagster's SQLite storage opens a connection per event and commits it (a run of the `refresh` job
    stores ~700 events: every dbt model and test is an asset or an asset check), and each commit and
    close waited for the disk (~40 ms here: about half of a no-change refresh). What this gives up:
    after an operating-system crash or power loss mid-run, the run's history may need
    `dagster_home/history` removed; a crash of the process itself loses nothing. The warehouse is
    DuckDB and is not touched by this."""
    from sqlalchemy import event
    from sqlalchemy.engine import Engine

    if getattr(quick_run_history, "installed", False):
        return

    @event.listens_for(Engine, "connect")
    def _no_fsync(dbapi_connection, _record) -> None:
        home = os.environ.get("DAGSTER_HOME")
        if not home or not isinstance(dbapi_connection, sqlite3.Connection):
            return
        files = [row[2] for row in dbapi_connection.execute("pragma database_list").fetchall()]
        if any(f and Path(f).resolve().is_relative_to(Path(home).resolve()) for f in files):
            dbapi_connection.execute("pragma synchronous=OFF")

    quick_run_history.installed = True  # type: ignore[attr-defined]


def prepare_dagster_home(home: Path) -> Path:
    """Create `home` and put rltrack's dagster.yaml in it unless one is already there."""
    home.mkdir(parents=True, exist_ok=True)
    target = home / "dagster.yaml"
    if not target.exists():
        shutil.copyfile(INSTANCE_YAML, target)
    return home


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv:
        home = Path(argv[0])
    else:
        from ingestion import config

        home = config.data_dir() / "dagster_home"
    print(prepare_dagster_home(home.resolve()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
