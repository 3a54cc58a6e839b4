"""Each source's load outcome, kept in the warehouse so the published snapshot carries it.

Every load step records one row in `LOADS_TABLE` (complete or not, rows, the error that stopped
it) and merges what it could not read (`ingestion.gaps.LoadGaps`) into `FAILURES_TABLE`: an item
failing again keeps its first failure and gets a new last one; an open item the load did not note
again is resolved. `source_status` turns both into what `rltrack status`, the headline, the report
and the site say: per source the last load, the last complete load, rows, open failures and
freshness against RLTRACK_FRESHNESS_HOURS. The times come from `config.now()` (RLTRACK_NOW replays a
day). `STATUS_FILE` repeats the latest status next to the published snapshot for `rltrack status`:
a refresh that finds nothing new does not publish again, but its loads still count.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from ingestion import config

SCHEMA = "rltrack_meta"
LOADS_TABLE = f"{SCHEMA}.source_loads"
FAILURES_TABLE = f"{SCHEMA}.load_failures"
STATUS_FILE = "source_status.json"

# run(sql, params) -> rows: a DuckDB connection's or dlt sql client's way of running SQL
Run = Callable[[str, Sequence[Any]], list[tuple]]

DDL = (
    f"create schema if not exists {SCHEMA}",
    f"""create table if not exists {LOADS_TABLE} (source varchar, run_id varchar, started_at timestamptz,
        finished_at timestamptz, complete boolean, rows bigint, new_rows bigint, error varchar,
        failed_items bigint)""",
    f"""create table if not exists {FAILURES_TABLE} (source varchar, item varchar, reason varchar,
        first_failed_at timestamptz, last_failed_at timestamptz, failures bigint, resolved_at timestamptz)""",
)


def duckdb_runner(con) -> Run:
    return lambda sql, params=(): con.execute(sql, list(params)).fetchall()


def dlt_runner(client) -> Run:
    return lambda sql, params=(): client.execute_sql(sql, *params) or []


def record_start(run: Run, source: str, run_id: str, started_at: datetime) -> None:
    """A load begins: its row says so until `record_load` completes it (a killed load stays unfinished)."""
    for statement in DDL:
        run(statement, ())
    run(f"insert into {LOADS_TABLE} values (?, ?, ?, null, null, null, null, null, null)", (source, run_id, started_at))


def record_load(run: Run, source: str, run_id: str, started_at: datetime, gaps: dict[str, str],
                error: str | None, rows: int, new_rows: int, resolve: bool = True) -> None:
    """One load's outcome. `resolve=False` (a load of some frameworks only) leaves other open items open."""
    now = config.now()
    for statement in DDL:
        run(statement, ())
    for item, reason in gaps.items():
        updated = run(f"update {FAILURES_TABLE} set reason = ?, last_failed_at = ?, failures = failures + 1 "
                      "where source = ? and item = ? and resolved_at is null returning 1",
                      (reason, now, source, item))
        if not updated:
            run(f"insert into {FAILURES_TABLE} values (?, ?, ?, ?, ?, 1, null)", (source, item, reason, now, now))
    if resolve:
        run(f"update {FAILURES_TABLE} set resolved_at = ? where source = ? and resolved_at is null "
            "and not list_contains(?::varchar[], item)", (now, source, list(gaps)))
    run(f"delete from {LOADS_TABLE} where source = ? and run_id = ? and finished_at is null", (source, run_id))
    run(f"insert into {LOADS_TABLE} values (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (source, run_id, started_at, now, error is None and not gaps, rows, new_rows, error, len(gaps)))


@dataclass(frozen=True)
class SourceStatus:
    source: str
    last_load_at: str | None
    last_complete_at: str | None
    last_load_complete: bool
    rows: int
    open_failures: list[dict]  # item, reason, first_failed_at, last_failed_at, failures
    stale: bool  # no complete load within the freshness bound
    error: str | None

    @property
    def healthy(self) -> bool:
        return self.last_load_complete and not self.open_failures and not self.stale


def _iso(value: datetime | None) -> str | None:
    return value.isoformat(timespec="seconds") if value else None


def source_status(run: Run, sources: Sequence[str], now: datetime | None = None,
                  freshness_hours: float | None = None) -> list[SourceStatus]:
    """Per source (in `sources`' order, plus any other that recorded loads)."""
    if not run("select 1 from information_schema.tables where table_schema = ? and table_name = ?",
               (SCHEMA, LOADS_TABLE.split(".")[1])):
        loads, failures = [], []
    else:
        # the latest load: by when it finished, or started if it never did (killed), which then counts as
        # incomplete (arg_max_null: its null `complete` must not be skipped); at the same time (a
        # replayed clock) a finished load is later than one that never finished
        latest = "epoch_us(coalesce(finished_at, started_at)) * 2 + (finished_at is not null)::int"
        loads = run(f"""select source, max(coalesce(finished_at, started_at)),
                            max(finished_at) filter (where complete),
                            coalesce(arg_max_null(complete, {latest}), false),
                            coalesce(arg_max(rows, {latest}), arg_max(rows, finished_at)),
                            coalesce(arg_max_null(error, {latest}),
                                     case when arg_max_null(finished_at, {latest}) is null
                                     then 'the load started at ' || max(started_at) ||
                                          ' did not finish (killed or still running)' end)
                        from {LOADS_TABLE} group by source""", ())
        failures = run(f"""select source, item, reason, first_failed_at, last_failed_at, failures
                           from {FAILURES_TABLE} where resolved_at is null order by source, first_failed_at, item""", ())
    now = now or config.now()
    bound = timedelta(hours=config.freshness_hours() if freshness_hours is None else freshness_hours)
    by_source = {row[0]: row for row in loads}
    out = []
    for source in [*sources, *sorted(set(by_source) - set(sources))]:
        _, last, complete_at, complete, rows, error = by_source.get(source, (source, None, None, False, 0, None))
        open_items = [{"item": i, "reason": r, "first_failed_at": _iso(f), "last_failed_at": _iso(la), "failures": n}
                      for s, i, r, f, la, n in failures if s == source]
        out.append(SourceStatus(source, _iso(last), _iso(complete_at), bool(complete), int(rows or 0), open_items,
                                complete_at is None or now - complete_at > bound, error))
    return out


def status_fingerprint(run: Run) -> str:
    """What of the status a published snapshot must show: open failures and whether each source's
    latest load was complete (not the times, which change every run)."""
    return json.dumps([(s.source, s.last_load_complete, [f["item"] for f in s.open_failures])
                       for s in source_status(run, [])], sort_keys=True)


def write_status_file(statuses: list[SourceStatus], path: Path, run_id: str, now: datetime | None = None) -> Path:
    """The latest status as JSON, swapped in atomically."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_text(json.dumps({"run_id": run_id, "written_at": _iso(now or config.now()),
                               "freshness_hours": config.freshness_hours(),
                               "sources": [asdict(s) for s in statuses]}, indent=2))
    os.replace(tmp, path)
    return path


def read_status_file(path: Path) -> dict | None:
    try:
        return json.loads(path.read_text())
    except (FileNotFoundError, json.JSONDecodeError):
        return None


def banner_lines(statuses: list[SourceStatus]) -> list[str]:
    """One plain sentence per source that is stale or has open failures (empty when all is well)."""
    lines = []
    for s in statuses:
        if s.healthy:
            continue
        why = []
        if s.stale:
            why.append(f"stale: last complete load {s.last_complete_at or 'never'}")
        if s.open_failures:
            first = s.open_failures[0]
            more = f" and {len(s.open_failures) - 1} more" if len(s.open_failures) > 1 else ""
            why.append(f"not read since {first['first_failed_at']}: {first['item']} ({first['reason'][:120]}){more}")
        elif not s.last_load_complete and s.error:
            why.append(f"last load failed: {s.error[:160]}")
        lines.append(f"{s.source}: " + "; ".join(why))
    return lines
