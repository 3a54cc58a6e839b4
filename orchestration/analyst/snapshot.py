"""What a published snapshot is, in words fit for a public page: when it was built, the end of
the period it observes, and which sources it lacks (stale, or with items not read). Never a path."""

from __future__ import annotations

from dataclasses import dataclass

import duckdb

from orchestration.analyst.quarantine import table_exists
from orchestration.build_inputs import BUILD_TABLE
from orchestration.source_health import banner_lines, duckdb_runner, source_status


@dataclass(frozen=True)
class Snapshot:
    built_at: str  # UTC, minutes
    observation_end: str  # the last day any framework history reaches
    warnings: list[str]  # one sentence per stale or incomplete source

    @property
    def name(self) -> str:
        return f"the snapshot built {self.built_at} (observation end {self.observation_end})"


def describe(con: duckdb.DuckDBPyConnection) -> Snapshot:
    built = (con.execute(f"select strftime(built_at at time zone 'UTC', '%Y-%m-%d %H:%M UTC') from {BUILD_TABLE}")
             .fetchone() if table_exists(con, BUILD_TABLE) else None)
    end = (con.execute("select max(cast(last_commit_at as date)) from marts.dim_frameworks").fetchone()
           if table_exists(con, "marts.dim_frameworks") else None)
    warnings = banner_lines(source_status(duckdb_runner(con), []))
    return Snapshot(built[0] if built and built[0] else "at an unrecorded time",
                    str(end[0]) if end and end[0] else "unknown", warnings)

